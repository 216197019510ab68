/* simpleapi: a project page of a package index, read without trusting it (see simpleapi.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "files.h"
#include "http.h"
#include "json.h"
#include "simpleapi.h"

void
quotenet(struct sb *out, const char *s)
{
	size_t i;

	sbaddc(out, '\'');
	for (i = 0; s[i] && i < 120; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c >= 0x7f || c == '\\')
			sbaddf(out, "\\x%02x", c);
		else
			sbaddc(out, (char)c);
	}
	if (s[i])
		sbadd(out, "...");
	sbaddc(out, '\'');
}

/* the length of a URL's scheme and ':' ("https:" is 6), 0 when it has none */
static size_t
schemelen(const char *s)
{
	size_t i;

	if (!isalpha((unsigned char)s[0]))
		return 0;
	for (i = 1; isalnum((unsigned char)s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.'; i++)
		;
	return s[i] == ':' ? i + 1 : 0;
}

/* RFC 3986's remove_dot_segments on the path in s (from its first byte), with its query kept */
static void
dropdots(struct sb *out, const char *path)
{
	const char *q = strpbrk(path, "?");
	size_t n = q ? (size_t)(q - path) : strlen(path), i, *starts = NULL, cap = 0, depth = 0;
	struct sb res = SB_INIT;

	for (i = 0; i < n;) {
		size_t e = i + 1, len;

		while (e < n && path[e] != '/')
			e++;
		/* the segment path[i+1 .. e), after the '/' at path[i] */
		len = e - i - 1;
		if (len == 1 && path[i + 1] == '.') {
			if (e == n)
				sbaddc(&res, '/');
		} else if (len == 2 && path[i + 1] == '.' && path[i + 2] == '.') {
			if (depth) {
				res.len = starts[--depth];
				res.buf[res.len] = '\0';
			}
			if (e == n)
				sbaddc(&res, '/');
		} else {
			GROW(starts, cap, depth + 1);
			starts[depth++] = res.len;
			sbaddn(&res, path + i, e - i);
		}
		i = e;
	}
	sbaddn(out, res.buf, res.len);
	if (q)
		sbadd(out, q);
	sbfree(&res);
	free(starts);
}

void
urlresolve(const char *base, const char *ref, struct sb *out)
{
	size_t bs = schemelen(base), rs = schemelen(ref), frag = strcspn(ref, "#");
	char *r = xstrndup(ref, frag), *b = xstrndup(base, strcspn(base, "?#"));
	const char *auth, *path;

	if (rs) {
		sbaddn(out, r, rs);
		if (startswith(r + rs, "//")) {
			auth = r + rs + 2;
			path = auth + strcspn(auth, "/?");
			sbaddn(out, r + rs, (size_t)(path - (r + rs)));
			dropdots(out, path);
		} else {
			sbadd(out, r + rs);
		}
	} else {
		/* the base's scheme and authority */
		auth = b + bs + (startswith(b + bs, "//") ? 2 : 0);
		path = auth + strcspn(auth, "/");
		if (startswith(r, "//")) {
			sbaddn(out, b, bs);
			auth = r + 2;
			path = auth + strcspn(auth, "/?");
			sbaddn(out, r, (size_t)(path - r));
			dropdots(out, path);
		} else if (r[0] == '/') {
			sbaddn(out, b, (size_t)(path - b));
			dropdots(out, r);
		} else {
			struct sb merged = SB_INIT;
			const char *slash = strrchr(path, '/');

			sbaddn(out, b, (size_t)(path - b));
			if (slash)
				sbaddn(&merged, path, (size_t)(slash - path) + 1);
			else
				sbaddc(&merged, '/');
			sbadd(&merged, r);
			dropdots(out, merged.buf);
			sbfree(&merged);
		}
	}
	free(r);
	free(b);
}

/* 1 if s is 64 hex digits (lowercased in place) */
static int
hex64(char *s)
{
	size_t i;

	for (i = 0; i < 64; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return 0;
		s[i] = (char)tolower((unsigned char)s[i]);
	}
	return s[64] == '\0';
}

/* check and keep one file; -1 with why */
static int
addfile(struct indexpage *pg, size_t *cap, const char *pageurl, struct indexfile *f, const char *href, struct sb *why)
{
	struct sb u = SB_INIT;
	size_t n = strlen(f->filename);

	if (!plainname(f->filename) || f->filename[0] == '.' || n > 255) {
		sbaddf(why, "file %zu: ", pg->n + 1);
		quotenet(why, f->filename);
		sbadd(why, " is not a plain file name");
		return -1;
	}
	urlresolve(pageurl, href, &u);
	if (!httpurlok(u.buf)) {
		sbaddf(why, "file %s: its URL ", f->filename);
		quotenet(why, u.buf);
		sbadd(why, " is not an http:// or https:// URL wheelgen fetches");
		sbfree(&u);
		return -1;
	}
	f->url = astrdup(&pg->a, u.buf);
	sbfree(&u);
	GROW(pg->files, *cap, pg->n + 1);
	pg->files[pg->n++] = *f;
	return 0;
}

/* PEP 691's core-metadata (or its older names): whether it is there, and its sha256 */
static void
jsonmeta(struct indexpage *pg, const struct json *file, struct indexfile *f)
{
	static const char *const keys[] = { "core-metadata", "data-dist-info-metadata", "dist-info-metadata" };
	const struct json *m = NULL;
	size_t k;

	for (k = 0; k < 3 && !m; k++)
		m = jsonget(file, keys[k]);
	if (jsonbool(m) == 1 || (m && m->kind == JSON_OBJECT)) {
		const char *h = jsonstr(jsonget(m, "sha256"));

		f->metadata = 1;
		if (h && strlen(h) == 64) {
			char *c = astrdup(&pg->a, h);

			f->metasha256 = hex64(c) ? c : NULL;
		}
	}
}

static int
parsejson(struct indexpage *pg, const char *url, const char *text, size_t len, struct sb *why)
{
	struct arena a = { 0 };
	const struct json *root, *files, *ver;
	const char *v;
	size_t i, cap = 0;
	int rc = -1;

	if (!(root = jsonparse(&a, text, len, NULL, why)))
		goto out;
	ver = jsonget(jsonget(root, "meta"), "api-version");
	if (!(v = jsonstr(ver)) || strncmp(v, "1.", 2)) {
		sbadd(why, "not a PEP 691 page: its meta.api-version is not 1.x");
		goto out;
	}
	if (!(files = jsonget(root, "files")) || files->kind != JSON_ARRAY) {
		sbaddf(why, "its 'files' is %s, not a list", jsonkindname(files));
		goto out;
	}
	for (i = 0; i < files->n; i++) {
		const struct json *file = files->v[i], *y;
		struct indexfile f;
		const char *name = jsonstr(jsonget(file, "filename")), *href = jsonstr(jsonget(file, "url")), *h;

		memset(&f, 0, sizeof(f));
		if (!name || !href) {
			sbaddf(why, "file %zu has no filename or url string", i + 1);
			goto out;
		}
		f.filename = astrdup(&pg->a, name);
		if ((h = jsonstr(jsonget(jsonget(file, "hashes"), "sha256"))) && strlen(h) == 64) {
			char *c = astrdup(&pg->a, h);

			f.sha256 = hex64(c) ? c : NULL;
		}
		jsonmeta(pg, file, &f);
		if ((h = jsonstr(jsonget(file, "requires-python"))))
			f.requirespython = astrdup(&pg->a, h);
		y = jsonget(file, "yanked");
		f.yanked = jsonbool(y) == 1 || (y && y->kind == JSON_STRING);
		if (addfile(pg, &cap, url, &f, href, why) < 0)
			goto out;
	}
	rc = 0;
out:
	afree(&a);
	return rc;
}

/* HTML: an entity-decoded copy of s[0..n) into the page's arena */
static const char *
htmltext(struct indexpage *pg, const char *s, size_t n)
{
	static const struct {
		const char *name, *c;
	} ents[] = { { "amp;", "&" }, { "lt;", "<" }, { "gt;", ">" }, { "quot;", "\"" }, { "apos;", "'" }, { "#39;", "'" } };
	struct sb o = SB_INIT;
	const char *res;
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (s[i] != '&') {
			sbaddc(&o, s[i]);
			continue;
		}
		for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
			size_t l = strlen(ents[k].name);

			if (n - i - 1 >= l && !strncmp(s + i + 1, ents[k].name, l)) {
				sbadd(&o, ents[k].c);
				i += l;
				break;
			}
		}
		if (k == sizeof(ents) / sizeof(ents[0])) {
			/* a numeric reference to a byte of ASCII, else kept as written */
			char *end = (char *)s;
			long c = -1;

			if (n - i > 3 && s[i + 1] == '#')
				c = s[i + 2] == 'x' || s[i + 2] == 'X' ? strtol(s + i + 3, &end, 16) : strtol(s + i + 2, &end, 10);
			if (c > 0 && c < 0x80 && end < s + n && *end == ';') {
				sbaddc(&o, (char)c);
				i = (size_t)(end - s);
			} else {
				sbaddc(&o, '&');
			}
		}
	}
	res = astrndup(&pg->a, o.buf, o.len);
	sbfree(&o);
	return res;
}

