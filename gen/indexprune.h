/* indexprune: an index rewritten in place loses the pages, variant trees and files that the
   wheels it now holds no longer name; only what wheelgen writes is removed. */
#ifndef WG_INDEXPRUNE_H
#define WG_INDEXPRUNE_H

#include <stddef.h>

#include "manifest.h"

/* remove dir/<e>/index.{html,json} and the directory e, for every entry e of dir not in keep
   (sorted); anything else put there stays. -1 after an error (reported) */
int prunepages(const char *dir, const char **keep, size_t nkeep);
/* remove the trees of variants not in variants (the variant trees this run wrote) and, unless
   o->fromlist, the files of files/ that no wheel of w names (all of them with a base_url) */
int pruneindex(const char *index, const struct wheelinfo *w, size_t nw, const char **variants, size_t nv,
	       const struct indexopts *o);

#endif
