/*
 * json: a strict, bounded JSON reader (RFC 8259) for text from the network: a package index's
 * pages (PEP 691), GitHub's answers. The text is parsed into a tree in an arena, or refused with
 * the place and the reason: bytes that are not UTF-8, a lone surrogate, a control character in a
 * string, a duplicate key, text after the value, more nesting or more values than the limits.
 * Never recursive past the depth limit, never quadratic (tests/fuzz/fuzz-json.c).
 */
#ifndef WG_JSON_H
#define WG_JSON_H

#include "util.h"

enum jsonkind { JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

/* one value; all of it lives in the arena given to jsonparse */
struct json {
	enum jsonkind kind;
	const char *s;        /* JSON_STRING: the decoded text, NUL-terminated (it may hold a NUL:
				 see len and jsonstr); JSON_NUMBER: the number as written */
	size_t len;           /* bytes in s */
	struct json **v;      /* JSON_ARRAY: the items; JSON_OBJECT: the members' values */
	const char **k;       /* JSON_OBJECT: the members' keys (never holding a NUL), in the order written */
	size_t n;             /* items or members */
	size_t off;           /* the byte offset where the value starts in the text */
};

/* what a text may hold; a 0 field takes the default below */
struct jsonlimits {
	size_t depth;         /* arrays and objects inside each other */
	size_t values;        /* values in all (each item, member value and key counts one) */
};
#define JSON_DEPTH 64
#define JSON_VALUES (1 << 20)

/*
 * Parse the len bytes of text (lim NULL: the defaults). The root value, or NULL with why set to
 * "line L, column C: what is wrong" (the column counts bytes).
 */
struct json *jsonparse(struct arena *a, const char *text, size_t len, const struct jsonlimits *lim, struct sb *why);

/* the value of key in an object; NULL when v is not an object (or NULL) or has no such key */
const struct json *jsonget(const struct json *v, const char *key);
/* the text of a string; NULL when v is not a string (or NULL) or its text holds a NUL */
const char *jsonstr(const struct json *v);
/* a whole number that fits a long long into *out: 0, else -1 (not a number, a fraction, too large) */
int jsonint(const struct json *v, long long *out);
/* 1 for true, 0 for false, -1 for anything else */
int jsonbool(const struct json *v);
/* a name for the value's kind in messages: "a string", "an object", ... ("nothing" for NULL) */
const char *jsonkindname(const struct json *v);

#endif
