/* ydoc: YAML read with libyaml into nodes that know their line and column (see ydoc.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "ydoc.h"

/* list of kids under construction */
struct kids {
	struct node *node;
	struct node **v;
	size_t n, cap;
};

/* line and character column of byte offset off */
static void
position(const char *src, size_t off, int *line, int *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (src[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)src[i] & 0xC0) != 0x80) {
			(*col)++;
		}
	}
}

struct namelist {
	const char **v;
	size_t n, cap;
};

/* 1 if name is already in l; else add it and return 0 */
static int
seen(struct arena *a, struct namelist *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (!strcmp(l->v[i], name))
			return 1;
	}
	GROW(l->v, l->cap, l->n + 1);
	l->v[l->n++] = astrdup(a, name);
	return 0;
}

static struct node *
mknode(struct arena *a, enum nodekind kind, const yaml_event_t *ev)
{
	struct node *n = aalloc(a, sizeof(*n));

	n->kind = kind;
	n->line = (int)ev->start_mark.line + 1;
	n->col = (int)ev->start_mark.column + 1;
	if (ev->end_mark.line == ev->start_mark.line && ev->end_mark.column > ev->start_mark.column)
		n->span = (int)(ev->end_mark.column - ev->start_mark.column);
	else
		n->span = 1;
	return n;
}

static int
isnull(const yaml_event_t *ev)
{
	const char *v = (const char *)ev->data.scalar.value;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* keys in the order of their text, then of their place (for finding duplicates by sorting) */
static int
cmpkey(const void *a, const void *b)
{
	const struct node *x = *(const struct node *const *)a, *y = *(const struct node *const *)b;
	int r;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	if ((r = memcmp(x->s, y->s, x->len)))
		return r;
	return x->line != y->line ? (x->line < y->line ? -1 : 1) : (x->col < y->col ? -1 : x->col > y->col);
}

/* report duplicate and non-scalar keys of a finished mapping (sorted: n log n, not n^2) */
static void
checkkeys(const struct node *map, struct diags *d)
{
	const struct node **keys = xcalloc(map->n ? map->n : 1, sizeof(*keys));
	size_t i, n = 0, first = 0;

	for (i = 0; i < map->n; i++) {
		const struct node *k = map->kids[2 * i];

		if (k->kind == NBAD)
			continue;
		if (k->kind != NSCALAR) {
			nodeerr(d, k, "mapping keys must be strings, not %s", nodekindname(k));
			continue;
		}
		if (strlen(k->s) != k->len) {
			/* C strings would cut it at the NUL: "a\0x" and "a\0y" would both be "a" */
			nodeerr(d, k, "mapping keys must not contain NUL characters");
			continue;
		}
		keys[n++] = k;
	}
	qsort(keys, n, sizeof(*keys), cmpkey);
	for (i = 1; i < n; i++) {
		if (keys[i]->len == keys[first]->len && !memcmp(keys[i]->s, keys[first]->s, keys[i]->len)) {
			nodeerr(d, keys[i], "duplicate key '%s'", keys[i]->s);
			nodenote(d, keys[first], "'%s' first defined here", keys[first]->s);
		} else {
			first = i;
		}
	}
	free(keys);
}

static void
addkid(struct kids *k, struct node *n)
{
	GROW(k->v, k->cap, k->n + 1);
	k->v[k->n++] = n;
}

/* 0 (reported) when the file is too large or not UTF-8 text */
static int
inputok(const char *src, size_t len, struct diags *d)
{
	size_t bad;
	int line, col;

	if (len > YDOC_MAXFILE) {
		diagerr(d, 1, 1, 1, "the file has %zu bytes: at most %d are allowed", len, YDOC_MAXFILE);
		return 0;
	}
	bad = utf8invalid(src, len);
	if (bad < len) {
		position(src, bad, &line, &col);
		if (src[bad] == '\0')
			diagerr(d, line, col, 1, "the file holds a NUL byte; it must be UTF-8 text");
		else
			diagerr(d, line, col, 1, "the file is not valid UTF-8 (byte 0x%02x)", (unsigned char)src[bad]);
		return 0;
	}
	return 1;
}

/* a scalar's node (an anchor is reported) */
static struct node *
scalar(struct arena *a, const yaml_event_t *ev, struct diags *d)
{
	struct node *n = mknode(a, isnull(ev) ? NNULL : NSCALAR, ev);

	n->s = astrndup(a, (const char *)ev->data.scalar.value, ev->data.scalar.length);
	n->len = ev->data.scalar.length;
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
	if (ev->data.scalar.anchor)
		nodeerr(d, n, "anchors (&%s) are not supported", (const char *)ev->data.scalar.anchor);
	return n;
}

/* a list or mapping starts: its node (anchors are reported) */
static struct node *
startcollection(struct arena *a, const yaml_event_t *ev, struct diags *d)
{
	int map = ev->type == YAML_MAPPING_START_EVENT;
	const unsigned char *anchor = map ? ev->data.mapping_start.anchor : ev->data.sequence_start.anchor;
	struct node *n = mknode(a, map ? NMAP : NSEQ, ev);

	n->span = 1;
	if (anchor)
		nodeerr(d, n, "anchors (&%s) are not supported", (const char *)anchor);
	return n;
}

/* a finished list or mapping: its children move into the arena; a mapping's keys are checked */
static struct node *
endcollection(struct arena *a, struct kids *k, struct diags *d)
{
	struct node *n = k->node;

	n->kids = aalloc(a, (k->n ? k->n : 1) * sizeof(*n->kids));
	if (k->n)
		memcpy(n->kids, k->v, k->n * sizeof(*n->kids));
	n->n = n->kind == NMAP ? k->n / 2 : k->n;
	free(k->v);
	if (n->kind == NMAP)
		checkkeys(n, d);
	return n;
}

struct node *
ydocparse(struct arena *a, const char *src, size_t len, struct diags *d)
{
	yaml_parser_t parser;
	yaml_event_t ev;
	struct kids *stack = NULL;
	size_t depth = 0, cap = 0, i;
	struct node *root = NULL, *n;
	struct namelist aliases = { 0 };
	int docs = 0, done = 0;

	if (!inputok(src, len, d))
		return NULL;
	if (!yaml_parser_initialize(&parser))
		fatal("cannot initialise libyaml");
	yaml_parser_set_input_string(&parser, (const unsigned char *)src, len);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			const yaml_mark_t *m = &parser.problem_mark;

			diagerr(d, (int)m->line + 1, (int)m->column + 1, 1, "YAML syntax error: %s%s%s",
				parser.problem ? parser.problem : "unknown problem",
				parser.context ? " " : "", parser.context ? parser.context : "");
			if (parser.context)
				diagnote(d, (int)parser.context_mark.line + 1, (int)parser.context_mark.column + 1, 1,
					 "%s", parser.context);
			root = NULL;
			break;
		}
		n = NULL;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_DOCUMENT_START_EVENT:
			if (++docs == 2) {
				diagerr(d, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1, 3,
					"only one YAML document is allowed per file");
			}
			break;
		case YAML_ALIAS_EVENT:
			/* never expanded, so billion laughs costs nothing; one message per alias name */
			n = mknode(a, NBAD, &ev);
			if (!seen(a, &aliases, (const char *)ev.data.alias.anchor))
				nodeerr(d, n, "aliases (*%s) are not supported: write the value out",
					(const char *)ev.data.alias.anchor);
			break;
		case YAML_SCALAR_EVENT:
			if (ev.data.scalar.length > YDOC_MAXSCALAR) {
				diagerr(d, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1, 1,
					"a value of %zu bytes: at most %d are allowed", ev.data.scalar.length, YDOC_MAXSCALAR);
				yaml_event_delete(&ev);
				root = NULL;
				done = 1;
				continue;
			}
			n = scalar(a, &ev, d);
			break;
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
			if (depth >= YDOC_MAXDEPTH) {
				/* stop at once: libyaml's time grows with the square of the nesting */
				diagerr(d, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1, 1,
					"lists and mappings nested more than %d deep", YDOC_MAXDEPTH);
				yaml_event_delete(&ev);
				root = NULL;
				done = 1;
				continue;
			}
			n = startcollection(a, &ev, d);
			GROW(stack, cap, depth + 1);
			memset(&stack[depth], 0, sizeof(stack[depth]));
			stack[depth++].node = n;
			n = NULL;
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			if (depth == 0)
				BUG("unbalanced YAML events");
			n = endcollection(a, &stack[--depth], d);
			break;
		default:
			break;
		}
		if (n) {
			if (depth > 0)
				addkid(&stack[depth - 1], n);
			else if (docs == 1)
				root = n;
		}
		yaml_event_delete(&ev);
	}
	for (i = 0; i < depth; i++)
		free(stack[i].v);
	free(stack);
	free(aliases.v);
	yaml_parser_delete(&parser);
	return root;
}

