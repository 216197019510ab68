/* torchtable: the torch table from a package index (see torchtable.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coremeta.h"
#include "diag.h"
#include "files.h"
#include "http.h"
#include "pep.h"
#include "platform.h"
#include "remotewheel.h"
#include "sha256.h"
#include "simpleapi.h"
#include "torchtable.h"
#include "wheelfile.h"
#include "yamledit.h"
#include "ydoc.h"

/* the Linux machines a row's platforms name: their places in platform.c's table, the one list
   of machines (a unit test holds the two in step) */
enum { M_X86, M_ARM, NMACH };
#define machines(k) (platforms[(k)].machine)

/* a set of strings, in the order added */
struct strset {
	const char **v;
	size_t n, cap;
};

/* a wheel of torch's page */
struct twheel {
	const struct indexfile *f;
	char *release;            /* its version without a local label */
	const char *local;        /* the local label ("cu128"), "" when none */
	long build;               /* its build tag's number, -1 when none */
	int machine;              /* M_X86, M_ARM, or -1: not a Linux wheel of those */
	char python[16];          /* the CPython its ABI tag names ("3.12", "3.13t"), "" when none */
};

/* a minor on the index */
struct minor {
	char version[32];         /* "2.15" */
	const char *release;      /* its newest release */
	struct strset py[NMACH];  /* the Pythons of its Linux wheels, per machine */
	const struct twheel *pick[NMACH];  /* the wheel whose metadata is read */
	int known[NMACH];         /* 1: cuda[] was read from its metadata */
	char cuda[NMACH][16];     /* the CUDA PyPI's wheel needs there, "" for a CPU-only wheel */
	const char *cudarelease;  /* its newest release on PyTorch's index, NULL: none there */
	struct strset cudas;      /* the CUDAs of that release's Linux wheels there */
};

/* a row of the config's table as it is */
struct cfgrow {
	const char *version;
	struct node *key, *val;
	struct strset cuda, python, platforms;
	int hasplatforms;
	const char *pypi;         /* NULL when not given */
};

/* a row of the new table */
struct row {
	const char *version;
	struct strset cuda, python, platforms;
	const char *pypi;         /* NULL: none */
	const struct cfgrow *old; /* the config's row; NULL: a new row */
	int onindex;              /* 0: kept from the config, the index has no such minor */
};

/* one run */
struct tt {
	const struct ttopts *o;
	struct arena a;
	char tmp[256];
	struct httplimits lim;
	char *src;                /* the config's text */
	size_t len;
	struct node *root, *torchkey, *torchval;
	struct cfgrow *cfg;
	size_t ncfg;
	const char *pageurl, *cudaurl;
	struct indexpage page, cpage;
	int cudaread;             /* the CUDA index answered */
	struct twheel *w;
	size_t nw, wcap;
	struct minor *m;
	size_t nm;
	struct row *rows;
	size_t nrows;
	struct strset cpuonly;    /* minors whose aarch64 wheel on PyPI is CPU-only */
	struct strset added;      /* --follow: the new minors newer than the table's newest */
	struct strset followed;   /* --follow: the packages that got them */
};

static void
setadd1(struct strset *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->v[i], v))
			return;
	}
	GROW(s->v, s->cap, s->n + 1);
	s->v[s->n++] = v;
}

static int
sethas(const struct strset *s, const char *v)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->v[i], v))
			return 1;
	}
	return 0;
}

/* the same strings, in any order */
static int
setequal(const struct strset *a, const struct strset *b)
{
	size_t i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++) {
		if (!sethas(b, a->v[i]))
			return 0;
	}
	return 1;
}

