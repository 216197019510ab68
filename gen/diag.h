/* diag: errors about an input file, collected, sorted and printed with the source line and a caret. */
#ifndef WG_DIAG_H
#define WG_DIAG_H

#include <stdio.h>
#include "util.h"

/* one message about a place in the file */
struct diag {
	int line, col;  /* 1-based; col counts characters, as libyaml does */
	int span;       /* characters to underline (>= 1) */
	int note;       /* 1 for a "note:" that follows an error, 0 for an error */
	size_t seq;     /* order of reporting, to keep sorting stable */
	char *msg;      /* malloc'd text, no trailing newline */
};

/* all messages about one file, and that file's text for quoting */
struct diags {
	const char *file;  /* name as given by the user */
	const char *src;   /* file contents (not owned), may be NULL */
	size_t srclen;
	struct diag *v;    /* messages in reporting order */
	size_t n, cap;
	size_t errors;     /* how many of v are errors, not notes */
};

/* add an error at line:col underlining span characters */
void diagerr(struct diags *d, int line, int col, int span, const char *fmt, ...) WG_PRINTF(5, 6);
/* add a note (printed right after the error reported before it) */
void diagnote(struct diags *d, int line, int col, int span, const char *fmt, ...) WG_PRINTF(5, 6);
/* print every message sorted by position as "file:line:col: error: msg", the line and a caret; return the error count */
size_t diagprint(struct diags *d, FILE *f);
/* free the messages */
void diagfree(struct diags *d);

#endif
