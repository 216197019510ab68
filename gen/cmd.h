/*
 * cmd: what the commands share. A command is a row of a table (struct command): its name,
 * what runs it, its --help text, its one line for `wheelgen --help` and the long options it
 * takes; main.c holds the table and dispatches. Every option is parsed here, once, by one
 * table of options (the values checked where they are read); an option the command does not
 * name is refused. The config is loaded, checked and expanded one way (cmdload), and a
 * profile looked up one way (cmdprofile).
 */
#ifndef WG_CMD_H
#define WG_CMD_H

#include "config.h"
#include "key.h"
#include "matrix.h"
#include "matrixout.h"
#include "store.h"
#include "util.h"

/* a subcommand: its name, what runs it, its --help text and what it takes */
struct command {
	const char *name;
	int (*fn)(const struct command *, int, char **);
	const char *usage;            /* its --help text */
	const char *desc;             /* its line in `wheelgen --help` */
	const char *const *opts;      /* the long options it takes (NULL-terminated; --help always) */
	int flags;                    /* CMD_GIT, CMD_ARGS, CMD_HOST */
};
enum {
	CMD_GIT = 1,   /* needs libgit2 set up */
	CMD_ARGS = 2,  /* takes operands */
	CMD_HOST = 4,  /* reads the host file: --host, else BUILDDIR/host.txt when there is one */
};

/* the commands (each beside the modules it runs: cmdcells.c, cmdupstream.c, cmdstore.c, cmdrun.c) */
extern const struct command cmd_check, cmd_matrix, cmd_gen, cmd_key;
extern const struct command cmd_lock, cmd_fetch, cmd_checkout, cmd_outdated, cmd_torchtable;
extern const struct command cmd_index, cmd_restore, cmd_store;
extern const struct command cmd_status, cmd_claim, cmd_summary, cmd_shards;

/* the options given (each command reads those it takes) */
struct opts {
	const char *config, *builddir, *host, *profile, *manifests, *url, *spec, *templates;
	enum matrixformat format;
	int verbose, update, configset, pre, fromlist, missing, test, pull, unused, del, explain;
	char **args;   /* what remains after the options */
	int nargs;
	long shard, nshards;
	int fd;        /* claim --fd */
	int all;       /* status --all */
	int bybuild;   /* matrix --by-build */
	long split;    /* matrix --split N */
	int canary;    /* matrix --canary */
	int repair;    /* store verify --repair */
	long grace;    /* store --unused --grace MINUTES: a younger temporary may be a publish's under way */
	int count;     /* matrix --count */
	const char *write;                  /* torch-table, outdated --write FILE */
	const char *index, *cudaindex, *since;  /* torch-table */
	int drop, follow, noplatforms, range;   /* torch-table */
	long timeout;                       /* torch-table --timeout */
	const char *matrixfile, *artifact;   /* summary --matrix, --artifact */
	long part;                          /* summary build --part K */
	double targetmin, setupmin;         /* shards suggest --target-minutes, --setup-minutes */
	int setupset;                       /* shards suggest: --setup-minutes was given */
	int nofamilies, estimate;           /* matrix --no-families, --estimate */
	long runners;                       /* matrix --runners R (0: not given) */
	const char *times;                  /* matrix --times FILE */
	double overheadmin;                 /* matrix --job-overhead MINUTES */
	int overheadset;                    /* matrix: --job-overhead was given */
};

/* the options of argv (argv[0] is the command's name) into o: --help prints cmd's usage and
   exits 0; an option cmd does not take, a bad value or an operand it takes none of exits 2 */
void parseopts(int argc, char **argv, struct opts *o, const struct command *cmd);
/* the error, then the usage text; exit status 2 */
WG_NORETURN void usagefail(const char *text, const char *fmt, ...) WG_PRINTF(2, 3);
/* load, check and expand o's config; prints diagnostics; returns NULL on any error */
struct config *cmdload(struct arena *a, const struct opts *o, struct host *h, struct matrix *m);
/* the profile named name of c, or NULL with a message listing c's profiles */
const struct profile *cmdprofile(const struct config *c, const char *name, const char *config);
/* the cell named id in m, or NULL with a message */
const struct cell *cmdcell(const struct matrix *m, const char *id, const char *config);

/* what key, restore and store work on: the loaded config, its cells, keys and store */
/* what key, restore and store work on: the loaded config, its cells, keys and store */
struct keyed {
	struct arena a;
	struct opts o;
	struct host h;
	struct matrix m;
	struct config *c;
	struct keyctx k;
	struct store st;
};

/* load x->o's config and set up keys (looked up first where from says) and the store; -1 on errors */
int loadkeyed(struct keyed *x, enum keysource from);
void unloadkeyed(struct keyed *x);

#endif
