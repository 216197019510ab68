/*
 * yamledit: changes to a YAML file that ydoc read, made byte for byte: a value's text replaced,
 * items appended to a list, lines inserted or removed; everything else (comments, quoting,
 * order, blank lines) stays as written. Places come from ydoc's positions, the ends of values
 * from scanning the text (quotes, flow brackets, comments). The result is parsed again and
 * checked by the caller before it is written, through writeifchanged: a file is never
 * half-edited.
 */
#ifndef WG_YAMLEDIT_H
#define WG_YAMLEDIT_H

#include "util.h"
#include "ydoc.h"

/* one change: len bytes at off replaced by text */
struct yedit {
	size_t off, len;
	char *text;          /* malloc'd */
	size_t seq;          /* the order it was added in: of two insertions at one place, the first goes first */
};

/* the changes to one text, in any order (they must not overlap) */
struct yedits {
	struct yedit *v;
	size_t n, cap;
};

/* add a change */
void yeditadd(struct yedits *e, size_t off, size_t len, const char *text);
/* src (len bytes) with the changes made, into out; -1 when two changes overlap (a bug) */
int yeditapply(const char *src, size_t len, struct yedits *e, struct sb *out);
void yeditsfree(struct yedits *e);

/* the byte offset where line (1-based) starts; len when the text has fewer lines */
size_t ylineoff(const char *src, size_t len, int line);
/* the byte offset where node n starts */
size_t ynodeoff(const char *src, size_t len, const struct node *n);
/*
 * The byte offset just after node n's text into *end: a quoted scalar, a plain scalar on one
 * line, a flow list or mapping ([...], {...}, over lines too). -1 for what has no such end here
 * (a block list or mapping, a block scalar, an empty value).
 */
int ynodeend(const char *src, size_t len, const struct node *n, size_t *end);
/* the quote n was written with: '"', '\'', or 0 (plain or not a scalar) */
int yquotechar(const char *src, size_t len, const struct node *n);

/* v as a YAML scalar in quote's style ('"', '\'', or 0: plain where that reads back the same,
   else double quotes) */
void yquote(struct sb *s, const char *v, int quote);
/* the flow list ["a", "b"] of the n strings, each quoted as yquote does with quote */
void yflowlist(struct sb *s, const char *const *v, size_t n, int quote);
/* the quote a list's items were written with: its first item's; '"' for an empty list or none */
int ylistquote(const char *src, size_t len, const struct node *list);

/*
 * Change list (a list, or a single string standing for one) so that the n strings of add follow
 * its items: a flow list gets them before its ']', a block list as lines like its last item's, a
 * single string becomes a flow list. Quoted like the list's last item. 0, or -1 with why.
 */
int yappendlist(const char *src, size_t len, const struct node *list, const char *const *add, size_t n,
		struct yedits *e, struct sb *why);

/*
 * Make the changes to path's text src and write the result through writeifchanged, after
 * parsing it again (every YAML error printed) and asking check(root, arg) (which prints what is
 * wrong and returns -1). 1 written, 0 unchanged, -1 nothing written.
 */
int yrewrite(const char *path, const char *src, size_t len, struct yedits *e,
	     int (*check)(const struct node *root, void *arg), void *arg);

#endif
