/* catalog: what was read from a store, kept under its listing's validators (see catalog.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "files.h"
#include "layout.h"
#include "manifest.h"
#include "sha256.h"
#include "storelayout.h"

/* the format's first line */
#define CATALOG_HEAD "wheelgen-catalog 1\n"

enum catkind { CAT_MANIFEST = 'M', CAT_DIR = 'D', CAT_CHECK = 'K' };

/* one entry */
struct catent {
	char kind;              /* enum catkind */
	char *name;             /* the manifest's, directory's ("blobs/<sha256>/") or file's name */
	char *validator;        /* what the listing said of it when it was read */
	long long seen;         /* the store's clock then */
	char *text;             /* a manifest's text, a check's result */
	size_t len;
	struct listing files;   /* a directory's files */
};

/* FNV-1a of kind and name */
static size_t
hashof(char kind, const char *name)
{
	unsigned long long h = 1469598103934665603ULL;

	h = (h ^ (unsigned char)kind) * 1099511628211ULL;
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * 1099511628211ULL;
	return (size_t)h;
}

/* the slot of kind/name: its entry, or the empty slot where it would go */
static struct catent **
slotof(const struct catalog *c, char kind, const char *name)
{
	size_t i = hashof(kind, name) & (c->nslot - 1);

	while (c->slot[i] && (c->slot[i]->kind != kind || strcmp(c->slot[i]->name, name)))
		i = (i + 1) & (c->nslot - 1);
	return &c->slot[i];
}

static void
entfree(struct catent *e)
{
	if (!e)
		return;
	free(e->name);
	free(e->validator);
	free(e->text);
	listingfree(&e->files);
	free(e);
}

/* c's table made nslot slots, every entry put where a lookup finds it */
static void
rehash(struct catalog *c, size_t nslot)
{
	struct catent **old = c->slot;
	size_t i, nold = c->nslot;

	c->nslot = nslot;
	c->slot = xcalloc(nslot ? nslot : 1, sizeof(*c->slot));
	for (i = 0; i < nold; i++) {
		if (old[i])
			*slotof(c, old[i]->kind, old[i]->name) = old[i];
	}
	free(old);
}

/* the entry of kind/name, made (empty) where there is none */
static struct catent *
entry(struct catalog *c, char kind, const char *name)
{
	struct catent **s;

	if (2 * (c->n + 1) > c->nslot)
		rehash(c, c->nslot ? 2 * c->nslot : 1024);
	s = slotof(c, kind, name);
	if (!*s) {
		*s = xcalloc(1, sizeof(**s));
		(*s)->kind = kind;
		(*s)->name = xstrdup(name);
		c->n++;
	}
	return *s;
}

static const struct catent *
find(const struct catalog *c, char kind, const char *name)
{
	return c->nslot ? *slotof(c, kind, name) : NULL;
}

/* a token of the format: printable, no blank; 1 if s is one */
static int
token(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		if ((unsigned char)*s <= ' ' || (unsigned char)*s >= 127)
			return 0;
	}
	return 1;
}

/* set e's validator, time and text */
static void
entset(struct catent *e, const char *v, long long seen, const char *text, size_t len)
{
	free(e->validator);
	free(e->text);
	e->validator = xstrdup(v);
	e->seen = seen;
	e->text = NULL;
	e->len = 0;
	if (text) {
		e->text = xmalloc(len + 1);
		memcpy(e->text, text, len);
		e->text[len] = '\0';
		e->len = len;
	}
}

const char *
catmanifest(const struct catalog *c, const char *name, const struct listent *e, size_t *len)
{
	const struct catent *m = find(c, CAT_MANIFEST, name);

	if (!m || !listingsame(e, m->validator, m->seen))
		return NULL;
	*len = m->len;
	return m->text;
}

void
catsetmanifest(struct catalog *c, const char *name, const char *v, long long seen, const char *text, size_t len)
{
	if (!token(name) || !token(v))
		return;
	entset(entry(c, CAT_MANIFEST, name), v, seen, text, len);
	c->changed = 1;
}

/* a copy of listing l (its entries' names and what the listing said of them) */
static void
listingcopy(struct listing *to, const struct listing *l)
{
	size_t i;

	memset(to, 0, sizeof(*to));
	to->e = xcalloc(l->n + 1, sizeof(*to->e));
	for (i = 0; i < l->n; i++) {
		to->e[i] = l->e[i];
		to->e[i].name = xstrdup(l->e[i].name);
	}
	to->n = to->cap = l->n;
	to->date = l->date;
	to->validators = l->validators;
}

int
catdir(const struct catalog *c, const char *dir, const struct listent *e, struct listing *l)
{
	const struct catent *d = find(c, CAT_DIR, dir);

	memset(l, 0, sizeof(*l));
	if (!d || !listingsame(e, d->validator, d->seen))
		return -1;
	listingcopy(l, &d->files);
	return 0;
}

