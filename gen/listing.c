/* listing: what a store's directory listing says of its files (see listing.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "files.h"
#include "http.h"
#include "json.h"
#include "listing.h"
#include "storelayout.h"

/* GitHub lists a page at most this long */
#define GH_PAGE 100
/* the most a page of GitHub's list of a release's assets may be */
#define GH_PAGE_MAX (4 << 20)

static int
cmpent(const void *a, const void *b)
{
	return strcmp(((const struct listent *)a)->name, ((const struct listent *)b)->name);
}

/* add an entry (name a plain file name, or with path a file name of the store, storelayout.h's
   storefile; else left out) */
static struct listent *
listaddpath(struct listing *l, const char *name, size_t len, int dir, int path)
{
	struct listent *e;
	char *n = xmalloc(len + 1);

	memcpy(n, name, len);
	n[len] = '\0';
	if (!(path ? storefile(n) : plainname(n)) || strchr(n, ' ') || strchr(n, '"')) {
		free(n);
		return NULL;
	}
	GROW(l->e, l->cap, l->n + 1);
	e = &l->e[l->n++];
	memset(e, 0, sizeof(*e));
	e->name = n;
	e->dir = dir;
	e->size = -1;
	return e;
}

static struct listent *
listadd(struct listing *l, const char *name, size_t len, int dir)
{
	return listaddpath(l, name, len, dir, 0);
}

/* a validator of size and mtime at resolution res */
static void
sizetime(struct listent *e, long long size, long long mtime, int res)
{
	e->size = size;
	e->mtime = mtime;
	e->res = res;
	if (mtime > 0)
		snprintf(e->validator, sizeof(e->validator), "%lld@%lld", size, mtime);
}

static void
listingsort(struct listing *l)
{
	size_t i, k;

	if (l->n)
		qsort(l->e, l->n, sizeof(*l->e), cmpent);
	/* one entry a name (a listing that names one twice: the first) */
	for (i = 1, k = l->n ? 1 : 0; i < l->n; i++) {
		if (!strcmp(l->e[i].name, l->e[k - 1].name))
			free(l->e[i].name);
		else
			l->e[k++] = l->e[i];
	}
	l->n = k;
	l->validators = l->n > 0;
	for (i = 0; i < l->n; i++) {
		if (!l->e[i].validator[0])
			l->validators = 0;
	}
}

const struct listent *
listingfind(const struct listing *l, const char *name)
{
	struct listent key;

	if (!l->n)
		return NULL;
	key.name = (char *)name;
	return bsearch(&key, l->e, l->n, sizeof(*l->e), cmpent);
}

void
listingfree(struct listing *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->e[i].name);
	free(l->e);
	memset(l, 0, sizeof(*l));
}

int
listingsame(const struct listent *e, const char *v, long long seen)
{
	if (!e || !e->validator[0] || strcmp(e->validator, v))
		return 0;
	return e->res == 0 || (e->mtime > 0 && seen > 0 && e->mtime + e->res <= seen);
}

/* the month of a three-letter name: 0-11, -1 */
static int
monthof(const char *m)
{
	static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	const char *p;

	if (strlen(m) < 3)
		return -1;
	for (p = names; *p; p += 3) {
		if (!strncmp(p, m, 3))
			return (int)(p - names) / 3;
	}
	return -1;
}

/* days from 1970-01-01 to y-m-d (m 0-11), the proleptic Gregorian calendar */
static long long
daysof(int y, int m, int d)
{
	static const int before[] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
	long long yy = y - 1;
	long long days = 365 * (yy - 1969) + (yy / 4 - 492) - (yy / 100 - 19) + (yy / 400 - 4);
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return days + before[m] + (m > 1 && leap) + d - 1;
}

/* seconds since 1970 of a date and time, -1 when out of range */
static long long
epochof(int y, int mon, int d, int h, int mi, int sec)
{
	if (y < 1970 || y > 9999 || mon < 0 || mon > 11 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 ||
	    sec < 0 || sec > 60)
		return -1;
	return daysof(y, mon, d) * 86400 + h * 3600 + mi * 60 + sec;
}

