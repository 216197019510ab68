/* util: messages, memory, growable strings, an arena and small string helpers (see util.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *argv0 = "wheelgen";
char sb_empty[1];

/* "argv0: [kind: ]msg" on f, one line, even from several threads (the index's page writers) */
static void
vmsg(FILE *f, const char *kind, const char *fmt, va_list ap)
{
	if (f == stderr)
		fflush(stdout);
	flockfile(f);
	fprintf(f, "%s: ", argv0);
	if (kind)
		fprintf(f, "%s: ", kind);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	funlockfile(f);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(stderr, "fatal", fmt, ap);
	va_end(ap);
	exit(1);
}

int
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(stderr, "error", fmt, ap);
	va_end(ap);
	return -1;
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(stderr, "warning", fmt, ap);
	va_end(ap);
}

void
report(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(stdout, NULL, fmt, ap);
	va_end(ap);
}

void
notice(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(stderr, NULL, fmt, ap);
	va_end(ap);
}

void
bug(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s: BUG: %s:%d: %s\n", argv0, file, line, msg);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		fatal("out of memory");
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

const char *
tmpdir(void)
{
	const char *t = getenv("TMPDIR");

	return t && *t ? t : "/tmp";
}

void
growarray(void **p, size_t *cap, size_t n, size_t elem)
{
	size_t c = *cap ? *cap : 8;

	if (n <= *cap)
		return;
	while (c < n)
		c *= 2;
	if (c > SIZE_MAX / elem)
		fatal("out of memory");
	*p = xrealloc(*p, c * elem);
	*cap = c;
}

void
sbgrow(struct sb *s, size_t n)
{
	size_t c;

	if (s->len + n + 1 <= s->cap)
		return;
	c = s->cap ? s->cap : 64;
	while (c < s->len + n + 1)
		c *= 2;
	if (s->cap == 0) {
		s->buf = xmalloc(c);
		s->buf[0] = '\0';
	} else {
		s->buf = xrealloc(s->buf, c);
	}
	s->cap = c;
}

void
sbaddn(struct sb *s, const char *p, size_t n)
{
	if (n == 0)
		return;
	sbgrow(s, n);
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

void
sbadd(struct sb *s, const char *p)
{
	sbaddn(s, p, strlen(p));
}

void
sbaddc(struct sb *s, char c)
{
	sbgrow(s, 1);
	s->buf[s->len++] = c;
	s->buf[s->len] = '\0';
}

void
sbvaddf(struct sb *s, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		BUG("vsnprintf failed");
	sbgrow(s, (size_t)n);
	vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
	s->len += (size_t)n;
}

void
sbaddf(struct sb *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbvaddf(s, fmt, ap);
	va_end(ap);
}

void
sbreset(struct sb *s)
{
	s->len = 0;
	if (s->cap)
		s->buf[0] = '\0'; /* never written while it is the shared empty string */
}

void
sbfree(struct sb *s)
{
	if (s->cap)
		free(s->buf);
	s->buf = sb_empty;
	s->len = s->cap = 0;
}

char *
sbdetach(struct sb *s)
{
	char *p = s->cap ? s->buf : xstrdup("");

	s->buf = sb_empty;
	s->len = s->cap = 0;
	return p;
}

struct arenablock {
	struct arenablock *next;
	size_t used, size;
};

/* the usable bytes start after the header, rounded up to 16 */
#define BLOCKDATA(b) ((unsigned char *)(b) + ((sizeof(struct arenablock) + 15) & ~(size_t)15))

void *
aalloc(struct arena *a, size_t n)
{
	struct arenablock *b = a->head;
	size_t size;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!b || b->size - b->used < n) {
		size = n > 65536 ? n : 65536;
		b = xmalloc(((sizeof(*b) + 15) & ~(size_t)15) + size);
		b->used = 0;
		b->size = size;
		b->next = a->head;
		a->head = b;
	}
	p = BLOCKDATA(b) + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

char *
astrndup(struct arena *a, const char *s, size_t n)
{
	char *p = aalloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
astrdup(struct arena *a, const char *s)
{
	return astrndup(a, s, strlen(s));
}

char *
aprintf(struct arena *a, const char *fmt, ...)
{
	struct sb s = SB_INIT;
	va_list ap;
	char *p;

	va_start(ap, fmt);
	sbvaddf(&s, fmt, ap);
	va_end(ap);
	p = astrndup(a, s.buf, s.len);
	sbfree(&s);
	return p;
}

void
afree(struct arena *a)
{
	struct arenablock *b, *next;

	for (b = a->head; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}

size_t
utf8invalid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k, need;
	unsigned int cp, min;

	while (i < len) {
		unsigned char c = s[i];

		if (c == 0)
			return i;
		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xE0) == 0xC0) {
			need = 1; cp = c & 0x1F; min = 0x80;
		} else if ((c & 0xF0) == 0xE0) {
			need = 2; cp = c & 0x0F; min = 0x800;
		} else if ((c & 0xF8) == 0xF0) {
			need = 3; cp = c & 0x07; min = 0x10000;
		} else {
			return i;
		}
		for (k = 1; k <= need; k++) {
			if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
				return i;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		i += need + 1;
	}
	return len;
}

char *
nextline(char **p)
{
	char *line = *p, *nl;

	if (!*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = line + strlen(line);
	}
	return line;
}

int
setadd(struct sb *set, const char *name)
{
	struct sb key = SB_INIT;
	int added;

	if (set->len == 0)
		sbaddc(set, '\n');
	sbaddf(&key, "\n%s\n", name);
	added = strstr(set->buf, key.buf) == NULL;
	if (added)
		sbaddn(set, key.buf + 1, key.len - 1);
	sbfree(&key);
	return added;
}

int
startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int
endswith(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

size_t
editdistance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), i, j, best;
	size_t *row, prev, cur;

	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	row = xmalloc((lb + 1) * sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			prev = cur;
			if (row[j] < best)
				best = row[j];
		}
		if (best > limit) {
			free(row);
			return limit + 1;
		}
	}
	best = row[lb];
	free(row);
	return best > limit ? limit + 1 : best;
}

const char *
orempty(const char *s)
{
	return s ? s : "";
}

void
sortlist(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}
