/* storeview: many cells of a store read at once, reading only what changed (see storeview.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "damage.h"
#include "files.h"
#include "http.h"
#include "sha256.h"
#include "storelayout.h"
#include "storeview.h"

/* a blob directory's listing may be at most this long (a wheel and its .metadata) */
#define BLOBDIR_MAX (1 << 20)

struct viewman {
	char *id;               /* the cell */
	int state;              /* 0 read (text), 1 the store has none, -1 not read */
	char *text;
	size_t len;
};

static int
cmpman(const void *a, const void *b)
{
	return strcmp(((const struct viewman *)a)->id, ((const struct viewman *)b)->id);
}

static struct viewman *
manof(const struct storeview *v, const char *id)
{
	struct viewman key;

	if (!v->nman)
		return NULL;
	key.id = (char *)id;
	return bsearch(&key, v->man, v->nman, sizeof(*v->man), cmpman);
}

int
storeviewopen(struct storeview *v, const struct store *s, const char *builddir, struct sb *why)
{
	struct sb w = SB_INIT;
	int r;

	memset(v, 0, sizeof(*v));
	v->s = s;
	v->builddir = builddir;
	catalogload(&v->cat, builddir, storename(s));
	if (s->kind == STORE_NONE)
		return 0;
	r = storelisting(s, "", &v->top, &w);
	v->requests += v->top.requests;
	if (r < 0) {
		sbadd(why, w.buf);
		sbfree(&w);
		return -1;
	}
	v->listed = r == 0 && (v->top.validators || (v->top.n == 0 && v->top.isindex));
	if (!v->listed) {
		notice("the store %s serves no listing with the sizes and times of its files (%s): every manifest is "
		       "read, every time (serve it with nginx's autoindex, or any directory index that says them)",
		       storename(s), w.len ? w.buf : "a page that is no directory index");
		listingfree(&v->top);
	} else if (!s->release) {
		struct sb blobs = SB_INIT;

		sbreset(&w);
		storeblobsdir(&blobs, NULL);
		r = storelisting(s, blobs.buf, &v->blobs, &w);
		sbfree(&blobs);
		v->requests += v->blobs.requests;
		if (r < 0) {
			sbadd(why, w.buf);
			sbfree(&w);
			return -1;
		}
		/* (no blobs/ at all: nothing is stored by its content yet) */
		v->blobslisted = r == 1 || v->blobs.validators || (v->blobs.n == 0 && v->blobs.isindex);
	}
	sbfree(&w);
	return 0;
}

/* m read: text (m takes it) is its manifest, kept in the catalog under e's validator (e: what
   the listing says of it; NULL: nothing, and nothing is kept) */
static void
manread(struct storeview *v, struct viewman *m, const struct listent *e, char *text, size_t len)
{
	m->state = 0;
	m->text = text;
	m->len = len;
	if (e) {
		struct sb name = SB_INIT;

		sbaddf(&name, "%s.manifest", m->id);
		catsetmanifest(&v->cat, name.buf, e->validator, v->top.date, text, len);
		sbfree(&name);
	}
}

/* the manifest of v->man[i] read from a directory store */
static int
readlocal(struct storeview *v, struct viewman *m, const struct listent *e, struct sb *why)
{
	struct sb path = SB_INIT;
	size_t len;
	char *text;
	int rc = 0;

	sbaddf(&path, "%s%s.manifest", v->s->where, m->id);
	if (!(text = readfilemax(path.buf, &len, MANIFEST_MAX))) {
		if (errno == ENOENT) {
			m->state = 1;
		} else if (errno == EFBIG) {
			/* (no manifest wheelgen can use: the parse says so) */
			m->state = 0;
			m->text = xstrdup("");
			m->len = MANIFEST_MAX + 1;
		} else {
			sbaddf(why, "cannot read '%s': %s", path.buf, strerror(errno));
			rc = -1;
		}
	} else {
		manread(v, m, e, text, len);
	}
	sbfree(&path);
	return rc;
}

