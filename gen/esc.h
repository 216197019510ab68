/* esc: quoting for ninja (and its depfiles), POSIX sh, HTML, URLs, JSON and Markdown. Each appends
   to a string buffer. */
#ifndef WG_ESC_H
#define WG_ESC_H

#include "util.h"

/* a path in a ninja build line: $ -> $$, space -> "$ ", : -> "$:"; -1 (nothing added) for newline or '|' */
int escninjapath(struct sb *s, const char *p);
/* a ninja variable value: $ -> $$; -1 (nothing added) for a newline */
int escninjavalue(struct sb *s, const char *v);
/* one POSIX sh word in single quotes ('it'\''s') */
void escshell(struct sb *s, const char *w);
/* HTML text or attribute value: & < > " ' as entities */
void eschtml(struct sb *s, const char *t);
/* a file name in an href or a URL's path: every byte but RFC 3986's unreserved ones as %XX ('+' too) */
void eschref(struct sb *s, const char *name);
/* a relative path in a URL: each '/'-separated segment as eschref writes it, the '/' kept */
void escurlpath(struct sb *s, const char *path);
/* a path in a ninja depfile (gcc's syntax): space and '#' as \\ , '$' as $$; -1 (nothing
   added) for a backslash, tab or newline */
int escdep(struct sb *s, const char *p);
/* a ninja depfile, the one writer of every depfile (wheelgen restore's, a part's through
   wheelgen-step, wheelgen-cc's): "TARGET: DEP...\n" with each of the n DEPS (DIR and '/' before
   it where DIR is not NULL; a leading "./" dropped) after a space, each path as escdep writes
   it. 0; -1 when TARGET cannot be named, -2 when a DEP cannot (its path then in bad) */
int escdepfile(struct sb *s, struct sb *bad, const char *target, const char *dir, const char *const *deps, size_t n);
/* what escdepfile's failure rc (-1, -2) for target means, with its bad, appended to s: the message
   of wheelgen restore's and wheelgen-step depfile's */
void escdepfilewhy(struct sb *s, int rc, const char *target, const char *bad);
/* a JSON string with its quotes; control characters as \uXXXX */
void escjson(struct sb *s, const char *t);
/* Markdown text (GitHub's, also in a table cell): \ ` * _ [ ] # | ~ backslash-escaped, & < > as
   entities, control characters (line breaks too) as spaces: the text stays one literal line */
void escmd(struct sb *s, const char *t);
/* a line of a Markdown code block (indented by the caller): control characters as '?' */
void escmdcode(struct sb *s, const char *t);

#endif