long long
httpdate(const char *s)
{
	char wd[4], mon[4], gmt[4], tail;
	int d, y, h, mi, sec;

	/* "Fri, 27 Nov 2026 16:24:10 GMT" (RFC 9110's IMF-fixdate) */
	if (!s || sscanf(s, "%3[A-Za-z], %d %3[A-Za-z] %d %d:%d:%d %3[A-Z]%c", wd, &d, mon, &y, &h, &mi, &sec, gmt,
			 &tail) != 8 ||
	    strcmp(gmt, "GMT"))
		return -1;
	return epochof(y, monthof(mon), d, h, mi, sec);
}

/* nginx's JSON autoindex: [{"name":..., "type":"file"|"directory", "mtime":..., "size":N}, ...] */
static int
parsejson(const char *text, size_t len, struct listing *l, struct sb *why)
{
	struct arena a = { 0 };
	const struct json *v = jsonparse(&a, text, len, NULL, why);
	size_t i;

	if (!v || v->kind != JSON_ARRAY) {
		if (v)
			sbaddf(why, "a listing is a list, not %s", jsonkindname(v));
		afree(&a);
		return -1;
	}
	for (i = 0; i < v->n; i++) {
		const char *name = jsonstr(jsonget(v->v[i], "name")), *type = jsonstr(jsonget(v->v[i], "type"));
		long long size = -1, t = httpdate(jsonstr(jsonget(v->v[i], "mtime")));
		struct listent *e;

		if (!name || !type || (strcmp(type, "file") && strcmp(type, "directory")))
			continue;
		if (!(e = listadd(l, name, strlen(name), !strcmp(type, "directory"))))
			continue;
		if (!e->dir && jsonint(jsonget(v->v[i], "size"), &size) < 0)
			size = -1;
		if (t > 0 && (e->dir || size >= 0))
			sizetime(e, size, t, 1);
	}
	afree(&a);
	return 0;
}

/* an href's target, percent-decoded, into n; the end of the href (after its quote) or NULL */
static const char *
hrefval(const char *p, struct sb *n)
{
	const char *q;

	for (q = p; *q && *q != '"'; q++) {
		if (*q == '%' && isxdigit((unsigned char)q[1]) && isxdigit((unsigned char)q[2])) {
			char h[3] = { q[1], q[2], 0 };

			sbaddc(n, (char)strtol(h, NULL, 16));
			q += 2;
		} else {
			sbaddc(n, *q);
		}
	}
	return *q ? q + 1 : NULL;
}

/* an HTML page: each link of the page's own directory (no path, no query); nginx's autoindex
   puts "DD-Mon-YYYY HH:MM SIZE" after it on its line */
static int
parsehtml(const char *text, struct listing *l)
{
	const char *p = text, *q;

	while ((p = strstr(p, "href=\""))) {
		struct sb n = SB_INIT;
		struct listent *e = NULL;
		size_t k;
		int dir;

		if (!(q = hrefval(p + 6, &n))) {
			sbfree(&n);
			break;
		}
		k = n.len;
		dir = k > 1 && n.buf[k - 1] == '/';
		if (dir)
			k--;
		if (k && !memchr(n.buf, '?', k) && !memchr(n.buf, '#', k) && memchr(n.buf, '/', k) == NULL)
			e = listadd(l, n.buf, k, dir);
		sbfree(&n);
		p = q;
		if (e) {
			const char *a = strstr(q, "</a>"), *eol = strchr(q, '\n');
			char mon[4], sz[32];
			int d, y, h, mi;

			if (a && (!eol || a < eol) &&
			    sscanf(a + 4, " %d-%3[A-Za-z]-%d %d:%d %31s", &d, mon, &y, &h, &mi, sz) == 6) {
				long long t = epochof(y, monthof(mon), d, h, mi, 0);
				char *end;
				long long size = strtoll(sz, &end, 10);

				if (t > 0 && ((dir && !strcmp(sz, "-")) || (!dir && *end == '\0' && size >= 0)))
					sizetime(e, dir ? -1 : size, t, 60);
			}
		}
	}
	return 0;
}

int
listingparse(const char *text, size_t len, struct listing *l, struct sb *why)
{
	size_t i = strspn(text, " \t\r\n");

	if (memchr(text, '\0', len)) {
		sbadd(why, "a listing with a NUL byte");
		return -1;
	}
	if (i < len && text[i] == '[') {
		if (parsejson(text, len, l, why) < 0)
			return -1;
		l->isindex = 1;
	} else {
		parsehtml(text, l);
		/* (nginx's and Apache's directory indexes say what they are) */
		l->isindex = strstr(text, "<title>Index of ") != NULL;
	}
	listingsort(l);
	return 0;
}

