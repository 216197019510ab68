/* schema: the YAML reading helpers a config's checks are made of (see schema.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"

int
inlist(const char *const *l, const char *s)
{
	for (; *l; l++) {
		if (!strcmp(*l, s))
			return 1;
	}
	return 0;
}

/* the closest of candidates to s within a small distance, or NULL */
const char *
nearest(const char *s, const char *const *cand, size_t n)
{
	const char *best = NULL;
	size_t i, d, bestd = strlen(s) < 4 ? 1 : 2;

	for (i = 0; i < n && cand[i]; i++) {
		d = editdistance(s, cand[i], bestd);
		if (d <= bestd && (!best || d < bestd)) {
			best = cand[i];
			bestd = d;
		}
	}
	return best;
}

/* report keys of map not in allowed, with a suggestion */
void
checkmapkeys(struct ctx *x, const struct node *map, const char *const *allowed, const char *where)
{
	size_t i, n;
	const char *s;

	for (n = 0; allowed[n]; n++)
		;
	for (i = 0; i < map->n; i++) {
		const struct node *k = map->kids[2 * i];

		if (k->kind != NSCALAR || inlist(allowed, k->s))
			continue;
		s = nearest(k->s, allowed, n);
		if (s)
			nodeerr(x->d, k, "unknown key '%s' in %s; did you mean '%s'?", k->s, where, s);
		else
			nodeerr(x->d, k, "unknown key '%s' in %s", k->s, where);
	}
}

int
wantmap(struct ctx *x, const struct node *n, const char *what)
{
	if (!n || n->kind == NBAD)
		return 0;
	if (n->kind != NMAP) {
		nodeerr(x->d, n, "%s must be a mapping, not %s", what, nodekindname(n));
		return 0;
	}
	return 1;
}

/* a string value; NULL (error reported) if n is not a string */
const char *
getstr(struct ctx *x, const struct node *n, const char *what)
{
	if (!n || n->kind == NBAD)
		return NULL;
	if (n->kind != NSCALAR) {
		nodeerr(x->d, n, "%s must be a string, not %s", what, nodekindname(n));
		return NULL;
	}
	if (strlen(n->s) != n->len) {
		nodeerr(x->d, n, "%s must not contain NUL characters", what);
		return NULL;
	}
	return n->s;
}

/* a list of strings; a single string is taken as a one-item list. split: split a string on whitespace */
void
getlist(struct ctx *x, struct node *n, const char *what, struct strlist *l, int split)
{
	size_t i, k;
	const char *s, *p, *q;

	memset(l, 0, sizeof(*l));
	if (!n || n->kind == NBAD)
		return;
	l->node = n;
	if (n->kind == NSCALAR && split) {
		s = getstr(x, n, what);
		if (!s)
			return;
		for (k = 0, p = s; *p; ) {
			while (isspace((unsigned char)*p))
				p++;
			if (!*p)
				break;
			while (*p && !isspace((unsigned char)*p))
				p++;
			k++;
		}
		l->v = aalloc(x->a, (k + 1) * sizeof(*l->v));
		l->at = aalloc(x->a, (k + 1) * sizeof(*l->at));
		for (p = s; *p; ) {
			while (isspace((unsigned char)*p))
				p++;
			if (!*p)
				break;
			q = p;
			while (*q && !isspace((unsigned char)*q))
				q++;
			l->at[l->n] = n;
			l->v[l->n++] = astrndup(x->a, p, (size_t)(q - p));
			p = q;
		}
		return;
	}
	if (n->kind == NSCALAR) {
		l->v = aalloc(x->a, sizeof(*l->v));
		l->at = aalloc(x->a, sizeof(*l->at));
		if ((l->v[0] = getstr(x, n, what)) != NULL) {
			l->at[0] = n;
			l->n = 1;
		}
		return;
	}
	if (n->kind != NSEQ) {
		nodeerr(x->d, n, "%s must be a list of strings, not %s", what, nodekindname(n));
		return;
	}
	l->v = aalloc(x->a, (n->n + 1) * sizeof(*l->v));
	l->at = aalloc(x->a, (n->n + 1) * sizeof(*l->at));
	for (i = 0; i < n->n; i++) {
		struct node *it = n->kids[i];

		if (it->kind == NBAD)
			continue;
		if (it->kind != NSCALAR) {
			nodeerr(x->d, it, "each item of %s must be a string, not %s", what, nodekindname(it));
			continue;
		}
		if (!(s = getstr(x, it, what)))
			continue;
		l->at[l->n] = it;
		l->v[l->n++] = s;
	}
}

