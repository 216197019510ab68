/*
 * http: files fetched over HTTP(S) by curl, several at once, each bounded in size and time: a
 * package index's pages, metadata files, byte ranges of a wheel. Every transfer is its own curl
 * process (no shell: the URL is an argument), whose body comes through a pipe into the
 * destination, so that a server sending more than the bound is cut off at the bound (curl's
 * --max-filesize alone cannot stop a body of unannounced length), and whose time is capped
 * (--max-time, and --speed-limit for a server that stalls). Only http:// and https://, also
 * through redirects. No credentials are sent.
 */
#ifndef WG_HTTP_H
#define WG_HTTP_H

#include "util.h"

/* one GET */
struct httpget {
	const char *url;        /* http:// or https:// */
	const char *accept;     /* the Accept header, NULL: curl's */
	const char *range;      /* the Range header's bytes ("0-99", "-65536"), NULL: the whole file */
	int compressed;         /* ask for a compressed body (the bound counts it decompressed) */
	const char *dest;       /* the file the body is written to (created or truncated) */
	size_t max;             /* the most body bytes it may take (0: HTTP_MAX) */
	/* the answer: */
	long status;            /* the HTTP status of the last answer (after redirects); 0 when none came */
	char ctype[128];        /* its Content-Type, "" when none */
	char crange[128];       /* its Content-Range, "" when none */
	size_t got;             /* body bytes written to dest */
	struct sb why;          /* empty when an answer came whole; else what went wrong (no answer,
				   cut short, larger than max, too slow), without the URL */
};

/* how long a transfer may take, and how many run at once */
struct httplimits {
	long timeout;           /* seconds one transfer may take in all */
	long stall;             /* seconds a transfer may move under 1 KiB/s */
	size_t parallel;        /* transfers at once */
};
#define HTTP_TIMEOUT 60
#define HTTP_STALL 15
#define HTTP_PARALLEL 16
#define HTTP_MAX (64 << 20)

/*
 * Run the n GETs (lim NULL: the defaults above), parallel transfers at a time, filling in each
 * one's answer. 0, or -1 when curl could not be started at all (g[0].why says why). A transfer
 * that got an answer has status set and why empty, whatever the status.
 */
int httpfetch(struct httpget *g, size_t n, const struct httplimits *lim);
/* free what httpfetch allocated in g (its why) */
void httpgetfree(struct httpget *g);

/* 1 if url is an http:// or https:// URL wheelgen will hand to curl: printable ASCII without
   blanks, quotes, backslashes or angle brackets, and a host */
int httpurlok(const char *url);

#endif
