/* json: a strict, bounded JSON reader (see json.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* the parse under way */
struct parser {
	struct arena *a;
	const char *t;           /* the text */
	size_t len, i;           /* its length and where the parser is */
	size_t depth, maxdepth;
	size_t values, maxvalues;
	struct json **stack;     /* the items and member values of the open arrays and objects */
	const char **keys;       /* the open objects' keys, beside their values */
	size_t nstack, cap, kcap;
	struct sb *why;
	int failed;
};

/* record the first error, at byte off */
static void
fail(struct parser *p, size_t off, const char *what)
{
	size_t i, line = 1, col = 1;

	if (p->failed++)
		return;
	for (i = 0; i < off && i < p->len; i++) {
		if (p->t[i] == '\n')
			line++, col = 1;
		else
			col++;
	}
	sbaddf(p->why, "line %zu, column %zu: %s", line, col, what);
}

static void
skipspace(struct parser *p)
{
	while (p->i < p->len && (p->t[p->i] == ' ' || p->t[p->i] == '\t' || p->t[p->i] == '\n' || p->t[p->i] == '\r'))
		p->i++;
}

static struct json *
mkvalue(struct parser *p, enum jsonkind kind, size_t off)
{
	struct json *v;

	if (++p->values > p->maxvalues) {
		fail(p, off, "too many values");
		return NULL;
	}
	v = aalloc(p->a, sizeof(*v));
	v->kind = kind;
	v->off = off;
	return v;
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* four hex digits at t[i..i+4) as a number, or -1 */
static long
hex4(const struct parser *p, size_t i)
{
	long u = 0;
	size_t k;

	if (p->len - i < 4)
		return -1;
	for (k = 0; k < 4; k++) {
		int h = hexval(p->t[i + k]);

		if (h < 0)
			return -1;
		u = u * 16 + h;
	}
	return u;
}

static void
pututf8(char *out, size_t *n, unsigned long cp)
{
	if (cp < 0x80) {
		out[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		out[(*n)++] = (char)(0xC0 | (cp >> 6));
		out[(*n)++] = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		out[(*n)++] = (char)(0xE0 | (cp >> 12));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[(*n)++] = (char)(0x80 | (cp & 0x3F));
	} else {
		out[(*n)++] = (char)(0xF0 | (cp >> 18));
		out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
		out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
		out[(*n)++] = (char)(0x80 | (cp & 0x3F));
	}
}

/* the escape at t[i] (after the backslash) decoded into out; the bytes it took, or 0 */
static size_t
unescape(struct parser *p, size_t i, char *out, size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *e;
	long hi, lo;

	if (i >= p->len) {
		fail(p, i, "the text ends inside a string");
		return 0;
	}
	if (p->t[i] != 'u') {
		if (!p->t[i] || !(e = strchr(from, p->t[i]))) {
			fail(p, i - 1, "an unknown escape in a string");
			return 0;
		}
		out[(*n)++] = to[e - from];
		return 1;
	}
	if ((hi = hex4(p, i + 1)) < 0) {
		fail(p, i - 1, "\\u needs four hex digits");
		return 0;
	}
	if (hi >= 0xDC00 && hi <= 0xDFFF) {
		fail(p, i - 1, "a lone low surrogate (\\u) in a string");
		return 0;
	}
	if (hi < 0xD800 || hi > 0xDBFF) {
		pututf8(out, n, (unsigned long)hi);
		return 5;
	}
	/* a high surrogate: a low one must follow */
	if (p->len - (i + 5) < 6 || p->t[i + 5] != '\\' || p->t[i + 6] != 'u' || (lo = hex4(p, i + 7)) < 0xDC00 ||
	    lo > 0xDFFF) {
		fail(p, i - 1, "a lone high surrogate (\\u) in a string");
		return 0;
	}
	pututf8(out, n, 0x10000UL + (((unsigned long)hi - 0xD800) << 10) + ((unsigned long)lo - 0xDC00));
	return 11;
}

/* the string at t[i] == '"', decoded into the arena; NULL on error */
static const char *
parsestring(struct parser *p, size_t *outlen)
{
	size_t start = p->i, k, n = 0;
	char *out;

	/* first its extent, so that the decoded text (never longer) fits one allocation */
	for (k = start + 1; k < p->len && p->t[k] != '"'; k++) {
		if ((unsigned char)p->t[k] < 0x20) {
			fail(p, k, "a control character in a string (write it as an escape)");
			return NULL;
		}
		if (p->t[k] == '\\')
			k++;
	}
	if (k >= p->len) {
		fail(p, start, "a string that never ends");
		return NULL;
	}
	out = aalloc(p->a, k - start);
	for (p->i = start + 1; p->t[p->i] != '"';) {
		if (p->t[p->i] == '\\') {
			size_t took = unescape(p, p->i + 1, out, &n);

			if (!took)
				return NULL;
			p->i += 1 + took;
		} else {
			out[n++] = p->t[p->i++];
		}
	}
	p->i++;
	out[n] = '\0';
	*outlen = n;
	return out;
}

static int
isdigitc(char c)
{
	return c >= '0' && c <= '9';
}

/* a number's extent by RFC 8259's grammar; 0 with an error when it is not one */
static int
scannumber(struct parser *p)
{
	size_t start = p->i;

	if (p->i < p->len && p->t[p->i] == '-')
		p->i++;
	if (p->i < p->len && p->t[p->i] == '0') {
		p->i++;
	} else if (p->i < p->len && isdigitc(p->t[p->i])) {
		while (p->i < p->len && isdigitc(p->t[p->i]))
			p->i++;
	} else {
		fail(p, start, "not a JSON value");
		return 0;
	}
	if (p->i < p->len && p->t[p->i] == '.') {
		if (++p->i >= p->len || !isdigitc(p->t[p->i])) {
			fail(p, start, "a number needs digits after its '.'");
			return 0;
		}
		while (p->i < p->len && isdigitc(p->t[p->i]))
			p->i++;
	}
	if (p->i < p->len && (p->t[p->i] == 'e' || p->t[p->i] == 'E')) {
		p->i++;
		if (p->i < p->len && (p->t[p->i] == '+' || p->t[p->i] == '-'))
			p->i++;
		if (p->i >= p->len || !isdigitc(p->t[p->i])) {
			fail(p, start, "a number needs digits in its exponent");
			return 0;
		}
		while (p->i < p->len && isdigitc(p->t[p->i]))
			p->i++;
	}
	return 1;
}

static void
push(struct parser *p, struct json *v, const char *key)
{
	GROW(p->stack, p->cap, p->nstack + 1);
	GROW(p->keys, p->kcap, p->nstack + 1);
	p->stack[p->nstack] = v;
	p->keys[p->nstack++] = key;
}

static int
cmpkeyp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* close the container c, whose items are the stack's top n: into the arena; duplicate keys refused */
static void
closecontainer(struct parser *p, struct json *c, size_t base)
{
	size_t i, n = p->nstack - base;

	c->n = n;
	c->v = aalloc(p->a, (n ? n : 1) * sizeof(*c->v));
	if (n)  /* (the stack is NULL until something was pushed) */
		memcpy(c->v, p->stack + base, n * sizeof(*c->v));
	if (c->kind == JSON_OBJECT && n) {
		const char **sorted;

		c->k = aalloc(p->a, n * sizeof(*c->k));
		memcpy(c->k, p->keys + base, n * sizeof(*c->k));
		/* sorted, not pairwise: an object of 100000 members costs n log n */
		sorted = xmalloc(n * sizeof(*sorted));
		memcpy(sorted, c->k, n * sizeof(*sorted));
		sortlist(sorted, n, sizeof(*sorted), cmpkeyp);
		for (i = 1; i < n; i++) {
			if (!strcmp(sorted[i - 1], sorted[i])) {
				struct sb m = SB_INIT;

				sbadd(&m, "a duplicate key in an object: ");
				sbaddn(&m, sorted[i], strlen(sorted[i]) > 60 ? 60 : strlen(sorted[i]));
				fail(p, c->off, m.buf);
				sbfree(&m);
				break;
			}
		}
		free(sorted);
	} else if (c->kind == JSON_OBJECT) {
		c->k = aalloc(p->a, sizeof(*c->k));
	}
	p->nstack = base;
}

static struct json *parsevalue(struct parser *p);

/* an array or object at t[i]; its items go through the stack */
static struct json *
parsecontainer(struct parser *p)
{
	int obj = p->t[p->i] == '{';
	char close = obj ? '}' : ']';
	size_t base = p->nstack;
	struct json *c = mkvalue(p, obj ? JSON_OBJECT : JSON_ARRAY, p->i);

	if (!c)
		return NULL;
	if (++p->depth > p->maxdepth) {
		fail(p, p->i, "arrays and objects nested too deep");
		return NULL;
	}
	p->i++;
	skipspace(p);
	if (p->i < p->len && p->t[p->i] == close) {
		p->i++;
	} else {
		for (;;) {
			const char *key = NULL;
			struct json *v;
			size_t klen;

			skipspace(p);
			if (obj) {
				if (p->i >= p->len || p->t[p->i] != '"') {
					fail(p, p->i, "an object's key must be a string");
					return NULL;
				}
				if (++p->values > p->maxvalues) {
					fail(p, p->i, "too many values");
					return NULL;
				}
				if (!(key = parsestring(p, &klen)))
					return NULL;
				if (strlen(key) != klen) {
					fail(p, p->i, "an object's key holds a NUL (\\u0000)");
					return NULL;
				}
				skipspace(p);
				if (p->i >= p->len || p->t[p->i] != ':') {
					fail(p, p->i, "':' must follow an object's key");
					return NULL;
				}
				p->i++;
			}
			if (!(v = parsevalue(p)))
				return NULL;
			push(p, v, key);
			skipspace(p);
			if (p->i < p->len && p->t[p->i] == ',') {
				p->i++;
				continue;
			}
			if (p->i < p->len && p->t[p->i] == close) {
				p->i++;
				break;
			}
			fail(p, p->i, obj ? "',' or '}' must follow an object's member" : "',' or ']' must follow an array's item");
			return NULL;
		}
	}
	p->depth--;
	closecontainer(p, c, base);
	return p->failed ? NULL : c;
}

static struct json *
parsevalue(struct parser *p)
{
	static const struct {
		const char *word;
		enum jsonkind kind;
	} words[] = { { "null", JSON_NULL }, { "false", JSON_FALSE }, { "true", JSON_TRUE } };
	struct json *v;
	size_t start, k;

	skipspace(p);
	start = p->i;
	if (p->i >= p->len) {
		fail(p, p->i, "the text ends where a value should be");
		return NULL;
	}
	switch (p->t[p->i]) {
	case '{':
	case '[':
		return parsecontainer(p);
	case '"':
		if (!(v = mkvalue(p, JSON_STRING, start)) || !(v->s = parsestring(p, &v->len)))
			return NULL;
		return v;
	}
	for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		size_t n = strlen(words[k].word);

		if (p->len - p->i >= n && !memcmp(p->t + p->i, words[k].word, n)) {
			p->i += n;
			return mkvalue(p, words[k].kind, start);
		}
	}
	if (!scannumber(p) || !(v = mkvalue(p, JSON_NUMBER, start)))
		return NULL;
	v->s = astrndup(p->a, p->t + start, p->i - start);
	v->len = p->i - start;
	return v;
}

struct json *
jsonparse(struct arena *a, const char *text, size_t len, const struct jsonlimits *lim, struct sb *why)
{
	struct parser p;
	struct json *root;
	size_t bad;

	memset(&p, 0, sizeof(p));
	p.a = a;
	p.t = text;
	p.len = len;
	p.why = why;
	p.maxdepth = lim && lim->depth ? lim->depth : JSON_DEPTH;
	p.maxvalues = lim && lim->values ? lim->values : JSON_VALUES;
	/* UTF-8 throughout (a NUL byte is no JSON either): checked once, so strings copy bytes */
	if ((bad = utf8invalid(text, len)) < len) {
		fail(&p, bad, text[bad] ? "bytes that are not UTF-8" : "a NUL byte");
		return NULL;
	}
	root = parsevalue(&p);
	if (root) {
		skipspace(&p);
		if (p.i < p.len)
			fail(&p, p.i, "text after the JSON value");
	}
	free(p.stack);
	free(p.keys);
	return p.failed ? NULL : root;
}

const struct json *
jsonget(const struct json *v, const char *key)
{
	size_t i;

	if (!v || v->kind != JSON_OBJECT)
		return NULL;
	for (i = 0; i < v->n; i++) {
		if (!strcmp(v->k[i], key))
			return v->v[i];
	}
	return NULL;
}

const char *
jsonstr(const struct json *v)
{
	if (!v || v->kind != JSON_STRING || strlen(v->s) != v->len)
		return NULL;
	return v->s;
}

int
jsonint(const struct json *v, long long *out)
{
	char *end;

	if (!v || v->kind != JSON_NUMBER || strpbrk(v->s, ".eE"))
		return -1;
	errno = 0;
	*out = strtoll(v->s, &end, 10);
	return errno || *end ? -1 : 0;
}

int
jsonbool(const struct json *v)
{
	return v && v->kind == JSON_TRUE ? 1 : v && v->kind == JSON_FALSE ? 0 : -1;
}

const char *
jsonkindname(const struct json *v)
{
	static const char *const names[] = { "null", "false", "true", "a number", "a string", "an array", "an object" };

	return v ? names[v->kind] : "nothing";
}