/* read the manifests fetch[0..n) of an HTTP store at once */
static int
readremote(struct storeview *v, struct viewman **fetch, size_t n, struct sb *why)
{
	struct httpget *g = xcalloc(n + 1, sizeof(*g));
	struct sb *urls = xcalloc(n + 1, sizeof(*urls)), *bodies = xcalloc(n + 1, sizeof(*bodies)), name = SB_INIT;
	struct httplimits lim = { v->s->timeout, v->s->stall, HTTP_PARALLEL };
	size_t i;
	int rc = 0;

	if (storegivenup(v->s, why)) {
		rc = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		sbreset(&name);
		sbaddf(&name, "%s.manifest", fetch[i]->id);
		storeurl(&urls[i], v->s, name.buf);
		g[i].url = urls[i].buf;
		g[i].into = &bodies[i];
		g[i].max = MANIFEST_MAX;
		storehow(v->s, g[i].url, &g[i].how);
	}
	v->requests += httpbatchfollow(g, n, &lim);
	for (i = 0; i < n && rc == 0; i++) {
		struct viewman *m = fetch[i];

		if (g[i].over) {
			sbaddf(why, "GET %s: larger than %d bytes", g[i].url, MANIFEST_MAX);
			rc = -1;
		} else if (g[i].why.len) {
			sbaddf(why, "GET %s: %s", g[i].url, g[i].why.buf);
			rc = -1;
		} else if (g[i].status == 200) {
			const struct listent *e = v->listed ? listingfind(&v->top, strrchr(g[i].url, '/') + 1) : NULL;
			size_t len = bodies[i].len;

			manread(v, m, e, sbdetach(&bodies[i]), len);
		} else if (g[i].status == 404 || g[i].status == 410) {
			m->state = 1;
		} else if (g[i].status >= 300 && g[i].status < 400) {
			/* a redirect: asked again the store's way, which follows it by the store's rule */
			struct sb tmp = SB_INIT;
			char *text;
			size_t len;
			int r;

			sbreset(&name);
			sbaddf(&name, "%s.manifest", m->id);
			sbaddf(&tmp, "%s/.view.manifest", v->builddir);
			r = storeget(v->s, name.buf, tmp.buf, MANIFEST_MAX, why);
			v->requests++;
			if (r < 0) {
				rc = -1;
			} else if (r == 1) {
				m->state = 1;
			} else if ((text = readfilemax(tmp.buf, &len, MANIFEST_MAX))) {
				const struct listent *e = v->listed ? listingfind(&v->top, name.buf) : NULL;

				manread(v, m, e, text, len);
			} else {
				sbaddf(why, "cannot read '%s': %s", tmp.buf, strerror(errno));
				rc = -1;
			}
			unlink(tmp.buf);
			sbfree(&tmp);
		} else {
			storebadstatus(v->s, why, &g[i]);
			rc = -1;
		}
	}
out:
	for (i = 0; i < n; i++) {
		httpgetfree(&g[i]);
		sbfree(&urls[i]);
		sbfree(&bodies[i]);
	}
	free(g);
	free(urls);
	free(bodies);
	sbfree(&name);
	return rc;
}

int
storeviewread(struct storeview *v, const char *const *ids, size_t n, struct sb *why)
{
	struct viewman **fetch = xcalloc(n + 1, sizeof(*fetch));
	struct sb name = SB_INIT;
	size_t i, nfetch = 0;
	int rc = 0;

	v->man = xrealloc(v->man, (v->nman + n + 1) * sizeof(*v->man));
	for (i = 0; i < n; i++) {
		struct viewman *m = &v->man[v->nman++];

		memset(m, 0, sizeof(*m));
		m->id = xstrdup(ids[i]);
		m->state = -1;
	}
	qsort(v->man, v->nman, sizeof(*v->man), cmpman);
	for (i = 0; i < v->nman; i++) {
		struct viewman *m = &v->man[i];
		const struct listent *e = NULL;
		const char *text;
		size_t len;

		if (m->state != -1)
			continue;
		sbreset(&name);
		sbaddf(&name, "%s.manifest", m->id);
		if (v->s->kind == STORE_NONE) {
			m->state = 1;
			continue;
		}
		if (v->listed && !(e = listingfind(&v->top, name.buf))) {
			m->state = 1;
			continue;
		}
		if (e && (text = catmanifest(&v->cat, name.buf, e, &len))) {
			m->state = 0;
			m->text = xmalloc(len + 1);
			memcpy(m->text, text, len);
			m->text[len] = '\0';
			m->len = len;
			v->reused++;
			continue;
		}
		if (v->s->kind == STORE_DIR) {
			if (readlocal(v, m, e, why) < 0) {
				rc = -1;
				break;
			}
			continue;
		}
		fetch[nfetch++] = m;
	}
	if (rc == 0 && nfetch)
		rc = readremote(v, fetch, nfetch, why);
	free(fetch);
	sbfree(&name);
	return rc;
}

