/*
 * spec: the spec files, POSIX sh that the step scripts source (templates/step-lib.sh lists
 * their variables: wg_specvars): one NAME='value' line per setting, escaped by esc.c, and
 * wg_dep/wg_arg/wg_env/... calls for lists. The cell spec and the test spec of a cell come
 * in two forms: the one written to DIR/cells/<cell>/ (graph.c), and the portable one the key
 * hashes (key.c), without the lines that describe this host. DIR/publish.spec is the same
 * format. This file alone writes them.
 */
#ifndef WG_SPEC_H
#define WG_SPEC_H

#include "config.h"
#include "matrix.h"

/* the forms of a spec */
enum {
	SPEC_HOST = 0,      /* the file: with this host's lines */
	SPEC_PORTABLE = 1,  /* what the key hashes: without them */
	SPEC_FAMILY = 2,    /* what the cell's family shares: the portable form less the cell's
			       name and Python (its hash is the family's key, WG_FAMILY_KEY) */
};

/*
 * The text of one cell's build spec (POSIX sh, sourced by templates/build-*.sh); srcdir: the
 * checkout of a git source. portable (SPEC_PORTABLE): without the lines that describe this host
 * (interpreter and toolkit paths, parallelism, memory, a path source's directory, patch paths),
 * the lines derived from the rest (the family and its key) and the comment: what the key
 * hashes. SPEC_FAMILY: that, less WG_CELL and WG_PYTHON.
 */
void cellspec(struct sb *s, const struct cell *cl, const char *srcdir, int portable);
/* the text of one cell's test spec (sourced by templates/test-*.sh); portable as for cellspec */
void celltestspec(struct sb *s, const struct cell *cl, int portable);
/* DIR/publish.spec: where publish.sh sends wheels and the index */
void publishspec(struct sb *s, const struct config *c);
/* is cl built for another platform than the default (x86_64)? its spec says WG_PLATFORM */
int cellforeign(const struct cell *cl);

#endif
