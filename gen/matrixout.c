/* matrixout: the cells of a matrix as people and CI read them (see matrixout.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "jobs.h"
#include "matrixout.h"

void
whynotsummary(const struct matrix *m, size_t n, const char *hostfile)
{
	const char **why = xcalloc(m->n, sizeof(*why));
	size_t *count = xcalloc(m->n, sizeof(*count));
	size_t i, j, nwhy = 0;

	for (i = 0; i < m->n; i++) {
		if (!m->cells[i].whynot)
			continue;
		for (j = 0; j < nwhy && strcmp(why[j], m->cells[i].whynot); j++)
			;
		if (j == nwhy)
			why[nwhy++] = m->cells[i].whynot;
		count[j]++;
	}
	notice("%zu of %zu cells cannot be built on this host (left out of the default target):", n, m->n);
	for (j = 0; j < nwhy && j < 5; j++)
		fprintf(stderr, "  %zu cell%s: %s\n", count[j], count[j] == 1 ? "" : "s", why[j]);
	if (nwhy > 5)
		fprintf(stderr, "  ... and %zu more reasons\n", nwhy - 5);
	fprintf(stderr, "  (wheelgen matrix --table --host %s lists them)\n", hostfile);
	free(why);
	free(count);
}

/* the fields of cl's row of --json and --github, without the closing brace */
static void
jsoncell(struct sb *s, const struct cell *cl, const char *key)
{
	sbadd(s, "{\"cell\": ");
	escjson(s, cl->id);
	sbadd(s, ", \"package\": ");
	escjson(s, cl->pkg->norm);
	sbadd(s, ", \"version\": ");
	escjson(s, cl->version);
	sbadd(s, ", \"python\": ");
	escjson(s, cl->python);
	sbadd(s, ", \"cuda\": ");
	escjson(s, cl->cuda ? cl->cuda : "");
	sbadd(s, ", \"torch\": ");
	escjson(s, cl->torch ? cl->torch : "");
	sbadd(s, ", \"key\": ");
	escjson(s, key);
	/* the cell whose wheel it tests: itself, or (abi3) the lowest Python's */
	sbadd(s, ", \"build\": ");
	escjson(s, cellbuild(cl));
	/* its platform, and the GitHub Actions runner that builds it natively */
	sbadd(s, ", \"platform\": ");
	escjson(s, cl->platform->name);
	sbadd(s, ", \"runner\": ");
	escjson(s, cl->platform->runner);
}

/*
 * --by-build: the fields of the row of one wheel to build, after the first selected cell's
 * (cells[i]): every selected cell of [lo, hi) that tests it, and their ninja targets
 */
static void
jsongroup(struct sb *s, const struct matrix *m, size_t i, size_t hi)
{
	static const char *const fields[] = { "cells", "tests", "publishes" };
	static const char *const prefix[] = { "", "test/", "publish/" };
	struct sb v[3] = { SB_INIT, SB_INIT, SB_INIT };
	size_t f, k;

	for (k = i; k < hi; k++) {
		if (strcmp(cellbuild(&m->cells[k]), cellbuild(&m->cells[i])))
			continue;
		for (f = 0; f < 3; f++)
			sbaddf(&v[f], "%s%s%s", v[f].len ? " " : "", prefix[f], m->cells[k].id);
	}
	for (f = 0; f < 3; f++) {
		sbaddf(s, ", \"%s\": ", fields[f]);
		escjson(s, v[f].buf);
		sbfree(&v[f]);
	}
}

/*
 * --by-build, a sharded wheel: the row of its part k, the wheel's cell's fields plus part ("K"),
 * parts ("N") and targets ("shard/<cell>/K"); j rows came before it in its list
 */
static void
printpart(struct sb *s, const struct matrixout *o, const struct cell *cl, const char *key, long k, size_t j)
{
	struct sb v = SB_INIT;

	sbadd(s, o->format == FMT_GITHUB ? (j ? ", " : "") : (j ? ",\n  " : "\n  "));
	jsoncell(s, cl, key);
	sbaddf(s, ", \"part\": \"%ld\", \"parts\": \"%ld\"", k, cellparts(cl));
	sbaddf(&v, "shard/%s/%ld", cellbuild(cl), k);
	sbadd(s, ", \"targets\": ");
	escjson(s, v.buf);
	sbadd(s, ", \"family\": ");
	escjson(s, cl->family);
	sbaddc(s, '}');
	sbfree(&v);
}