static void
setfree(struct strset *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* "3.9" < "3.10" < "3.13" < "3.13t" < "3.14", and MAJOR.MINOR versions alike */
static int
cmpmm(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	long xm = strtol(x, NULL, 10), ym = strtol(y, NULL, 10), xn, yn;
	const char *xd = strchr(x, '.'), *yd = strchr(y, '.');

	if (xm != ym)
		return xm < ym ? -1 : 1;
	xn = xd ? strtol(xd + 1, NULL, 10) : 0;
	yn = yd ? strtol(yd + 1, NULL, 10) : 0;
	if (xn != yn)
		return xn < yn ? -1 : 1;
	return strcmp(x, y);
}

static void
setsort(struct strset *s)
{
	sortlist(s->v, s->n, sizeof(*s->v), cmpmm);
}

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

static int
loadconfig(struct tt *t)
{
	struct diags d = { 0 };
	size_t i;
	int rc = -1;

	if (!(t->src = readfilemax(t->o->config, &t->len, YDOC_MAXFILE)))
		return error("cannot read '%s': %s", t->o->config, strerror(errno));
	d.file = t->o->config;
	d.src = t->src;
	d.srclen = t->len;
	t->root = ydocparse(&t->a, t->src, t->len, &d);
	if (d.errors || !t->root || t->root->kind != NMAP) {
		if (!diagprint(&d, stderr))
			error("%s: not a mapping of settings", t->o->config);
		goto out;
	}
	for (i = 0; i < t->root->n; i++) {
		if (!strcmp(t->root->kids[2 * i]->s, "torch")) {
			t->torchkey = t->root->kids[2 * i];
			t->torchval = t->root->kids[2 * i + 1];
		}
	}
	if (t->torchval && t->torchval->kind == NMAP) {
		t->cfg = aalloc(&t->a, (t->torchval->n + 1) * sizeof(*t->cfg));
		for (i = 0; i < t->torchval->n; i++) {
			struct cfgrow *r = &t->cfg[t->ncfg++];
			struct node *v = t->torchval->kids[2 * i + 1], *pv;

			r->key = t->torchval->kids[2 * i];
			r->val = v;
			r->version = r->key->s;
			nodeset(mapget(v, "cuda"), &r->cuda);
			nodeset(mapget(v, "python"), &r->python);
			r->hasplatforms = mapget(v, "platforms") != NULL;
			nodeset(mapget(v, "platforms"), &r->platforms);
			if ((pv = mapget(v, "pypi")) && pv->kind == NSCALAR)
				r->pypi = pv->s;
		}
	}
	rc = 0;
out:
	diagfree(&d);
	return rc;
}

static const struct cfgrow *
cfgfind(const struct tt *t, const char *version)
{
	size_t i;

	for (i = 0; i < t->ncfg; i++) {
		if (!strcmp(t->cfg[i].version, version))
			return &t->cfg[i];
	}
	return NULL;
}

/* the newest minor of the config's table, NULL when it has none */
static const char *
cfgnewest(const struct tt *t)
{
	const char *best = NULL;
	size_t i;

	for (i = 0; i < t->ncfg; i++) {
		const char *v = t->cfg[i].version;

		if (!best || cmpmm(&v, &best) > 0)
			best = v;
	}
	return best;
}

/* --- the pages ---------------------------------------------------------------------------- */

/* root + "torch/" (root ending in '/') */
static const char *
pageof(struct tt *t, const char *root)
{
	size_t n = strlen(root);

	return aprintf(&t->a, "%s%storch/", root, n && root[n - 1] == '/' ? "" : "/");
}

/* read a fetched page; -1 (printed) when it is broken */
static int
readpage(const struct httpget *g, struct indexpage *pg)
{
	struct sb why = SB_INIT;
	char *text;
	size_t len;
	int rc = -1;

	if (!(text = readfilemax(g->dest, &len, SIMPLE_PAGE_MAX)))
		return error("cannot read '%s': %s", g->dest, strerror(errno));
	if (indexpageparse(g->url, text, len, g->ctype, pg, &why) < 0)
		error("%s: %s", g->url, why.buf);
	else
		rc = 0;
	sbfree(&why);
	free(text);
	return rc;
}

/* torch's page, and the CUDA index's when there is one; -1 (printed) when torch's cannot be read */
static int
fetchpages(struct tt *t)
{
	struct httpget g[2];
	size_t n = t->o->cudaindex ? 2 : 1, i;
	int rc = -1;

	memset(g, 0, sizeof(g));
	t->pageurl = pageof(t, t->o->index);
	t->cudaurl = t->o->cudaindex ? pageof(t, t->o->cudaindex) : NULL;
	for (i = 0; i < n; i++) {
		g[i].url = i ? t->cudaurl : t->pageurl;
		g[i].accept = SIMPLE_ACCEPT;
		g[i].compressed = 1;
		g[i].dest = aprintf(&t->a, "%s/page%zu", t->tmp, i);
		g[i].max = SIMPLE_PAGE_MAX;
	}
	if (httpfetch(g, n, &t->lim) < 0 && !g[0].why.len)
		sbadd(&g[0].why, "cannot run curl");
	if (g[0].why.len)
		error("cannot read torch's page %s: %s", g[0].url, g[0].why.buf);
	else if (g[0].status != 200)
		error("cannot read torch's page %s: HTTP status %ld", g[0].url, g[0].status);
	else if (readpage(&g[0], &t->page) == 0)
		rc = 0;
	if (rc == 0 && n == 2) {
		if (g[1].why.len || g[1].status != 200) {
			notice("the CUDA index %s did not answer (%s%s): the cuda lists are kept as %s has them", g[1].url,
			       g[1].why.len ? g[1].why.buf : "HTTP status ",
			       g[1].why.len ? "" : aprintf(&t->a, "%ld", g[1].status), t->o->config);
		} else if (readpage(&g[1], &t->cpage) < 0) {
			rc = -1;
		} else {
			t->cudaread = 1;
		}
	}
	for (i = 0; i < n; i++)
		httpgetfree(&g[i]);
	return rc;
}

/* --- torch's wheels ----------------------------------------------------------------------- */

/* 1 if every byte of s is a letter, a digit or one of extra */
static int
charsin(const char *s, const char *extra)
{
	for (; *s; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || strchr(extra, *s)))
			return 0;
	}
	return 1;
}