struct node *
mapget(const struct node *map, const char *key)
{
	size_t i;

	if (!map || map->kind != NMAP)
		return NULL;
	for (i = 0; i < map->n; i++) {
		const struct node *k = map->kids[2 * i];

		if (k->kind == NSCALAR && !strcmp(k->s, key))
			return map->kids[2 * i + 1];
	}
	return NULL;
}

const char *
nodekindname(const struct node *n)
{
	switch (n->kind) {
	case NSCALAR: return "a string";
	case NNULL: return "an empty value";
	case NMAP: return "a mapping";
	case NSEQ: return "a list";
	case NBAD: return "an alias";
	}
	return "?";
}

static void
vnodemsg(struct diags *d, int note, const struct node *n, const char *fmt, va_list ap)
{
	struct sb s = SB_INIT;

	sbvaddf(&s, fmt, ap);
	if (note)
		diagnote(d, n->line, n->col, n->span, "%s", s.buf);
	else
		diagerr(d, n->line, n->col, n->span, "%s", s.buf);
	sbfree(&s);
}

void
nodeerr(struct diags *d, const struct node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnodemsg(d, 0, n, fmt, ap);
	va_end(ap);
}

void
nodenote(struct diags *d, const struct node *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnodemsg(d, 1, n, fmt, ap);
	va_end(ap);
}