/* row i (of [lo, hi)) in o's format; j rows came before it in its list; --table: w and pw, the
   widths of its cell and platform columns; jb: its job (--by-build) */
static void
printrow(struct sb *s, const struct matrixout *o, const struct matrix *m, size_t i, size_t hi, size_t j, int w,
	 int pw, char (*keys)[65], const struct job *jb)
{
	const struct cell *cl = &m->cells[i];

	switch (o->format) {
	case FMT_GITHUB: /* one line: what a step writes to $GITHUB_OUTPUT */
	case FMT_JSON:
		sbadd(s, o->format == FMT_GITHUB ? (j ? ", " : "") : (j ? ",\n  " : "\n  "));
		jsoncell(s, cl, keys[i]);
		if (o->bybuild && jb) {
			jsongroup(s, m, i, hi);
			sbadd(s, ", \"family\": ");
			escjson(s, cl->family);
			/* a final row: it waits for the parts of partsof (its own, or its family's first) */
			if (jb->kind == JOB_FINAL) {
				sbaddf(s, ", \"parts\": \"%ld\", \"partsof\": ", jb->parts);
				escjson(s, cellbuild(&m->cells[jb->partcell]));
			}
		}
		sbaddc(s, '}');
		break;
	case FMT_TSV:
		sbaddf(s, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", cl->id, cl->pkg->norm, cl->version, cl->python,
		       cl->cuda ? cl->cuda : "", cl->torch ? cl->torch : "", keys[i], cellbuild(cl), cl->platform->name,
		       cl->platform->runner);
		break;
	case FMT_TABLE:
		sbaddf(s, "%-*s  %-*s  %s%s", w, cl->id, pw, cl->platform->name,
		       !o->hostknown ? "unknown (no --host)" : cl->whynot ? "no: " : "yes", o->hostknown && cl->whynot ? cl->whynot : "");
		if (cl->builtby && !cl->whynot)
			sbaddf(s, " (built by %s)", cl->builtby);
		/* (a last column where the cell's compile is split: its part rows in CI) */
		if (cellparts(cl) > 1)
			sbaddf(s, "  [%ld parts]", cellparts(cl));
		sbaddc(s, '\n');
		break;
	default:
		sbaddf(s, "%s\n", cl->id);
	}
}

/*
 * --split with --by-build: the part rows as N part matrices "partsK={...}" and "partcountK=ROWS",
 * then the final rows as N final matrices "finalsK={...}" and "finalcountK=ROWS" (K = 1..N), each
 * of at most MATRIX_MAX rows, filled in the order of ord. The part rows of one part cell stay in
 * one matrix where the rest of the current one holds them; where whole sets would need more than
 * N matrices, the part rows fill each matrix to the brim (a set over two: the final jobs need
 * every part job). The caller saw that N matrices hold them
 */
static void
printsharded(struct sb *s, const struct matrixout *o, const struct matrix *m, const struct jobplan *p,
	     const size_t *ord, size_t hi, char (*keys)[65])
{
	size_t r, used = 0, mats = 1, K = 1, j = 0;
	long np;
	int whole;

	/* whole sets of parts per matrix: how many matrices they take */
	for (r = 0; r < p->n; r++) {
		const struct job *jb = &p->v[ord[r]];

		if (jb->kind != JOB_PART || jb->part != 1)
			continue;
		np = jb->parts;
		if (used && used + (size_t)np > MATRIX_MAX)
			mats++, used = 0;
		for (used += (size_t)np; used > MATRIX_MAX; used -= MATRIX_MAX)
			mats++;
	}
	whole = mats <= (size_t)o->split;
	for (r = 0; r < p->n; r++) {
		const struct job *jb = &p->v[ord[r]];

		if (jb->kind != JOB_PART)
			continue;
		if (j == MATRIX_MAX || (jb->part == 1 && whole && j && j + (size_t)jb->parts > MATRIX_MAX)) {
			sbaddf(s, "]}\npartcount%zu=%zu\n", K, j);
			K++, j = 0;
		}
		if (j == 0)
			sbaddf(s, "parts%zu={\"include\": [", K);
		printpart(s, o, &m->cells[jb->cell], keys[jb->cell], jb->part, j++);
	}
	if (j)
		sbaddf(s, "]}\npartcount%zu=%zu\n", K, j), K++;
	for (; K <= (size_t)o->split; K++)
		sbaddf(s, "parts%zu={\"include\": []}\npartcount%zu=0\n", K, K);
	for (r = j = 0, K = 1; r < p->n; r++) {
		const struct job *jb = &p->v[ord[r]];

		if (jb->kind != JOB_FINAL)
			continue;
		if (j == MATRIX_MAX) {
			sbaddf(s, "]}\nfinalcount%zu=%zu\n", K, j);
			K++, j = 0;
		}
		if (j == 0)
			sbaddf(s, "finals%zu={\"include\": [", K);
		printrow(s, o, m, jb->cell, hi, j++, 0, 0, keys, jb);
	}
	if (j)
		sbaddf(s, "]}\nfinalcount%zu=%zu\n", K, j), K++;
	for (; K <= (size_t)o->split; K++)
		sbaddf(s, "finals%zu={\"include\": []}\nfinalcount%zu=0\n", K, K);
}

