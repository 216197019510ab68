/*
 * restore: cells taken from the store (store.h) instead of built. A cell whose key the store
 * holds, with a wheel whose sha256 matches, is copied into the build directory with its
 * manifest marked origin=store; its test passed before it was published, so its test stamp
 * is restored too. Anything wrong with the store (unreachable, a wrong hash, no key) is one
 * warning naming the entry or URL, and the cell is built: a store never fails a build. What
 * counts as damage, and taking a damaged entry out, is damage.h's.
 */
#ifndef WG_RESTORE_H
#define WG_RESTORE_H

#include "damage.h"
#include "key.h"
#include "store.h"
#include "storeview.h"

/* what the store says of one cell */
enum storestate {
	STORED,         /* its manifest carries the cell's key (and, checked, its wheel is as it says) */
	WHEELBAD,       /* its manifest carries the key, but its wheel is missing, short or other than it says */
	NOTSTORED,      /* no manifest for the cell */
	OTHERKEY,       /* a manifest for other inputs */
	BADENTRY,       /* a manifest without a key (warned) */
	UNKNOWNKEY,     /* the cell's key is unknown (a git source with no lock entry or checkout) */
	KEYERROR,       /* the cell's key could not be computed (a source or template unreadable: an error printed) */
	STOREDOWN,      /* the store could not be read (warned) */
};

/*
 * Look cl up in the store: fetch <cell>.manifest into tmpfile (from the view v where one is
 * given: storeviewread read it already; NULL: from the store) and compare its key with the
 * cell's (a git cell of unknown commit is keyed with the stored manifest's commit); with check,
 * a stored cell's wheel too, without downloading it: there, of its size, and of its sha256
 * where the store can tell (a directory store hashes it), else WHEELBAD. The cell's key into
 * key ("" if unknown). Nothing printed; why gets the reason.
 */
enum storestate storelookup(struct keyctx *k, const struct store *s, struct storeview *v, const struct cell *cl,
			    const char *tmpfile, int check, char key[65], struct sb *why);

/*
 * ninja's wheel/<cell>, before building: write BUILDDIR/cells/<cell>/key (the build puts it
 * into the manifest) and restore the cell from the store if it is there: the wheel, its
 * .metadata and the manifest (origin=store). Either way, write the edge's depfile
 * BUILDDIR/wheels/<cell>/manifest.d (depfilewrite: its one writer). 0 when restored, 1 when
 * the cell must be built (a message says why), -1 on a local error (message printed; ninja's
 * edge builds the cell then, without the depfile).
 */
int restorewheel(struct keyctx *k, const struct store *s, const struct cell *cl, const char *builddir);

/*
 * ninja's test/<cell>, before testing: when BUILDDIR/wheels/<cell>/manifest came from the
 * store and records the test passed for this wheel, write BUILDDIR/tests/<cell>.ok and return
 * 0; 1 when the cell must be tested (also when WHEELGEN_RETEST=1).
 */
int restoretest(const char *builddir, const char *cell);

/*
 * For the index of everything: the manifests of the cells of m whose key the store holds,
 * into BUILDDIR/store/<cell>/ (with the wheel and .metadata unless manifestsonly), except
 * cells built here (BUILDDIR/wheels/<cell>/manifest); cells no longer stored are removed from
 * there. A damaged entry (a wrong hash, a wheel that is not the cell's; manifests only: what
 * the store shows without a download, an HTTP store's wheel's size, .dist-info and WHEEL tags
 * by a few KB of range reads) is left out and taken out of the store (storetakeout). Prints a
 * summary. 0; -1 (an error naming the store and the cause; nothing removed from BUILDDIR/store) when
 * the store could not be read (down, refusing, too slow) or BUILDDIR not written: an index
 * must never lack a stored cell because of a fault.
 */
int pullstore(struct keyctx *k, const struct store *s, const struct matrix *m, const char *builddir, int manifestsonly);

/*
 * The store's entries (<cell>.manifest) that no cell of m keys, one line each on stdout:
 * "<entry>\t<why>"; with del, removed (the manifest first, then its wheel and .metadata unless
 * a kept entry names the same file). Then the temporaries of publishes that did not finish (in
 * its tmp/, or <name>.tmp.<...> at its top), "<file>\ta publish's temporary, N minutes old";
 * with del, those older than grace minutes removed. 0, or -1 when the store could not be listed.
 */
int unusedstore(struct keyctx *k, const struct store *s, const struct matrix *m, const char *builddir, int del,
		long grace);

#endif
