/*
 * store: where published cells live, read back. The store is one of the config's publish
 * destinations, holding for each published cell <cell>.manifest (its manifest with key=,
 * tested= and gpu=), its wheel and the wheel's .metadata, all under their names. A cell is in
 * the store when its <cell>.manifest carries the cell's key and the wheel's sha256 matches.
 * Reading needs no token: a directory is read as files, an HTTP store and a GitHub release
 * with curl (GET).
 */
#ifndef WG_STORE_H
#define WG_STORE_H

#include "config.h"
#include "util.h"

enum storekind { STORE_NONE, STORE_DIR, STORE_HTTP };

struct store {
	enum storekind kind;
	char *where;       /* the directory or the base URL, ending in '/': a file is where + name */
	const char *from;  /* what named it: "WHEELGEN_STORE", "publish.dir", "publish.http", "publish.github" */
	long timeout;      /* seconds one transfer may take (publish.timeout) */
	long stall;        /* seconds a transfer may move under 1 KiB/s (publish.stall_timeout) */
};

/* the most a store's directory listing may hold */
#define STORE_LISTING_MAX (16 << 20)

/*
 * The store to read: $WHEELGEN_STORE (a directory, an http:// or https:// URL, or "none"),
 * else publish.dir, else publish.http, else the download URL of publish.github's release.
 * kind is STORE_NONE when there is none.
 */
void storeopen(const struct config *c, struct store *s);
void storefree(struct store *s);

/*
 * 1 if name can name a file of the store: a plain file name (<cell>.manifest, a wheel published
 * flat), or blobs/<sha256>/<plain file name> (a wheel and its .metadata stored by content: a
 * name that never holds other bytes, so that no manifest ever names bytes the store lacks)
 */
int storefile(const char *name);

/*
 * Copy the store's file name into dest (through dest.tmp.<pid> and a rename); max: the most it
 * may hold (0: no limit). Returns 0, 1 when the store has no such file, or -1 when the store
 * could not be read, timed out, or sent more than max (why says how, naming the file or URL;
 * nothing printed).
 */
int storeget(const struct store *s, const char *name, const char *dest, size_t max, struct sb *why);

/* whether the store holds name, and its size (-1 when an HTTP store does not say), without
   reading it (a directory: stat; HTTP: HEAD). 0, 1 when it has no such file, -1 with why */
int storestat(const struct store *s, const char *name, long long *size, struct sb *why);

/* the sha256 of the store's file name where the store can tell without a download (a directory
   store hashes it locally): 0 with hex, 1 when it cannot (hex "") */
int storehash(const struct store *s, const char *name, char hex[65]);

/* the store's file names ending in suffix, one per line into names (an HTTP store: the links
   of its directory listing); 0 or -1 with why */
int storelist(const struct store *s, const char *suffix, struct sb *names, struct sb *why);

/* remove the store's file name (HTTP: DELETE); 0 or -1 with why */
int storedel(const struct store *s, const char *name, struct sb *why);

/* the store as people should read it: the directory or URL */
const char *storename(const struct store *s);

#endif
