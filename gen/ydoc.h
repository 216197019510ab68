/* ydoc: a YAML file read with libyaml into a tree whose every node knows its line and column. */
#ifndef WG_YDOC_H
#define WG_YDOC_H

#include "diag.h"
#include "util.h"

enum nodekind {
	NSCALAR,  /* a string (every YAML scalar is kept as the text written) */
	NNULL,    /* an empty value, ~ or null written without quotes */
	NMAP,     /* a mapping; kids hold key, value, key, value, ... */
	NSEQ,     /* a sequence; kids hold the items */
	NBAD,     /* something already reported (an alias); checks skip it silently */
};

/* one node of the document; all of it lives in the arena given to ydocparse */
struct node {
	enum nodekind kind;
	int line, col;       /* 1-based start */
	int span;            /* characters to underline in messages (start to end on the first line) */
	const char *s;       /* NSCALAR: the text, NUL-terminated (may hold NULs when quoted: see len) */
	size_t len;          /* NSCALAR: bytes in s */
	int quoted;          /* NSCALAR: 1 if written in quotes or as a block scalar */
	struct node **kids;  /* NMAP: 2n entries (key, value); NSEQ: n items */
	size_t n;            /* NMAP: number of pairs; NSEQ: number of items */
};

/* limits on what a config may be (each an error with its position): a config from a pull
   request must not stall a CI runner */
#define YDOC_MAXFILE (16 << 20)  /* bytes in the file */
#define YDOC_MAXDEPTH 64         /* lists and mappings inside each other */
#define YDOC_MAXSCALAR (1 << 20) /* bytes in one value */

/*
 * Parse src (len bytes) into a tree. Reports to d: bytes that are not UTF-8,
 * YAML syntax errors, more than one document, anchors and aliases (rejected,
 * never expanded), non-scalar mapping keys and duplicate keys, and what passes the limits
 * above (parsing stops there). Returns the
 * root node, or NULL for an empty document or a syntax error.
 */
struct node *ydocparse(struct arena *a, const char *src, size_t len, struct diags *d);

/* the value for key in a mapping node, or NULL */
struct node *mapget(const struct node *map, const char *key);

/* a name for the node's kind in messages: "a string", "a mapping", ... */
const char *nodekindname(const struct node *n);

/* add an error at node n (underlining it) */
void nodeerr(struct diags *d, const struct node *n, const char *fmt, ...) WG_PRINTF(3, 4);
/* add a note at node n */
void nodenote(struct diags *d, const struct node *n, const char *fmt, ...) WG_PRINTF(3, 4);

#endif
