/* yamledit: byte-careful changes to a YAML file (see yamledit.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diag.h"
#include "files.h"
#include "yamledit.h"

void
yeditadd(struct yedits *e, size_t off, size_t len, const char *text)
{
	GROW(e->v, e->cap, e->n + 1);
	e->v[e->n].off = off;
	e->v[e->n].len = len;
	e->v[e->n].seq = e->n;
	e->v[e->n++].text = xstrdup(text);
}

static int
cmpedit(const void *a, const void *b)
{
	const struct yedit *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int
yeditapply(const char *src, size_t len, struct yedits *e, struct sb *out)
{
	size_t i, at = 0;

	sortlist(e->v, e->n, sizeof(*e->v), cmpedit);
	for (i = 0; i < e->n; i++) {
		if (e->v[i].off < at || e->v[i].off + e->v[i].len > len)
			return -1;
		sbaddn(out, src + at, e->v[i].off - at);
		sbadd(out, e->v[i].text);
		at = e->v[i].off + e->v[i].len;
	}
	sbaddn(out, src + at, len - at);
	return 0;
}

void
yeditsfree(struct yedits *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].text);
	free(e->v);
	memset(e, 0, sizeof(*e));
}

size_t
ylineoff(const char *src, size_t len, int line)
{
	size_t i = 0;
	int l = 1;

	while (l < line && i < len) {
		const char *nl = memchr(src + i, '\n', len - i);

		if (!nl)
			return len;
		i = (size_t)(nl - src) + 1;
		l++;
	}
	return l == line ? i : len;
}

size_t
ynodeoff(const char *src, size_t len, const struct node *n)
{
	size_t i = ylineoff(src, len, n->line);
	int col;

	/* ydoc's columns count characters, as libyaml does */
	for (col = 1; col < n->col && i < len && src[i] != '\n'; col++) {
		i++;
		while (i < len && ((unsigned char)src[i] & 0xC0) == 0x80)
			i++;
	}
	return i;
}

int
yquotechar(const char *src, size_t len, const struct node *n)
{
	size_t i = ynodeoff(src, len, n);

	if (n->kind != NSCALAR || !n->quoted || i >= len)
		return 0;
	return src[i] == '"' || src[i] == '\'' ? src[i] : 0;
}

/* the end of the quoted scalar starting at src[i] */
static int
quotedend(const char *src, size_t len, size_t i, size_t *end)
{
	char q = src[i++];

	while (i < len) {
		if (q == '"' && src[i] == '\\') {
			i += 2;
		} else if (src[i] == q) {
			if (q == '\'' && i + 1 < len && src[i + 1] == '\'') {
				i += 2;
				continue;
			}
			*end = i + 1;
			return 0;
		} else {
			i++;
		}
	}
	return -1;
}

/* the end of the flow list or mapping starting at src[i] */
static int
flowend(const char *src, size_t len, size_t i, size_t *end)
{
	size_t depth = 0;

	while (i < len) {
		char c = src[i];

		if (c == '"' || c == '\'') {
			if (quotedend(src, len, i, &i) < 0)
				return -1;
			continue;
		}
		if (c == '#' && i > 0 && (src[i - 1] == ' ' || src[i - 1] == '\t' || src[i - 1] == '\n')) {
			while (i < len && src[i] != '\n')
				i++;
			continue;
		}
		if (c == '[' || c == '{') {
			depth++;
		} else if (c == ']' || c == '}') {
			if (depth == 0)
				return -1;
			if (--depth == 0) {
				*end = i + 1;
				return 0;
			}
		}
		i++;
	}
	return -1;
}

int
ynodeend(const char *src, size_t len, const struct node *n, size_t *end)
{
	size_t i = ynodeoff(src, len, n);

	if (i >= len)
		return -1;
	if ((n->kind == NSEQ && src[i] == '[') || (n->kind == NMAP && src[i] == '{'))
		return flowend(src, len, i, end);
	if (n->kind != NSCALAR)
		return -1;
	if (src[i] == '"' || src[i] == '\'')
		return quotedend(src, len, i, end);
	if (!n->quoted && len - i >= n->len && !memcmp(src + i, n->s, n->len) && !memchr(n->s, '\n', n->len)) {
		*end = i + n->len;
		return 0;
	}
	return -1;
}

void
yquote(struct sb *s, const char *v, int quote)
{
	const char *p;
	int plain = quote == 0 && *v;

	/* plain only for what reads back as the same string: versions, names */
	for (p = v; plain && *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("._+-", *p)))
			plain = 0;
	}
	if (plain && (strchr("-+.", v[0]) || !strcasecmp(v, "null") || !strcasecmp(v, "true") || !strcasecmp(v, "false")))
		plain = 0;
	if (plain) {
		sbadd(s, v);
	} else if (quote == '\'') {
		sbaddc(s, '\'');
		for (p = v; *p; p++) {
			if (*p == '\'')
				sbaddc(s, '\'');
			sbaddc(s, *p);
		}
		sbaddc(s, '\'');
	} else {
		sbaddc(s, '"');
		for (p = v; *p; p++) {
			if (*p == '"' || *p == '\\')
				sbaddc(s, '\\');
			sbaddc(s, *p);
		}
		sbaddc(s, '"');
	}
}

