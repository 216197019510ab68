/* index: a PEP 503 simple index written from wheel manifests. */
#ifndef WG_INDEX_H
#define WG_INDEX_H

#include <stddef.h>

/* one wheel, as its manifest (key=value lines) describes it */
struct wheelinfo {
	char *cell, *package, *version, *filename, *sha256, *tags;
	char *dir;      /* directory holding the manifest and the wheel */
	long long size;
};

/* read a manifest; -1 with a message if unreadable or incomplete */
int manifestread(const char *path, struct wheelinfo *w);
/* free a manifest's strings */
void manifestfree(struct wheelinfo *w);

/*
 * Write builddir/index/: simple/index.html (the projects), simple/<project>/index.html
 * (the files, with #sha256=) and files/<wheel> (hard links to the built wheels), each only
 * if changed. manifests: paths of the manifests to include. Returns -1 on failure.
 */
int writeindex(const char *builddir, char **manifests, size_t n);

#endif
