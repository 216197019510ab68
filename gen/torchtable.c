/* torchtable: the torch table from a package index (see torchtable.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "torchindex.h"
#include "torchtable.h"
#include "yamledit.h"
#include "ydoc.h"

/* a row of the new table */
struct row {
	const char *version;
	struct strset cuda, python, platforms;
	const char *pypi;         /* NULL: none */
	const struct torchrow *old; /* the config's row; NULL: a new row */
	int onindex;              /* 0: kept from the config, the index has no such minor */
};

/* one run */
struct tt {
	const struct ttopts *o;
	const struct config *c;   /* the config read (config.c): its table, its text and tree for --write */
	struct arena a;
	struct node *torchkey, *torchval;
	struct tindex ix;         /* what the index says (torchindex.c) */
	struct row *rows;
	size_t nrows;
	struct strset cpuonly;    /* minors whose aarch64 wheel on PyPI is CPU-only */
	struct strset added;      /* --follow: the new minors newer than the table's newest */
	struct strset followed;   /* --follow: the packages that got them */
};

/* --- the config's table ------------------------------------------------------------------- */

/* a list of strings (a single string stands for one) into s */
static void
nodeset(const struct node *n, struct strset *s)
{
	size_t i;

	if (n && n->kind == NSCALAR) {
		setadd1(s, n->s);
	} else if (n && n->kind == NSEQ) {
		for (i = 0; i < n->n; i++) {
			if (n->kids[i]->kind == NSCALAR)
				setadd1(s, n->kids[i]->s);
		}
	}
}

/* the config's rows as a list: the platforms it says (none when the row says none) */
static void
listset(const struct strlist *l, struct strset *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		setadd1(s, l->v[i]);
}

/* a row's platforms as written: empty where the row has no platforms key (the config's default
   stands there) */
/* the same strings, in any order */
static int
listequal(const struct strlist *l, const struct strset *s)
{
	size_t i;

	if (l->n != s->n)
		return 0;
	for (i = 0; i < l->n; i++) {
		if (!sethas(s, l->v[i]))
			return 0;
	}
	return 1;
}

static const struct strlist *
saidplatforms(const struct torchrow *c)
{
	static const struct strlist none;

	return c->platforms.node ? &c->platforms : &none;
}

/* the torch table's key and value in the config's tree (for --write) */
static void
findtable(struct tt *t)
{
	const struct node *root = t->c->root;
	size_t i;

	for (i = 0; root && root->kind == NMAP && i < root->n; i++) {
		if (!strcmp(root->kids[2 * i]->s, "torch")) {
			t->torchkey = root->kids[2 * i];
			t->torchval = root->kids[2 * i + 1];
		}
	}
}

static const struct torchrow *
cfgfind(const struct tt *t, const char *version)
{
	size_t i;

	for (i = 0; i < t->c->ntorch; i++) {
		if (!strcmp(t->c->torch[i].version, version))
			return &t->c->torch[i];
	}
	return NULL;
}

/* the newest minor of the config's table, NULL when it has none */
static const char *
cfgnewest(const struct tt *t)
{
	const char *best = NULL;
	size_t i;

	for (i = 0; i < t->c->ntorch; i++) {
		const char *v = t->c->torch[i].version;

		if (!best || cmpmm(&v, &best) > 0)
			best = v;
	}
	return best;
}


/* --- the new table ------------------------------------------------------------------------ */

/* PyPI's CUDA for a minor: the x86_64 wheel's, else the aarch64 one's; the config's when neither was read */
static const char *
pypiof(struct tt *t, const struct minor *m, const struct torchrow *old)
{
	const char *x = m->known[M_X86] ? m->cuda[M_X86] : NULL, *a = m->known[M_ARM] ? m->cuda[M_ARM] : NULL;

	if (x && *x && a && *a && strcmp(x, a))
		warn("torch %s: PyPI's x86_64 wheel needs CUDA %s, its aarch64 one CUDA %s: pypi says %s", m->version, x, a, x);
	if (x && *x && a && !*a)
		setadd1(&t->cpuonly, m->version);
	if (x && *x)
		return x;
	if (a && *a)
		return a;
	if ((x || a) && old && old->pypi)
		notice("torch %s: PyPI's wheels need no CUDA; pypi kept as %s says (%s)", m->version, t->o->config, old->pypi);
	return old ? old->pypi : NULL;
}