/* the Linux machine of a compressed platform tag set, or -1 */
static int
tagmachine(const char *plat)
{
	char *tags = xstrdup(plat), *save = NULL, *tag;
	const struct platform *p;
	int m = -1;

	for (tag = strtok_r(tags, ".", &save); tag && m < 0; tag = strtok_r(NULL, ".", &save)) {
		if (!startswith(tag, "manylinux") && !startswith(tag, "linux_"))
			continue;
		if ((p = platformoftag(tag, strlen(tag))) && p - platforms < NMACH)
			m = (int)(p - platforms);
	}
	free(tags);
	return m;
}

/* the CPython of an ABI tag: cp312 -> 3.12, cp313t -> 3.13t, cp37m -> 3.7; "" for others */
static void
abipython(const char *abi, char out[16])
{
	size_t d = strspn(abi + 2, "0123456789");
	const char *rest = abi + 2 + d;

	out[0] = '\0';
	if (strncmp(abi, "cp", 2) || d < 2 || d > 3 || (*rest && strcmp(rest, "t") && strcmp(rest, "m") &&
							   strcmp(rest, "mu") && strcmp(rest, "d")))
		return;
	snprintf(out, 16, "%c.%.*s%s", abi[2], (int)(d - 1), abi + 3, !strcmp(rest, "t") ? "t" : "");
}

/* one wheel of the page into t->w; -1 (printed) for a name that is no torch wheel's */
static int
addwheel(struct tt *t, const char *url, const struct indexfile *f)
{
	struct sb why = SB_INIT;
	struct wheelname wn;
	struct twheel *w;
	char norm[256];
	const char *plus;
	int local, rc = -1;

	if (wheelnameparse(f->filename, &wn, &why) < 0) {
		error("%s: %s", url, why.buf);
		sbfree(&why);
		return -1;
	}
	pepnormalize(wn.dist, norm);
	if (strlen(wn.dist) >= sizeof(norm) || strcmp(norm, "torch")) {
		error("%s: the file %s is not torch's", url, f->filename);
	} else if (!charsin(wn.py, "._") || !charsin(wn.abi, "._") || !charsin(wn.plat, "._") || !charsin(wn.build, "_") ||
		   !pepversion(wn.version, &local)) {
		error("%s: the file %s has an odd version or tag", url, f->filename);
	} else {
		GROW(t->w, t->wcap, t->nw + 1);
		w = &t->w[t->nw++];
		memset(w, 0, sizeof(*w));
		w->f = f;
		plus = strchr(wn.version, '+');
		w->release = astrndup(&t->a, wn.version, plus ? (size_t)(plus - wn.version) : strlen(wn.version));
		w->local = astrdup(&t->a, plus ? plus + 1 : "");
		w->build = *wn.build ? strtol(wn.build, NULL, 10) : -1;
		w->machine = tagmachine(wn.plat);
		if (!strchr(wn.abi, '.'))
			abipython(wn.abi, w->python);
		rc = 0;
	}
	wheelnamefree(&wn);
	sbfree(&why);
	return rc;
}

/* the wheels of a page into t->w (from start); -1 (printed) at the first bad one */
static int
addwheels(struct tt *t, const char *url, const struct indexpage *pg)
{
	size_t i;

	for (i = 0; i < pg->n; i++) {
		size_t n = strlen(pg->files[i].filename);

		if (n < 4 || strcmp(pg->files[i].filename + n - 4, ".whl"))
			continue; /* sdists and others: no tags */
		if (addwheel(t, url, &pg->files[i]) < 0)
			return -1;
	}
	return 0;
}

/* --- the minors --------------------------------------------------------------------------- */

/* the minor ("2.15") of a release ("2.15.0", an epoch left out); 0 when it has none */
static int
minorof(const char *release, char out[32])
{
	const char *bang = strchr(release, '!'), *v = bang ? bang + 1 : release;
	char *end;
	long maj = strtol(v, &end, 10), min;

	if (end == v || *end != '.')
		return 0;
	min = strtol(end + 1, &end, 10);
	if (maj < 0 || min < 0 || maj > 9999 || min > 9999)
		return 0;
	snprintf(out, 32, "%ld.%ld", maj, min);
	return 1;
}

