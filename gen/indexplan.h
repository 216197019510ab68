/* indexplan: the index's plan, before any page is written: which wheels (tested ones only), one
   file per file name, the variants and their trees, and the PEP 825 variants.json files. */
#ifndef WG_INDEXPLAN_H
#define WG_INDEXPLAN_H

#include <stddef.h>

#include "manifest.h"

/* the name of the PEP 825 variants tree, index/variants/simple/ (compared by address) */
extern const char variantstree[];

/* order of wheels: by project, then file name (qsort) */
int cmpwheel(const void *a, const void *b);
/* does wheel w belong to the tree of variant v (NULL: the combined tree; variantstree)? */
int intree(const struct wheelinfo *w, const char *v);
/* read the manifests (with o->fromlist, file names) into w, which has room for n: only tested
   wheels. *rc = -1 when one cannot be read (each is reported). Returns the count */
size_t readwheels(const char *builddir, char **manifests, size_t n, const struct indexopts *o,
		  struct wheelinfo *w, int *rc);
/* one file name, one file (w sorted by cmpwheel): the count kept in w, or (size_t)-1 after an
   error (two different wheels of one name, reported) */
size_t onefile(struct wheelinfo *w, size_t nw);
/* the variants of w, each once, in order of first appearance, into variants; their count */
size_t variantsof(const struct wheelinfo *w, size_t nw, const char **variants);
/* write index/files/<name>-<version>-variants.json for the variant wheels of w and add each as
   an entry (vjson) of *wp; the new count, or (size_t)-1 */
size_t variantfiles(const char *index, struct wheelinfo **wp, size_t nw, int fresh);

#endif
