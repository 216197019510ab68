/*
 * simpleapi: a package index's project page (the simple repository API: PEP 691 JSON, or PEP 503
 * HTML) read into its files, never trusted: every file name must be a plain file name and every
 * URL (resolved against the page's) an http:// or https:// one that curl may be given, or the
 * whole page is refused with the reason. Its JSON reader is json.c; both forms are fuzzed
 * (tests/fuzz/fuzz-json.c).
 */
#ifndef WG_SIMPLEAPI_H
#define WG_SIMPLEAPI_H

#include "util.h"

/* the Accept header that asks an index for PEP 691 JSON, HTML as the fallback */
#define SIMPLE_ACCEPT "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01"

/* one file of a project page; its strings live in the page's arena */
struct indexfile {
	const char *filename;       /* a plain file name (no '/', no leading '.', printable) */
	const char *url;            /* absolute http:// or https:// URL, without its fragment */
	const char *sha256;         /* the file's sha256 (64 lowercase hex digits) when the page says it, else NULL */
	int metadata;               /* 1: its core metadata is at url + ".metadata" (PEP 658/714: core-metadata,
				       data-dist-info-metadata); 0: the page does not say so */
	const char *metasha256;     /* that metadata file's sha256 when the page says it, else NULL */
	const char *requirespython; /* Requires-Python, NULL when not given */
	int yanked;                 /* 1: yanked (PEP 592) */
};

/* a project page */
struct indexpage {
	struct arena a;
	struct indexfile *files;
	size_t n;
	int json;                   /* 1: it was PEP 691 JSON, 0: PEP 503 HTML */
};

/* the most bytes of a project page wheelgen reads (PyPI's torch page: 0.4 MB) */
#define SIMPLE_PAGE_MAX (32 << 20)

/*
 * Read the project page text (len bytes) fetched from url, whose Content-Type was ctype ("" when
 * none: the text decides). 0, or -1 with why (the page's place and fault, without the URL).
 */
int indexpageparse(const char *url, const char *text, size_t len, const char *ctype, struct indexpage *pg, struct sb *why);
void indexpagefree(struct indexpage *pg);

/* ref resolved against the absolute URL base (RFC 3986: scheme, //host, /path, relative with . and
   ..), its fragment left out, appended to out */
void urlresolve(const char *base, const char *ref, struct sb *out);

/* s as a message may quote a name from the network: at most 120 bytes, control and non-ASCII
   bytes as \xNN, in single quotes */
void quotenet(struct sb *out, const char *s);

#endif