static void
copyset(struct strset *to, const struct strset *from)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		setadd1(to, from->v[i]);
}

/* the row of a minor of the index */
static void
minorrow(struct tt *t, struct minor *m, struct row *r)
{
	const struct torchrow *old = cfgfind(t, m->version);
	int k;

	r->version = m->version;
	r->old = old;
	r->onindex = 1;
	copyset(&r->python, m->py[M_X86].n ? &m->py[M_X86] : &m->py[M_ARM]);
	if (m->py[M_X86].n && m->py[M_ARM].n && !setequal(&m->py[M_X86], &m->py[M_ARM]))
		notice("torch %s: its aarch64 wheels are for other Pythons than its x86_64 ones: python lists x86_64's",
		       m->version);
	/* (a platform whose wheel on PyPI is known to be CPU-only is not one of its platforms:
	   cells there would build against a torch without CUDA) */
	for (k = 0; k < NMACH; k++) {
		if (m->py[k].n && !(k == M_ARM && m->known[M_ARM] && !*m->cuda[M_ARM] && m->known[M_X86] && *m->cuda[M_X86]))
			setadd1(&r->platforms, machines(k));
	}
	r->pypi = pypiof(t, m, old);
	if (t->ix.cudaread && m->cudarelease)
		copyset(&r->cuda, &m->cudas);
	else if (old)
		listset(&old->cuda, &r->cuda);
	else if (r->pypi)
		setadd1(&r->cuda, r->pypi);
	if (r->pypi && !sethas(&r->cuda, r->pypi)) {
		setadd1(&r->cuda, r->pypi);
		setsort(&r->cuda);
	}
	if (t->ix.cudaread && !m->cudarelease)
		notice("torch %s: %s has no CUDA wheels of it: its cuda list is %s", m->version, t->ix.cudaurl,
		       old ? "kept" : "PyPI's CUDA alone");
	else if (!t->ix.cudaread && !old)
		notice("torch %s: a new row; without the CUDA index its cuda list is PyPI's CUDA alone", m->version);
}

static int
cmprow(const void *a, const void *b)
{
	return cmpmm(&((const struct row *)a)->version, &((const struct row *)b)->version);
}

/* the rows of the new table: the index's minors, and the config's other rows unless dropped */
static void
buildrows(struct tt *t)
{
	size_t i;

	t->rows = aalloc(&t->a, (t->ix.nm + t->c->ntorch + 1) * sizeof(*t->rows));
	for (i = 0; i < t->ix.nm; i++)
		minorrow(t, &t->ix.m[i], &t->rows[t->nrows++]);
	for (i = 0; i < t->c->ntorch; i++) {
		const struct torchrow *c = &t->c->torch[i];
		struct row *r;
		const char *v = c->version;

		if (torchminor(&t->ix, c->version))
			continue;
		if (t->o->drop && !(t->o->since && cmpmm(&v, &t->o->since) < 0))
			continue;
		r = &t->rows[t->nrows++];
		r->version = c->version;
		r->old = c;
		listset(&c->cuda, &r->cuda);
		listset(&c->python, &r->python);
		listset(saidplatforms(c), &r->platforms);
		r->pypi = c->pypi;
	}
	sortlist(t->rows, t->nrows, sizeof(*t->rows), cmprow);
	if (t->cpuonly.n) {
		struct sb l = SB_INIT;

		for (i = 0; i < t->cpuonly.n; i++)
			sbaddf(&l, "%s%s", i ? ", " : "", t->cpuonly.v[i]);
		notice("PyPI's aarch64 wheels of torch %s are CPU-only (their CUDA requirements are for x86_64): pypi names "
		       "the x86_64 wheel's CUDA, platforms leaves aarch64 out", l.buf);
		sbfree(&l);
	}
}

/* a row's value, {cuda: [...], python: [...], pypi: "...", platforms: [...]} */
static void
rowvalue(struct sb *s, const struct row *r, int withplatforms)
{
	sbadd(s, "{cuda: ");
	yflowlist(s, r->cuda.v, r->cuda.n, '"');
	sbadd(s, ", python: ");
	yflowlist(s, r->python.v, r->python.n, '"');
	if (r->pypi) {
		sbadd(s, ", pypi: ");
		yquote(s, r->pypi, '"');
	}
	if (withplatforms && (r->onindex || r->platforms.n)) {
		sbadd(s, ", platforms: ");
		yflowlist(s, r->platforms.v, r->platforms.n, '"');
	}
	sbaddc(s, '}');
}

