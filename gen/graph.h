/* graph: the per-cell spec files and graph.ninja, the part of the build graph that the config decides. */
#ifndef WG_GRAPH_H
#define WG_GRAPH_H

#include "matrix.h"

/* where and how to write */
struct graphopts {
	double memory_gb;       /* memory builds may use; 0: unknown (no memory pool) */
	const char *builddir;   /* e.g. "out" (as ninja sees it, relative to the top directory) */
	int container;          /* 1: steps run in docker/podman (templates/build-container.sh) */
	const struct host *host; /* what configure found (the root file systems of cross builds); may be NULL */
};

/* counts of what gengraph did */
struct graphstats {
	size_t cells, buildable;
	size_t written;         /* spec files (re)written */
	int graphwritten;       /* 1 if graph.ninja changed */
};

/*
 * Write builddir/cells/<cell>/{spec,test} for every cell and builddir/graph.ninja,
 * each only if its content changed. Returns -1 (message printed) on failure.
 */
int gengraph(const struct config *c, const struct matrix *m, const struct graphopts *o, struct graphstats *st);

#endif