int
storeviewmanifest(struct storeview *v, const char *id, const char **text, size_t *len, struct sb *why)
{
	const struct viewman *m = manof(v, id);

	if (!m || m->state < 0) {
		sbaddf(why, "the manifest of %s was not read", id);
		return -1;
	}
	if (m->state == 1)
		return 1;
	*text = m->text;
	*len = m->len;
	return 0;
}

/* where the view looks m's wheel up: the directory it is in, as the store's listing names it
   ("<sha256>" of blobs/, or "" for a file of the top), into dir; the file's name in it */
static const char *
wheelplace(const struct wheelinfo *m, struct sb *dir)
{
	const char *name = entrywheel(m), *file;
	char sha[65];

	if (storeblobof(name, sha, &file) && *file && !strchr(file, '/')) {
		sbadd(dir, sha);
		return file;
	}
	return name;
}

int
storeviewwheels(struct storeview *v, struct sb *why)
{
	struct httpget *g;
	struct sb *urls, *bodies, dir = SB_INIT, path = SB_INIT;
	char **dirs;
	const struct listent **ents;
	size_t i, n = 0;
	int rc = 0;

	/* only an HTTP store whose blobs/ is listed: a directory store stats its files, a GitHub
	   store's listing says every asset's size, any other store is asked file by file */
	if (v->s->kind != STORE_HTTP || v->s->release || !v->listed || !v->blobslisted)
		return 0;
	g = xcalloc(v->nman + 1, sizeof(*g));
	urls = xcalloc(v->nman + 1, sizeof(*urls));
	bodies = xcalloc(v->nman + 1, sizeof(*bodies));
	dirs = xcalloc(v->nman + 1, sizeof(*dirs));
	ents = xcalloc(v->nman + 1, sizeof(*ents));
	for (i = 0; i < v->nman; i++) {
		struct wheelinfo m;
		struct sb w = SB_INIT;
		const struct listent *e;
		struct listing l;
		size_t k;

		if (v->man[i].state != 0 || manifestparsetext(v->man[i].text, v->man[i].len, v->man[i].id, &m, &w) < 0) {
			sbfree(&w);
			continue;
		}
		sbreset(&dir);
		wheelplace(&m, &dir);
		manifestfree(&m);
		sbfree(&w);
		if (!dir.len || !(e = listingfind(&v->blobs, dir.buf)) || !e->validator[0])
			continue;
		sbreset(&path);
		storeblobsdir(&path, dir.buf);
		if (catdir(&v->cat, path.buf, e, &l) == 0) {
			listingfree(&l);
			continue;
		}
		for (k = 0; k < n && strcmp(dirs[k], path.buf); k++)
			;
		if (k < n)
			continue;
		dirs[n] = xstrdup(path.buf);
		ents[n] = e;
		sbaddf(&urls[n], "%s%s", v->s->where, path.buf);
		g[n].url = urls[n].buf;
		g[n].into = &bodies[n];
		g[n].max = BLOBDIR_MAX;
		g[n].accept = "application/json, text/html;q=0.9";
		storehow(v->s, g[n].url, &g[n].how);
		n++;
	}
	if (n) {
		struct httplimits lim = { v->s->timeout, v->s->stall, HTTP_PARALLEL };

		if (storegivenup(v->s, why))
			rc = -1;
		else
			httpbatch(g, n, &lim);
		v->requests += n;
	}
	for (i = 0; i < n && rc == 0; i++) {
		struct listing l;
		struct sb w = SB_INIT;

		memset(&l, 0, sizeof(l));
		if (g[i].why.len) {
			sbaddf(why, "GET %s: %s", g[i].url, g[i].why.buf);
			rc = -1;
		} else if (g[i].status == 404 || g[i].status == 410) {
			/* gone since blobs/ was listed: an empty directory */
			catsetdir(&v->cat, dirs[i], ents[i]->validator, v->blobs.date, &l);
		} else if (g[i].status != 200) {
			storebadstatus(v->s, why, &g[i]);
			rc = -1;
		} else if (listingparse(bodies[i].buf, bodies[i].len, &l, &w) == 0 && (l.validators || l.isindex)) {
			catsetdir(&v->cat, dirs[i], ents[i]->validator, v->blobs.date, &l);
		}
		listingfree(&l);
		sbfree(&w);
	}
	for (i = 0; i < n; i++) {
		httpgetfree(&g[i]);
		sbfree(&urls[i]);
		sbfree(&bodies[i]);
		free(dirs[i]);
	}
	free(g);
	free(urls);
	free(bodies);
	free(dirs);
	free(ents);
	sbfree(&dir);
	sbfree(&path);
	return rc;
}

