/* esc: quoting for ninja (and its depfiles), POSIX sh, HTML, URLs, JSON and Markdown (see esc.h). */
#include <string.h>

#include "esc.h"

int
escninjapath(struct sb *s, const char *p)
{
	if (strpbrk(p, "\n\r|"))
		return -1;
	for (; *p; p++) {
		if (*p == '$' || *p == ' ' || *p == ':')
			sbaddc(s, '$');
		sbaddc(s, *p);
	}
	return 0;
}

int
escninjavalue(struct sb *s, const char *v)
{
	if (strpbrk(v, "\n\r"))
		return -1;
	for (; *v; v++) {
		if (*v == '$')
			sbaddc(s, '$');
		sbaddc(s, *v);
	}
	return 0;
}

void
escshell(struct sb *s, const char *w)
{
	sbaddc(s, '\'');
	for (; *w; w++) {
		if (*w == '\'')
			sbadd(s, "'\\''");
		else
			sbaddc(s, *w);
	}
	sbaddc(s, '\'');
}

void
eschtml(struct sb *s, const char *t)
{
	/* the bytes that end a plain run: NUL and the five that HTML escapes */
	static const unsigned char stop[256] = { [0] = 1, ['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1, ['\''] = 1 };

	for (;;) {
		const char *q = t;

		while (!stop[(unsigned char)*q])
			q++;
		sbaddn(s, t, (size_t)(q - t)); /* the plain run at once */
		t = q;
		switch (*t) {
		case '\0': return;
		case '&': sbadd(s, "&amp;"); break;
		case '<': sbadd(s, "&lt;"); break;
		case '>': sbadd(s, "&gt;"); break;
		case '"': sbadd(s, "&quot;"); break;
		default: sbadd(s, "&#39;"); break;
		}
		t++;
	}
}

void
escjson(struct sb *s, const char *t)
{
	sbaddc(s, '"');
	for (;;) {
		const char *q = t;
		unsigned char c;

		while ((c = (unsigned char)*q) >= 0x20 && c != '"' && c != '\\' && c != 0x7f)
			q++;
		sbaddn(s, t, (size_t)(q - t)); /* the plain run at once */
		t = q;
		if (!c)
			break;
		if (c == '"' || c == '\\') {
			sbaddc(s, '\\');
			sbaddc(s, (char)c);
		} else if (c == '\n') {
			sbadd(s, "\\n");
		} else if (c == '\t') {
			sbadd(s, "\\t");
		} else {
			sbaddf(s, "\\u%04x", c);
		}
		t++;
	}
	sbaddc(s, '"');
}

void
escmd(struct sb *s, const char *t)
{
	for (; *t; t++) {
		unsigned char c = (unsigned char)*t;

		if (c < 0x20 || c == 0x7f)
			sbaddc(s, ' ');
		else if (c == '&' || c == '<' || c == '>')
			sbadd(s, c == '&' ? "&amp;" : c == '<' ? "&lt;" : "&gt;");
		else if (strchr("\\`*_[]#|~", c))
			sbaddf(s, "\\%c", c);
		else
			sbaddc(s, (char)c);
	}
}

void
escmdcode(struct sb *s, const char *t)
{
	for (; *t; t++)
		sbaddc(s, (unsigned char)*t < 0x20 || *t == 0x7f ? '?' : *t);
}

/* a file name in an href: '+' and other reserved characters percent-encoded */
void
eschref(struct sb *s, const char *name)
{
	/* the unreserved characters (RFC 3986), written as they are: every other byte as %XX */
	static const char hex[] = "0123456789ABCDEF";
#define R2(c) [c] = 1, [c + 1] = 1
#define R10(c) R2(c), R2(c + 2), R2(c + 4), R2(c + 6), R2(c + 8)
	static const unsigned char plain[256] = {
		R10('0'), R10('A'), R10('K'), R2('U'), R2('W'), R2('Y'), R10('a'), R10('k'), R2('u'), R2('w'), R2('y'),
		['-'] = 1, ['.'] = 1, ['_'] = 1, ['~'] = 1,
	};
#undef R10
#undef R2

	for (;;) {
		const char *q = name;
		char pct[3];

		while (plain[(unsigned char)*q])
			q++;
		sbaddn(s, name, (size_t)(q - name)); /* the plain run at once */
		if (!*q)
			return;
		pct[0] = '%';
		pct[1] = hex[(unsigned char)*q >> 4];
		pct[2] = hex[(unsigned char)*q & 15];
		sbaddn(s, pct, 3);
		name = q + 1;
	}
}

/* a path in a depfile: space and '#' escaped, '$' doubled; -1 for what a depfile cannot name */
int
escdep(struct sb *s, const char *p)
{
	if (strpbrk(p, "\\\n\r\t"))
		return -1;
	for (; *p; p++) {
		if (*p == ' ' || *p == '#')
			sbaddc(s, '\\');
		if (*p == '$')
			sbaddc(s, '$');
		sbaddc(s, *p);
	}
	return 0;
}

int
escdepfile(struct sb *s, struct sb *bad, const char *target, const char *dir, const char *const *deps, size_t n)
{
	struct sb path = SB_INIT;
	size_t i;
	int rc = 0;

	if (escdep(s, target) < 0)
		return -1;
	sbaddc(s, ':');
	for (i = 0; i < n && rc == 0; i++) {
		sbreset(&path);
		if (dir)
			sbaddf(&path, "%s/", dir);
		sbadd(&path, deps[i] + (startswith(deps[i], "./") ? 2 : 0));
		sbaddc(s, ' ');
		if (escdep(s, path.buf) < 0) {
			sbreset(bad);
			sbadd(bad, path.buf);
			rc = -2;
		}
	}
	sbaddc(s, '\n');
	sbfree(&path);
	return rc;
}

void
escdepfilewhy(struct sb *s, int rc, const char *target, const char *bad)
{
	if (rc == -2)
		sbaddf(s, "source path '%s' cannot be named in a depfile (a backslash, tab, CR or newline)", bad);
	else
		sbaddf(s, "cannot name '%s' in a depfile", target);
}

void
escurlpath(struct sb *s, const char *path)
{
	const char *q;

	for (;;) {
		struct sb seg = SB_INIT;

		q = strchr(path, '/');
		sbaddn(&seg, path, q ? (size_t)(q - path) : strlen(path));
		eschref(s, seg.buf);
		sbfree(&seg);
		if (!q)
			return;
		sbaddc(s, '/');
		path = q + 1;
	}
}