void
listentstat(struct listent *e, const struct stat *st)
{
	e->dir = S_ISDIR(st->st_mode);
	e->size = e->dir ? -1 : (long long)st->st_size;
	/* (the inode and the change time too: a file replaced by rename at its size and mtime) */
	e->mtime = (long long)(st->st_mtime > st->st_ctime ? st->st_mtime : st->st_ctime);
	e->res = 1;
	snprintf(e->validator, sizeof(e->validator), "%lld@%lld.%09ld/%lld.%09ld#%llu", e->size,
		 (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec, (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec,
		 (unsigned long long)st->st_ino);
}

/* a directory store's directory */
static int
listdir(const struct store *s, const char *dir, struct listing *l, struct sb *why)
{
	struct sb path = SB_INIT;
	struct dirent *d;
	DIR *dp;
	int fd;

	sbaddf(&path, "%s%s", s->where, dir);
	l->date = (long long)time(NULL);
	if (!(dp = opendir(path.buf))) {
		int e = errno;

		if (!*dir && e == ENOENT)
			sbaddf(why, "the store directory '%s' is missing", path.buf);
		else
			sbaddf(why, "cannot read the store directory '%s': %s", path.buf, strerror(e));
		sbfree(&path);
		return *dir && (e == ENOENT || e == ENOTDIR) ? 1 : -1;
	}
	fd = dirfd(dp);
	while ((d = readdir(dp))) {
		struct stat st;
		struct listent *e;

		if (d->d_name[0] == '.' || fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
			continue;
		if ((e = listadd(l, d->d_name, strlen(d->d_name), S_ISDIR(st.st_mode))))
			listentstat(e, &st);
	}
	closedir(dp);
	listingsort(l);
	l->validators = 1;
	l->isindex = 1;
	sbfree(&path);
	return 0;
}

/* an HTTP store's directory index */
static int
listhttp(const struct store *s, const char *dir, struct listing *l, struct sb *why)
{
	struct httpget g = { 0 };
	struct sb url = SB_INIT, page = SB_INIT;
	int rc = -1;

	sbaddf(&url, "%s%s", s->where, dir);
	g.url = url.buf;
	g.into = &page;
	g.max = STORE_LISTING_MAX;
	g.accept = "application/json, text/html;q=0.9";
	/* (an answer that is no listing, refused, redirected elsewhere or too long, is no fault: the
	   reader reads file by file, and meets the store's faults there; no answer at all is one) */
	l->requests++;
	if (storerequest(s, &g, why) < 0) {
		if (g.over || g.stop != HTTP_STOP_NONE)
			rc = 1;
	} else if (g.status != 200) {
		storebadstatus(s, why, &g);
		rc = 1;
	} else if (listingparse(page.buf, page.len, l, why) < 0) {
		struct sb w = SB_INIT;

		sbaddf(&w, "GET %s: not a listing: %s", url.buf, why->buf);
		sbreset(why);
		sbadd(why, w.buf);
		sbfree(&w);
		rc = 1;
	} else {
		long long t = httpdate(g.date);

		l->date = t > 0 ? t : 0;
		rc = 0;
	}
	httpgetfree(&g);
	sbfree(&url);
	sbfree(&page);
	return rc;
}

/* GET the JSON list at url (a page of GitHub's API) into *v (in a); -1 with why */
static int
ghpage(const struct store *s, struct arena *a, const char *url, const struct json **v, struct sb *why)
{
	struct httpget g = { 0 };
	struct sb text = SB_INIT;
	int rc;

	g.url = url;
	g.accept = "application/vnd.github+json";
	g.into = &text;
	g.max = STORE_LISTING_MAX;
	if ((rc = storerequest(s, &g, why)) == 0 && g.status != 200) {
		storebadstatus(s, why, &g);
		rc = -1;
	}
	httpgetfree(&g);
	if (rc == 0) {
		*v = jsonparse(a, text.buf, text.len, NULL, why);
		if (!*v || (*v)->kind != JSON_ARRAY) {
			if (*v)
				sbaddf(why, "GET %s: not a list but %s", url, jsonkindname(*v));
			rc = -1;
		}
	}
	sbfree(&text);
	return rc;
}

/* one asset of release tag into l, named as readers name it: a cell's manifest in the release of
   its cell by its own name, anything else <release>/<asset> */
static void
ghasset(const struct store *s, const char *tag, const struct json *asset, struct listing *l)
{
	const char *name = jsonstr(jsonget(asset, "name")), *updated = jsonstr(jsonget(asset, "updated_at"));
	struct sb full = SB_INIT, rel = SB_INIT;
	long long id, size;
	struct listent *e;

	if (!name || !plainname(name) || jsonint(jsonget(asset, "id"), &id) < 0 ||
	    jsonint(jsonget(asset, "size"), &size) < 0)
		return;
	if (endswith(name, ".manifest")) {
		struct sb cell = SB_INIT;

		sbaddn(&cell, name, strlen(name) - 9);
		storerelease(s->release, cell.buf, &rel);
		sbfree(&cell);
	}
	if (rel.len && !strcmp(rel.buf, tag))
		sbadd(&full, name);
	else
		sbaddf(&full, "%s/%s", tag, name);
	if ((e = listaddpath(l, full.buf, full.len, 0, 1))) {
		/* an asset replaced is a new asset: a new id */
		e->size = size;
		e->res = 0;
		snprintf(e->validator, sizeof(e->validator), "%lld#%lld@%.40s", size, id, updated ? updated : "");
	}
	sbfree(&full);
	sbfree(&rel);
}

/* a release of the store's, as the API's list of releases shows it */
struct ghrel {
	char *tag;
	long long id;
	const struct json *assets;  /* the assets the list shows of it (in the arena), or NULL */
};

/* the fewest assets GitHub shows of a release in a list of releases: a release shown with fewer
   is shown whole (tests/fakegithub.py shows 10, as a reader must assume) */
#define GH_SHOWN 10

/* the releases whose tag begins with the store's (every page of the API's list) into *rel;
   0 or -1 with why */
static int
ghreleases(const struct store *s, struct arena *a, struct ghrel **rel, size_t *n, struct listing *l, struct sb *why)
{
	struct sb url = SB_INIT, prefix = SB_INIT;
	const struct json *v;
	size_t i, page, cap = 0;
	int rc = 0;

	sbaddf(&prefix, "%s-", s->release);
	for (page = 1; rc == 0; page++) {
		sbreset(&url);
		sbaddf(&url, "%s/repos/%s/releases?per_page=%d&page=%zu", s->api, s->repo, GH_PAGE, page);
		l->requests++;
		if ((rc = ghpage(s, a, url.buf, &v, why)) < 0)
			break;
		for (i = 0; i < v->n; i++) {
			const char *tag = jsonstr(jsonget(v->v[i], "tag_name"));
			const struct json *assets = jsonget(v->v[i], "assets");
			long long id;

			if (tag && startswith(tag, prefix.buf) && storereleasename(tag, strlen(tag)) &&
			    jsonint(jsonget(v->v[i], "id"), &id) == 0) {
				GROW(*rel, cap, *n + 1);
				(*rel)[*n].tag = xstrdup(tag);
				(*rel)[*n].id = id;
				(*rel)[(*n)++].assets = assets && assets->kind == JSON_ARRAY ? assets : NULL;
			}
		}
		if (v->n < GH_PAGE)
			break;
	}
	sbfree(&url);
	sbfree(&prefix);
	return rc;
}

/* every page of release r's assets into l, the first page's answer (a batch's) given; 0 or -1 */
static int
ghassets(const struct store *s, struct arena *a, const struct ghrel *r, const struct httpget *g, const struct sb *first,
	 struct listing *l, struct sb *why)
{
	struct sb url = SB_INIT;
	const struct json *v;
	size_t k, page;
	int rc = 0;

	for (page = 1; rc == 0; page++) {
		if (page == 1 && (g->why.len || g->status != 200)) {
			if (g->why.len)
				sbaddf(why, "GET %s: %s", g->url, g->why.buf);
			else
				storebadstatus(s, why, g);
			rc = -1;
		} else if (page == 1) {
			v = jsonparse(a, first->buf, first->len, NULL, why);
			if (!v || v->kind != JSON_ARRAY) {
				if (v)
					sbaddf(why, "GET %s: not a list but %s", g->url, jsonkindname(v));
				rc = -1;
			}
		} else {
			sbreset(&url);
			sbaddf(&url, "%s/repos/%s/releases/%lld/assets?per_page=%d&page=%zu", s->api, s->repo, r->id, GH_PAGE,
			       page);
			l->requests++;
			rc = ghpage(s, a, url.buf, &v, why);
		}
		if (rc < 0)
			break;
		for (k = 0; k < v->n; k++)
			ghasset(s, r->tag, v->v[k], l);
		if (v->n < GH_PAGE)
			break;
	}
	sbfree(&url);
	return rc;
}

/* a GitHub store: every release whose tag begins with the store's, and every asset of each: as
   the list of releases shows them where it shows them whole, else from the release's own list
   (its first pages in one batch) */
static int
listgithub(const struct store *s, struct listing *l, struct sb *why)
{
	struct arena a = { 0 };
	struct sb *urls, *pages;
	struct httpget *g;
	struct ghrel *rel = NULL;
	size_t i, k, n = 0, nrel = 0, *of;
	int rc = ghreleases(s, &a, &rel, &nrel, l, why);

	g = xcalloc(nrel + 1, sizeof(*g));
	urls = xcalloc(nrel + 1, sizeof(*urls));
	pages = xcalloc(nrel + 1, sizeof(*pages));
	of = xcalloc(nrel + 1, sizeof(*of));
	for (i = 0; rc == 0 && i < nrel; i++) {
		if (rel[i].assets && rel[i].assets->n < GH_SHOWN) {
			for (k = 0; k < rel[i].assets->n; k++)
				ghasset(s, rel[i].tag, rel[i].assets->v[k], l);
			continue;
		}
		sbaddf(&urls[n], "%s/repos/%s/releases/%lld/assets?per_page=%d&page=1", s->api, s->repo, rel[i].id, GH_PAGE);
		g[n].url = urls[n].buf;
		g[n].accept = "application/vnd.github+json";
		g[n].into = &pages[n];
		g[n].max = GH_PAGE_MAX;
		storehow(s, g[n].url, &g[n].how);
		of[n++] = i;
	}
	if (rc == 0 && n) {
		struct httplimits lim = { s->timeout, s->stall, HTTP_PARALLEL };

		if (storegivenup(s, why))
			rc = -1;
		else
			l->requests += httpbatchfollow(g, n, &lim);
	}
	for (i = 0; rc == 0 && i < n; i++)
		rc = ghassets(s, &a, &rel[of[i]], &g[i], &pages[i], l, why);
	for (i = 0; i < nrel; i++)
		free(rel[i].tag);
	for (i = 0; i < n; i++) {
		httpgetfree(&g[i]);
		sbfree(&urls[i]);
		sbfree(&pages[i]);
	}
	free(rel);
	free(g);
	free(urls);
	free(pages);
	free(of);
	afree(&a);
	if (rc == 0) {
		listingsort(l);
		l->validators = 1;
		l->isindex = 1;
	}
	return rc;
}

int
storelisting(const struct store *s, const char *dir, struct listing *l, struct sb *why)
{
	memset(l, 0, sizeof(*l));
	if (s->kind == STORE_DIR)
		return listdir(s, dir, l, why);
	if (s->kind == STORE_HTTP && s->release) {
		if (*dir) {
			sbaddf(why, "a GitHub store has no directory '%s'", dir);
			return 1;
		}
		return listgithub(s, l, why);
	}
	if (s->kind == STORE_HTTP)
		return listhttp(s, dir, l, why);
	sbadd(why, "no store");
	return -1;
}

int
storelist(const struct store *s, const char *suffix, struct sb *names, struct sb *why)
{
	struct listing l;
	size_t i;
	int r = storelisting(s, "", &l, why);

	if (r == 1 && s->kind == STORE_HTTP)
		r = -1;
	if (r == 1) {
		/* (a directory store that is not there yet holds nothing) */
		sbreset(why);
		r = 0;
	}
	for (i = 0; r == 0 && i < l.n; i++) {
		if (!l.e[i].dir && endswith(l.e[i].name, suffix) && !strstr(l.e[i].name, ".tmp."))
			sbaddf(names, "%s\n", l.e[i].name);
	}
	listingfree(&l);
	return r < 0 ? -1 : 0;
}