static struct minor *
findminor(struct tt *t, const char *version, int add, size_t *cap)
{
	size_t i;

	for (i = 0; i < t->nm; i++) {
		if (!strcmp(t->m[i].version, version))
			return &t->m[i];
	}
	if (!add)
		return NULL;
	GROW(t->m, *cap, t->nm + 1);
	memset(&t->m[t->nm], 0, sizeof(t->m[t->nm]));
	snprintf(t->m[t->nm].version, sizeof(t->m[t->nm].version), "%s", version);
	return &t->m[t->nm++];
}

/* a wheel that names a release of a minor: not yanked, a Linux CPython wheel, no pre-release unless asked */
static int
usable(const struct tt *t, const struct twheel *w, char minor[32])
{
	return !w->f->yanked && w->machine >= 0 && w->python[0] && (t->o->pre || !peppre(w->release)) &&
	       minorof(w->release, minor);
}

/* which of two wheels' metadata to read: advertised first, then the newest build, the newest
   Python that is not free-threaded, the first name */
static int
better(const struct twheel *a, const struct twheel *b)
{
	const char *pa = a->python, *pb = b->python;
	int ta = strchr(pa, 't') != NULL, tb = strchr(pb, 't') != NULL, c;

	if (a->f->metadata != b->f->metadata)
		return a->f->metadata > b->f->metadata;
	if (a->build != b->build)
		return a->build > b->build;
	if (ta != tb)
		return tb;
	if ((c = cmpmm(&pa, &pb)))
		return c > 0;
	return strcmp(a->f->filename, b->f->filename) < 0;
}

static int
cmpminor(const void *a, const void *b)
{
	const char *x = ((const struct minor *)a)->version, *y = ((const struct minor *)b)->version;

	return cmpmm(&x, &y);
}

/* the minors of torch's page (wheels [0, n)): each one's newest release, its Pythons and
   platforms, the wheel per platform whose metadata is read */
static void
groupminors(struct tt *t, size_t n)
{
	const char *since = t->o->since;
	size_t i, cap = 0;
	char minor[32];

	if (!since && t->ncfg) {
		since = t->cfg[0].version;
		for (i = 1; i < t->ncfg; i++) {
			if (cmpmm(&t->cfg[i].version, &since) < 0)
				since = t->cfg[i].version;
		}
	}
	for (i = 0; i < n; i++) {
		struct twheel *w = &t->w[i];
		struct minor *m;
		const char *mv = minor;

		if (*w->local || !usable(t, w, minor) || (since && cmpmm(&mv, &since) < 0))
			continue;
		m = findminor(t, minor, 1, &cap);
		if (!m->release || pepcmp(w->release, m->release) > 0)
			m->release = w->release;
	}
	for (i = 0; i < n; i++) {
		struct twheel *w = &t->w[i];
		struct minor *m;

		if (*w->local || !usable(t, w, minor) || !(m = findminor(t, minor, 0, NULL)) || pepcmp(w->release, m->release))
			continue;
		setadd1(&m->py[w->machine], w->python);
		if (!m->pick[w->machine] || better(w, m->pick[w->machine]))
			m->pick[w->machine] = w;
	}
	sortlist(t->m, t->nm, sizeof(*t->m), cmpminor);
	for (i = 0; i < t->nm; i++) {
		setsort(&t->m[i].py[M_X86]);
		setsort(&t->m[i].py[M_ARM]);
	}
}

/* "cu128" -> "12.8", "cu92" -> "9.2"; 0 for other labels */
static int
labelcuda(const char *local, char out[16])
{
	size_t d = strlen(local + 2);

	if (strncmp(local, "cu", 2) || (d != 2 && d != 3) || strspn(local + 2, "0123456789") != d)
		return 0;
	snprintf(out, 16, "%.*s.%c", (int)(d - 1), local + 2, local[d + 1]);
	return 1;
}

/* the CUDA index's wheels [from, t->nw): per minor of torch's page, the CUDAs of its newest release there */
static void
groupcudas(struct tt *t, size_t from)
{
	size_t i, pass;
	char minor[32], cuda[16];

	for (pass = 0; pass < 2; pass++) {
		for (i = from; i < t->nw; i++) {
			struct twheel *w = &t->w[i];
			struct minor *m;

			if (!usable(t, w, minor) || !labelcuda(w->local, cuda) || !(m = findminor(t, minor, 0, NULL)))
				continue;
			if (pass == 0 && (!m->cudarelease || pepcmp(w->release, m->cudarelease) > 0))
				m->cudarelease = w->release;
			else if (pass == 1 && !pepcmp(w->release, m->cudarelease))
				setadd1(&m->cudas, astrdup(&t->a, cuda));
		}
	}
	for (i = 0; i < t->nm; i++)
		setsort(&t->m[i].cudas);
}

