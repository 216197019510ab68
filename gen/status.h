/* status: the build and test steps of a build directory, read from their logs (the steps write
   "wheelgen-step: start|heartbeat|end" lines, templates/step-lib.sh): this module is their one
   reader (wheelgen status, and wheelgen summary's per-cell times). */
#ifndef WG_STATUS_H
#define WG_STATUS_H

#include <stddef.h>

/* one step, as its log records it */
struct steplog {
	char *cell, *kind;    /* the cell and the step's kind (build, test), from the start line */
	char *last;           /* the last line the step printed that is not a wheelgen-step line, or NULL */
	long long start;      /* when it started (seconds since the epoch) */
	long long end;        /* when it ended; 0: no end line (running, or stopped) */
	int rc;               /* its exit status (with an end line) */
	long long secs;       /* how long it took (with an end line) */
};

/* read the step log at path into s: 0, or -1 when it cannot be read or is not a step log
   (its first line is no start line); free it with steplogfree */
int steplogread(const char *path, struct steplog *s);
void steplogfree(struct steplog *s);
/* a duration for people: "42s", "3m07s", "2h05m" */
void stepduration(char *buf, size_t n, long long secs);

/*
 * Print the steps of builddir's ninja runs: whether a ninja runs there (its claim), and for
 * each build and test step its cell, state (running, ok, failed, stopped), time and the last
 * line of its log; running steps first, then the 20 newest (all with all).
 */
int buildstatus(const char *builddir, int all);

#endif