/* case-insensitive prefix of s[0..n) */
static int
iprefix(const char *s, size_t n, const char *p)
{
	size_t l = strlen(p);

	return n >= l && !strncasecmp(s, p, l);
}

/* one attribute of a tag at s[*i]: its name and value spans; 0 at the tag's end */
static int
htmlattr(const char *s, size_t n, size_t *i, size_t *ns, size_t *nl, size_t *vs, size_t *vl)
{
	while (*i < n && isspace((unsigned char)s[*i]))
		(*i)++;
	if (*i >= n || s[*i] == '>' || s[*i] == '/')
		return 0;
	*ns = *i;
	while (*i < n && !isspace((unsigned char)s[*i]) && s[*i] != '=' && s[*i] != '>')
		(*i)++;
	*nl = *i - *ns;
	*vs = *i;
	*vl = 0;
	while (*i < n && isspace((unsigned char)s[*i]))
		(*i)++;
	if (*i < n && s[*i] == '=') {
		(*i)++;
		while (*i < n && isspace((unsigned char)s[*i]))
			(*i)++;
		if (*i < n && (s[*i] == '"' || s[*i] == '\'')) {
			char q = s[(*i)++];

			*vs = *i;
			while (*i < n && s[*i] != q)
				(*i)++;
			*vl = *i - *vs;
			if (*i < n)
				(*i)++;
		} else {
			*vs = *i;
			while (*i < n && !isspace((unsigned char)s[*i]) && s[*i] != '>')
				(*i)++;
			*vl = *i - *vs;
		}
	}
	if (*nl == 0)
		(*i)++; /* a stray byte: step over it */
	return 1;
}

