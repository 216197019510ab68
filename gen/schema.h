/*
 * schema: the YAML reading helpers a config's checks are made of: typed getters (a string, a
 * list of strings, a number, a URL, a mapping of names to values), unknown keys with a "did
 * you mean", duplicates. Each reports what is wrong to the diagnostics at the node, and
 * returns what it could read. config.c holds the model; this, the grammar of its values.
 */
#ifndef WG_SCHEMA_H
#define WG_SCHEMA_H

#include "diag.h"
#include "util.h"
#include "ydoc.h"

/* a list of strings and the nodes they were written at */
struct strlist {
	const char **v;      /* the strings */
	struct node **at;    /* where each was written (NULL for built-in defaults) */
	size_t n;
	struct node *node;   /* the list itself, NULL when not given */
};

/* a name and its value (an environment variable of the build step, a module and a reason) */
struct envvar {
	const char *name, *value;
};

struct config;

/* what reading a config needs */
struct ctx {
	struct arena *a;
	struct diags *d;
	struct config *c;  /* the model being built (config.c) */
	const char *dir;   /* the config file's directory, absolute */
};

/* 1 if the NULL-terminated list l holds s */
int inlist(const char *const *l, const char *s);
/* the closest of the n candidates to s within a small edit distance, or NULL (for "did you mean") */
const char *nearest(const char *s, const char *const *cand, size_t n);
/* report the keys of map that allowed (NULL-terminated) lacks, in where, with a suggestion */
void checkmapkeys(struct ctx *x, const struct node *map, const char *const *allowed, const char *where);
/* 1 if n is a mapping; else 0, reported unless n is NULL or already bad */
int wantmap(struct ctx *x, const struct node *n, const char *what);
/* a string value; NULL (reported) if n is not one, or holds a NUL */
const char *getstr(struct ctx *x, const struct node *n, const char *what);
/* a list of strings into l (a single string is a one-item list; split: split it at blanks) */
void getlist(struct ctx *x, struct node *n, const char *what, struct strlist *l, int split);
/* report the items of l that appear twice */
void checkdups(struct ctx *x, const struct strlist *l, const char *what);
/* 1 if s is one or more decimal digits */
int isdigits(const char *s);
/* MAJOR.MINOR with small numbers into *maj and *min: 1, else 0 */
int majorminor(const char *s, long *maj, long *min);
/* p made absolute against the config's directory (into the arena) */
const char *abspath(struct ctx *x, const char *p);
/*
 * A mapping of names to one-line values as pairs in the arena; each name checked by valid (else
 * "'<name>' <badname>"), each value a string (with needvalue, a non-empty one; otherwise an empty
 * value is ""). *np gets the count.
 */
struct envvar *loadpairs(struct ctx *x, struct node *n, const char *what, int (*valid)(const char *),
			 const char *badname, int needvalue, size_t *np);
/* a number between lo and hi (an integer if whole); def when n is NULL or wrong (reported) */
double getnumber(struct ctx *x, const struct node *n, const char *what, double def, double lo, double hi, int whole);
/* an http:// or https:// URL without blanks or quotes; NULL (reported) if not */
const char *geturl(struct ctx *x, const struct node *n, const char *what);

#endif