/* what changed in a list: " + a, b" and " - c" */
static void
listchange(struct sb *s, const char *what, const struct strlist *old, const struct strset *now)
{
	size_t i, n;

	if (listequal(old, now))
		return;
	sbaddf(s, "%s%s", s->len ? "; " : "", what);
	for (i = n = 0; i < now->n; i++) {
		if (!strlisthas(old, now->v[i]))
			sbaddf(s, "%s%s", n++ ? ", " : " + ", now->v[i]);
	}
	for (i = n = 0; i < old->n; i++) {
		if (!sethas(now, old->v[i]))
			sbaddf(s, "%s%s", n++ ? ", " : " - ", old->v[i]);
	}
}

/* one line per row that differs from the config's, and per row it lacks or drops, into out */
static void
changes(const struct tt *t, struct sb *out)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		struct sb c = SB_INIT;

		if (!r->old) {
			sbaddf(out, "torch %s: a new row: ", r->version);
			rowvalue(out, r, t->o->platforms);
			sbadd(out, "\n");
			continue;
		}
		listchange(&c, "python", &r->old->python, &r->python);
		listchange(&c, "cuda", &r->old->cuda, &r->cuda);
		if (t->o->platforms && r->onindex && (r->old->platforms.node || r->platforms.n))
			listchange(&c, "platforms", saidplatforms(r->old), &r->platforms);
		if (r->pypi && (!r->old->pypi || strcmp(r->old->pypi, r->pypi)))
			sbaddf(&c, "%spypi %s -> %s", c.len ? "; " : "", r->old->pypi ? r->old->pypi : "(none)", r->pypi);
		if (c.len)
			sbaddf(out, "torch %s: %s\n", r->version, c.buf);
		sbfree(&c);
	}
	for (i = 0; i < t->c->ntorch; i++) {
		size_t k;

		for (k = 0; k < t->nrows && strcmp(t->rows[k].version, t->c->torch[i].version); k++)
			;
		if (k == t->nrows)
			sbaddf(out, "torch %s: removed (the index has no release of it)\n", t->c->torch[i].version);
	}
}

static void
printtable(const struct tt *t)
{
	struct sb s = SB_INIT;
	size_t i;

	sbadd(&s, "torch:\n");
	for (i = 0; i < t->nrows; i++) {
		sbaddf(&s, "  \"%s\": ", t->rows[i].version);
		rowvalue(&s, &t->rows[i], t->o->platforms);
		sbaddc(&s, '\n');
	}
	fwrite(s.buf, 1, s.len, stdout);
	sbfree(&s);
}

/* --- --write ------------------------------------------------------------------------------ */

/* the offset of the end of the line where a config row's value ends; -1 (printed) when it cannot be told */
static int
rowend(const struct tt *t, const struct torchrow *c, size_t *eol)
{
	const struct node *v = c->val;
	size_t end;

	/* a block mapping ends where its last value does */
	while (v->kind == NMAP && v->n && ynodeoff(t->c->src, t->c->srclen, v) < t->c->srclen && t->c->src[ynodeoff(t->c->src, t->c->srclen, v)] != '{')
		v = v->kids[2 * v->n - 1];
	if (ynodeend(t->c->src, t->c->srclen, v, &end) < 0)
		return error("%s:%d: torch %s: its row ends in a value that --write cannot edit (write the row as one "
			     "line, {cuda: [...], python: [...]})", t->o->config, c->at->line, c->version);
	while (end < t->c->srclen && t->c->src[end] != '\n')
		end++;
	*eol = end;
	return 0;
}