/* --- the metadata ------------------------------------------------------------------------- */

/* one metadata file to read: a minor's wheel for a machine */
struct metajob {
	struct minor *m;
	int machine;
	const char *url;          /* the .metadata file's */
};

/* what the metadata text says: PyPI's CUDA there; -1 (printed) when it is not torch's release's */
static int
readmeta(struct metajob *j, const char *text, size_t len, const char *from)
{
	struct coremeta cm;
	struct sb why = SB_INIT;
	const char *want = j->m->pick[j->machine]->f->metasha256;
	char norm[256], hex[65];
	int rc = -1, local;

	if (want && j->url == from) {
		struct sha256 c;

		sha256init(&c);
		sha256add(&c, text, len);
		sha256hex(&c, hex);
		if (strcmp(hex, want))
			return error("%s: its sha256 is %s, the index says %s", from, hex, want);
	}
	if (coremetaparse(text, len, &cm, &why) < 0) {
		error("%s: not core metadata: %s", from, why.buf);
		sbfree(&why);
		return -1;
	}
	pepnormalize(strlen(cm.name) < sizeof(norm) ? cm.name : "?", norm);
	if (!pepversion(cm.version, &local) || strcmp(norm, "torch") || pepcmp(cm.version, j->m->release)) {
		sbreset(&why);
		quotenet(&why, cm.name);
		sbadd(&why, " ");
		quotenet(&why, cm.version);
		error("%s: the metadata of %s, not of torch %s", from, why.buf, j->m->release);
	} else if (torchcuda(&cm, machines(j->machine), j->m->cuda[j->machine], &why) < 0) {
		error("%s: %s", from, why.buf);
		rc = -1;
	} else {
		j->m->known[j->machine] = 1;
		rc = 0;
	}
	coremetafree(&cm);
	sbfree(&why);
	return rc;
}

/* METADATA out of the wheels by range requests, for the jobs whose .metadata is missing */
static int
rangemeta(struct tt *t, struct metajob **miss, size_t n)
{
	struct remotewheel *rw = xcalloc(n ? n : 1, sizeof(*rw));
	size_t i, bytes, requests;
	int rc = 0;

	for (i = 0; i < n; i++) {
		rw[i].url = miss[i]->m->pick[miss[i]->machine]->f->url;
		rw[i].filename = miss[i]->m->pick[miss[i]->machine]->f->filename;
	}
	remotewheelmeta(rw, n, t->tmp, &t->lim);
	for (i = 0, bytes = 0, requests = 0; i < n; i++) {
		bytes += rw[i].bytes;
		requests += (size_t)rw[i].requests;
	}
	notice("read the METADATA of %zu wheel%s by range requests: %zu requests, %.1f MB", n, n == 1 ? "" : "s", requests,
	       bytes / 1e6);
	for (i = 0; i < n; i++) {
		if (rw[i].why.len) {
			error("%s: cannot read its METADATA by range requests: %s", rw[i].url, rw[i].why.buf);
			rc = -1;
		} else if (readmeta(miss[i], rw[i].meta.buf, rw[i].meta.len, rw[i].url) < 0) {
			rc = -1;
		}
		remotewheelfree(&rw[i]);
	}
	free(rw);
	return rc;
}

/* one fetched .metadata file: read, missing (*miss), or an error (printed) */
static int
metaanswer(struct metajob *j, const struct httpget *g, int *miss)
{
	char *text;
	size_t len;
	int rc;

	*miss = 0;
	if (g->why.len)
		return error("%s: %s", g->url, g->why.buf);
	if (g->status == 404 || g->status == 410 || g->status == 403) {
		if (j->m->pick[j->machine]->f->metadata)
			warn("%s: HTTP %ld, though the index says the file is there", g->url, g->status);
		*miss = 1;
		return 0;
	}
	if (g->status != 200)
		return error("%s: HTTP status %ld", g->url, g->status);
	if (!(text = readfilemax(g->dest, &len, COREMETA_MAX)))
		return error("cannot read '%s': %s", g->dest, strerror(errno));
	rc = readmeta(j, text, len, g->url);
	free(text);
	return rc;
}

