/* torchindex: what a package index says of torch (see torchindex.h). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coremeta.h"
#include "diag.h"
#include "files.h"
#include "pep.h"
#include "pytag.h"
#include "remotewheel.h"
#include "sha256.h"
#include "torchindex.h"
#include "wheelfile.h"

void
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

int
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
int
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

void
setfree(struct strset *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* "3.9" < "3.10" < "3.13" < "3.13t" < "3.14", and MAJOR.MINOR versions alike */
int
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

void
setsort(struct strset *s)
{
	sortlist(s->v, s->n, sizeof(*s->v), cmpmm);
}

/* --- the pages ---------------------------------------------------------------------------- */

/* root + "torch/" (root ending in '/') */
static const char *
pageof(struct tindex *t, const char *root)
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
fetchpages(struct tindex *t)
{
	struct httpget g[2];
	size_t n = t->cudaindex ? 2 : 1, i;
	int rc = -1;

	memset(g, 0, sizeof(g));
	t->pageurl = pageof(t, t->index);
	t->cudaurl = t->cudaindex ? pageof(t, t->cudaindex) : NULL;
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
			       g[1].why.len ? "" : aprintf(&t->a, "%ld", g[1].status), t->config);
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

/* one wheel of the page into t->w; -1 (printed) for a name that is no torch wheel's */
static int
addwheel(struct tindex *t, const char *url, const struct indexfile *f)
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
			pytagpython(wn.abi, w->python);
		rc = 0;
	}
	wheelnamefree(&wn);
	sbfree(&why);
	return rc;
}

/* the wheels of a page into t->w (from start); -1 (printed) at the first bad one */
static int
addwheels(struct tindex *t, const char *url, const struct indexpage *pg)
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
findminor(struct tindex *t, const char *version, int add, size_t *cap)
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
usable(const struct tindex *t, const struct twheel *w, char minor[32])
{
	return !w->f->yanked && w->machine >= 0 && w->python[0] && (t->pre || !peppre(w->release)) &&
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
groupminors(struct tindex *t, size_t n)
{
	const char *since = t->since;
	size_t i, cap = 0;
	char minor[32];

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
groupcudas(struct tindex *t, size_t from)
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
rangemeta(struct tindex *t, struct metajob **miss, size_t n)
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
fetchmeta(struct tindex *t)
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
	if (rc == 0 && nmiss && t->range)
		rc = rangemeta(t, miss, nmiss);
	else if (nmiss)
		notice("%zu of %zu wheels have no .metadata file on the index (add --range to read their METADATA by "
		       "range requests): PyPI's CUDA of those minors is kept as %s has it", nmiss, n, t->config);
	free(j);
	free(miss);
	free(g);
	return rc;
}

/* read the index: the pages, the wheels, the minors, the metadata */
int
torchsurvey(struct tindex *t)
{
	size_t nmain;

	t->lim.timeout = t->timeout > 0 ? t->timeout : HTTP_TIMEOUT;
	t->lim.stall = t->lim.timeout < HTTP_STALL ? t->lim.timeout : HTTP_STALL;
	t->lim.parallel = HTTP_PARALLEL;
	snprintf(t->tmp, sizeof(t->tmp), "%s/wgtorch.XXXXXX", tmpdir());
	if (!mkdtemp(t->tmp)) {
		error("cannot make a temporary directory '%s': %s", t->tmp, strerror(errno));
		t->tmp[0] = '\0';
		return -1;
	}
	if (fetchpages(t) < 0 || addwheels(t, t->pageurl, &t->page) < 0)
		return -1;
	nmain = t->nw;
	if (t->cudaread && addwheels(t, t->cudaurl, &t->cpage) < 0)
		return -1;
	groupminors(t, nmain);
	if (!t->nm)
		return error("%s: no Linux CPython wheels of torch%s%s", t->pageurl, t->since ? " from " : "",
			     t->sincetable ? "the table's oldest minor on" : t->since ? t->since : "");
	groupcudas(t, nmain);
	return fetchmeta(t);
}

const struct minor *
torchminor(const struct tindex *t, const char *version)
{
	size_t i;

	for (i = 0; i < t->nm; i++) {
		if (!strcmp(t->m[i].version, version))
			return &t->m[i];
	}
	return NULL;
}

void
tindexfree(struct tindex *t)
{
	size_t i;
	int k;

	if (t->tmp[0])
		rmtree(t->tmp);
	for (i = 0; i < t->nm; i++) {
		for (k = 0; k < NMACH; k++)
			setfree(&t->m[i].py[k]);
		setfree(&t->m[i].cudas);
	}
	free(t->m);
	free(t->w);
	indexpagefree(&t->page);
	indexpagefree(&t->cpage);
	afree(&t->a);
}
