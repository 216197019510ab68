/* jobs: the jobs a CI plan runs for its wheels, and what each takes (see jobs.h). */
#include <stdlib.h>
#include <string.h>

#include "jobs.h"

void
jobsmodel(const struct cell *cl, struct pkgtimes *t)
{
	memset(t, 0, sizeof(*t));
	t->from = "the model";
	if (cl->cuda) {
		t->setup = 300;
		t->perobject = 240;
		t->archs = 4;
		t->objects = 10;
		t->pyobjects = 1;
	} else {
		t->setup = 120;
		t->perobject = 10;
		t->objects = 10;
		t->pyobjects = 10;
	}
}

/* the seconds per object of cl's package's figures t, scaled to cl's architectures */
static double
jobsperobject(const struct pkgtimes *t, const struct cell *cl)
{
	if (t->archs > 0 && cl->cuda && cl->archs && cl->archs->n > 0)
		return t->perobject * (double)cl->archs->n / (double)t->archs;
	return t->perobject;
}

/* the seconds of compiling n of a cell's objects: of them, py (at most) those with Python.h */
static double
jobscompile(const struct pkgtimes *t, const struct cell *cl, double n, double py)
{
	double k = jobsperobject(t, cl), pk = t->pyperobject > 0 ? t->pyperobject : k;

	if (py > n)
		py = n;
	return (n - py) * k + py * pk;
}

/* the figures of cl's package */
static const struct pkgtimes *
timesof(const struct jobopts *o, const struct cell *cl)
{
	return &o->times[cl->pkg - o->pkgs];
}

/* whether n wheels of cells like cl, built as a family without shards, cost fewer runner-seconds
   than each built whole */
static int
jobsfamily(const struct cell *cl, size_t n, const struct jobopts *o)
{
	const struct pkgtimes *t = timesof(o, cl);

	/* one more job (the part) against what the other wheels no longer compile */
	return n >= 2 && o->overhead + t->setup < (double)(n - 1) * (t->objects - t->pyobjects) * jobsperobject(t, cl);
}

/* whether cl's family's compile cache is kept from an earlier run */
static int
cached(const struct jobopts *o, const struct cell *cl)
{
	return o->cached && o->cached(o->ctx, cl->family);
}

/* --by-build: is cells[i] the first of [lo, i] to test its wheel? */
static int
firstofbuild(const struct matrix *m, size_t lo, size_t i)
{
	size_t k;

	for (k = lo; k < i; k++) {
		if (!strcmp(cellbuild(&m->cells[k]), cellbuild(&m->cells[i])))
			return 0;
	}
	return 1;
}

static struct job *
addjob(struct jobplan *p, enum jobkind kind, size_t cell)
{
	struct job *j;

	GROW(p->v, p->cap, p->n + 1);
	j = &p->v[p->n++];
	memset(j, 0, sizeof(*j));
	j->kind = kind;
	j->cell = cell;
	j->partcell = cell;
	return j;
}

/* the part rows of cell c (N = its package's parts), each with job.group = group */
static void
addparts(struct jobplan *p, const struct matrix *m, size_t c, size_t group, const struct jobopts *o)
{
	const struct cell *cl = &m->cells[c];
	const struct pkgtimes *t = timesof(o, cl);
	long k, np = cellparts(cl);
	struct job *j;

	for (k = 1; k <= np; k++) {
		j = addjob(p, JOB_PART, c);
		j->part = k;
		j->parts = np;
		j->group = group;
		/* (a part's share holds Python.h objects as the cell does) */
		if (cached(o, cl)) {
			double compiled = t->pyobjects / (double)np;

			j->secs = o->overhead + t->setup + jobscompile(t, cl, compiled, compiled);
		} else {
			j->secs = o->overhead + t->setup + jobscompile(t, cl, t->objects, t->pyobjects) / (double)np;
		}
	}
}

