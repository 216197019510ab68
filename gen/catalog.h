/*
 * catalog: what was read from a store, kept under the validators its listing gave (listing.h),
 * so that the next plan or merge-index reads again only what changed: a farm's store of
 * thousands of cells is planned with one listing and the manifests that changed, not a request
 * a cell. BUILDDIR/store-catalog holds it between runs (the writer is the reader: this module
 * alone). It is a cache and never the truth: an entry counts only while the store's listing
 * still shows the validator it was read under (git's racily clean rule for coarse times), so
 * a catalog that is stale, of another store, damaged (its last line is the sha256 of the rest)
 * or missing costs reads, never a wrong answer; a damaged one is said and ignored.
 *
 * It holds three kinds of entries:
 *   - a manifest of the store's top (<cell>.manifest): its text;
 *   - a directory of the store (blobs/<sha256>/): its files and their sizes;
 *   - a check of a file (the sha256 a directory store's wheel hashed to; an HTTP store's wheel
 *     that passed merge-index's reads): its result.
 */
#ifndef WG_CATALOG_H
#define WG_CATALOG_H

#include "listing.h"
#include "util.h"

/* the most a catalog file may hold */
#define CATALOG_MAX ((size_t)256 << 20)

struct catent;

/* the entries, by kind and name */
struct catalog {
	struct catent **slot;   /* an open-addressing table of entries */
	size_t nslot, n;
	char *store;            /* the store it was read from (storename) */
	int changed;            /* 1: not as the file holds it */
};

/*
 * Read BUILDDIR/store-catalog into c for the store named store: empty when it is missing or of
 * another store; a damaged one (not the format, a sha256 that does not match) is said (one
 * notice) and read as empty. 0.
 */
int catalogload(struct catalog *c, const char *builddir, const char *store);
/* write it back (a temporary renamed into place) when it changed; 0, or -1 with a message */
int catalogsave(struct catalog *c, const char *builddir);
void catalogfree(struct catalog *c);

/* the text of manifest name read under e's validator (e: what the listing says of name now),
   or NULL when it was not, or e has changed since */
const char *catmanifest(const struct catalog *c, const char *name, const struct listent *e, size_t *len);
/* keep the text of manifest name, read under validator v at the store's time seen */
void catsetmanifest(struct catalog *c, const char *name, const char *v, long long seen, const char *text, size_t len);

/* the files of directory dir ("blobs/<sha256>/") as listed under e's validator, into l (an
   empty listing first); 0, or -1 when it was not, or e has changed since */
int catdir(const struct catalog *c, const char *dir, const struct listent *e, struct listing *l);
/* keep the listing l of directory dir, made under validator v at time seen */
void catsetdir(struct catalog *c, const char *dir, const char *v, long long seen, const struct listing *l);

/* the result of a check of file path made under e's validator, or NULL */
const char *catcheck(const struct catalog *c, const char *path, const struct listent *e);
/* keep the result of a check of path made under validator v at time seen */
void catsetcheck(struct catalog *c, const char *path, const char *v, long long seen, const char *result);

/* forget what the store no longer holds: manifests and files of its top that top does not
   list, directories under blobs/ (and checks of their files) that blobs does not (NULL: not
   listed, kept) */
void catprune(struct catalog *c, const struct listing *top, const struct listing *blobs);

#endif
