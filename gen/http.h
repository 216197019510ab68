/*
 * http: the one HTTP client of wheelgen's C code. Every request is its own curl process (no
 * shell: the URL is an argument), several at once, each bounded in size and time: its body
 * comes through a pipe into the destination, so that a server sending more than the bound is
 * cut off at the bound (curl's --max-filesize alone cannot stop a body of unannounced length),
 * and its time is capped (--max-time, and --speed-limit for a server that stalls). Only
 * http:// and https://, also through redirects. No other file of gen/ runs curl (tests/t0000).
 *
 * Credentials: a bearer token goes to curl in a private header file (mode 0600, in tmpdir(),
 * removed after the request; curl -H @FILE), never on a command line and never in a message,
 * and only to the host of the request's URL: a redirect to another host is made without it.
 * ~/.netrc is read where asked (curl --netrc-optional).
 */
#ifndef WG_HTTP_H
#define WG_HTTP_H

#include "util.h"

enum httpmethod {
	HTTP_GET,               /* (0: the default) */
	HTTP_HEAD,
	HTTP_PUT,               /* the body from a file (upload) */
	HTTP_DELETE,
};

/* what a redirect does; a redirect of a PUT or DELETE is never followed (stop HTTP_STOP_METHOD) */
enum httpredirect {
	HTTP_FOLLOW,            /* (0) curl follows it, to any http(s) URL, 5 at most */
	HTTP_SAMEHOST,          /* followed within the scheme, host and port of url, 5 at most */
	HTTP_SAMEHOST_HTTPS,    /* followed within url's host, or to any https:// URL (a GitHub
				   download, which goes to a host of its own), 5 at most */
};

/* why a redirect was not followed: the answer is that redirect (status 3xx, location) */
enum httpstop {
	HTTP_STOP_NONE,
	HTTP_STOP_METHOD,       /* a PUT or DELETE answered with a redirect */
	HTTP_STOP_HOST,         /* a redirect the rule does not allow (another host, not http(s)) */
	HTTP_STOP_HOPS,         /* more than 5 redirects */
};

/* how to ask: the credentials and the redirect rule (a store's: storehow) */
struct httphow {
	const char *token;      /* a bearer token sent to url's host only (NULL: none); never printed */
	int netrc;              /* 1: credentials from ~/.netrc where it has the host */
	enum httpredirect redirect;
};

/* one request (zeroed, then url, dest and what else is needed set) */
struct httpget {
	enum httpmethod method;
	const char *url;        /* http:// or https:// */
	const char *accept;     /* the Accept header, NULL: curl's */
	const char *range;      /* the Range header's bytes ("0-99", "-65536"), NULL: the whole file */
	int compressed;         /* ask for a compressed body (the bound counts it decompressed) */
	const char *upload;     /* HTTP_PUT: the file sent */
	const char *dest;       /* the file the body is written to (created or truncated); NULL: the
				   body is read (and bounded) but kept nowhere */
	struct sb *into;        /* the body is kept here instead (emptied first; NULL: dest) */
	size_t max;             /* the most body bytes it may take (0: HTTP_MAX) */
	struct httphow how;
	/* the answer: */
	long status;            /* the HTTP status of the last answer; 0 when none came */
	char ctype[128];        /* its Content-Type, "" when none */
	char crange[128];       /* its Content-Range, "" when none */
	char date[64];          /* its Date (the server's clock), "" when none */
	long long length;       /* its Content-Length, -1 when none */
	struct sb location;     /* where a redirect pointed that was not followed (see stop) */
	enum httpstop stop;     /* why that redirect was not followed */
	struct sb at;           /* the URL the last answer came from (url, or where it redirected) */
	size_t got;             /* body bytes written to dest */
	int over;               /* 1: the answer was larger than max (why says so) */
	long curlexit;          /* curl's exit status: 0, curl's error number (28: it timed out, see
				   curlmsg), -1 when curl could not be run or said nothing */
	char curlmsg[256];      /* curl's own message for curlexit, "" when none */
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
#define HTTP_HOPS 5

/*
 * Make the n requests (lim NULL: the defaults above), parallel transfers at a time, filling in
 * each one's answer. 0, or -1 when curl could not be started at all (g[0].why says why). A
 * request that got an answer has status set and why empty, whatever the status.
 */
int httpfetch(struct httpget *g, size_t n, const struct httplimits *lim);
/* the most requests httpbatch hands one curl process */
#define HTTP_BATCH 256

/*
 * Make the n GET requests as httpfetch does, but many in one curl process, one after another
 * over one connection: a store's manifests and listings, thousands of small files, where a
 * process a request costs more than the request. Requests with the same credentials whose URLs
 * share a scheme, host and port go together, HTTP_BATCH at most a process, lim->parallel
 * processes at once. No redirect is followed: it is the answer (status 3xx, location). A
 * request the server never answered (a timeout, a refused or broken connection) ends its batch:
 * the requests after it are not made, and say so in why. Each body is bounded by its max, and
 * a batch's bodies together by the sum. 0, or -1 when curl could not be started.
 */
int httpbatch(struct httpget *g, size_t n, const struct httplimits *lim);
/*
 * httpbatch, then the redirects its answers name that each request's rule follows (a GitHub
 * download goes to a host of its own, in one batch; the token only to the request's own host),
 * and any further redirect alone, by httpfetch: what httpfetch would have answered. The number
 * of requests made.
 */
size_t httpbatchfollow(struct httpget *g, size_t n, const struct httplimits *lim);
/* free what httpfetch allocated in g (its why, at and location) */
void httpgetfree(struct httpget *g);

/* 1 if url is an http:// or https:// URL wheelgen will hand to curl: printable ASCII without
   blanks, quotes, backslashes or angle brackets, and a host */
int httpurlok(const char *url);
/* 1 when the URLs a and b have one scheme, host and port (case aside) */
int httpsamehost(const char *a, const char *b);
/*
 * A new private header file (mode 0600, in tmpdir()) holding "Authorization: Bearer <token>",
 * its name into path (size bytes); the caller removes it. 0, or -1: errno, or EINVAL when the
 * token is empty or holds a control character or a blank (a header of its own, smuggled in).
 */
int httpheaderfile(const char *token, char *path, size_t size);

#endif
