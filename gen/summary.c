/*
 * wheelgen summary: the Markdown each CI job appends to $GITHUB_STEP_SUMMARY (see summary.h).
 * Everything here is read after the fact from files the steps left, so that a job whose step
 * failed still tells what happened (the workflow runs it with if: always()).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "esc.h"
#include "files.h"
#include "json.h"
#include "layout.h"
#include "leftout.h"
#include "manifest.h"
#include "status.h"
#include "shardstat.h"
#include "summary.h"

/* the most rows of a list the summary shows (a plan of a thousand cells stays readable) */
#define MAXROWS 100
/* the longest log line the summary reads (the rest of a longer one is skipped) */
#define MAXLINE 4096

/* ---- the plan ---------------------------------------------------------------------------- */

/* one row of the plan's matrix: one wheel to build */
struct planrow {
	int part;             /* the K of matrixK, partsK or finalsK (1 without --split): the job buildK,
	                         partsK or finalK */
	char job;             /* 'b': a build job, 'p': a part job, 'f': a final job (sharded wheels) */
	char *shard;          /* a part row's part ("K"), or NULL */
	char *parts;          /* a sharded wheel's parts ("N"), or NULL */
	char *partsof;        /* a final row's part cell (its own, or its family's first), or NULL */
	char *build;          /* the cell whose build makes the wheel */
	char *cells;          /* the cells that test it, space-separated */
	char *runner;         /* the runner label, or NULL (ubuntu-latest) */
	int seen;             /* (counting families: a part cell's final row counted) */
};

static void
planrowfree(struct planrow *r)
{
	free(r->build);
	free(r->cells);
	free(r->runner);
	free(r->shard);
	free(r->parts);
	free(r->partsof);
}

/* a row's value as text (a string, or a number as written), copied; NULL for none or another kind */
static char *
plantext(const struct json *v)
{
	const char *s = v && v->kind == JSON_NUMBER ? v->s : jsonstr(v);

	return s ? xstrdup(s) : NULL;
}

/* the rows of one matrix, {"include": [{"build" or "cell": ..., "cells": ..., "runner": ..., "part":
   ..., "parts": ...}, ...]}
   (json.c reads it), appended to *rows; -1 if it is not one */
static int
planparse(const char *text, int part, char job, struct planrow **rows, size_t *n, size_t *cap)
{
	struct arena a = { 0 };
	struct sb why = SB_INIT;
	const struct json *root, *inc;
	size_t i;
	int rc = -1;

	root = jsonparse(&a, text, strlen(text), NULL, &why);
	inc = jsonget(root, "include");
	for (i = 0; inc && inc->kind == JSON_ARRAY && i < inc->n; i++) {
		const char *build = jsonstr(jsonget(inc->v[i], "build")), *cells = jsonstr(jsonget(inc->v[i], "cells"));
		const char *runner = jsonstr(jsonget(inc->v[i], "runner"));
		struct planrow *r;

		if (!build)
			build = jsonstr(jsonget(inc->v[i], "cell"));
		if (!build)
			break;
		GROW(*rows, *cap, *n + 1);
		r = &(*rows)[(*n)++];
		memset(r, 0, sizeof(*r));
		r->part = part;
		r->job = job;
		r->build = xstrdup(build);
		r->cells = xstrdup(cells ? cells : build);
		r->runner = runner && *runner ? xstrdup(runner) : NULL;
		r->shard = plantext(jsonget(inc->v[i], "part"));
		r->parts = plantext(jsonget(inc->v[i], "parts"));
		r->partsof = plantext(jsonget(inc->v[i], "partsof"));
	}
	if (inc && inc->kind == JSON_ARRAY && i == inc->n)
		rc = 0;
	sbfree(&why);
	afree(&a);
	return rc;
}

/* "N wheels to build (S sharded: P part rows, then a final row each; W of them in F families
   sharing their parts):" and the table's head */
