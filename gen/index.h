/* index: the PEP 503/691 simple indexes written from wheel manifests (manifest.h), with the
   landing page (landing.h). */
#ifndef WG_INDEX_H
#define WG_INDEX_H

#include <stddef.h>

#include "manifest.h"

/*
 * Write builddir/index/, each file only if its content changed:
 *   files/<wheel>, files/<wheel>.metadata   hard links to the built wheels and their METADATA
 *                                           (not with a base_url: the wheels are elsewhere)
 *   simple/                                 every wheel: index.html + index.json (PEP 503/691/700)
 *   <variant>/simple/                       one per CUDA/torch variant (cu130-torch2.9): its wheels
 *                                           and the wheels that fit every variant (no CUDA)
 *   index.html                              the compatibility matrix and the install lines
 * Pages of projects and variants that are gone, and files no page names, are removed.
 * Only tested wheels are indexed: a manifest without a test record of its wheel (tested= in it,
 * a file "tested" beside it, or builddir/tests/<cell>.ok, whose first line is the sha256) is
 * left out, with a message.
 * manifests: paths of the manifests to include; with o->fromlist, distribution file names
 * instead (no files, hashes or metadata: for measuring against other generators).
 * Returns -1 on failure.
 */
int writeindex(const char *builddir, char **manifests, size_t n, const struct indexopts *o);

#endif