void
jobsplan(const struct matrix *m, size_t lo, size_t hi, const struct jobopts *o, struct jobplan *p)
{
	size_t *rows = xcalloc(hi - lo + 1, sizeof(*rows)), *first = xcalloc(hi - lo + 1, sizeof(*first));
	size_t *count = xcalloc(hi - lo + 1, sizeof(*count));
	char *family = xcalloc(hi - lo + 1, 1);
	size_t i, r, k, n = 0, groups = 0;

	memset(p, 0, sizeof(*p));
	for (i = lo; i < hi; i++) {
		if (firstofbuild(m, lo, i))
			rows[n++] = i;
	}
	/* each row's family: the first row of its family name */
	for (r = 0; r < n; r++) {
		for (k = 0; k < r && strcmp(m->cells[rows[k]].family, m->cells[rows[r]].family); k++)
			;
		first[r] = k;
		count[k]++;
	}
	for (r = 0; r < n; r++) {
		const struct cell *cl = &m->cells[rows[r]];

		if (first[r] == r && !o->nofamilies && count[r] >= 2)
			family[r] = cellparts(cl) > 1 || jobsfamily(cl, count[r], o);
	}
	for (r = 0; r < n; r++) {
		const struct cell *cl = &m->cells[rows[r]];
		const struct pkgtimes *t = timesof(o, cl);
		double compiled;  /* the objects it compiles */
		struct job *j;

		if (family[first[r]] || cellparts(cl) > 1) {
			size_t pc = family[first[r]] ? rows[first[r]] : rows[r];

			if (pc == rows[r])
				addparts(p, m, rows[r], groups++, o);
			j = addjob(p, JOB_FINAL, rows[r]);
			j->parts = cellparts(&m->cells[pc]);
			j->partcell = pc;
			/* the part cell's final compiles nothing; another Python's what includes Python.h */
			compiled = pc == rows[r] ? 0 : t->pyobjects;
		} else {
			j = addjob(p, JOB_BUILD, rows[r]);
			compiled = cached(o, cl) ? t->pyobjects : t->objects;
		}
		/* (what it compiles beyond the Python.h objects are kernels) */
		j->secs = o->overhead + t->setup + jobscompile(t, cl, compiled, t->pyobjects);
	}
	free(rows);
	free(first);
	free(count);
	free(family);
}

void
jobsrun(const struct jobplan *p, long runners, struct jobsrun *r)
{
	double *end = xcalloc(p->n + 1, sizeof(*end)), *prio = xcalloc(p->n + 1, sizeof(*prio));
	double *busy, now = 0, maxfinal = 0, maxpart = 0, maxbuild = 0;
	char *state = xcalloc(p->n + 1, 1);  /* 0 waiting, 1 running, 2 ended */
	size_t i, k, left = p->n, partsleft = 0, nrun, lastfinal = 0, longpart = 0, longbuild = 0;

	memset(r, 0, sizeof(*r));
	nrun = runners > 0 ? (size_t)runners : p->n;
	busy = xcalloc(nrun + 1, sizeof(*busy));
	for (i = 0; i < p->n; i++) {
		const struct job *j = &p->v[i];

		r->runnersecs += j->secs;
		partsleft += j->kind == JOB_PART;
		if (j->kind == JOB_FINAL && j->secs >= maxfinal)
			maxfinal = j->secs, lastfinal = i;
		if (j->kind == JOB_PART && j->secs > maxpart)
			maxpart = j->secs, longpart = i;
		if (j->kind == JOB_BUILD && j->secs > maxbuild)
			maxbuild = j->secs, longbuild = i;
	}
	for (i = 0; i < p->n; i++)
		prio[i] = p->v[i].secs + (p->v[i].kind == JOB_PART ? maxfinal : 0);
	/* the longest chain: a build or final row alone, or the longest part and then the longest final */
	if (partsleft && maxpart + maxfinal > maxbuild) {
		r->chain = maxpart + maxfinal;
		r->chainfirst = longpart, r->chainlast = lastfinal;
	} else {
		r->chain = maxbuild > maxfinal ? maxbuild : maxfinal;
		r->chainfirst = r->chainlast = maxbuild > maxfinal ? longbuild : lastfinal;
	}
	while (left) {
		double next = -1;

		/* fill the free runners with the ready jobs, the longest chain first */
		for (k = 0; k < nrun; k++) {
			size_t best = p->n;

			if (busy[k] > now)
				continue;
			for (i = 0; i < p->n; i++) {
				if (state[i] || (p->v[i].kind == JOB_FINAL && partsleft))
					continue;
				if (best == p->n || prio[i] > prio[best])
					best = i;
			}
			if (best == p->n)
				break;
			state[best] = 1;
			busy[k] = end[best] = now + p->v[best].secs;
		}
		/* on to the next job's end, and what ended then */
		for (i = 0; i < p->n; i++) {
			if (state[i] == 1 && (next < 0 || end[i] < next))
				next = end[i];
		}
		if (next < 0)
			BUG("jobsrun: jobs left, none running");
		now = next;
		for (i = 0; i < p->n; i++) {
			if (state[i] == 1 && end[i] <= now) {
				state[i] = 2;
				left--;
				partsleft -= p->v[i].kind == JOB_PART;
			}
		}
	}
	r->wall = now;
	free(end);
	free(prio);
	free(busy);
	free(state);
}

void
jobsfree(struct jobplan *p)
{
	free(p->v);
	memset(p, 0, sizeof(*p));
}
