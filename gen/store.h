/*
 * store: where published cells live, read back. The store is one of the config's publish
 * destinations, holding for each published cell <cell>.manifest (its manifest with key=,
 * tested= and gpu=), its wheel and the wheel's .metadata, all under their names. A cell is in
 * the store when its <cell>.manifest carries the cell's key and the wheel's sha256 matches.
 * A directory is read as files, an HTTP store and GitHub releases through http.c, every
 * answer bounded in size and time. A public store needs no token; where one is set
 * (WG_HTTP_TOKEN for an HTTP store, GH_TOKEN else GITHUB_TOKEN for GitHub) every request
 * to the store's own host (and GitHub's API) sends it, and none to another host (where a
 * GitHub download redirects to) does.
 *
 * publish.github spans releases: a cell's three files are assets of the release
 * storerelease() names from the cell alone (its package, version, Python and platform), so
 * that no release reaches GitHub's 1,000 assets and no reader needs a listing. Its manifest
 * says where its wheel is (stored=<release>/<file name>).
 *
 * A store that timed out is given up on for the rest of the ninja run (the run: the pid and
 * start time in BUILDDIR/.lock, see claim.h): BUILDDIR/store-down/<hash of the store> holds the
 * run and the message, and every later call of the run fails at once with that message.
 */
#ifndef WG_STORE_H
#define WG_STORE_H

#include "config.h"
#include "http.h"
#include "storelayout.h"
#include "util.h"

enum storekind { STORE_NONE, STORE_DIR, STORE_HTTP };

struct store {
	enum storekind kind;
	char *where;       /* the directory or the base URL, ending in '/': a file is where + name */
	const char *from;  /* what named it: "WHEELGEN_STORE", "publish.dir", "publish.http", "publish.github" */
	long timeout;      /* seconds one transfer may take (publish.timeout) */
	long stall;        /* seconds a transfer may move under 1 KiB/s (publish.stall_timeout) */
	const char *release; /* publish.github: the tag that begins every release's (storerelease), else NULL */
	char *api;         /* publish.github: the API's URL ($GITHUB_API_URL, else https://api.github.com) */
	const char *repo;  /* publish.github: owner/name */
	char *down;        /* the mark of a store given up on in this run (BUILDDIR/store-down/<hash>), or NULL */
	char *run;         /* the ninja run this process belongs to ("pid start" of BUILDDIR/.lock), or NULL */
};

/* the most a store's directory listing may hold */
#define STORE_LISTING_MAX (16 << 20)
/* the most any file read from a store may hold when the caller names no limit (GitHub's limit
   on an asset is 2 GiB) */
#define STORE_FILE_MAX ((size_t)2 << 30)

/*
 * The store to read: $WHEELGEN_STORE (a directory, an http:// or https:// URL, or "none"),
 * else publish.dir, else publish.http, else publish.github's releases (downloads under
 * $GITHUB_SERVER_URL, else https://github.com). kind is STORE_NONE when there is none.
 * builddir (or NULL): where the run's state is (the store-down marks).
 */
void storeopen(const struct config *c, const char *builddir, struct store *s);

/*
 * The tag of the GitHub release that holds cell's files: prefix-<cell without its -cu<XYZ> and
 * -torch<X.Y> parts>, i.e. prefix-<package>-<version>-py<XY>[-<platform>], into tag. One
 * release per package version, Python and platform: its cells differ only in CUDA and torch.
 */
void storerelease(const char *prefix, const char *cell, struct sb *tag);
void storefree(struct store *s);

/* (storefile, the names a store may hold: storelayout.h) */

/*
 * Copy the store's file name into dest (through dest.tmp.<pid> and a rename); max: the most it
 * may hold (0: STORE_FILE_MAX); an answer longer than max is cut off there, announced or not,
 * and the temporary removed. Returns 0, 1 when the store has no such file, or -1 when the
 * store could not be read, timed out, or sent more than max (why says how, naming the file or
 * URL; nothing printed). HTTP: redirects are followed within the store's host (GitHub's: to
 * any https host, its downloads' home); a redirect elsewhere is an error naming where it went.
 * 401, 403, 404 and 507 are answers, never tried again; 401 and 403 name the token's variable.
 */
int storeget(const struct store *s, const char *name, const char *dest, size_t max, struct sb *why);

/* whether the store holds name, and its size (-1 when an HTTP store does not say), without
   reading it (a directory: stat; HTTP: HEAD). 0, 1 when it has no such file, -1 with why */
int storestat(const struct store *s, const char *name, long long *size, struct sb *why);

/* the sha256 of the store's file name where the store can tell without a download (a directory
   store hashes it locally): 0 with hex, 1 when it cannot (hex "") */
int storehash(const struct store *s, const char *name, char hex[65]);

/* (storelist and storelisting, what a store's listing says: listing.h) */

/*
 * Make the request g (url, method, dest, max, accept set) the store's way (storehow) under its
 * time limits. What went wrong into why, naming the method and the URL: no answer, larger
 * than max, a redirect not followed. -1 then (a timeout gives the store up for the run; a store
 * given up on fails at once), else 0 with g's status.
 */
int storerequest(const struct store *s, struct httpget *g, struct sb *why);
/* an answer the caller did not expect, into why: "METHOD URL: HTTP status N", for 401 and 403
   with what to do about the token (its variable, never its value) */
void storebadstatus(const struct store *s, struct sb *why, const struct httpget *g);
/* the URL of the store's file name, appended to u (GitHub: a cell's manifest is in its cell's
   release) */
void storeurl(struct sb *u, const struct store *s, const char *name);
/* 1 (the earlier message into why) when this ninja run gave the store up before */
int storegivenup(const struct store *s, struct sb *why);

/* how to ask the store for url (restore.c's range requests too): its token where url is on
   the store's host (or GitHub's API), ~/.netrc, and its redirect rule (within its host; a
   GitHub store's: also to any https host, without the token) */
void storehow(const struct store *s, const char *url, struct httphow *how);

/* remove the store's file name (HTTP: DELETE; GitHub: the asset, through the API with
   GH_TOKEN or GITHUB_TOKEN); 0 or -1 with why */
int storedel(const struct store *s, const char *name, struct sb *why);

/* the store as people should read it: the directory or URL */
const char *storename(const struct store *s);

#endif