/* set key of a config row to text (its value is now "same" or not); -1 (printed) when it cannot */
static int
setkey(struct tt *t, const struct torchrow *c, const char *key, const char *text, int same, struct yedits *e)
{
	struct node *v = mapget(c->val, key);
	size_t start = ynodeoff(t->c->src, t->c->srclen, c->val), end;
	struct sb ins = SB_INIT;

	if (v && same)
		return 0;
	if (v) {
		if (ynodeend(t->c->src, t->c->srclen, v, &end) < 0)
			return error("%s:%d: torch %s: its %s is not a value on one line that --write can replace",
				     t->o->config, v->line, c->version, key);
		yeditadd(e, ynodeoff(t->c->src, t->c->srclen, v), end - ynodeoff(t->c->src, t->c->srclen, v), text);
		return 0;
	}
	if (c->val->kind != NMAP)
		return error("%s:%d: torch %s: its row is not a mapping", t->o->config, c->at->line, c->version);
	if (t->c->src[start] == '{' && c->val->n == 0) {
		sbaddf(&ins, "%s: %s", key, text);
		yeditadd(e, start + 1, 0, ins.buf);
	} else if (t->c->src[start] == '{') {
		if (ynodeend(t->c->src, t->c->srclen, c->val->kids[2 * c->val->n - 1], &end) < 0)
			return error("%s:%d: torch %s: its last value is not one --write can follow", t->o->config,
				     c->at->line, c->version);
		sbaddf(&ins, ", %s: %s", key, text);
		yeditadd(e, end, 0, ins.buf);
	} else {
		size_t eol, ls = ylineoff(t->c->src, t->c->srclen, c->val->line);

		if (rowend(t, c, &eol) < 0)
			return -1;
		sbadd(&ins, "\n");
		sbaddn(&ins, t->c->src + ls, start - ls);
		sbaddf(&ins, "%s: %s", key, text);
		yeditadd(e, eol, 0, ins.buf);
	}
	sbfree(&ins);
	return 0;
}

/* the changes to a row the config has */
static int
editrow(struct tt *t, const struct row *r, struct yedits *e)
{
	const struct torchrow *c = r->old;
	struct sb v = SB_INIT;
	int rc = 0;

	/* (quoted as the row's own lists are) */
	yflowlist(&v, r->cuda.v, r->cuda.n, ylistquote(t->c->src, t->c->srclen, mapget(c->val, "cuda")));
	rc |= setkey(t, c, "cuda", v.buf, listequal(&c->cuda, &r->cuda), e);
	sbreset(&v);
	yflowlist(&v, r->python.v, r->python.n, ylistquote(t->c->src, t->c->srclen, mapget(c->val, "python")));
	rc |= setkey(t, c, "python", v.buf, listequal(&c->python, &r->python), e);
	if (r->pypi) {
		struct node *pv = mapget(c->val, "pypi");

		sbreset(&v);
		yquote(&v, r->pypi, pv ? yquotechar(t->c->src, t->c->srclen, pv) : '"');
		rc |= setkey(t, c, "pypi", v.buf, c->pypi && !strcmp(c->pypi, r->pypi), e);
	}
	if (t->o->platforms) {
		sbreset(&v);
		yflowlist(&v, r->platforms.v, r->platforms.n, ylistquote(t->c->src, t->c->srclen, mapget(c->val, "cuda")));
		rc |= setkey(t, c, "platforms", v.buf, c->platforms.node && listequal(&c->platforms, &r->platforms), e);
	}
	sbfree(&v);
	return rc ? -1 : 0;
}

/* the indentation of the table's rows: the first row's, else two spaces */
static void
rowindent(const struct tt *t, struct sb *s)
{
	size_t ls, k;

	if (!t->c->ntorch) {
		sbadd(s, "  ");
		return;
	}
	ls = ylineoff(t->c->src, t->c->srclen, t->c->torch[0].at->line);
	k = ynodeoff(t->c->src, t->c->srclen, t->c->torch[0].at);
	sbaddn(s, t->c->src + ls, k - ls);
}

/* 1 if the config row c is removed */
static int
dropped(const struct tt *t, const struct torchrow *c)
{
	size_t k;

	for (k = 0; k < t->nrows; k++) {
		if (t->rows[k].old == c)
			return 0;
	}
	return 1;
}

