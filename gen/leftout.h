/*
 * leftout: what ninja merge-index left out of the index and why, and what the store gave it, as
 * data for wheelgen summary (never the text of a message: rewording one changes no summary).
 * Two files of tab-separated rows beside merge-index.rsp, each written whole by its step through
 * a temporary and a rename (and removed when the step starts, so that a failed step leaves none):
 *   BD_PULLNOTE  (store --pull, restore.c)  store NAME RESTORED MANIFESTSONLY LOCAL MISSING OTHER DAMAGED
 *                                           left-out CELL WHY   (a damaged entry)
 *   BD_INDEXNOTE (index, indexplan.c)       left-out CELL WHY   (a wheel that has not passed its test)
 * WHY is one line (tabs and newlines become spaces). This file alone writes and reads them.
 */
#ifndef WG_LEFTOUT_H
#define WG_LEFTOUT_H

#include <stddef.h>

#include "layout.h"
#include "util.h"

/* what store --pull did (pullstore's counts) */
struct pullcounts {
	char *store;              /* the store's name; NULL: no store --pull row */
	size_t restored, local, missing, other, damaged;
	int manifestsonly;        /* the pages link the store: manifests were pulled, not wheels */
};

/* a left-out row for cell into rows */
void leftoutcell(struct sb *rows, const char *cell, const char *why);
/* the store row of c into rows */
void leftoutstore(struct sb *rows, const struct pullcounts *c);
/* remove place's file (BD_PULLNOTE, BD_INDEXNOTE) at the start of its step */
void leftoutclear(const char *builddir, enum bdplace place);
/* write rows as place's file (no rows: no file); 0, or -1 (printed) */
int leftoutwrite(const char *builddir, enum bdplace place, const struct sb *rows);
/* both files of builddir: the cells left out ("CELL\tWHY\n" lines, appended to cells) and the
   store's counts (c->store NULL when there is none; free it); files that are not there are none */
void leftoutread(const char *builddir, struct sb *cells, struct pullcounts *c);

#endif