/* what the view knows of the file name (a path of the store) now, into e; 0, 1 when the store
   does not have it, -1 when the view cannot tell (ask the store) */
static int
fileent(struct storeview *v, const char *name, struct listent *e, struct listing *l, const struct listent **dirent)
{
	struct sb path = SB_INIT;
	const struct listent *f;
	const char *file;
	char sha[65];
	int rc = -1;

	memset(e, 0, sizeof(*e));
	memset(l, 0, sizeof(*l));
	*dirent = NULL;
	if (v->s->kind == STORE_DIR) {
		struct stat st;

		sbaddf(&path, "%s%s", v->s->where, name);
		if (stat(path.buf, &st) == 0 && S_ISREG(st.st_mode)) {
			listentstat(e, &st);
			rc = 0;
		} else {
			rc = errno == ENOENT || errno == ENOTDIR || !S_ISREG(st.st_mode) ? 1 : -1;
		}
		sbfree(&path);
		return rc;
	}
	if (!v->listed)
		return -1;
	if (!v->s->release && storeblobof(name, sha, &file)) {
		if (!v->blobslisted || !*file || strchr(file, '/'))
			goto out;
		if (!(*dirent = listingfind(&v->blobs, sha))) {
			rc = 1;
			goto out;
		}
		storeblobsdir(&path, sha);
		if (catdir(&v->cat, path.buf, *dirent, l) < 0)
			goto out;
		f = listingfind(l, file);
	} else {
		f = listingfind(&v->top, name);
		*dirent = f;
	}
	if (!f) {
		rc = 1;
	} else {
		*e = *f;
		rc = 0;
	}
out:
	sbfree(&path);
	return rc;
}

int
storeviewwheel(struct storeview *v, const struct wheelinfo *m, struct sb *why)
{
	const char *name = entrywheel(m), *hash;
	const struct listent *d;
	struct listent e, me;
	struct listing l, ml;
	struct sb meta = SB_INIT;
	int r = fileent(v, name, &e, &l, &d), rm;

	if (r < 0) {
		listingfree(&l);
		return wheeldamage(v->s, m, why);
	}
	if (r == 1) {
		wheelmismatch(v->s, m, MISMATCH_MISSING, 0, NULL, why);
		goto damaged;
	}
	if (m->size > 0 && e.size >= 0 && e.size != m->size) {
		wheelmismatch(v->s, m, MISMATCH_SIZE, (unsigned long long)e.size, NULL, why);
		goto damaged;
	}
	if (v->s->kind == STORE_DIR) {
		/* hashed once for as long as the file is as it was */
		char hex[65];
		struct sb path = SB_INIT;

		if (!(hash = catcheck(&v->cat, name, &e))) {
			sbaddf(&path, "%s%s", v->s->where, name);
			hash = "";
			if (sha256file(path.buf, hex) == 0) {
				catsetcheck(&v->cat, name, e.validator, (long long)time(NULL), hex);
				hash = hex;
			}
			sbfree(&path);
		}
		if (*hash && strcmp(hash, m->sha256)) {
			wheelmismatch(v->s, m, MISMATCH_SHA256, 0, hash, why);
			goto damaged;
		}
	}
	if (m->metasha && *m->metasha) {
		sbaddf(&meta, "%s.metadata", name);
		rm = fileent(v, meta.buf, &me, &ml, &d);
		listingfree(&ml);
		if (rm < 0) {
			long long size;

			rm = storestat(v->s, meta.buf, &size, why);
			if (rm < 0)
				goto fault;
		}
		if (rm == 1) {
			wheelmismatch(v->s, m, MISMATCH_NOMETADATA, 0, NULL, why);
			goto damaged;
		}
	}
	listingfree(&l);
	sbfree(&meta);
	return 0;
damaged:
	listingfree(&l);
	sbfree(&meta);
	return 1;
fault:
	listingfree(&l);
	sbfree(&meta);
	return -1;
}

