/*
 * wheelgen status: the steps of the build directory's ninja runs, from their logs (the build
 * and test steps write "wheelgen-step: start|heartbeat|end" lines, step-lib.sh) and the owner
 * that `wheelgen claim` recorded: works from a second terminal, and in CI after the fact.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "claim.h"
#include "layout.h"
#include "status.h"
#include "util.h"

#define TAILBYTES 65536

/* the first line and up to TAILBYTES of the end of path; NULL if it cannot be read */
static char *
headtail(const char *path, char *first, size_t nfirst)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long size;
	size_t n;

	if (!f)
		return NULL;
	if (!fgets(first, (int)nfirst, f))
		first[0] = '\0';
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, size > TAILBYTES ? size - TAILBYTES : 0, SEEK_SET);
	buf = xmalloc(TAILBYTES + 1);
	n = fread(buf, 1, TAILBYTES, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

int
steplogread(const char *path, struct steplog *s)
{
	char first[512], kind[32], cell[256], *tail, *line, *next;
	long long t;

	memset(s, 0, sizeof(*s));
	if (!(tail = headtail(path, first, sizeof(first))))
		return -1;
	if (sscanf(first, "wheelgen-step: start %lld %31s %255s", &t, kind, cell) != 3) {
		free(tail);
		return -1;
	}
	s->start = t;
	s->kind = xstrdup(kind);
	s->cell = xstrdup(cell);
	next = tail;
	while ((line = nextline(&next))) {
		long long e, secs;
		int rc;

		if (sscanf(line, "wheelgen-step: end %lld %d %lld", &e, &rc, &secs) == 3) {
			s->end = e;
			s->rc = rc;
			s->secs = secs;
		} else if (*line && strncmp(line, "wheelgen-step: ", 15)) {
			free(s->last);
			s->last = xstrdup(line);
		}
	}
	free(tail);
	return 0;
}

void
steplogfree(struct steplog *s)
{
	free(s->cell);
	free(s->kind);
	free(s->last);
	memset(s, 0, sizeof(*s));
}

static int
cmpstep(const void *a, const void *b)
{
	const struct steplog *x = a, *y = b;
	int xr = !x->end, yr = !y->end;

	if (xr != yr)
		return yr - xr;         /* unfinished first */
	if (x->start != y->start)
		return x->start < y->start ? 1 : -1; /* then the newest */
	return strcmp(x->cell, y->cell);
}

void
stepduration(char *buf, size_t n, long long secs)
{
	if (secs < 0)
		secs = 0;
	if (secs >= 3600)
		snprintf(buf, n, "%lldh%02lldm", secs / 3600, secs / 60 % 60);
	else if (secs >= 60)
		snprintf(buf, n, "%lldm%02llds", secs / 60, secs % 60);
	else
		snprintf(buf, n, "%llds", secs);
}

/* a log line for a terminal: control characters as '?', at most width bytes */
static void
showline(struct sb *s, const char *line, size_t width)
{
	size_t i;

	for (i = 0; line && line[i] && i < width; i++)
		sbaddc(s, (unsigned char)line[i] < 0x20 || line[i] == 0x7f ? '?' : line[i]);
}

int
buildstatus(const char *builddir, int all)
{
	struct sb path = SB_INIT, out = SB_INIT;
	struct steplog *v = NULL;
	size_t n = 0, cap = 0, i, shown = 0, w = 4;
	long owner = 0;
	int alive;
	DIR *d;
	struct dirent *e;

	alive = claimowner(builddir, &owner);
	bdpath(&path, builddir, BD_LOGDIR, NULL);
	if ((d = opendir(path.buf)) != NULL) {
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			struct sb f = SB_INIT;

			if (len < 5 || strcmp(e->d_name + len - 4, ".log"))
				continue;
			GROW(v, cap, n + 1);
			sbaddf(&f, "%s/%s", path.buf, e->d_name);
			if (steplogread(f.buf, &v[n]) == 0)
				n++;
			sbfree(&f);
		}
		closedir(d);
	} else if (errno != ENOENT) {
		error("cannot read '%s': %s", path.buf, strerror(errno));
	}
	sortlist(v, n, sizeof(*v), cmpstep);
	if (alive)
		sbaddf(&out, "ninja: running in %s (pid %ld)\n", builddir, owner);
	else
		sbaddf(&out, "ninja: none running in %s\n", builddir);
	for (i = 0; i < n; i++)
		w = strlen(v[i].cell) > w ? strlen(v[i].cell) : w;
	if (n)
		sbaddf(&out, "%-5s  %-*s  %-8s  %7s  %s\n", "STEP", (int)w, "CELL", "STATE", "TIME", "LAST LINE OF THE LOG");
	for (i = 0; i < n; i++) {
		const struct steplog *s = &v[i];
		const char *state = s->end ? (s->rc == 0 ? "ok" : "failed") : alive ? "running" : "stopped";
		char t[32];

		if (!all && s->end && shown >= 20)
			continue;
		stepduration(t, sizeof(t), s->end ? s->secs : (long long)time(NULL) - s->start);
		sbaddf(&out, "%-5s  %-*s  %-8s  %7s  ", s->kind, (int)w, s->cell, state, t);
		showline(&out, s->last, 100);
		sbaddc(&out, '\n');
		shown++;
	}
	if (shown < n)
		sbaddf(&out, "(%zu older finished steps: --all lists them)\n", n - shown);
	if (!n)
		sbadd(&out, "no step has run here yet\n");
	fwrite(out.buf, 1, out.len, stdout);
	for (i = 0; i < n; i++)
		steplogfree(&v[i]);
	free(v);
	sbfree(&path);
	sbfree(&out);
	return 0;
}
