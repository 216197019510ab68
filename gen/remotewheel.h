/*
 * remotewheel: the METADATA of wheels on a server, read with HTTP range requests, never the
 * whole wheel: the zip's last 2 MiB (its end records, and usually its whole central directory),
 * what of the central directory that lacks, and the one member. The pieces go into a sparse
 * temporary of the wheel's size that wheelfile.c reads as the zip. Several wheels at once, in
 * three rounds of parallel requests. For an index that serves no PEP 658 .metadata files.
 */
#ifndef WG_REMOTEWHEEL_H
#define WG_REMOTEWHEEL_H

#include "http.h"
#include "util.h"

/* one wheel (zeroed, then url and filename set: its METADATA is read) */
struct remotewheel {
	const char *url;        /* the wheel's URL */
	const char *filename;   /* its file name: the .dist-info it holds is <name>-<version>.dist-info */
	const char *member;     /* the .dist-info's file to read: NULL "METADATA", or "WHEEL" */
	int exact;              /* the wheel must hold one .dist-info, named exactly as its file name says */
	size_t tail;            /* the tail fetched first: 0 REMOTE_TAIL; a few KB where a wheel's
				   .dist-info (written last) is all that is wanted */
	struct httphow how;     /* credentials and redirect rule (zero: none, curl's redirects) */
	const char *keep;       /* where the wheel is kept when the answers held all of it (NULL: not kept) */
	struct sb meta;         /* filled in: the member's text */
	struct sb why;          /* empty when meta was read; else why not (without the URL) */
	int fault;              /* with why: no answer, a refusal (401, 403, 5xx) or a timeout: says
				   nothing of the wheel */
	int noranges;           /* with why: the server answered a range request with the whole file */
	unsigned long long size; /* the wheel's size, from the answers' Content-Range (0: unknown) */
	char sha256[65];        /* the wheel's sha256 when the answers held all of it (a range longer
				   than the wheel: the server sends it whole), else "" */
	int kept;               /* 1: the whole wheel is at keep */
	size_t bytes;           /* bytes transferred for it */
	int requests;           /* requests made for it */
};

/* the tail fetched first, and what the rest may be */
#define REMOTE_TAIL (2 << 20)
#define REMOTE_CD_MAX (64 << 20)          /* a central directory */
#define REMOTE_WHEEL_MAX (64ULL << 30)    /* a wheel */

/* read the METADATA of the n wheels, with temporaries in tmpdir (removed); lim NULL: http.h's defaults */
void remotewheelmeta(struct remotewheel *w, size_t n, const char *tmpdir, const struct httplimits *lim);
void remotewheelfree(struct remotewheel *w);

#endif