/* the validator under which m's wheel is checked now (its file's, or its blob directory's), and
   the time it was listed; NULL when the view cannot tell */
static const char *
checkval(const struct storeview *v, const struct wheelinfo *m, struct listent *e, long long *seen)
{
	struct sb dir = SB_INIT;
	const char *name = entrywheel(m);
	const struct listent *x = NULL;

	if (v->s->kind == STORE_DIR) {
		struct stat st;
		struct sb path = SB_INIT;

		sbaddf(&path, "%s%s", v->s->where, name);
		if (stat(path.buf, &st) == 0) {
			listentstat(e, &st);
			x = e;
		}
		sbfree(&path);
		*seen = (long long)time(NULL);
		return x ? e->validator : NULL;
	}
	if (!v->listed)
		return NULL;
	wheelplace(m, &dir);
	if (dir.len)
		x = v->blobslisted ? listingfind(&v->blobs, dir.buf) : NULL;
	else
		x = listingfind(&v->top, name);
	sbfree(&dir);
	if (!x)
		return NULL;
	*e = *x;
	*seen = dir.len ? v->blobs.date : v->top.date;
	return e->validator[0] ? e->validator : NULL;
}

/* the catalog's name of a passed check of m's wheel (its hash is kept under its own name) */
static void
checkname(struct sb *s, const struct wheelinfo *m)
{
	sbaddf(s, "%s!checked", entrywheel(m));
}

const char *
storeviewchecked(const struct storeview *v, const struct wheelinfo *m)
{
	struct listent e;
	struct sb name = SB_INIT;
	long long seen;
	const char *r = NULL;

	if (checkval(v, m, &e, &seen)) {
		checkname(&name, m);
		r = catcheck(&v->cat, name.buf, &e);
		if (r && strcmp(r, m->sha256))
			r = NULL;
	}
	sbfree(&name);
	return r;
}

void
storeviewsetchecked(struct storeview *v, const struct wheelinfo *m)
{
	struct listent e;
	struct sb name = SB_INIT;
	long long seen;
	const char *val = checkval(v, m, &e, &seen);

	if (val) {
		checkname(&name, m);
		catsetcheck(&v->cat, name.buf, val, seen, m->sha256);
	}
	sbfree(&name);
}

int
storeviewclose(struct storeview *v)
{
	size_t i;
	int rc;

	if (v->nman && v->s->kind != STORE_NONE)
		notice("store %s: %zu manifest%s asked for, %zu as the catalog had them, %zu request%s", storename(v->s),
		       v->nman, v->nman == 1 ? "" : "s", v->reused, v->requests, v->requests == 1 ? "" : "s");
	catprune(&v->cat, v->listed ? &v->top : NULL, v->blobslisted ? &v->blobs : NULL);
	rc = v->s->kind == STORE_NONE ? 0 : catalogsave(&v->cat, v->builddir);
	catalogfree(&v->cat);
	listingfree(&v->top);
	listingfree(&v->blobs);
	for (i = 0; i < v->nman; i++) {
		free(v->man[i].id);
		free(v->man[i].text);
	}
	free(v->man);
	memset(v, 0, sizeof(*v));
	return rc;
}
