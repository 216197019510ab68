/* estimate: what a plan costs before it runs (see estimate.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "estimate.h"
#include "files.h"
#include "layout.h"
#include "manifest.h"

void
estimateinit(struct estimate *e, const struct config *c, const struct matrix *m)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	e->c = c;
	e->times = xcalloc(c->npkgs + 1, sizeof(*e->times));
	e->rec = xcalloc(c->npkgs + 1, sizeof(*e->rec));
	for (i = 0; i < m->n; i++) {
		size_t k = (size_t)(m->cells[i].pkg - c->pkgs);

		if (!e->times[k].from)
			jobsmodel(&m->cells[i], &e->times[k]);
	}
}

void
estimatefree(struct estimate *e)
{
	size_t i;

	for (i = 0; i < e->ncached; i++)
		free(e->cached[i]);
	free(e->cached);
	free(e->times);
	free(e->rec);
	afree(&e->a);
	memset(e, 0, sizeof(*e));
}

/* the package named name, or -1 */
static long
pkgindex(const struct config *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->npkgs; i++) {
		if (!strcmp(c->pkgs[i].name, name) || !strcmp(c->pkgs[i].norm, name))
			return (long)i;
	}
	return -1;
}

/* one KEY=VALUE of a times file's line into t; -1 with why */
static int
timesfield(struct pkgtimes *t, const char *kv, struct sb *why)
{
	static const char *const keys[] = { "objects", "python_objects", "object_seconds", "setup_seconds", "archs",
					    "python_object_seconds" };
	const char *eq = strchr(kv, '=');
	char *end;
	double v;
	size_t k;

	for (k = 0; eq && k < sizeof(keys) / sizeof(keys[0]); k++) {
		if (strlen(keys[k]) == (size_t)(eq - kv) && !strncmp(kv, keys[k], (size_t)(eq - kv)))
			break;
	}
	if (!eq || k == sizeof(keys) / sizeof(keys[0])) {
		sbaddf(why, "'%s' is not one of objects=, python_objects=, object_seconds=, python_object_seconds=, "
		       "setup_seconds=, archs=", kv);
		return -1;
	}
	errno = 0;
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || errno || !(v >= 0 && v < 1e9)) {
		sbaddf(why, "'%s' wants a number from 0, not '%s'", keys[k], eq + 1);
		return -1;
	}
	switch (k) {
	case 0: t->objects = v; break;
	case 1: t->pyobjects = v; break;
	case 2: t->perobject = v; break;
	case 3: t->setup = v; break;
	case 4: t->archs = (long)v; break;
	default: t->pyperobject = v; break;
	}
	return 0;
}

int
estimatetimes(struct estimate *e, const char *path)
{
	char *buf = readfilemax(path, NULL, 1 << 20), *next, *line;
	struct sb why = SB_INIT;
	int n = 0, rc = 0;

	if (!buf)
		return error("cannot read the times file '%s': %s", path, strerror(errno));
	next = buf;
	while (rc == 0 && (line = nextline(&next))) {
		char *w, *save = NULL;
		long k;
		struct pkgtimes t;

		n++;
		if (!(w = strtok_r(line, " \t", &save)) || *w == '#')
			continue;
		if ((k = pkgindex(e->c, w)) < 0) {
			rc = error("%s:%d: no package '%s' in the config", path, n, w);
			break;
		}
		t = e->times[k];
		t.archs = 0;
		t.pyperobject = 0;
		while (rc == 0 && (w = strtok_r(NULL, " \t", &save))) {
			if (timesfield(&t, w, &why) < 0)
				rc = error("%s:%d: %s", path, n, why.buf);
		}
		if (rc == 0 && t.pyobjects > t.objects)
			rc = error("%s:%d: python_objects (%g) is more than objects (%g)", path, n, t.pyobjects, t.objects);
		if (rc == 0) {
			t.from = aprintf(&e->a, "%s:%d", path, n);
			e->times[k] = t;
			e->rec[k].timesfile = t.from;
		}
	}
	free(buf);
	sbfree(&why);
	return rc;
}