/*
 * --split: the rows as N GitHub matrices for $GITHUB_OUTPUT, "matrixK={...}" and "countK=N":
 * each platform's rows in matrices of their own (its jobs run on its runners), in chunks of at
 * most MATRIX_MAX rows; with --by-build the part and final rows go to partsK= and finalsK=
 * (printsharded). Each matrix's rows longest first (ord: a set of parts by its longest part);
 * -1 with a message when they need more than N matrices
 */
static int
printsplit(struct sb *s, const struct matrixout *o, const struct matrix *m, const struct jobplan *p,
	   const size_t *ord, size_t hi, char (*keys)[65])
{
	size_t pl, r, part = 0, need = 0, in, nrows = 0, nfinal = 0, nparts = 0;

	for (r = 0; r < p->n; r++) {
		nparts += p->v[r].kind == JOB_PART;
		nfinal += p->v[r].kind == JOB_FINAL;
		nrows += p->v[r].kind == JOB_BUILD;
	}
	if (nparts > (size_t)o->split * MATRIX_MAX || nfinal > (size_t)o->split * MATRIX_MAX)
		return error("the plan has %zu part rows and %zu final rows: --split %ld matrices of each "
			     "hold at most %ld rows (%d each, GitHub's limit): raise --split and add part and final jobs to "
			     "the workflow", nparts, nfinal, o->split, o->split * MATRIX_MAX, MATRIX_MAX);
	for (pl = 0; pl < nplatforms; pl++) {
		for (r = in = 0; r < p->n; r++)
			in += p->v[r].kind == JOB_BUILD && m->cells[p->v[r].cell].platform == &platforms[pl];
		need += (in + MATRIX_MAX - 1) / MATRIX_MAX;
	}
	if (need > (size_t)o->split)
		return error("the plan has %zu rows, which need %zu job matrices of at most %d rows (GitHub's limit), more than "
			     "--split %ld: raise --split and add build jobs to the workflow", nrows, need, MATRIX_MAX, o->split);
	for (pl = 0; pl < nplatforms; pl++) {
		size_t j = 0;

		for (r = 0; r < p->n; r++) {
			const struct job *jb = &p->v[ord[r]];

			if (jb->kind != JOB_BUILD || m->cells[jb->cell].platform != &platforms[pl])
				continue;
			if (j == MATRIX_MAX) {
				sbaddf(s, "]}\ncount%zu=%zu\n", part, j);
				j = 0;
			}
			if (j == 0)
				sbaddf(s, "matrix%zu={\"include\": [", ++part);
			printrow(s, o, m, jb->cell, hi, j++, 0, 0, keys, o->bybuild ? jb : NULL);
		}
		if (j)
			sbaddf(s, "]}\ncount%zu=%zu\n", part, j);
	}
	while (part < (size_t)o->split)
		sbaddf(s, "matrix%zu={\"include\": []}\ncount%zu=0\n", part + 1, part + 1), part++;
	if (o->bybuild)
		printsharded(s, o, m, p, ord, hi, keys);
	return 0;
}