/* the attributes of the anchor starting at s (after "<a") into f; the href; the offset after '>' */
static size_t
htmlanchor(struct indexpage *pg, const char *s, size_t n, struct indexfile *f, const char **href)
{
	size_t i = 0, ns, nl, vs, vl;

	*href = NULL;
	while (htmlattr(s, n, &i, &ns, &nl, &vs, &vl)) {
		const char *name = s + ns;

		if (nl == 4 && iprefix(name, nl, "href")) {
			*href = htmltext(pg, s + vs, vl);
		} else if ((nl == 18 && iprefix(name, nl, "data-core-metadata")) ||
			   (nl == 23 && iprefix(name, nl, "data-dist-info-metadata"))) {
			const char *v = htmltext(pg, s + vs, vl);

			f->metadata = strcmp(v, "false") != 0;
			if (startswith(v, "sha256=") && strlen(v) == 7 + 64) {
				char *c = astrdup(&pg->a, v + 7);

				f->metasha256 = hex64(c) ? c : NULL;
			}
		} else if (nl == 11 && iprefix(name, nl, "data-yanked")) {
			f->yanked = 1;
		} else if (nl == 20 && iprefix(name, nl, "data-requires-python")) {
			f->requirespython = htmltext(pg, s + vs, vl);
		}
	}
	while (i < n && s[i] != '>')
		i++;
	return i < n ? i + 1 : n;
}

static int
parsehtml(struct indexpage *pg, const char *url, const char *text, size_t len, struct sb *why)
{
	size_t i = 0, cap = 0;

	while (i + 2 < len) {
		struct indexfile f;
		const char *href, *hash, *name;
		size_t start, end;
		char *t;

		if (text[i] != '<' || !iprefix(text + i + 1, len - i - 1, "a") ||
		    !(isspace((unsigned char)text[i + 2]) || text[i + 2] == '>')) {
			i++;
			continue;
		}
		memset(&f, 0, sizeof(f));
		start = i + 2 + htmlanchor(pg, text + i + 2, len - i - 2, &f, &href);
		for (end = start; end < len && !(text[end] == '<' && iprefix(text + end, len - end, "</a")); end++)
			;
		i = end;
		if (!href)
			continue;
		name = htmltext(pg, text + start, end - start);
		/* the anchor's text is the file name (PEP 503), blanks around it aside */
		while (isspace((unsigned char)*name))
			name++;
		t = astrdup(&pg->a, name);
		for (end = strlen(t); end > 0 && isspace((unsigned char)t[end - 1]); end--)
			t[end - 1] = '\0';
		f.filename = t;
		if ((hash = strstr(href, "#sha256=")) && strlen(hash + 8) == 64) {
			char *c = astrdup(&pg->a, hash + 8);

			f.sha256 = hex64(c) ? c : NULL;
		}
		if (addfile(pg, &cap, url, &f, href, why) < 0)
			return -1;
	}
	return 0;
}

int
indexpageparse(const char *url, const char *text, size_t len, const char *ctype, struct indexpage *pg, struct sb *why)
{
	size_t i, bad;
	int json;

	memset(pg, 0, sizeof(*pg));
	for (i = 0; i < len && isspace((unsigned char)text[i]); i++)
		;
	if (startswith(ctype, "application/vnd.pypi.simple.v1+json") || startswith(ctype, "application/json"))
		json = 1;
	else if (startswith(ctype, "text/html") || startswith(ctype, "application/vnd.pypi.simple.v1+html"))
		json = 0;
	else if (i < len && (text[i] == '{' || text[i] == '<'))
		json = text[i] == '{';
	else {
		sbadd(why, "neither a PEP 691 JSON page nor an HTML one");
		if (*ctype) {
			sbadd(why, " (Content-Type ");
			quotenet(why, ctype);
			sbadd(why, ")");
		}
		return -1;
	}
	pg->json = json;
	if (!json && (bad = utf8invalid(text, len)) < len) {
		sbaddf(why, "byte %zu: %s", bad, text[bad] ? "bytes that are not UTF-8" : "a NUL byte");
		return -1;
	}
	if ((json ? parsejson(pg, url, text, len, why) : parsehtml(pg, url, text, len, why)) < 0) {
		indexpagefree(pg);
		return -1;
	}
	return 0;
}

void
indexpagefree(struct indexpage *pg)
{
	free(pg->files);
	afree(&pg->a);
	memset(pg, 0, sizeof(*pg));
}