/* "WHAT:COMPILED:SECONDS ..." (job_times) into r's points; what does not read so is skipped */
static void
jobtimes(struct pkgrecord *r, const char *v)
{
	const char *p = v;

	while (*p && r->npts < ESTIMATE_POINTS) {
		size_t len = strcspn(p, " ");
		char tok[64], what[17];
		long long c, secs;
		int used = 0;

		if (len < sizeof(tok)) {
			memcpy(tok, p, len);
			tok[len] = 0;
			if (sscanf(tok, "%16[a-z0-9]:%9lld:%9lld%n", what, &c, &secs, &used) == 3 && used == (int)len && c >= 0 &&
			    secs >= 0) {
				r->pts[r->npts].compiled = c;
				r->pts[r->npts++].secs = secs;
			}
		}
		p += len;
		p += strspn(p, " ");
	}
}

/* a family name into e->cached, once */
static void
addcached(struct estimate *e, const char *family)
{
	if (estimatecached(e, family))
		return;
	GROW(e->cached, e->capcached, e->ncached + 1);
	e->cached[e->ncached++] = xstrdup(family);
}

int
estimatecached(const struct estimate *e, const char *family)
{
	size_t i;

	for (i = 0; i < e->ncached; i++) {
		if (!strcmp(e->cached[i], family))
			return 1;
	}
	return 0;
}

void
estimatemanifest(struct estimate *e, const struct cell *cl, const char *path, int stored)
{
	struct pkgrecord *r = &e->rec[cl->pkg - e->c->pkgs];
	struct manifestlines m = { 0 };
	struct sb why = SB_INIT;
	struct wheelinfo w;
	const char *jt;
	long long total;

	if (stored)
		addcached(e, cl->family);
	if (manifestlinesread(path, &m, &why) < 0 || manifestcheck(&m, path, &w, &why) < 0) {
		manifestlinesfree(&m);
		sbfree(&why);
		return;
	}
	if (w.cell && !strcmp(w.cell, cl->id) && (total = wheelobjects(&w)) >= 0) {
		r->builds++;
		if (total > r->objects)
			r->objects = total;
		/* a build that took what does not depend on Python from its family compiled the rest */
		if (w.objfamily > 0 && w.objreused == 0)
			r->pysum += (double)w.objcompiled, r->pyn++;
		if (!r->archs && cl->cuda && cl->archs)
			r->archs = (long)cl->archs->n;
		if ((jt = manifestlinesget(&m, "job_times")))
			jobtimes(r, jt);
	}
	manifestfree(&w);
	manifestlinesfree(&m);
	sbfree(&why);
}

void
estimatebuilddir(struct estimate *e, const char *builddir, const struct matrix *m)
{
	struct sb path = SB_INIT;
	size_t i;

	for (i = 0; i < m->n; i++) {
		sbreset(&path);
		bdpath(&path, builddir, BD_MANIFEST, m->cells[i].id);
		if (access(path.buf, R_OK) == 0)
			estimatemanifest(e, &m->cells[i], path.buf, 0);
	}
	sbfree(&path);
}

void
estimatefinish(struct estimate *e)
{
	size_t k;

	for (k = 0; k < e->c->npkgs; k++) {
		struct pkgrecord *r = &e->rec[k];
		struct pkgtimes *t = &e->times[k];
		struct shardfit f;
		double zero = 0;
		size_t i, nzero = 0;

		if (r->timesfile || !r->builds || !t->from)
			continue;
		if (r->objects > 0)
			t->objects = (double)r->objects;
		if (r->pyn)
			t->pyobjects = r->pysum / (double)r->pyn;
		if (t->pyobjects > t->objects)
			t->pyobjects = t->objects;
		t->archs = r->archs;
		for (i = 0; i < r->npts; i++) {
			if (r->pts[i].compiled == 0)
				zero += (double)r->pts[i].secs, nzero++;
		}
		/* setup and a time per object from jobs of different counts; else the setup of the jobs that
		   compiled nothing, or the model's, and the rest a time per object */
		if (shardfitpoints(r->pts, r->npts, -1, &f) != 0 &&
		    shardfitpoints(r->pts, r->npts, nzero ? zero / (double)nzero : t->setup, &f) != 0) {
			f.perobject = t->perobject;
			f.setup = nzero ? zero / (double)nzero : t->setup;
		}
		t->setup = f.setup;
		t->perobject = f.perobject;
		t->from = aprintf(&e->a, "%zu job%s of %ld build%s recorded", r->npts, r->npts == 1 ? "" : "s", r->builds,
				  r->builds == 1 ? "" : "s");
	}
}

