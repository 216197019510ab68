/* index: a PEP 503 simple index written from wheel manifests. */
#ifndef WG_INDEX_H
#define WG_INDEX_H

#include <stddef.h>

/* one wheel, as its manifest (key=value lines) describes it */
struct wheelinfo {
	char *cell, *package, *version, *filename, *sha256, *tags;
	char *cuda, *torch, *python;   /* the cell's coordinates ("" or NULL when it has none) */
	char *metasha;     /* sha256 of <wheel>.metadata beside it (NULL: none) */
	char *requirespy;  /* Requires-Python from its METADATA (NULL or "": none) */
	char *variant;     /* "cu130-torch2.9", "cu130", or NULL for a wheel that fits every variant */
	char *dir;      /* directory holding the manifest and the wheel */
	char *tested;   /* tested=: the sha256 of the wheel whose test passed (a store entry's), or NULL */
	long long size;
	long long mtime;   /* its upload-time in the index: the manifest's upload_time, else the wheel's mtime */
};

/* read a manifest; -1 with a message if unreadable or incomplete */
int manifestread(const char *path, struct wheelinfo *w);
/* free a manifest's strings */
void manifestfree(struct wheelinfo *w);

/* what the config says of the index (builddir/index.spec, written by gen) */
struct indexopts {
	char *baseurl;     /* wheel URLs are baseurl + file name; NULL: relative, into files/ */
	char *title;       /* the landing page's title; NULL: "Wheels" */
	char **yanked;     /* "<normalized project>\t<version>\t<reason>" (PEP 592) */
	size_t nyanked, nyankedcap;
	int fromlist;      /* the names are distribution file names, not manifests */
};

/* read an index spec (key=value lines: base_url, title, yanked); -1 with a message */
int indexspecread(const char *path, struct indexopts *o);
void indexoptsfree(struct indexopts *o);

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