void
yflowlist(struct sb *s, const char *const *v, size_t n, int quote)
{
	size_t i;

	sbaddc(s, '[');
	for (i = 0; i < n; i++) {
		if (i)
			sbadd(s, ", ");
		yquote(s, v[i], quote);
	}
	sbaddc(s, ']');
}

int
ylistquote(const char *src, size_t len, const struct node *list)
{
	if (list && list->kind == NSEQ && list->n)
		return yquotechar(src, len, list->kids[0]);
	if (list && list->kind == NSCALAR)
		return yquotechar(src, len, list);
	return '"';
}

/* the text of a block list's new item lines: each like the last item's line up to its value */
static int
blockappend(const char *src, size_t len, const struct node *list, const char *const *add, size_t n,
	    struct yedits *e, struct sb *why)
{
	const struct node *last = list->kids[list->n - 1];
	size_t start = ynodeoff(src, len, last), ls = ylineoff(src, len, last->line), end, eol;
	struct sb t = SB_INIT;
	size_t i;

	if (ynodeend(src, len, last, &end) < 0) {
		sbaddf(why, "line %d: its last item is not a value on one line", last->line);
		return -1;
	}
	for (eol = end; eol < len && src[eol] != '\n'; eol++)
		;
	for (i = 0; i < n; i++) {
		sbadd(&t, "\n");
		sbaddn(&t, src + ls, start - ls);   /* "    - " */
		yquote(&t, add[i], yquotechar(src, len, last));
	}
	/* after the last item's line (a comment on it stays there) */
	yeditadd(e, eol, 0, t.buf);
	sbfree(&t);
	return 0;
}

int
yappendlist(const char *src, size_t len, const struct node *list, const char *const *add, size_t n,
	    struct yedits *e, struct sb *why)
{
	struct sb t = SB_INIT;
	size_t start, end, i;
	int q = '"';

	if (n == 0)
		return 0;
	start = ynodeoff(src, len, list);
	if (list->kind == NSCALAR) {
		/* a single string stands for a one-item list */
		if (ynodeend(src, len, list, &end) < 0) {
			sbaddf(why, "line %d: a value that is not on one line", list->line);
			return -1;
		}
		sbaddc(&t, '[');
		sbaddn(&t, src + start, end - start);
		q = yquotechar(src, len, list);
		for (i = 0; i < n; i++) {
			sbadd(&t, ", ");
			yquote(&t, add[i], q);
		}
		sbaddc(&t, ']');
		yeditadd(e, start, end - start, t.buf);
		sbfree(&t);
		return 0;
	}
	if (list->kind != NSEQ) {
		sbaddf(why, "line %d: %s, not a list", list->line, nodekindname(list));
		return -1;
	}
	if (start >= len || src[start] != '[') {
		if (list->n)
			return blockappend(src, len, list, add, n, e, why);
		sbaddf(why, "line %d: an empty block list", list->line);
		return -1;
	}
	if (flowend(src, len, start, &end) < 0) {
		sbaddf(why, "line %d: a flow list without its end", list->line);
		return -1;
	}
	if (list->n) {
		const struct node *last = list->kids[list->n - 1];

		q = yquotechar(src, len, last);
		if (last->kind != NSCALAR || ynodeend(src, len, last, &end) < 0) {
			sbaddf(why, "line %d: the list's last item is not a plain value", last->line);
			return -1;
		}
	} else {
		end = start + 1;   /* right after '[' */
	}
	for (i = 0; i < n; i++) {
		if (i || list->n)
			sbadd(&t, ", ");
		yquote(&t, add[i], q);
	}
	yeditadd(e, end, 0, t.buf);
	sbfree(&t);
	return 0;
}

int
yrewrite(const char *path, const char *src, size_t len, struct yedits *e,
	 int (*check)(const struct node *root, void *arg), void *arg)
{
	struct sb out = SB_INIT;
	struct arena a = { 0 };
	struct diags d = { 0 };
	struct node *root;
	int rc = -1;

	if (yeditapply(src, len, e, &out) < 0) {
		error("%s: two changes to one place (a bug in wheelgen): nothing written", path);
		goto out;
	}
	if (out.len == len && !memcmp(out.buf, src, len)) {
		rc = 0;
		goto out;
	}
	d.file = path;
	d.src = out.buf;
	d.srclen = out.len;
	root = ydocparse(&a, out.buf, out.len, &d);
	if (d.errors || !root) {
		diagprint(&d, stderr);
		error("%s: the changed text does not read back (a bug in wheelgen): nothing written", path);
		goto out;
	}
	if (check && check(root, arg) < 0) {
		error("%s: the changed text does not say what it should (a bug in wheelgen): nothing written", path);
		goto out;
	}
	rc = writeifchanged(path, out.buf, out.len);
out:
	diagfree(&d);
	afree(&a);
	sbfree(&out);
	return rc;
}