/* the seconds ord sorts a job by: a part by the longest part of its set */
static double
sortsecs(const struct jobplan *p, size_t i)
{
	double t = p->v[i].secs;
	size_t k;

	if (p->v[i].kind != JOB_PART)
		return t;
	for (k = 0; k < p->n; k++) {
		if (p->v[k].kind == JOB_PART && p->v[k].group == p->v[i].group && p->v[k].secs > t)
			t = p->v[k].secs;
	}
	return t;
}

static const struct jobplan *sortplan;
static const double *sortkey;

/* longest first; the plan's order among equals (and a set's parts in order) */
static int
cmplongest(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sortkey[x] != sortkey[y])
		return sortkey[x] < sortkey[y] ? 1 : -1;
	if (sortplan->v[x].kind == JOB_PART && sortplan->v[y].kind == JOB_PART && sortplan->v[x].group != sortplan->v[y].group)
		return sortplan->v[x].group < sortplan->v[y].group ? -1 : 1;
	return x < y ? -1 : x > y;
}

int
printcells(struct sb *s, const struct matrixout *o, const struct matrix *m, size_t n, char (*keys)[65])
{
	size_t i, j, lo, hi, w = 4, pw = 8, *ord;
	struct jobplan p;
	double *key;
	int rc = 0;

	lo = 0;
	hi = n;
	if (o->nshards) {
		lo = (size_t)(o->shard - 1) * n / (size_t)o->nshards;
		hi = (size_t)o->shard * n / (size_t)o->nshards;
	}
	for (i = lo; i < hi; i++) {
		w = strlen(m->cells[i].id) > w ? strlen(m->cells[i].id) : w;
		pw = strlen(m->cells[i].platform->name) > pw ? strlen(m->cells[i].platform->name) : pw;
	}
	/* the rows: --by-build, the jobs of the wheels; else one build row a cell */
	if (o->bybuild) {
		jobsplan(m, lo, hi, &o->jobs, &p);
	} else {
		memset(&p, 0, sizeof(p));
		for (i = lo; i < hi; i++) {
			GROW(p.v, p.cap, p.n + 1);
			memset(&p.v[p.n], 0, sizeof(p.v[p.n]));
			p.v[p.n].kind = JOB_BUILD;
			p.v[p.n++].cell = i;
		}
	}
	ord = xcalloc(p.n + 1, sizeof(*ord));
	key = xcalloc(p.n + 1, sizeof(*key));
	for (i = 0; i < p.n; i++)
		ord[i] = i, key[i] = sortsecs(&p, i);
	if (o->split) {
		/* (the workflow's form: each matrix's longest rows first, so that the run's wall time
		   comes near its runner-hours over its concurrent jobs) */
		if (o->bybuild) {
			sortplan = &p;
			sortkey = key;
			qsort(ord, p.n, sizeof(*ord), cmplongest);
		}
		rc = printsplit(s, o, m, &p, ord, hi, keys);
		goto out;
	}
	if (o->format == FMT_GITHUB)
		sbadd(s, "{\"include\": [");
	else if (o->format == FMT_JSON)
		sbadd(s, "[");
	else if (o->format == FMT_TSV)
		sbadd(s, "cell\tpackage\tversion\tpython\tcuda\ttorch\tkey\tbuild\tplatform\trunner\n");
	else if (o->format == FMT_TABLE)
		sbaddf(s, "%-*s  %-*s  %s\n", (int)w, "CELL", (int)pw, "PLATFORM", "BUILDS HERE");
	/* (--by-build: a set of parts comes right before the final row of its part cell) */
	for (j = 0; j < p.n; j++) {
		const struct job *jb = &p.v[j];

		if (jb->kind == JOB_PART)
			printpart(s, o, &m->cells[jb->cell], keys[jb->cell], jb->part, j);
		else
			printrow(s, o, m, jb->cell, hi, j, (int)w, (int)pw, keys, o->bybuild ? jb : NULL);
	}
	if (o->format == FMT_GITHUB)
		sbadd(s, "]}\n");
	else if (o->format == FMT_JSON)
		sbadd(s, p.n ? "\n]\n" : "]\n");
out:
	free(ord);
	free(key);
	jobsfree(&p);
	return rc;
}