static void
planheadline(struct sb *out, struct planrow *rows, size_t n)
{
	size_t i, k, nparts = 0, nsharded = 0, nfam = 0, infam = 0;

	for (i = 0; i < n; i++) {
		nparts += rows[i].shard != NULL, nsharded += rows[i].parts && !rows[i].shard;
		/* (a family: the final rows of other wheels than their part cell's, and that cell's) */
		if (rows[i].parts && !rows[i].shard && rows[i].partsof && strcmp(rows[i].partsof, rows[i].build)) {
			infam++;
			for (k = 0; k < n && !(rows[k].parts && !rows[k].shard && rows[k].partsof &&
					       !strcmp(rows[k].build, rows[i].partsof)); k++)
				;
			infam += k < n && !rows[k].seen;
			nfam += k < n && !rows[k].seen;
			if (k < n)
				rows[k].seen = 1;
		}
	}
	sbaddf(out, "\n%zu wheel%s to build", n - nparts, n - nparts == 1 ? "" : "s");
	/* (a sharded wheel: its part rows compile, its final row links what they made; a family's
	   wheels share the parts of its first) */
	if (nsharded)
		sbaddf(out, " (%zu sharded: %zu part row%s, then a final row each", nsharded, nparts, nparts == 1 ? "" : "s");
	if (nsharded && nfam)
		sbaddf(out, "; %zu of them in %zu famil%s sharing their parts", infam, nfam, nfam == 1 ? "y" : "ies");
	if (nsharded)
		sbaddc(out, ')');
	sbadd(out, ":\n\n| job | runner | wheel | cells |\n|---|---|---|---|\n");
}