/* report repeated items of a list */
void
checkdups(struct ctx *x, const struct strlist *l, const char *what)
{
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		for (j = 0; j < i; j++) {
			if (!strcmp(l->v[i], l->v[j])) {
				nodeerr(x->d, l->at[i], "'%s' appears twice in %s", l->v[i], what);
				break;
			}
		}
	}
}

int
isdigits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return 0;
	}
	return 1;
}

/* MAJOR.MINOR with small numbers */
int
majorminor(const char *s, long *maj, long *min)
{
	const char *dot = strchr(s, '.');
	char buf[16];
	size_t n;

	if (!dot || strchr(dot + 1, '.') || (n = (size_t)(dot - s)) == 0 || n > 3 || strlen(dot + 1) > 3)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!isdigits(buf) || !isdigits(dot + 1))
		return 0;
	*maj = strtol(buf, NULL, 10);
	*min = strtol(dot + 1, NULL, 10);
	return 1;
}

const char *
abspath(struct ctx *x, const char *p)
{
	if (p[0] == '/')
		return p;
	return aprintf(x->a, "%s/%s", x->dir, p);
}

/*
 * A mapping of names to one-line values (env, test_skip_modules) as pairs in the arena; each
 * name checked by valid (else "'<name>' <badname>"), each value a string (with needvalue, a
 * non-empty one; otherwise an empty value is ""). *np gets the count.
 */
struct envvar *
loadpairs(struct ctx *x, struct node *n, const char *what, int (*valid)(const char *), const char *badname,
	  int needvalue, size_t *np)
{
	struct envvar *pairs;
	struct sb q = SB_INIT;
	size_t i;

	*np = 0;
	sbaddf(&q, "'%s'", what);
	if (!n || !wantmap(x, n, q.buf)) {
		sbfree(&q);
		return NULL;
	}
	sbfree(&q);
	pairs = aalloc(x->a, (n->n + 1) * sizeof(*pairs));
	for (i = 0; i < n->n; i++) {
		struct node *k = n->kids[2 * i], *v = n->kids[2 * i + 1];
		const char *val;

		if (k->kind != NSCALAR)
			continue;
		if (!valid(k->s)) {
			nodeerr(x->d, k, "'%s' %s", k->s, badname);
			continue;
		}
		val = v->kind == NNULL ? "" : getstr(x, v, needvalue ? "a test_skip_modules reason" : "an env value");
		if (val && needvalue && (!*val || strchr(val, '\n'))) {
			nodeerr(x->d, v, "%s needs a reason (one line) for '%s'", what, k->s);
			continue;
		}
		if (!val)
			continue;
		pairs[*np].name = k->s;
		pairs[(*np)++].value = val;
	}
	return pairs;
}

/* a number between lo and hi (an integer if whole); def when n is NULL or wrong (reported) */
double
getnumber(struct ctx *x, const struct node *n, const char *what, double def, double lo, double hi, int whole)
{
	const char *s = getstr(x, n, what);
	char *end;
	double v;

	if (!s)
		return def;
	v = strtod(s, &end);
	if (end == s || *end || v < lo || v > hi || (whole && v != (double)(long)v)) {
		nodeerr(x->d, n, "%s must be %s between %g and %g, not '%s'", what, whole ? "a whole number" : "a number",
			lo, hi, s);
		return def;
	}
	return v;
}

/* an http:// or https:// URL (NULL, error reported, if not) */
const char *
geturl(struct ctx *x, const struct node *n, const char *what)
{
	const char *s = getstr(x, n, what);

	if (!s)
		return NULL;
	if ((strncmp(s, "http://", 7) && strncmp(s, "https://", 8)) || s[strcspn(s, " \t\r\n'\"\\")]) {
		nodeerr(x->d, n, "%s must be an http:// or https:// URL without blanks or quotes, not '%s'", what, s);
		return NULL;
	}
	return s;
}