/* PyPI's CUDA per minor and platform, from the metadata of the picked wheels */
static int
fetchmeta(struct tt *t)
{
	struct metajob *j = xcalloc(2 * t->nm + 1, sizeof(*j)), **miss = xcalloc(2 * t->nm + 1, sizeof(*miss));
	struct httpget *g = xcalloc(2 * t->nm + 1, sizeof(*g));
	size_t i, n = 0, nmiss = 0;
	int k, rc = 0, missing;

	for (i = 0; i < t->nm; i++) {
		for (k = 0; k < NMACH; k++) {
			if (!t->m[i].pick[k])
				continue;
			j[n].m = &t->m[i];
			j[n].machine = k;
			j[n].url = aprintf(&t->a, "%s.metadata", t->m[i].pick[k]->f->url);
			g[n].url = j[n].url;
			g[n].dest = aprintf(&t->a, "%s/meta%zu", t->tmp, n);
			g[n].max = COREMETA_MAX;
			n++;
		}
	}
	if (n && httpfetch(g, n, &t->lim) < 0 && !g[0].why.len)
		sbadd(&g[0].why, "cannot run curl");
	for (i = 0; i < n; i++) {
		if (metaanswer(&j[i], &g[i], &missing) < 0)
			rc = -1;
		if (missing)
			miss[nmiss++] = &j[i];
		httpgetfree(&g[i]);
	}
	if (rc == 0 && nmiss && t->o->range)
		rc = rangemeta(t, miss, nmiss);
	else if (nmiss)
		notice("%zu of %zu wheels have no .metadata file on the index (add --range to read their METADATA by "
		       "range requests): PyPI's CUDA of those minors is kept as %s has it", nmiss, n, t->o->config);
	free(j);
	free(miss);
	free(g);
	return rc;
}

/* --- the new table ------------------------------------------------------------------------ */

