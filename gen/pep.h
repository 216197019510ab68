/* pep: Python packaging names and versions (PEP 503, 508, 440), matched with PCRE2. */
#ifndef WG_PEP_H
#define WG_PEP_H

#include <stddef.h>

/* 1 if s is a valid distribution name (PEP 508) */
int pepname(const char *s);
/* write the PEP 503 normalized form of name into out (at least strlen(name)+1 bytes) */
void pepnormalize(const char *name, char *out);
/* 1 if s is a valid PEP 440 version; *local is set to 1 if it has a +local label */
int pepversion(const char *s, int *local);
/* 1 if s is a valid local version label (the part after '+': [a-z0-9]+ separated by . _ -) */
int peplocal(const char *s);
/*
 * Compare two valid PEP 440 versions: <0, 0, >0 as a sorts before, with or after b
 * (epoch, release padded with zeros, then dev < pre < final < post; local labels ignored).
 */
int pepcmp(const char *a, const char *b);
/* 1 if v is a pre-release or a development release */
int peppre(const char *v);

/* free the compiled patterns (for leak checkers) */
/* free the compiled patterns: at exit only (they are compiled once per process) */
void pepfree(void);

#endif