/* the new rows, each after the row before it (or before the first row), and the removed rows */
static int
editrows(struct tt *t, struct yedits *e)
{
	size_t i, k, eol;

	for (i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		const struct torchrow *before = NULL, *after = NULL;
		struct sb line = SB_INIT;

		if (r->old) {
			if (r->onindex && editrow(t, r, e) < 0)
				return -1;
			continue;
		}
		for (k = 0; k < t->c->ntorch; k++) {
			const char *v = t->c->torch[k].version;

			if (dropped(t, &t->c->torch[k]))
				continue;
			if (cmpmm(&v, &r->version) < 0 && (!before || cmpmm(&v, &before->version) > 0))
				before = &t->c->torch[k];
			if (cmpmm(&v, &r->version) > 0 && (!after || cmpmm(&v, &after->version) < 0))
				after = &t->c->torch[k];
		}
		/* a line: after the row before, before the row after, or the table's first */
		if (before || !after)
			sbadd(&line, "\n");
		rowindent(t, &line);
		sbaddf(&line, "\"%s\": ", r->version);
		rowvalue(&line, r, t->o->platforms);
		if (before) {
			if (rowend(t, before, &eol) < 0)
				return -1;
			yeditadd(e, eol, 0, line.buf);
		} else if (after) {
			sbadd(&line, "\n");
			yeditadd(e, ylineoff(t->c->src, t->c->srclen, after->at->line), 0, line.buf);
		} else {
			for (eol = ynodeoff(t->c->src, t->c->srclen, t->torchkey); eol < t->c->srclen && t->c->src[eol] != '\n'; eol++)
				;
			yeditadd(e, eol, 0, line.buf);
		}
		sbfree(&line);
	}
	for (i = 0; i < t->c->ntorch; i++) {
		if (!dropped(t, &t->c->torch[i]))
			continue;
		if (rowend(t, &t->c->torch[i], &eol) < 0)
			return -1;
		k = ylineoff(t->c->src, t->c->srclen, t->c->torch[i].at->line);
		yeditadd(e, k, eol - k + (eol < t->c->srclen), "");
	}
	return 0;
}

/* --follow: packages whose torch list holds the table's newest minor get the newer new rows */
static int
follow(struct tt *t, struct yedits *e)
{
	const char *newest = cfgnewest(t);
	struct sb why = SB_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; i < t->nrows; i++) {
		if (!t->rows[i].old && (!newest || cmpmm(&t->rows[i].version, &newest) > 0))
			setadd1(&t->added, t->rows[i].version);
	}
	if (!t->added.n || !newest)
		return 0;
	for (i = 0; i < t->c->npkgs; i++) {
		const struct package *p = &t->c->pkgs[i];

		if (!p->torch.node || !strlisthas(&p->torch, newest))
			continue;
		if (!t->o->follow) {
			setadd1(&t->followed, p->name);
		} else if (yappendlist(t->c->src, t->c->srclen, p->torch.node, t->added.v, t->added.n, e, &why) < 0) {
			error("%s: package %s: %s", t->o->config, p->name, why.buf);
			rc = -1;
		} else {
			setadd1(&t->followed, p->name);
		}
	}
	if (!t->o->follow && t->followed.n)
		notice("%zu package%s list%s torch %s, the newest before: --follow adds the new minor%s to them", t->followed.n,
		       t->followed.n == 1 ? "" : "s", t->followed.n == 1 ? "s" : "", newest, t->added.n == 1 ? "" : "s");
	sbfree(&why);
	return rc;
}

/* the written file's table (and packages) say what they should */
static int
checkwritten(const struct node *root, void *arg)
{
	struct tt *t = arg;
	const struct node *tv = mapget(root, "torch"), *pk = mapget(root, "packages");
	size_t i, k;

	if (!tv || tv->kind != NMAP || tv->n != t->nrows)
		return error("the torch table has %zu rows, not %zu", tv && tv->kind == NMAP ? tv->n : 0, t->nrows);
	for (i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		const struct node *v = mapget(tv, r->version), *pv;
		struct strset c = { 0 }, p = { 0 }, pl = { 0 };
		int ok;

		nodeset(mapget(v, "cuda"), &c);
		nodeset(mapget(v, "python"), &p);
		nodeset(mapget(v, "platforms"), &pl);
		pv = mapget(v, "pypi");
		ok = v && setequal(&c, &r->cuda) && setequal(&p, &r->python) &&
		     (!r->pypi || (pv && pv->kind == NSCALAR && !strcmp(pv->s, r->pypi))) &&
		     (!t->o->platforms || !r->onindex || setequal(&pl, &r->platforms));
		setfree(&c);
		setfree(&p);
		setfree(&pl);
		if (!ok)
			return error("torch %s: the row does not say what it should", r->version);
	}
	for (i = 0; t->o->follow && i < t->followed.n; i++) {
		struct strset l = { 0 };
		int ok = 1;

		nodeset(mapget(mapget(pk, t->followed.v[i]), "torch"), &l);
		for (k = 0; k < t->added.n; k++)
			ok &= sethas(&l, t->added.v[k]);
		setfree(&l);
		if (!ok)
			return error("package %s: its torch list lacks the new minors", t->followed.v[i]);
	}
	return 0;
}