void
catsetdir(struct catalog *c, const char *dir, const char *v, long long seen, const struct listing *l)
{
	struct catent *d;
	size_t i;

	if (!token(dir) || !token(v))
		return;
	for (i = 0; i < l->n; i++) {
		if (!token(l->e[i].name))
			return;
	}
	d = entry(c, CAT_DIR, dir);
	entset(d, v, seen, NULL, 0);
	listingfree(&d->files);
	listingcopy(&d->files, l);
	c->changed = 1;
}

const char *
catcheck(const struct catalog *c, const char *path, const struct listent *e)
{
	const struct catent *k = find(c, CAT_CHECK, path);

	return k && listingsame(e, k->validator, k->seen) ? k->text : NULL;
}

void
catsetcheck(struct catalog *c, const char *path, const char *v, long long seen, const char *result)
{
	if (!token(path) || !token(v) || !token(result))
		return;
	entset(entry(c, CAT_CHECK, path), v, seen, result, strlen(result));
	c->changed = 1;
}

void
catprune(struct catalog *c, const struct listing *top, const struct listing *blobs)
{
	struct sb name = SB_INIT;
	size_t i;

	for (i = 0; i < c->nslot; i++) {
		struct catent *e = c->slot[i];
		char sha[65];
		int gone;

		if (!e)
			continue;
		/* (a check of a file is named after it: <file>!checked) */
		sbreset(&name);
		sbaddn(&name, e->name, strcspn(e->name, "!"));
		if (storeblobof(name.buf, sha, NULL))
			gone = blobs && !listingfind(blobs, sha);
		else
			gone = top && !listingfind(top, name.buf);
		if (gone) {
			entfree(e);
			c->slot[i] = NULL;
			c->n--;
			c->changed = 1;
		}
	}
	sbfree(&name);
	/* (a table with holes: put every entry where a lookup finds it) */
	if (c->changed)
		rehash(c, c->nslot);
}

static int
cmpentp(const void *a, const void *b)
{
	const struct catent *x = *(const struct catent *const *)a, *y = *(const struct catent *const *)b;

	return x->kind != y->kind ? x->kind - y->kind : strcmp(x->name, y->name);
}

/* the catalog's text (entries sorted, so that the same catalog is the same bytes) */
static void
cattext(const struct catalog *c, struct sb *out)
{
	struct catent **v = xcalloc(c->n + 1, sizeof(*v));
	size_t i, k, n = 0;
	struct sha256 h;
	char hex[65];

	for (i = 0; i < c->nslot; i++) {
		if (c->slot[i])
			v[n++] = c->slot[i];
	}
	sortlist(v, n, sizeof(*v), cmpentp);
	sbadd(out, CATALOG_HEAD);
	sbaddf(out, "store %s\n", c->store);
	for (i = 0; i < n; i++) {
		const struct catent *e = v[i];

		sbaddf(out, "%c %s %s %lld", e->kind, e->name, e->validator, e->seen);
		if (e->kind == CAT_MANIFEST) {
			sbaddf(out, " %zu\n", e->len);
			sbaddn(out, e->text, e->len);
			sbaddc(out, '\n');
		} else if (e->kind == CAT_CHECK) {
			sbaddf(out, " %s\n", e->text);
		} else {
			sbaddf(out, " %zu\n", e->files.n);
			for (k = 0; k < e->files.n; k++)
				sbaddf(out, "F %lld %s\n", e->files.e[k].size, e->files.e[k].name);
		}
	}
	sha256init(&h);
	sha256add(&h, out->buf, out->len);
	sha256hex(&h, hex);
	sbaddf(out, "end %s\n", hex);
	free(v);
}

/* the next line of buf[*at..len) as a string (its newline replaced), or NULL */
static char *
lineof(char *buf, size_t len, size_t *at)
{
	char *p = buf + *at, *nl;

	if (*at >= len || !(nl = memchr(p, '\n', len - *at)))
		return NULL;
	*nl = '\0';
	*at = (size_t)(nl - buf) + 1;
	return p;
}

/* split line into at most max blank-separated tokens; how many */
static size_t
fields(char *line, char **f, size_t max)
{
	size_t n = 0;
	char *p = line;

	while (n < max && *p) {
		f[n++] = p;
		p += strcspn(p, " ");
		if (*p)
			*p++ = '\0';
	}
	return *p ? max + 1 : n;
}

