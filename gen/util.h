/* util: messages, memory, growable strings, an arena and small string helpers: the ground floor. */
#ifndef WG_UTIL_H
#define WG_UTIL_H

#include <stddef.h>
#include <stdarg.h>

#if defined(__GNUC__)
#define WG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define WG_NORETURN __attribute__((noreturn))
#else
#define WG_PRINTF(f, a)
#define WG_NORETURN
#endif

/* program name used as the prefix of every message */
extern const char *argv0;

/* print "argv0: fatal: msg" and exit 1 */
WG_NORETURN void fatal(const char *fmt, ...) WG_PRINTF(1, 2);
/* print "argv0: error: msg"; returns -1 so callers can `return error(...)` */
int error(const char *fmt, ...) WG_PRINTF(1, 2);
/* print "argv0: warning: msg" */
void warn(const char *fmt, ...) WG_PRINTF(1, 2);
/* print "argv0: msg" on standard output: what a command did (restored, removed, ...) */
void report(const char *fmt, ...) WG_PRINTF(1, 2);
/* print "argv0: msg" on standard error: progress that is neither a warning nor an error */
void notice(const char *fmt, ...) WG_PRINTF(1, 2);
/* a broken invariant: print file:line and abort */
#define BUG(msg) bug(__FILE__, __LINE__, (msg))
WG_NORETURN void bug(const char *file, int line, const char *msg);

/* malloc/realloc/strdup that never return NULL (they die instead) */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* the directory for temporary files: $TMPDIR when set and not empty, else /tmp */
const char *tmpdir(void);
char *xstrndup(const char *s, size_t n);

/* grow *p (an array of elem-sized items with capacity *cap) to hold at least n items */
void growarray(void **p, size_t *cap, size_t n, size_t elem);
#define GROW(arr, cap, n) growarray((void **)&(arr), &(cap), (n), sizeof(*(arr)))

/*
 * A growable string. Invariants: buf is never NULL and always NUL-terminated;
 * len is the length without the NUL. SB_INIT needs no allocation (buf points
 * at a static empty string until the first append).
 */
struct sb {
	char *buf;   /* contents, NUL-terminated */
	size_t len;  /* bytes used, without the NUL */
	size_t cap;  /* bytes allocated; 0 while buf is the static empty string */
};
extern char sb_empty[];
#define SB_INIT { sb_empty, 0, 0 }

/* make room for n more bytes */
void sbgrow(struct sb *s, size_t n);
/* append n bytes */
void sbaddn(struct sb *s, const char *p, size_t n);
/* append a C string */
void sbadd(struct sb *s, const char *p);
/* append one byte */
void sbaddc(struct sb *s, char c);
/* append printf-formatted text */
void sbaddf(struct sb *s, const char *fmt, ...) WG_PRINTF(2, 3);
void sbvaddf(struct sb *s, const char *fmt, va_list ap);
/* empty the string, keeping its memory */
void sbreset(struct sb *s);
/* free the memory and return to SB_INIT */
void sbfree(struct sb *s);
/* hand the buffer to the caller (malloc'd, never the static empty) and reset */
char *sbdetach(struct sb *s);

/*
 * An arena: many small allocations freed at once. The config model, the cells
 * and everything hanging off them live in one arena, freed once at exit.
 */
struct arena {
	struct arenablock *head; /* newest block, NULL when empty */
};
/* allocate n zeroed bytes, aligned for any type */
void *aalloc(struct arena *a, size_t n);
/* copy n bytes of s into the arena, adding a NUL */
char *astrndup(struct arena *a, const char *s, size_t n);
char *astrdup(struct arena *a, const char *s);
/* printf into the arena */
char *aprintf(struct arena *a, const char *fmt, ...) WG_PRINTF(2, 3);
/* free every block */
void afree(struct arena *a);

/* qsort that also takes an empty list (GROW leaves it NULL, which qsort must not be given) */
void sortlist(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/*
 * Split a buffer into lines in place: returns the line at *p (its newline
 * replaced by NUL) and moves *p past it; NULL at the end of the buffer.
 */
char *nextline(char **p);

/*
 * A set of names kept in a string, one per line: add name unless present.
 * Returns 1 if it was added, 0 if it was there. Linear: for small sets.
 */
int setadd(struct sb *set, const char *name);

/* the byte offset of the first byte that is not well-formed UTF-8 (or a NUL) in s, or len if none */
size_t utf8invalid(const char *s, size_t len);

/* true if s starts with prefix */
int startswith(const char *s, const char *prefix);
/* true if s ends with suffix */
int endswith(const char *s, const char *suffix);

/* edit distance between a and b, capped at limit+1 (cheap for "did you mean") */
size_t editdistance(const char *a, const char *b, size_t limit);

/* "" for NULL */
const char *orempty(const char *s);

#endif