/* --write: the table's form is one --write can change */
static int
checkform(const struct tt *t)
{
	if (!t->torchkey)
		return error("%s has no top-level torch: table; add one ('torch:' and a row under it) first", t->o->config);
	if (t->torchval->kind == NNULL)
		return 0;
	if (t->torchval->kind != NMAP || t->c->src[ynodeoff(t->c->src, t->c->srclen, t->torchval)] == '{')
		return error("%s:%d: the torch table is not a block mapping: --write changes a table of one row per "
			     "line (\"2.15\": {cuda: [...], python: [...]})", t->o->config, t->torchkey->line);
	return 0;
}

static int
writetable(struct tt *t, const char *chg)
{
	struct yedits e = { 0 };
	struct sb copy = SB_INIT;
	char *next, *line;
	size_t i;
	int rc = -1;

	if (editrows(t, &e) < 0 || follow(t, &e) < 0)
		goto out;
	rc = yrewrite(t->o->config, t->c->src, t->c->srclen, &e, checkwritten, t);
	if (rc < 0)
		goto out;
	sbadd(&copy, chg);
	next = copy.buf;
	while (rc == 1 && (line = nextline(&next)))
		report("%s", line);
	for (i = 0; rc == 1 && t->o->follow && i < t->followed.n; i++) {
		struct sb l = SB_INIT;
		size_t k;

		for (k = 0; k < t->added.n; k++)
			sbaddf(&l, "%s%s", k ? ", " : "", t->added.v[k]);
		report("package %s: torch + %s", t->followed.v[i], l.buf);
		sbfree(&l);
	}
	if (rc == 1)
		report("wrote %s", t->o->config);
	else
		report("%s: the torch table is up to date", t->o->config);
out:
	sbfree(&copy);
	yeditsfree(&e);
	return rc < 0 ? -1 : 0;
}

/* the table's oldest minor, NULL when it has none */
static const char *
cfgoldest(const struct tt *t)
{
	const char *best = NULL;
	size_t i;

	for (i = 0; i < t->c->ntorch; i++) {
		const char *v = t->c->torch[i].version;

		if (!best || cmpmm(&v, &best) < 0)
			best = v;
	}
	return best;
}

/* read the index (torchindex.c), from --since or the table's oldest minor on; the new rows */
static int
readindex(struct tt *t)
{
	t->ix.index = t->o->index;
	t->ix.cudaindex = t->o->cudaindex;
	t->ix.since = t->o->since ? t->o->since : cfgoldest(t);
	t->ix.sincetable = !t->o->since && t->ix.since;
	t->ix.config = t->o->config;
	t->ix.pre = t->o->pre;
	t->ix.range = t->o->range;
	t->ix.timeout = t->o->timeout;
	if (torchsurvey(&t->ix) < 0)
		return -1;
	buildrows(t);
	return 0;
}

static void
ttfree(struct tt *t)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		setfree(&t->rows[i].cuda);
		setfree(&t->rows[i].python);
		setfree(&t->rows[i].platforms);
	}
	setfree(&t->cpuonly);
	setfree(&t->added);
	setfree(&t->followed);
	tindexfree(&t->ix);
	afree(&t->a);
}

int
torchtable(const struct config *c, const struct ttopts *o)
{
	struct tt t;
	struct sb chg = SB_INIT;
	char *next, *line;
	int rc = 1;

	memset(&t, 0, sizeof(t));
	t.o = o;
	t.c = c;
	findtable(&t);
	if ((o->write && checkform(&t) < 0) || readindex(&t) < 0)
		goto out;
	changes(&t, &chg);
	if (o->write) {
		rc = writetable(&t, chg.buf) < 0;
	} else {
		printtable(&t);
		next = chg.buf;
		while ((line = nextline(&next)))
			notice("against %s: %s", o->config, line);
		rc = 0;
	}
out:
	sbfree(&chg);
	ttfree(&t);
	return rc;
}