/* parse buf[0..len) (its "end" line checked already) into c; -1 with why */
static int
catparse(struct catalog *c, char *buf, size_t len, const char *store, struct sb *why)
{
	size_t at = strlen(CATALOG_HEAD);
	char *line, *f[6];
	long long seen;

	if (len < at || memcmp(buf, CATALOG_HEAD, at)) {
		sbadd(why, "not a catalog of this version");
		return -1;
	}
	if (!(line = lineof(buf, len, &at)) || strncmp(line, "store ", 6)) {
		sbadd(why, "no store line");
		return -1;
	}
	if (strcmp(line + 6, store))
		return 1; /* another store's */
	while ((line = lineof(buf, len, &at))) {
		size_t n = fields(line, f, 6);
		char kind = n ? f[0][0] : 0, *end;
		struct catent *e;

		if (n == 2 && !strcmp(f[0], "end"))
			return 0;
		if (n != 5 || strlen(f[0]) != 1 || !token(f[1]) || !token(f[2]) || !token(f[4]) ||
		    (kind != CAT_MANIFEST && kind != CAT_DIR && kind != CAT_CHECK)) {
			sbaddf(why, "a line that is no entry: '%.60s'", line);
			return -1;
		}
		seen = strtoll(f[3], &end, 10);
		if (*end || end == f[3]) {
			sbaddf(why, "a time that is no number: '%.30s'", f[3]);
			return -1;
		}
		e = entry(c, kind, f[1]);
		if (kind == CAT_CHECK) {
			entset(e, f[2], seen, f[4], strlen(f[4]));
		} else {
			unsigned long long k = strtoull(f[4], &end, 10), i;

			if (*end || (kind == CAT_MANIFEST && (k > MANIFEST_MAX || k > len - at)) || k > len) {
				sbaddf(why, "a count that does not fit: '%.30s'", f[4]);
				return -1;
			}
			if (kind == CAT_MANIFEST) {
				entset(e, f[2], seen, buf + at, (size_t)k);
				at += (size_t)k;
				if (at >= len || buf[at] != '\n') {
					sbadd(why, "a manifest's text without its newline");
					return -1;
				}
				at++;
				continue;
			}
			entset(e, f[2], seen, NULL, 0);
			for (i = 0; i < k; i++) {
				char *g[4], *ln = lineof(buf, len, &at);
				long long size;
				struct listent *x;

				if (!ln || fields(ln, g, 3) != 3 || strcmp(g[0], "F") || !token(g[2]) ||
				    ((size = strtoll(g[1], &end, 10)), *end)) {
					sbadd(why, "a directory's file that is no entry");
					return -1;
				}
				GROW(e->files.e, e->files.cap, e->files.n + 1);
				x = &e->files.e[e->files.n++];
				memset(x, 0, sizeof(*x));
				x->name = xstrdup(g[2]);
				x->size = size;
			}
		}
	}
	sbadd(why, "no end line");
	return -1;
}

/* 0 if the bytes of the catalog before its end line match the sha256 it names, else -1 */
static int
catsum(const char *buf, size_t len)
{
	struct sha256 h;
	char hex[65];
	size_t k;

	if (len < 70 || buf[len - 1] != '\n')
		return -1;
	for (k = len - 1; k > 0 && buf[k - 1] != '\n'; k--)
		;
	if (len - k != 4 + 64 + 1 || strncmp(buf + k, "end ", 4))
		return -1;
	sha256init(&h);
	sha256add(&h, buf, k);
	sha256hex(&h, hex);
	if (memcmp(hex, buf + k + 4, 64))
		return -1;
	return 0;
}

int
catalogload(struct catalog *c, const char *builddir, const char *store)
{
	struct sb path = SB_INIT, why = SB_INIT;
	size_t len;
	char *buf;
	int r;

	memset(c, 0, sizeof(*c));
	c->store = xstrdup(store);
	bdpath(&path, builddir, BD_CATALOG, NULL);
	if (!(buf = readfilemax(path.buf, &len, CATALOG_MAX))) {
		if (errno != ENOENT)
			notice("the store's catalog %s cannot be read (%s): every manifest is read again", path.buf,
			       errno == EFBIG ? "larger than it may be" : strerror(errno));
		sbfree(&path);
		return 0;
	}
	if (catsum(buf, len) < 0)
		sbadd(&why, "its last line is not the sha256 of the rest");
	r = why.len ? -1 : catparse(c, buf, len, store, &why);
	if (r != 0) {
		if (r < 0)
			notice("the store's catalog %s is damaged (%s): every manifest is read again", path.buf, why.buf);
		catalogfree(c);
		memset(c, 0, sizeof(*c));
		c->store = xstrdup(store);
		c->changed = 1;
	}
	free(buf);
	sbfree(&path);
	sbfree(&why);
	return 0;
}

int
catalogsave(struct catalog *c, const char *builddir)
{
	struct sb path = SB_INIT, text = SB_INIT;
	int rc = 0;

	if (c->changed) {
		bdpath(&path, builddir, BD_CATALOG, NULL);
		cattext(c, &text);
		rc = writeifchanged(path.buf, text.buf, text.len) < 0 ? -1 : 0;
		c->changed = 0;
	}
	sbfree(&path);
	sbfree(&text);
	return rc;
}

void
catalogfree(struct catalog *c)
{
	size_t i;

	for (i = 0; i < c->nslot; i++)
		entfree(c->slot[i]);
	free(c->slot);
	free(c->store);
	memset(c, 0, sizeof(*c));
}
