/* matrixout: the cells of a matrix as people and CI read them (see matrixout.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
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
	sbaddc(s, '}');
	sbfree(&v);
}

/* --by-build: is cells[i] the first selected cell of [lo, i] to test its wheel? */
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

/* row i (of [lo, hi)) in o's format; j rows came before it in its list; --table: w and pw, the
   widths of its cell and platform columns */
static void
printrow(struct sb *s, const struct matrixout *o, const struct matrix *m, size_t i, size_t hi, size_t j, int w,
	 int pw, char (*keys)[65])
{
	const struct cell *cl = &m->cells[i];

	switch (o->format) {
	case FMT_GITHUB: /* one line: what a step writes to $GITHUB_OUTPUT */
	case FMT_JSON:
		sbadd(s, o->format == FMT_GITHUB ? (j ? ", " : "") : (j ? ",\n  " : "\n  "));
		jsoncell(s, cl, keys[i]);
		if (o->bybuild)
			jsongroup(s, m, i, hi);
		/* a sharded wheel's row (--by-build): the final one, which needs its parts' rows */
		if (o->bybuild && cellparts(cl) > 1)
			sbaddf(s, ", \"parts\": \"%ld\"", cellparts(cl));
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
 * --split with --by-build: the sharded wheels' rows as N part matrices "partsK={...}" and
 * "partcountK=ROWS", then N final matrices "finalsK={...}" and "finalcountK=ROWS" (K = 1..N), each
 * of at most MATRIX_MAX rows, filled in order. A wheel's part rows stay in one matrix where the
 * rest of the current one holds them; where whole wheels would need more than N matrices, the
 * part rows fill each matrix to the brim (a wheel's parts over two: the final jobs need every part
 * job). The caller saw that N matrices hold them
 */
static void
printsharded(struct sb *s, const struct matrixout *o, const struct matrix *m, const size_t *allrows, size_t nall,
	     size_t hi, char (*keys)[65])
{
	size_t r, used = 0, mats = 1, K = 1, j = 0;
	long k, np;
	int whole;

	/* whole wheels per matrix: how many matrices they take */
	for (r = 0; r < nall; r++) {
		np = cellparts(&m->cells[allrows[r]]);
		if (np <= 1)
			continue;
		if (used && used + (size_t)np > MATRIX_MAX)
			mats++, used = 0;
		for (used += (size_t)np; used > MATRIX_MAX; used -= MATRIX_MAX)
			mats++;
	}
	whole = mats <= (size_t)o->split;
	for (r = 0; r < nall; r++) {
		np = cellparts(&m->cells[allrows[r]]);
		if (np <= 1)
			continue;
		for (k = 1; k <= np; k++) {
			if (j == MATRIX_MAX || (k == 1 && whole && j && j + (size_t)np > MATRIX_MAX)) {
				sbaddf(s, "]}\npartcount%zu=%zu\n", K, j);
				K++, j = 0;
			}
			if (j == 0)
				sbaddf(s, "parts%zu={\"include\": [", K);
			printpart(s, o, &m->cells[allrows[r]], keys[allrows[r]], k, j++);
		}
	}
	if (j)
		sbaddf(s, "]}\npartcount%zu=%zu\n", K, j), K++;
	for (; K <= (size_t)o->split; K++)
		sbaddf(s, "parts%zu={\"include\": []}\npartcount%zu=0\n", K, K);
	for (r = j = 0, K = 1; r < nall; r++) {
		if (cellparts(&m->cells[allrows[r]]) <= 1)
			continue;
		if (j == MATRIX_MAX) {
			sbaddf(s, "]}\nfinalcount%zu=%zu\n", K, j);
			K++, j = 0;
		}
		if (j == 0)
			sbaddf(s, "finals%zu={\"include\": [", K);
		printrow(s, o, m, allrows[r], hi, j++, 0, 0, keys);
	}
	if (j)
		sbaddf(s, "]}\nfinalcount%zu=%zu\n", K, j), K++;
	for (; K <= (size_t)o->split; K++)
		sbaddf(s, "finals%zu={\"include\": []}\nfinalcount%zu=0\n", K, K);
}

/*
 * --split: the rows as N GitHub matrices for $GITHUB_OUTPUT, "matrixK={...}" and "countK=N":
 * each platform's rows in parts of its own (its jobs run on its runners), in chunks of at most
 * MATRIX_MAX rows; -1 with a message when they need more than N parts
 */
static int
printsplit(struct sb *s, const struct matrixout *o, const struct matrix *m, const size_t *allrows, size_t nall,
	   size_t hi, char (*keys)[65])
{
	size_t p, r, part = 0, need = 0, in, nrows = 0, nfinal = 0, nparts = 0, *rows;
	int rc = 0;

	/* a sharded wheel's rows (--by-build) go to partsK= and finalsK=, the rest to matrixK= */
	rows = xcalloc(nall + 1, sizeof(*rows));
	for (r = 0; r < nall; r++) {
		if (o->bybuild && cellparts(&m->cells[allrows[r]]) > 1)
			nfinal++, nparts += (size_t)cellparts(&m->cells[allrows[r]]);
		else
			rows[nrows++] = allrows[r];
	}
	if (nparts > (size_t)o->split * MATRIX_MAX || nfinal > (size_t)o->split * MATRIX_MAX) {
		free(rows);
		return error("the plan has %zu part rows and %zu final rows of sharded cells: --split %ld matrices of each "
			     "hold at most %ld rows (%d each, GitHub's limit): raise --split and add part and final jobs to "
			     "the workflow", nparts, nfinal, o->split, o->split * MATRIX_MAX, MATRIX_MAX);
	}
	for (p = 0; p < nplatforms; p++) {
		for (r = in = 0; r < nrows; r++)
			in += m->cells[rows[r]].platform == &platforms[p];
		need += (in + MATRIX_MAX - 1) / MATRIX_MAX;
	}
	if (need > (size_t)o->split) {
		free(rows);
		return error("the plan has %zu rows, which need %zu job matrices of at most %d rows (GitHub's limit), more than "
			     "--split %ld: raise --split and add build jobs to the workflow", nrows, need, MATRIX_MAX, o->split);
	}
	for (p = 0; p < nplatforms; p++) {
		size_t j = 0;

		for (r = 0; r < nrows; r++) {
			if (m->cells[rows[r]].platform != &platforms[p])
				continue;
			if (j == MATRIX_MAX) {
				sbaddf(s, "]}\ncount%zu=%zu\n", part, j);
				j = 0;
			}
			if (j == 0)
				sbaddf(s, "matrix%zu={\"include\": [", ++part);
			printrow(s, o, m, rows[r], hi, j++, 0, 0, keys);
		}
		if (j)
			sbaddf(s, "]}\ncount%zu=%zu\n", part, j);
	}
	while (part < (size_t)o->split)
		sbaddf(s, "matrix%zu={\"include\": []}\ncount%zu=0\n", part + 1, part + 1), part++;
	if (o->bybuild)
		printsharded(s, o, m, allrows, nall, hi, keys);
	free(rows);
	return rc;
}

int
printcells(struct sb *s, const struct matrixout *o, const struct matrix *m, size_t n, char (*keys)[65])
{
	size_t i, j, lo, hi, w = 4, pw = 8, nrows = 0, *rows;
	int rc = 0;

	lo = 0;
	hi = n;
	if (o->nshards) {
		lo = (size_t)(o->shard - 1) * n / (size_t)o->nshards;
		hi = (size_t)o->shard * n / (size_t)o->nshards;
	}
	rows = xcalloc(hi - lo + 1, sizeof(*rows));
	for (i = lo; i < hi; i++) {
		/* (--by-build: a wheel's row comes with the first cell that tests it) */
		if (!o->bybuild || firstofbuild(m, lo, i))
			rows[nrows++] = i;
		w = strlen(m->cells[i].id) > w ? strlen(m->cells[i].id) : w;
		/* (the platform column as wide as its longest name: win_amd64 is 9) */
		pw = strlen(m->cells[i].platform->name) > pw ? strlen(m->cells[i].platform->name) : pw;
	}
	if (o->split) {
		rc = printsplit(s, o, m, rows, nrows, hi, keys);
		free(rows);
		return rc;
	}
	if (o->format == FMT_GITHUB)
		sbadd(s, "{\"include\": [");
	else if (o->format == FMT_JSON)
		sbadd(s, "[");
	else if (o->format == FMT_TSV)
		sbadd(s, "cell\tpackage\tversion\tpython\tcuda\ttorch\tkey\tbuild\tplatform\trunner\n");
	else if (o->format == FMT_TABLE)
		sbaddf(s, "%-*s  %-*s  %s\n", (int)w, "CELL", (int)pw, "PLATFORM", "BUILDS HERE");
	for (j = i = 0; j < nrows; j++) {
		long k;

		/* (--by-build: a sharded wheel's part rows come right before its final row) */
		for (k = 1; o->bybuild && cellparts(&m->cells[rows[j]]) > 1 && k <= cellparts(&m->cells[rows[j]]); k++)
			printpart(s, o, &m->cells[rows[j]], keys[rows[j]], k, i++);
		printrow(s, o, m, rows[j], hi, i++, (int)w, (int)pw, keys);
	}
	if (o->format == FMT_GITHUB)
		sbadd(s, "]}\n");
	else if (o->format == FMT_JSON)
		sbadd(s, i ? "\n]\n" : "]\n");
	free(rows);
	return rc;
}