/* seconds for people: 45 s, 12m30s, 3.4 h */
static void
duration(struct sb *s, double secs)
{
	if (secs < 60)
		sbaddf(s, "%.0f s", secs);
	else if (secs < 3600)
		sbaddf(s, "%dm%02ds", (int)(secs / 60), (int)secs % 60);
	else
		sbaddf(s, "%.1f h", secs / 3600);
}

/* a job for people: "CELL, part K of N", "CELL's final row", "CELL" */
static void
jobname(struct sb *s, const struct matrix *m, const struct job *j)
{
	sbadd(s, cellbuild(&m->cells[j->cell]));
	if (j->kind == JOB_PART)
		sbaddf(s, ", part %ld of %ld", j->part, j->parts);
	else if (j->kind == JOB_FINAL)
		sbadd(s, "'s final row");
}

void
estimateprint(struct sb *s, const struct estimate *e, const struct matrix *m, const struct jobplan *p, long runners,
	      double overhead)
{
	struct jobsrun r;
	size_t i, nb = 0, np = 0, nf = 0, k;
	char *shown = xcalloc(e->c->npkgs + 1, 1);

	for (i = 0; i < p->n; i++) {
		nb += p->v[i].kind == JOB_BUILD;
		np += p->v[i].kind == JOB_PART;
		nf += p->v[i].kind == JOB_FINAL;
	}
	jobsrun(p, runners, &r);
	sbaddf(s, "plan: %zu wheel%s: %zu build row%s, %zu part row%s, %zu final row%s\n", nb + nf, nb + nf == 1 ? "" : "s", nb,
	       nb == 1 ? "" : "s", np, np == 1 ? "" : "s", nf, nf == 1 ? "" : "s");
	sbaddf(s, "runner-hours: %.2f (%.0f s)\n", r.runnersecs / 3600, r.runnersecs);
	sbaddf(s, "wall: %.2f h (%.0f s) on %ld concurrent job%s\n", r.wall / 3600, r.wall,
	       runners > 0 ? runners : (long)p->n, runners == 1 ? "" : "s");
	sbaddf(s, "longest chain: %.2f h (%.0f s)", r.chain / 3600, r.chain);
	if (p->n) {
		sbadd(s, ": ");
		jobname(s, m, &p->v[r.chainfirst]);
		sbadd(s, " (");
		duration(s, p->v[r.chainfirst].secs);
		sbadd(s, ")");
		if (r.chainlast != r.chainfirst) {
			sbadd(s, ", then ");
			jobname(s, m, &p->v[r.chainlast]);
			sbadd(s, " (");
			duration(s, p->v[r.chainlast].secs);
			sbadd(s, ")");
		}
	}
	sbadd(s, "\n");
	sbadd(s, "a job: the setup of its package's builds, a time per object it compiles");
	if (overhead > 0) {
		sbadd(s, ", and ");
		duration(s, overhead);
		sbadd(s, " of runner, checkout and configure");
	}
	sbadd(s, ":\n");
	for (i = 0; i < p->n; i++) {
		const struct cell *cl = &m->cells[p->v[i].cell];
		const struct pkgtimes *t;
		double secs = 0;
		size_t j, wheels = 0;

		k = (size_t)(cl->pkg - e->c->pkgs);
		if (shown[k])
			continue;
		shown[k] = 1;
		t = &e->times[k];
		for (j = 0; j < p->n; j++) {
			if (m->cells[p->v[j].cell].pkg == cl->pkg) {
				secs += p->v[j].secs;
				wheels += p->v[j].kind != JOB_PART;
			}
		}
		sbaddf(s, "  %s: %zu wheel%s, %.2f runner-hours; %.0f objects, %.0f with Python.h; ", cl->pkg->name, wheels,
		       wheels == 1 ? "" : "s", secs / 3600, t->objects, t->pyobjects);
		duration(s, t->perobject);
		sbadd(s, " an object");
		if (t->archs > 0)
			sbaddf(s, " at %ld architecture%s", t->archs, t->archs == 1 ? "" : "s");
		if (t->pyperobject > 0) {
			sbadd(s, " (with Python.h: ");
			duration(s, t->pyperobject);
			sbadd(s, ")");
		}
		sbadd(s, ", ");
		duration(s, t->setup);
		sbaddf(s, " of setup (%s)\n", t->from);
	}
	free(shown);
}
