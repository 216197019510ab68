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
};

/*
 * The store to read: $WHEELGEN_STORE (a directory, an http:// or https:// URL, or "none"),
 * else publish.dir, else publish.http, else the download URL of publish.github's release.
 * kind is STORE_NONE when there is none.
 */
void storeopen(const struct config *c, struct store *s);
void storefree(struct store *s);

/*
 * Copy the store's file name into dest (through dest.tmp.<pid> and a rename). Returns 0, 1
 * when the store has no such file, or -1 when the store could not be read (why says how,
 * naming the file or URL; nothing printed).
 */
int storeget(const struct store *s, const char *name, const char *dest, struct sb *why);

/* the store's file names ending in suffix, one per line into names (an HTTP store: the links
   of its directory listing); 0 or -1 with why */
int storelist(const struct store *s, const char *suffix, struct sb *names, struct sb *why);

/* remove the store's file name (HTTP: DELETE); 0 or -1 with why */
int storedel(const struct store *s, const char *name, struct sb *why);

/* the store as people should read it: the directory or URL */
const char *storename(const struct store *s);

#endif
