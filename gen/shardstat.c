/* shardstat: what a cell's builds left of its objects (see shardstat.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "layout.h"
#include "manifest.h"
#include "shardstat.h"
#include "status.h"

static int
bydir(const void *a, const void *b)
{
	const struct shardobjs *x = a, *y = b;
	char *e1, *e2;
	long k1 = strtol(x->dir, &e1, 10), k2 = strtol(y->dir, &e2, 10);

	/* parts in number order, then the rest by name */
	if (!*e1 && !*e2 && e1 != x->dir && e2 != y->dir)
		return (k1 > k2) - (k1 < k2);
	if (!*e1 != !*e2)
		return *e1 ? 1 : -1;
	return strcmp(x->dir, y->dir);
}

/* path's objects file into o; -1 when it cannot be read */
static int
objsparse(const char *path, struct shardobjs *o)
{
	char *buf = readfilemax(path, NULL, 4096), *next, *line;

	if (!buf)
		return -1;
	o->stopped = 0;
	o->part = o->parts = 0;
	o->objects = o->done = o->compiled = o->reused = o->family = -1;
	next = buf;
	while ((line = nextline(&next))) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq++ = 0;
		if (!strcmp(line, "state"))
			o->stopped = !strcmp(eq, "stopped");
		else if (!strcmp(line, "part") && sscanf(eq, "%ld/%ld", &o->part, &o->parts) != 2)
			o->part = o->parts = 0;
		else if (!strcmp(line, "objects"))
			o->objects = strtoll(eq, NULL, 10);
		else if (!strcmp(line, "done"))
			o->done = strtoll(eq, NULL, 10);
		else if (!strcmp(line, "compiled"))
			o->compiled = strtoll(eq, NULL, 10);
		else if (!strcmp(line, "reused"))
			o->reused = strtoll(eq, NULL, 10);
		else if (!strcmp(line, "family"))
			o->family = strtoll(eq, NULL, 10);
	}
	free(buf);
	return 0;
}

size_t
shardobjsread(const char *builddir, const char *cell, struct shardobjs *o, size_t max)
{
	struct sb dir = SB_INIT, path = SB_INIT;
	struct dirent *e;
	size_t n = 0;
	DIR *d;

	bdpath(&dir, builddir, BD_SHARDDIR, cell);
	if (!(d = opendir(dir.buf))) {
		sbfree(&dir);
		return 0;
	}
	while (n < max && (e = readdir(d))) {
		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(o->dir))
			continue;
		sbreset(&path);
		sbaddf(&path, "%s/%s/objects", dir.buf, e->d_name);
		if (objsparse(path.buf, &o[n]) < 0)
			continue;
		strcpy(o[n].dir, e->d_name);
		n++;
	}
	closedir(d);
	qsort(o, n, sizeof(*o), bydir);
	sbfree(&dir);
	sbfree(&path);
	return n;
}

/* a step log's last "wheelgen: objects: C compiled" count (-1: none), its largest ninja
   "[i/N]" N and its compile commands (" -c " and "-o ...o"), for a log that has no count */
static void
logcounts(const char *path, long long *compiled, long long *ninjan, long long *compiles)
{
	char *buf = readfilemax(path, NULL, (size_t)1 << 30), *next, *line;

	*compiled = *ninjan = -1;
	*compiles = 0;
	if (!buf)
		return;
	next = buf;
	while ((line = nextline(&next))) {
		long long c, i, t;
		char close;

		if (sscanf(line, "wheelgen: objects: %lld compiled", &c) == 1)
			*compiled = c;
		else if (sscanf(line, "[%lld/%lld%c", &i, &t, &close) == 3 && close == ']' && t > *ninjan)
			*ninjan = t;
		else if (strstr(line, " -c ") && strstr(line, " -o ") && strstr(line, ".o"))
			(*compiles)++;
	}
	free(buf);
}

int
shardmeasure(const char *builddir, const char *cell, struct shardmeasure *m)
{
	struct sb path = SB_INIT, why = SB_INIT;
	struct wheelinfo w;
	struct steplog s;
	long long compiled, ninjan, compiles;
	long k;

	memset(m, 0, sizeof(*m));
	m->objects = -1;
	bdpath(&path, builddir, BD_MANIFEST, cell);
	if (manifestparse(path.buf, &w, &why) == 0) {
		if ((m->objects = wheelobjects(&w)) >= 0)
			m->objectsfrom = "its manifest's objects_compiled + objects_reused + objects_family";
		manifestfree(&w);
	}
	/* the whole build: what it compiled (its count, else every object) and how long it took */
	sbreset(&path);
	bdpath(&path, builddir, BD_BUILDLOG, cell);
	logcounts(path.buf, &compiled, &ninjan, &compiles);
	if (m->objects < 0 && ninjan > 0)
		m->objects = ninjan, m->objectsfrom = "the largest [i/N] of ninja in its build log";
	else if (m->objects < 0 && compiles > 0)
		m->objects = compiles, m->objectsfrom = "the compile commands of its build log";
	if (steplogread(path.buf, &s) == 0) {
		if (s.end && s.rc == 0 && (compiled >= 0 || m->objects > 0)) {
			m->pts[m->npts].compiled = compiled >= 0 ? compiled : m->objects;
			m->pts[m->npts++].secs = s.secs;
		}
		steplogfree(&s);
	}
	/* each part's log: what it compiled, and how long it took */
	for (k = 1; k <= SHARDS_MAX; k++) {
		char kind[32];

		snprintf(kind, sizeof(kind), "shard%ld", k);
		sbreset(&path);
		bdlog(&path, builddir, cell, kind);
		if (steplogread(path.buf, &s) < 0)
			continue;
		logcounts(path.buf, &compiled, &ninjan, &compiles);
		if (s.end && s.rc == 0 && compiled >= 0) {
			m->pts[m->npts].compiled = compiled;
			m->pts[m->npts++].secs = s.secs;
		}
		steplogfree(&s);
	}
	sbfree(&path);
	sbfree(&why);
	if (!m->npts)
	{
		sbreset(&path);
		bdpath(&path, builddir, BD_LOGDIR, NULL);
		error("'%s' has no finished build or part in %s (build it first: ninja wheel/%s)", cell, path.buf, cell);
		sbfree(&path);
		return -1;
	}
	return 0;
}
