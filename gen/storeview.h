/*
 * storeview: many cells of a store read at once, reading only what changed. A plan, merge-index
 * or store --unused asks about every cell of a config: the view lists the store (its top, and
 * blobs/; a GitHub store's releases), keeps what the catalog (catalog.h) read before under
 * validators the listing still shows, and reads the rest together, many requests to a curl
 * process (http.h's httpbatch). So a farm's store is planned with a listing and the manifests
 * that changed, and a store that changed nothing costs one or two requests. A store whose
 * listing gives no validators (a server without a directory index, or one whose index says no
 * sizes and times) is read whole, every manifest, and the view says so once. What the view
 * answers is what storelookup (restore.h) and the damage checks (damage.h) decide on.
 */
#ifndef WG_STOREVIEW_H
#define WG_STOREVIEW_H

#include "catalog.h"
#include "listing.h"
#include "manifest.h"
#include "matrix.h"
#include "store.h"

/* one manifest read in this run */
struct viewman;

struct storeview {
	const struct store *s;
	const char *builddir;
	struct catalog cat;
	struct listing top;        /* the store's top, as listed now */
	struct listing blobs;      /* its blobs/ */
	int listed;                /* 1: top was listed with validators (a manifest not in it is not there) */
	int blobslisted;           /* 1: blobs/ too */
	struct viewman *man;       /* the manifests asked for, sorted by name */
	size_t nman;
	size_t requests;           /* requests made (listings, manifests, directories) */
	size_t reused;             /* manifests taken from the catalog */
};

/*
 * List the store and load the catalog. 0; -1 with why when the store could not be read (a
 * listing it does not serve is no fault: the view then reads every manifest, and says so).
 */
int storeviewopen(struct storeview *v, const struct store *s, const char *builddir, struct sb *why);

/*
 * Read the manifests of the cells ids (n of them) that the catalog does not hold as the
 * listing shows them, all at once. 0, or -1 with why when the store could not be read.
 */
int storeviewread(struct storeview *v, const char *const *ids, size_t n, struct sb *why);

/* the text of cell id's manifest, read by storeviewread: 0 (*text, *len), 1 when the store has
   none, -1 (why) when it was not read or could not be */
int storeviewmanifest(struct storeview *v, const char *id, const char **text, size_t *len, struct sb *why);

/*
 * Make the checks of the wheels that the manifests read name (storeviewwheel's) current, the
 * store's directories they need listed at once. 0, or -1 with why (the store could not be read).
 */
int storeviewwheels(struct storeview *v, struct sb *why);

/*
 * damage.h's wheeldamage, answered from the view: is the wheel m names there, of its size, of
 * its sha256 where the store can tell without a download (a directory store hashes it, once
 * for as long as its file is unchanged), with its .metadata? 0, 1 with why, -1 with why.
 */
int storeviewwheel(struct storeview *v, const struct wheelinfo *m, struct sb *why);

/* m's sha256 when a check of its wheel passed before (catalog.h) under what the listing shows
   of it now, else NULL */
const char *storeviewchecked(const struct storeview *v, const struct wheelinfo *m);
/* keep that m's wheel passed a check (its result: m's sha256) */
void storeviewsetchecked(struct storeview *v, const struct wheelinfo *m);

/* the catalog saved (what the store no longer holds forgotten), the view freed; 0 or -1 */
int storeviewclose(struct storeview *v);

#endif