/* PyPI's CUDA for a minor: the x86_64 wheel's, else the aarch64 one's; the config's when neither was read */
static const char *
pypiof(struct tt *t, const struct minor *m, const struct cfgrow *old)
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
	const struct cfgrow *old = cfgfind(t, m->version);
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
	if (t->cudaread && m->cudarelease)
		copyset(&r->cuda, &m->cudas);
	else if (old)
		copyset(&r->cuda, &old->cuda);
	else if (r->pypi)
		setadd1(&r->cuda, r->pypi);
	if (r->pypi && !sethas(&r->cuda, r->pypi)) {
		setadd1(&r->cuda, r->pypi);
		setsort(&r->cuda);
	}
	if (t->cudaread && !m->cudarelease)
		notice("torch %s: %s has no CUDA wheels of it: its cuda list is %s", m->version, t->cudaurl,
		       old ? "kept" : "PyPI's CUDA alone");
	else if (!t->cudaread && !old)
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

	t->rows = aalloc(&t->a, (t->nm + t->ncfg + 1) * sizeof(*t->rows));
	for (i = 0; i < t->nm; i++)
		minorrow(t, &t->m[i], &t->rows[t->nrows++]);
	for (i = 0; i < t->ncfg; i++) {
		const struct cfgrow *c = &t->cfg[i];
		struct row *r;
		const char *v = c->version;

		if (findminor(t, c->version, 0, NULL))
			continue;
		if (t->o->drop && !(t->o->since && cmpmm(&v, &t->o->since) < 0))
			continue;
		r = &t->rows[t->nrows++];
		r->version = c->version;
		r->old = c;
		copyset(&r->cuda, &c->cuda);
		copyset(&r->python, &c->python);
		copyset(&r->platforms, &c->platforms);
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
listchange(struct sb *s, const char *what, const struct strset *old, const struct strset *now)
{
	size_t i, n;

	if (setequal(old, now))
		return;
	sbaddf(s, "%s%s", s->len ? "; " : "", what);
	for (i = n = 0; i < now->n; i++) {
		if (!sethas(old, now->v[i]))
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
		if (t->o->platforms && r->onindex && (r->old->hasplatforms || r->platforms.n))
			listchange(&c, "platforms", &r->old->platforms, &r->platforms);
		if (r->pypi && (!r->old->pypi || strcmp(r->old->pypi, r->pypi)))
			sbaddf(&c, "%spypi %s -> %s", c.len ? "; " : "", r->old->pypi ? r->old->pypi : "(none)", r->pypi);
		if (c.len)
			sbaddf(out, "torch %s: %s\n", r->version, c.buf);
		sbfree(&c);
	}
	for (i = 0; i < t->ncfg; i++) {
		size_t k;

		for (k = 0; k < t->nrows && strcmp(t->rows[k].version, t->cfg[i].version); k++)
			;
		if (k == t->nrows)
			sbaddf(out, "torch %s: removed (the index has no release of it)\n", t->cfg[i].version);
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
rowend(const struct tt *t, const struct cfgrow *c, size_t *eol)
{
	const struct node *v = c->val;
	size_t end;

	/* a block mapping ends where its last value does */
	while (v->kind == NMAP && v->n && ynodeoff(t->src, t->len, v) < t->len && t->src[ynodeoff(t->src, t->len, v)] != '{')
		v = v->kids[2 * v->n - 1];
	if (ynodeend(t->src, t->len, v, &end) < 0)
		return error("%s:%d: torch %s: its row ends in a value that --write cannot edit (write the row as one "
			     "line, {cuda: [...], python: [...]})", t->o->config, c->key->line, c->version);
	while (end < t->len && t->src[end] != '\n')
		end++;
	*eol = end;
	return 0;
}

/* set key of a config row to text (its value is now "same" or not); -1 (printed) when it cannot */
static int
setkey(struct tt *t, const struct cfgrow *c, const char *key, const char *text, int same, struct yedits *e)
{
	struct node *v = mapget(c->val, key);
	size_t start = ynodeoff(t->src, t->len, c->val), end;
	struct sb ins = SB_INIT;

	if (v && same)
		return 0;
	if (v) {
		if (ynodeend(t->src, t->len, v, &end) < 0)
			return error("%s:%d: torch %s: its %s is not a value on one line that --write can replace",
				     t->o->config, v->line, c->version, key);
		yeditadd(e, ynodeoff(t->src, t->len, v), end - ynodeoff(t->src, t->len, v), text);
		return 0;
	}
	if (c->val->kind != NMAP)
		return error("%s:%d: torch %s: its row is not a mapping", t->o->config, c->key->line, c->version);
	if (t->src[start] == '{' && c->val->n == 0) {
		sbaddf(&ins, "%s: %s", key, text);
		yeditadd(e, start + 1, 0, ins.buf);
	} else if (t->src[start] == '{') {
		if (ynodeend(t->src, t->len, c->val->kids[2 * c->val->n - 1], &end) < 0)
			return error("%s:%d: torch %s: its last value is not one --write can follow", t->o->config,
				     c->key->line, c->version);
		sbaddf(&ins, ", %s: %s", key, text);
		yeditadd(e, end, 0, ins.buf);
	} else {
		size_t eol, ls = ylineoff(t->src, t->len, c->val->line);

		if (rowend(t, c, &eol) < 0)
			return -1;
		sbadd(&ins, "\n");
		sbaddn(&ins, t->src + ls, start - ls);
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
	const struct cfgrow *c = r->old;
	struct sb v = SB_INIT;
	int rc = 0;

	/* (quoted as the row's own lists are) */
	yflowlist(&v, r->cuda.v, r->cuda.n, ylistquote(t->src, t->len, mapget(c->val, "cuda")));
	rc |= setkey(t, c, "cuda", v.buf, setequal(&c->cuda, &r->cuda), e);
	sbreset(&v);
	yflowlist(&v, r->python.v, r->python.n, ylistquote(t->src, t->len, mapget(c->val, "python")));
	rc |= setkey(t, c, "python", v.buf, setequal(&c->python, &r->python), e);
	if (r->pypi) {
		struct node *pv = mapget(c->val, "pypi");

		sbreset(&v);
		yquote(&v, r->pypi, pv ? yquotechar(t->src, t->len, pv) : '"');
		rc |= setkey(t, c, "pypi", v.buf, c->pypi && !strcmp(c->pypi, r->pypi), e);
	}
	if (t->o->platforms) {
		sbreset(&v);
		yflowlist(&v, r->platforms.v, r->platforms.n, ylistquote(t->src, t->len, mapget(c->val, "cuda")));
		rc |= setkey(t, c, "platforms", v.buf, c->hasplatforms && setequal(&c->platforms, &r->platforms), e);
	}
	sbfree(&v);
	return rc ? -1 : 0;
}

/* the indentation of the table's rows: the first row's, else two spaces */
static void
rowindent(const struct tt *t, struct sb *s)
{
	size_t ls, k;

	if (!t->ncfg) {
		sbadd(s, "  ");
		return;
	}
	ls = ylineoff(t->src, t->len, t->cfg[0].key->line);
	k = ynodeoff(t->src, t->len, t->cfg[0].key);
	sbaddn(s, t->src + ls, k - ls);
}

/* 1 if the config row c is removed */
static int
dropped(const struct tt *t, const struct cfgrow *c)
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
		const struct cfgrow *before = NULL, *after = NULL;
		struct sb line = SB_INIT;

		if (r->old) {
			if (r->onindex && editrow(t, r, e) < 0)
				return -1;
			continue;
		}
		for (k = 0; k < t->ncfg; k++) {
			const char *v = t->cfg[k].version;

			if (dropped(t, &t->cfg[k]))
				continue;
			if (cmpmm(&v, &r->version) < 0 && (!before || cmpmm(&v, &before->version) > 0))
				before = &t->cfg[k];
			if (cmpmm(&v, &r->version) > 0 && (!after || cmpmm(&v, &after->version) < 0))
				after = &t->cfg[k];
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
			yeditadd(e, ylineoff(t->src, t->len, after->key->line), 0, line.buf);
		} else {
			for (eol = ynodeoff(t->src, t->len, t->torchkey); eol < t->len && t->src[eol] != '\n'; eol++)
				;
			yeditadd(e, eol, 0, line.buf);
		}
		sbfree(&line);
	}
	for (i = 0; i < t->ncfg; i++) {
		if (!dropped(t, &t->cfg[i]))
			continue;
		if (rowend(t, &t->cfg[i], &eol) < 0)
			return -1;
		k = ylineoff(t->src, t->len, t->cfg[i].key->line);
		yeditadd(e, k, eol - k + (eol < t->len), "");
	}
	return 0;
}

/* --follow: packages whose torch list holds the table's newest minor get the newer new rows */
static int
follow(struct tt *t, struct yedits *e)
{
	const char *newest = cfgnewest(t);
	const struct node *pk = mapget(t->root, "packages");
	struct sb why = SB_INIT;
	size_t i;
	int rc = 0;

	for (i = 0; i < t->nrows; i++) {
		if (!t->rows[i].old && (!newest || cmpmm(&t->rows[i].version, &newest) > 0))
			setadd1(&t->added, t->rows[i].version);
	}
	if (!t->added.n || !newest || !pk || pk->kind != NMAP)
		return 0;
	for (i = 0; i < pk->n; i++) {
		const struct node *tn = mapget(pk->kids[2 * i + 1], "torch");
		struct strset l = { 0 };

		nodeset(tn, &l);
		if (sethas(&l, newest)) {
			if (!t->o->follow) {
				setadd1(&t->followed, pk->kids[2 * i]->s);
			} else if (yappendlist(t->src, t->len, tn, t->added.v, t->added.n, e, &why) < 0) {
				error("%s: package %s: %s", t->o->config, pk->kids[2 * i]->s, why.buf);
				rc = -1;
			} else {
				setadd1(&t->followed, pk->kids[2 * i]->s);
			}
		}
		setfree(&l);
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
	if (t->torchval->kind != NMAP || t->src[ynodeoff(t->src, t->len, t->torchval)] == '{')
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
	rc = yrewrite(t->o->config, t->src, t->len, &e, checkwritten, t);
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

/* read the index: the pages, the wheels, the minors, the metadata; the new rows */
static int
readindex(struct tt *t)
{
	size_t nmain;

	if (fetchpages(t) < 0 || addwheels(t, t->pageurl, &t->page) < 0)
		return -1;
	nmain = t->nw;
	if (t->cudaread && addwheels(t, t->cudaurl, &t->cpage) < 0)
		return -1;
	groupminors(t, nmain);
	if (!t->nm)
		return error("%s: no Linux CPython wheels of torch%s%s", t->pageurl, t->o->since || t->ncfg ? " from " : "",
			     t->o->since ? t->o->since : t->ncfg ? "the table's oldest minor on" : "");
	groupcudas(t, nmain);
	if (fetchmeta(t) < 0)
		return -1;
	buildrows(t);
	return 0;
}

static void
ttfree(struct tt *t)
{
	size_t i;
	int k;

	for (i = 0; i < t->ncfg; i++) {
		setfree(&t->cfg[i].cuda);
		setfree(&t->cfg[i].python);
		setfree(&t->cfg[i].platforms);
	}
	for (i = 0; i < t->nm; i++) {
		for (k = 0; k < NMACH; k++)
			setfree(&t->m[i].py[k]);
		setfree(&t->m[i].cudas);
	}
	for (i = 0; i < t->nrows; i++) {
		setfree(&t->rows[i].cuda);
		setfree(&t->rows[i].python);
		setfree(&t->rows[i].platforms);
	}
	setfree(&t->cpuonly);
	setfree(&t->added);
	setfree(&t->followed);
	free(t->m);
	free(t->w);
	free(t->src);
	indexpagefree(&t->page);
	indexpagefree(&t->cpage);
	afree(&t->a);
}

int
torchtable(const struct ttopts *o)
{
	struct tt t;
	struct sb chg = SB_INIT;
	const char *tmp = getenv("TMPDIR");
	char *next, *line;
	int rc = 1;

	memset(&t, 0, sizeof(t));
	t.o = o;
	t.lim.timeout = o->timeout > 0 ? o->timeout : HTTP_TIMEOUT;
	t.lim.stall = t.lim.timeout < HTTP_STALL ? t.lim.timeout : HTTP_STALL;
	t.lim.parallel = HTTP_PARALLEL;
	snprintf(t.tmp, sizeof(t.tmp), "%s/wgtorch.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(t.tmp)) {
		error("cannot make a temporary directory '%s': %s", t.tmp, strerror(errno));
		return 1;
	}
	if (loadconfig(&t) < 0 || (o->write && checkform(&t) < 0) || readindex(&t) < 0)
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
	rmtree(t.tmp);
	sbfree(&chg);
	ttfree(&t);
	return rc;
}