/* the rows of the plan's output file (see summaryplan); -1 with why */
static int
planread(const char *path, struct planrow **rows, size_t *n, struct sb *why)
{
	size_t cap = 0;
	char *buf, *next, *line;
	int rc = 0, seen = 0;

	if (!(buf = readfile(path, NULL))) {
		sbaddf(why, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	next = buf;
	while (rc == 0 && (line = nextline(&next))) {
		char *end;
		long part = 1;
		size_t len = 0;
		char job = 'b';

		/* matrixK=, and a sharded wheel's rows: partsK= and finalsK= (the jobs partsK and finalK) */
		if (startswith(line, "matrix"))
			len = 6;
		else if (startswith(line, "parts"))
			len = 5, job = 'p';
		else if (startswith(line, "finals"))
			len = 6, job = 'f';
		if (len) {
			part = strtol(line + len, &end, 10);
			if (end == line + len || *end != '=' || part < 1)
				continue;
			line = end + 1;
		} else if (*line != '{') {
			continue;
		}
		seen = 1;
		if (planparse(line, (int)part, job, rows, n, &cap) < 0) {
			sbaddf(why, "%s holds a matrix that is not one of wheelgen matrix --github's", path);
			rc = -1;
		}
	}
	free(buf);
	if (rc == 0 && !seen) {
		sbaddf(why, "%s holds no matrix", path);
		rc = -1;
	}
	return rc;
}

/* "`a` `b`" for the space-separated cells, into s */
static void
mdcells(struct sb *s, const char *cells)
{
	const char *p = cells + strspn(cells, " ");
	int first = 1;

	while (*p) {
		size_t len = strcspn(p, " ");
		char *one = xstrndup(p, len);

		sbadd(s, first ? "`" : " `");
		escmd(s, one);
		sbaddc(s, '`');
		free(one);
		first = 0;
		p += len;
		p += strspn(p, " ");
	}
}

/* the heading, and the profile's cells against the missing ones (set: one per line) */
static void
plancounts(struct sb *out, const struct matrix *m, const struct profile *p, const struct sb *missing)
{
	size_t i, n = 0, held = 0;
	struct sb key = SB_INIT;

	for (i = 0; i < m->n; i++) {
		if (p && !profilehas(p, &m->cells[i]))
			continue;
		n++;
		sbreset(&key);
		sbaddf(&key, "\n%s\n", m->cells[i].id);
		if (!missing->len || !strstr(missing->buf, key.buf))
			held++;
	}
	sbfree(&key);
	sbaddf(out, "The %s has %zu cell%s: ", p ? "profile" : "config", n, n == 1 ? "" : "s");
	if (held == n)
		sbaddf(out, "the store holds %s. Nothing to build.\n", n == 1 ? "it" : "every one");
	else
		sbaddf(out, "the store holds %zu, %zu %s missing.\n", held, n - held, n - held == 1 ? "is" : "are");
}

int
summaryplan(struct sb *out, const struct matrix *m, const struct profile *p, const char *matrixfile)
{
	struct planrow *rows = NULL;
	struct sb why = SB_INIT, missing = SB_INIT;
	size_t n = 0, i;
	int rc;

	sbadd(out, "### Plan: ");
	if (p) {
		sbadd(out, "profile `");
		escmd(out, p->name);
		sbadd(out, "`\n\n");
	} else {
		sbadd(out, "every cell of the config\n\n");
	}
	rc = planread(matrixfile, &rows, &n, &why);
	if (rc < 0) {
		sbadd(out, "The plan did not finish: ");
		escmd(out, why.buf);
		sbadd(out, " (the plan step's log says why).\n");
	} else {
		for (i = 0; i < n; i++) {
			char *cells = xstrdup(rows[i].cells), *c;

			for (c = strtok(cells, " "); c; c = strtok(NULL, " "))
				setadd(&missing, c);
			free(cells);
		}
		plancounts(out, m, p, &missing);
	}
	if (n)
		planheadline(out, rows, n);
	for (i = 0; i < n; i++) {
		if (i == MAXROWS) {
			sbaddf(out, "| ... | | | and %zu more rows |\n", n - MAXROWS);
			break;
		}
		if (rows[i].job == 'p')
			sbaddf(out, "| parts%d | ", rows[i].part);
		else if (rows[i].job == 'f')
			sbaddf(out, "| final%d | ", rows[i].part);
		else
			sbaddf(out, "| build%d | ", rows[i].part);
		escmd(out, rows[i].runner ? rows[i].runner : "ubuntu-latest");
		sbadd(out, " | ");
		mdcells(out, rows[i].build);
		sbadd(out, " | ");
		if (rows[i].shard) {
			sbadd(out, "part ");
			escmd(out, rows[i].shard);
			sbadd(out, " of ");
			escmd(out, rows[i].parts ? rows[i].parts : "?");
		} else {
			mdcells(out, rows[i].cells);
			if (rows[i].parts && rows[i].partsof && strcmp(rows[i].partsof, rows[i].build)) {
				sbadd(out, " (its family's ");
				escmd(out, rows[i].parts);
				sbadd(out, " part");
				sbadd(out, strcmp(rows[i].parts, "1") ? "s" : "");
				sbadd(out, ", of ");
				mdcells(out, rows[i].partsof);
				sbadd(out, ")");
			} else if (rows[i].parts) {
				sbadd(out, " (links its ");
				escmd(out, rows[i].parts);
				sbadd(out, strcmp(rows[i].parts, "1") ? " parts)" : " part)");
			}
		}
		sbadd(out, " |\n");
	}
	for (i = 0; i < n; i++)
		planrowfree(&rows[i]);
	free(rows);
	sbfree(&why);
	sbfree(&missing);
	return rc;
}

/* ---- a build job --------------------------------------------------------------------------- */

/* a log line read by fgets: its newline removed; of a line longer than the buffer, the rest is
   read and dropped */
static void
chomp(char *line, FILE *f)
{
	size_t len = strlen(line);
	int c;

	if (len && line[len - 1] == '\n') {
		line[len - 1] = '\0';
		return;
	}
	while ((c = getc(f)) != EOF && c != '\n')
		;
}

/* the first max lines of the step's errors file beside log (its name with .errors for .log),
   into lines; 0 when there are none: no file, an empty one, or one older than the log (a step
   that failed before it began, say a container that did not start, wrote a new log but no errors) */
static size_t
errorsfile(const char *log, size_t max, struct sb *lines)
{
	struct sb path = SB_INIT;
	struct stat lst, est;
	char buf[MAXLINE];
	size_t n = 0, len = strlen(log);
	FILE *f = NULL;

	if (len > 4 && !strcmp(log + len - 4, ".log")) {
		sbaddf(&path, "%.*s.errors", (int)(len - 4), log);
		if (stat(log, &lst) == 0 && stat(path.buf, &est) == 0 && est.st_mtime >= lst.st_mtime)
			f = fopen(path.buf, "r");
	}
	while (f && n < max && fgets(buf, sizeof(buf), f)) {
		chomp(buf, f);
		if (*buf) {
			sbaddf(lines, "%s\n", buf);
			n++;
		}
	}
	if (f)
		fclose(f);
	sbfree(&path);
	return n;
}

int
firsterrors(const char *log, size_t max, struct sb *lines)
{
	FILE *f;
	char buf[MAXLINE];
	char **tail;
	size_t i, ntail = 0;

	if (errorsfile(log, max, lines))
		return 0;
	if (!(f = fopen(log, "r")))
		return -1;
	/* no errors the step found: the log's last lines say what happened */
	tail = xcalloc(max ? max : 1, sizeof(*tail));
	while (fgets(buf, sizeof(buf), f)) {
		chomp(buf, f);
		if (!*buf || startswith(buf, "wheelgen-step: ") || !max)
			continue;
		free(tail[ntail % max]);
		tail[ntail++ % max] = xstrdup(buf);
	}
	fclose(f);
	for (i = ntail > max ? ntail - max : 0; i < ntail; i++)
		sbaddf(lines, "%s\n", tail[i % max]);
	for (i = 0; i < max; i++)
		free(tail[i]);
	free(tail);
	return 0;
}

/* 1 if path exists */
static int
exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* a wheel's size for people: 9.2 kB, 25.3 MB, 1.2 GB */
static void
mdsize(struct sb *s, long long bytes)
{
	static const char *const units[] = { "B", "kB", "MB", "GB", "TB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1000 && u + 1 < sizeof(units) / sizeof(*units)) {
		v /= 1000;
		u++;
	}
	if (u)
		sbaddf(s, "%.1f %s", v, units[u]);
	else
		sbaddf(s, "%lld B", bytes);
}

/* what one cell's build and test left: the facts of its table row */
struct cellfacts {
	struct wheelinfo w;    /* its manifest (have: 1) */
	int have;
	struct steplog build, test;
	int hasbuild, hastest;
	int passed, failed, published;
};

static void
cellfacts(const char *builddir, const char *cell, struct cellfacts *f)
{
	struct sb path = SB_INIT, why = SB_INIT;

	memset(f, 0, sizeof(*f));
	bdpath(&path, builddir, BD_MANIFEST, cell);
	f->have = manifestparse(path.buf, &f->w, &why) == 0;
	sbreset(&path);
	bdpath(&path, builddir, BD_BUILDLOG, cell);
	f->hasbuild = steplogread(path.buf, &f->build) == 0;
	sbreset(&path);
	bdpath(&path, builddir, BD_TESTLOG, cell);
	f->hastest = steplogread(path.buf, &f->test) == 0;
	sbreset(&path);
	bdpath(&path, builddir, BD_TESTOK, cell);
	f->passed = exists(path.buf);
	sbreset(&path);
	bdpath(&path, builddir, BD_TESTFAILED, cell);
	f->failed = !f->passed && exists(path.buf);
	sbreset(&path);
	bdpath(&path, builddir, BD_PUBLISHED, cell);
	f->published = exists(path.buf);
	sbfree(&path);
	sbfree(&why);
}

static void
cellfactsfree(struct cellfacts *f)
{
	if (f->have)
		manifestfree(&f->w);
	if (f->hasbuild)
		steplogfree(&f->build);
	if (f->hastest)
		steplogfree(&f->test);
}

/* the step a failed cell's story is in: "build" or "test", or NULL when none failed */
static const char *
failedstep(const struct cellfacts *f)
{
	if (f->failed || (f->hastest && f->test.end && f->test.rc))
		return "test";
	if (!f->have && f->hasbuild && (!f->build.end || f->build.rc))
		return "build";
	return NULL;
}

/* the table row of one cell */
static void
cellrow(struct sb *out, const char *cell, const struct cellfacts *f)
{
	int restored = f->have && !strcmp(orempty(f->w.origin), "store");
	char t[32];

	sbadd(out, "| `");
	escmd(out, cell);
	sbadd(out, "` | ");
	if (f->have)
		sbadd(out, restored ? "restored from the store" : "built");
	else
		sbadd(out, f->hasbuild ? "**build failed**" : "not built");
	sbadd(out, " | ");
	if (f->passed)
		sbadd(out, restored && !f->hastest ? "passed (before it was published)" : "passed");
	else
		sbadd(out, f->failed ? "**failed**" : "not run");
	sbaddf(out, " | %s | ", f->published ? "yes" : "no");
	if (f->have)
		mdsize(out, f->w.size);
	sbadd(out, " | ");
	if (f->hasbuild && f->build.end) {
		stepduration(t, sizeof(t), f->build.secs);
		sbaddf(out, "build %s", t);
	}
	if (f->hastest && f->test.end) {
		stepduration(t, sizeof(t), f->test.secs);
		sbaddf(out, "%stest %s", f->hasbuild && f->build.end ? ", " : "", t);
	}
	/* (families, shards and deadlines: objects compiled here, from the family's compile cache,
	   and taken from parts or an earlier attempt) */
	if (f->have && f->w.objcompiled >= 0 && f->w.objreused >= 0) {
		sbaddf(out, "%sobjects: %lld compiled here, ", (f->hasbuild && f->build.end) || (f->hastest && f->test.end) ? "; " : "",
		       f->w.objcompiled);
		if (f->w.objfamily >= 0)
			sbaddf(out, "%lld from the family, ", f->w.objfamily);
		sbaddf(out, "%lld from parts or an earlier attempt", f->w.objreused);
	}
	sbadd(out, " |\n");
}

/* a failed cell's paragraph: the step, its log (and the artifact holding it), the first errors */
static void
cellfailure(struct sb *out, const char *builddir, const char *cell, const char *step, const char *artifact)
{
	struct sb path = SB_INIT, lines = SB_INIT, rel = SB_INIT;
	char *next, *line;

	bdpath(&path, builddir, !strcmp(step, "test") ? BD_TESTLOG : BD_BUILDLOG, cell);
	bdrel(&rel, !strcmp(step, "test") ? BD_TESTLOG : BD_BUILDLOG, cell);
	sbadd(out, "\n**`");
	escmd(out, cell);
	sbaddf(out, "`: its %s failed.** Its log: `", step);
	escmd(out, strchr(rel.buf, '/') + 1);
	sbadd(out, "`");
	if (artifact) {
		sbadd(out, " in the artifact `");
		escmd(out, artifact);
		sbadd(out, "`");
	}
	if (firsterrors(path.buf, 5, &lines) < 0) {
		sbadd(out, "; it could not be read here.\n");
	} else {
		sbadd(out, ". It says:\n\n");
		next = lines.buf;
		while ((line = nextline(&next))) {
			sbadd(out, "    ");
			escmdcode(out, line);
			sbaddc(out, '\n');
		}
	}
	sbfree(&path);
	sbfree(&lines);
	sbfree(&rel);
}

/* a cell's kept objects (BUILDDIR/shards/<cell>/): each part's share, and a stopped build's */
static void
cellshards(struct sb *out, const char *builddir, const char *cell)
{
	struct shardobjs o[SHARDS_MAX + 2];
	size_t i, n = shardobjsread(builddir, cell, o, sizeof(o) / sizeof(*o));

	if (!n)
		return;
	sbadd(out, "\n`");
	escmd(out, cell);
	sbadd(out, "`: objects kept in `shards/`:\n");
	for (i = 0; i < n; i++) {
		sbadd(out, "- ");
		if (o[i].parts)
			sbaddf(out, "part %ld of %ld", o[i].part, o[i].parts);
		else
			sbadd(out, o[i].stopped ? "a build stopped at its deadline" : "an earlier build");
		sbaddf(out, ": %lld of %lld objects (%lld compiled, %lld reused, %lld from the family)",
		       o[i].done >= 0 ? o[i].done : o[i].compiled + o[i].reused, o[i].objects, o[i].compiled, o[i].reused,
		       o[i].family > 0 ? o[i].family : 0);
		if (o[i].stopped)
			sbadd(out, ", **stopped at the deadline**: kept for the next job of this cell (the workflow saves it to the Actions cache)");
		sbaddc(out, '\n');
	}
}

int
summarystopped(struct sb *out, const char *builddir, const char *cell)
{
	struct shardobjs o[SHARDS_MAX + 2];
	size_t i, n;
	int stopped = 0;

	if (!plainname(cell))
		return error("summary stopped: '%s' is not a cell's name", cell);
	n = shardobjsread(builddir, cell, o, sizeof(o) / sizeof(*o));
	for (i = 0; i < n; i++)
		stopped |= o[i].stopped;
	sbadd(out, stopped ? "stopped=yes\n" : "stopped=\n");
	return 0;
}

int
summarypart(struct sb *out, const char *builddir, const char *cell, long part, const char *artifact)
{
	struct shardobjs o[SHARDS_MAX + 2];
	struct sb path = SB_INIT, name = SB_INIT, lines = SB_INIT, rel = SB_INIT;
	struct steplog st;
	size_t i, n;
	int have = 0;
	char t[32], kind[32];

	if (!plainname(cell))
		return error("summary build: '%s' is not a cell's name", cell);
	n = shardobjsread(builddir, cell, o, sizeof(o) / sizeof(*o));
	sbaddf(&name, "%ld", part);
	sbadd(out, "### Part ");
	escmd(out, name.buf);
	sbadd(out, " of `");
	escmd(out, cell);
	sbadd(out, "`\n\n");
	snprintf(kind, sizeof(kind), "shard%ld", part);
	bdlog(&path, builddir, cell, kind);
	bdlog(&rel, NULL, cell, kind);
	have = steplogread(path.buf, &st) == 0;
	for (i = 0; i < n && strcmp(o[i].dir, name.buf); i++)
		;
	if (i < n) {
		sbaddf(out, "Part %ld of %ld: %lld of the cell's %lld objects, **%lld compiled, %lld reused, %lld from the family**",
		       o[i].part, o[i].parts, o[i].done >= 0 ? o[i].done : o[i].compiled + o[i].reused, o[i].objects,
		       o[i].compiled, o[i].reused, o[i].family > 0 ? o[i].family : 0);
		if (o[i].stopped)
			sbadd(out, "; **stopped at the deadline**: kept for the next job of this part, which goes on from them (the workflow saves them to the Actions cache)");
	} else {
		sbadd(out, "No objects of this part were kept");
	}
	if (have && st.end) {
		stepduration(t, sizeof(t), st.secs);
		sbaddf(out, " (its step: %s)", t);
	}
	sbadd(out, ".\n");
	if (have && st.end && st.rc) {
		sbaddf(out, "\n**Its step failed.** Its log: `%s`", strchr(rel.buf, '/') + 1);
		if (artifact) {
			sbadd(out, " in the artifact `");
			escmd(out, artifact);
			sbadd(out, "`");
		}
		if (firsterrors(path.buf, 5, &lines) == 0) {
			char *next = lines.buf, *line;

			sbadd(out, ". It says:\n\n");
			while ((line = nextline(&next))) {
				sbadd(out, "    ");
				escmdcode(out, line);
				sbaddc(out, '\n');
			}
		} else {
			sbadd(out, ".\n");
		}
	}
	if (have)
		steplogfree(&st);
	sbfree(&path);
	sbfree(&rel);
	sbfree(&name);
	sbfree(&lines);
	return 0;
}

int
summarybuild(struct sb *out, const char *builddir, char *const *cells, size_t n, const char *artifact)
{
	struct cellfacts *f = xcalloc(n ? n : 1, sizeof(*f));
	size_t i;
	int rc = 0;

	sbadd(out, "### Build");
	if (n) {
		sbadd(out, " `");
		escmd(out, cells[0]);
		sbaddc(out, '`');
	}
	if (n > 1)
		sbaddf(out, " (one wheel, tested in %zu cells)", n);
	sbadd(out, "\n\n| cell | wheel | test | published | size | time |\n|---|---|---|---|---:|---|\n");
	for (i = 0; i < n; i++) {
		if (!plainname(cells[i])) {
			rc = error("summary build: '%s' is not a cell's name", cells[i]);
			continue;
		}
		cellfacts(builddir, cells[i], &f[i]);
		cellrow(out, cells[i], &f[i]);
	}
	for (i = 0; i < n; i++) {
		const char *step = failedstep(&f[i]);

		if (step)
			cellfailure(out, builddir, cells[i], step, artifact);
		if (plainname(cells[i]))
			cellshards(out, builddir, cells[i]);
		cellfactsfree(&f[i]);
	}
	free(f);
	return rc;
}

/* ---- the index ----------------------------------------------------------------------------- */

/* why cell was left out, by leftout's lines, into why; 0 when they do not name it */
static int
whyleftout(const struct sb *leftout, const char *cell, struct sb *why)
{
	const char *p = leftout->buf;
	size_t len = strlen(cell);

	while (*p) {
		if (!strncmp(p, cell, len) && p[len] == '\t') {
			p += len + 1;
			sbaddn(why, p, strcspn(p, "\n"));
			return 1;
		}
		if (!(p = strchr(p, '\n')))
			break;
		p++;
	}
	return 0;
}

/* the manifests merge-index indexed: which it lists (listed, one cell per line), how many
   wheels they are, and those this run made (added: "CELL\torigin" lines); -1 with why */
static int
indexlisted(const char *builddir, struct sb *listed, size_t *ncells, size_t *nwheels, struct sb *added,
	    struct sb *why)
{
	struct sb path = SB_INIT, files = SB_INIT, here = SB_INIT, err = SB_INIT;
	char *buf, *p;

	bdpath(&path, builddir, BD_MERGELIST, "");
	if (!(buf = readfile(path.buf, NULL))) {
		sbaddf(why, "cannot read %s: %s", path.buf, strerror(errno));
		sbfree(&path);
		return -1;
	}
	for (p = strtok(buf, " \t\n"); p; p = strtok(NULL, " \t\n")) {
		struct wheelinfo w;

		sbreset(&err);
		if (manifestparse(p, &w, &err) < 0)
			continue;
		if (w.cell && manifesttested(builddir, &w) && setadd(listed, w.cell)) {
			(*ncells)++;
			*nwheels += (size_t)setadd(&files, w.filename);
			sbreset(&here);
			bdpath(&here, builddir, BD_WHEELDIR, w.cell);
			if (!strcmp(w.dir, here.buf))
				sbaddf(added, "%s\t%s\n", w.cell, orempty(w.origin));
		}
		manifestfree(&w);
	}
	free(buf);
	sbfree(&path);
	sbfree(&files);
	sbfree(&here);
	sbfree(&err);
	return 0;
}

/* what this run added: "N cells: `a` (built), `b` (restored)" */
static void
indexadded(struct sb *out, const struct sb *added)
{
	char *copy = xstrdup(added->buf), *next = copy, *line;
	size_t n = 0;

	for (line = copy; *line; line++)
		n += *line == '\n';
	if (!n) {
		sbadd(out, "This run added no cell.\n");
		free(copy);
		return;
	}
	sbaddf(out, "This run added %zu cell%s:", n, n == 1 ? "" : "s");
	n = 0;
	while ((line = nextline(&next)) && *line) {
		char *tab = strchr(line, '\t');

		if (!tab)
			continue;
		*tab = '\0';
		if (n++ == MAXROWS) {
			sbadd(out, " ...");
			break;
		}
		sbadd(out, n > 1 ? ", `" : " `");
		escmd(out, line);
		sbaddf(out, "` (%s)", !strcmp(tab + 1, "store") ? "restored: published by another run meanwhile" : "built");
	}
	sbadd(out, ".\n");
	free(copy);
}

int
summaryindex(struct sb *out, const struct matrix *m, const char *builddir)
{
	struct sb listed = SB_INIT, added = SB_INIT, why = SB_INIT, leftout = SB_INIT;
	struct sb key = SB_INIT, reason = SB_INIT;
	struct pullcounts pc;
	size_t ncells = 0, nwheels = 0, i, nout = 0;
	int rc;

	sbadd(out, "### Index\n\n");
	leftoutread(builddir, &leftout, &pc);
	rc = indexlisted(builddir, &listed, &ncells, &nwheels, &added, &why);
	if (rc < 0) {
		sbadd(out, "The index was not made: ");
		escmd(out, why.buf);
		sbadd(out, " (the log of ninja merge-index says why).\n");
	} else {
		sbaddf(out, "The index lists %zu cell%s in %zu wheel%s.\n\n", ncells, ncells == 1 ? "" : "s", nwheels,
		       nwheels == 1 ? "" : "s");
		indexadded(out, &added);
		for (i = 0; i < m->n; i++) {
			sbreset(&key);
			sbaddf(&key, "\n%s\n", m->cells[i].id);
			if (listed.len && strstr(listed.buf, key.buf))
				continue;
			if (nout++ == 0)
				sbadd(out, "\nLeft out:\n\n| cell | why |\n|---|---|\n");
			if (nout > MAXROWS)
				continue;
			sbadd(out, "| `");
			escmd(out, m->cells[i].id);
			sbadd(out, "` | ");
			sbreset(&reason);
			if (!whyleftout(&leftout, m->cells[i].id, &reason))
				sbadd(&reason, "not in the store (not built yet, its build or test failed, or built from other inputs)");
			escmd(out, reason.buf);
			sbadd(out, " |\n");
		}
		if (nout > MAXROWS)
			sbaddf(out, "| ... | and %zu more cells |\n", nout - MAXROWS);
		if (!nout)
			sbadd(out, "\nNothing of the config is left out.\n");
	}
	if (pc.store) {
		sbadd(out, "\nThe store ");
		escmd(out, pc.store);
		sbaddf(out, ": %zu cell%s of the config restored%s, %zu built here, %zu not in the store, %zu built from "
		       "other inputs (an earlier config), %zu left out: a damaged entry (taken out of the store, so that "
		       "the next plan builds it again).\n", pc.restored, pc.restored == 1 ? "" : "s",
		       pc.manifestsonly ? " (manifests only: the pages link the store)" : "", pc.local, pc.missing,
		       pc.other, pc.damaged);
	}
	sbfree(&listed);
	sbfree(&added);
	sbfree(&why);
	sbfree(&leftout);
	free(pc.store);
	sbfree(&key);
	sbfree(&reason);
	return rc;
}
