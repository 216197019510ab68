/* plan: the cells a run builds (see plan.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pep.h"
#include "plan.h"

/* keep[i] of the candidates whose field (version, torch, cuda) is best: the newest, or want */
static void
narrow(const struct matrix *m, char *keep, const struct package *p, size_t field, const char *want)
{
	const char *best = NULL, *v;
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct cell *cl = &m->cells[i];

		v = field == 0 ? cl->version : field == 1 ? cl->torch : cl->cuda;
		if (!keep[i] || cl->pkg != p || !v)
			continue;
		if (want && !strcmp(v, want)) {
			best = want;
			break;
		}
		if (!best || pepcmp(v, best) > 0)
			best = v;
	}
	for (i = 0; best && i < m->n; i++) {
		v = field == 0 ? m->cells[i].version : field == 1 ? m->cells[i].torch : m->cells[i].cuda;
		if (keep[i] && m->cells[i].pkg == p && v && strcmp(v, best))
			keep[i] = 0;
	}
}

static int
cmppython(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	long xm = strtol(x + 2, NULL, 10), ym = strtol(y + 2, NULL, 10);

	return xm != ym ? (xm < ym ? -1 : 1) : strcmp(x, y);
}

/* keep[i] of the one canary cell of package p among the candidates */
static void
canaryof(const struct config *c, const struct matrix *m, char *keep, const struct package *p)
{
	const char **py = xcalloc(m->n + 1, sizeof(*py)), *torch = NULL, *pick = NULL;
	const struct torchrow *row;
	size_t i, k, n = 0, nfree = 0;

	narrow(m, keep, p, 0, NULL);
	narrow(m, keep, p, 1, NULL);
	for (i = 0; i < m->n && !torch; i++) {
		if (keep[i] && m->cells[i].pkg == p)
			torch = m->cells[i].torch;
	}
	row = torch ? torchfind(c, torch) : NULL;
	narrow(m, keep, p, 2, row ? row->pypi : NULL);
	for (i = 0; i < m->n; i++) {
		if (!keep[i] || m->cells[i].pkg != p)
			continue;
		for (k = 0; k < n && strcmp(py[k], m->cells[i].python); k++)
			;
		if (k == n)
			py[n++] = m->cells[i].python;
	}
	sortlist(py, n, sizeof(*py), cmppython);
	/* the middle Python, of those that are not free-threaded when there are such */
	for (k = 0; k < n; k++)
		nfree += !strchr(py[k], 't');
	for (k = 0, i = 0; k < n && !pick; k++) {
		if (nfree && strchr(py[k], 't'))
			continue;
		if (i++ == ((nfree ? nfree : n) - 1) / 2)
			pick = py[k];
	}
	for (i = 0; i < m->n; i++) {
		if (keep[i] && m->cells[i].pkg == p && (!pick || strcmp(m->cells[i].python, pick)))
			keep[i] = 0;
	}
	/* (one cell left; should two remain, the first) */
	for (i = 0, k = 0; i < m->n; i++) {
		if (keep[i] && m->cells[i].pkg == p && k++)
			keep[i] = 0;
	}
	free(py);
}

/* the canary: keep[i] 1 for the one cell per package and platform of the cells keep holds */
static void
canary(const struct config *c, const struct matrix *m, char *keep)
{
	char *sub = xcalloc(m->n + 1, 1);
	size_t i, j, k;

	for (i = 0; i < m->n; i++) {
		const struct cell *cl = &m->cells[i];

		for (k = 0; k < i && (m->cells[k].pkg != cl->pkg || m->cells[k].platform != cl->platform); k++)
			;
		if (k < i)
			continue;
		for (j = 0; j < m->n; j++)
			sub[j] = keep[j] && m->cells[j].platform == cl->platform;
		canaryof(c, m, sub, cl->pkg);
		for (j = 0; j < m->n; j++) {
			if (m->cells[j].pkg == cl->pkg && m->cells[j].platform == cl->platform)
				keep[j] = sub[j];
		}
	}
	free(sub);
}

/* the store as the plan reads it: every kept cell's manifest, and the checks of their wheels,
   at once; NULL (a warning) when the store could not be read */
static struct storeview *
planview(const struct store *st, const struct matrix *m, const char *keep, const struct planopts *o,
	 struct storeview *v)
{
	const char **ids = xcalloc(m->n + 1, sizeof(*ids));
	struct sb why = SB_INIT;
	size_t i, n = 0;
	int rc;

	for (i = 0; i < m->n; i++) {
		if (keep[i])
			ids[n++] = m->cells[i].id;
	}
	rc = storeviewopen(v, st, o->builddir ? o->builddir : ".", &why);
	if (rc == 0)
		rc = storeviewread(v, ids, n, &why);
	if (rc == 0)
		rc = storeviewwheels(v, &why);
	if (rc < 0) {
		warn("the store could not be read: %s: every cell counts as missing", why.buf);
		storeviewclose(v);
		v = NULL;
	}
	free(ids);
	sbfree(&why);
	return v;
}

int
plancells(struct keyctx *k, const struct store *st, struct matrix *m, const struct planopts *o, char (*keys)[65],
	  size_t *n)
{
	size_t i;
	int down = 0, rc = 0;
	char *keep = xcalloc(m->n + 1, 1);
	struct storeview view, *v = NULL;

	for (i = 0; i < m->n; i++)
		keep[i] = (!o->prof || profilehas(o->prof, &m->cells[i])) && (o->alllanes || !m->cells[i].nolane);
	if (o->canary)
		canary(k->c, m, keep);
	if (o->missing && st->kind != STORE_NONE) {
		v = planview(st, m, keep, o, &view);
		down = v == NULL;
	}
	*n = 0;
	for (i = 0; i < m->n && rc == 0; i++) {
		struct sb why = SB_INIT;
		enum storestate ss = NOTSTORED;

		if (!keep[i])
			continue;
		if (o->missing && st->kind != STORE_NONE && !down) {
			ss = storelookup(k, st, v, &m->cells[i], o->tmp, 1, keys[*n], &why);
			if (ss == STOREDOWN) {
				warn("%s: every cell counts as missing", why.buf);
				down = 1;
			} else if (ss == WHEELBAD || ss == BADENTRY) {
				/* the store heals: the cell is built and published again */
				notice("planned %s: %s", m->cells[i].id, why.buf);
			}
			if (ss == KEYERROR)
				rc = -1;
			if (ss == STORED && o->held)
				o->held(o->heldctx, &m->cells[i], o->tmp);
		} else if (o->missing || o->needkeys) {
			int r = cellkey(k, &m->cells[i], NULL, keys[*n], NULL);

			if (r < 0)
				rc = -1;
			if (r == 1)
				keys[*n][0] = '\0';
		}
		sbfree(&why);
		if (ss != STORED && rc == 0)
			m->cells[(*n)++] = m->cells[i];
	}
	if (v)
		storeviewclose(v);
	unlink(o->tmp);
	free(keep);
	return rc;
}
