/* wheelsjson: the index's machine-readable list of its wheels (wheels.json at the index's
   root) and the finder served beside it (find.py, templates/find.py), which reads that list.
   The landing page's selector reads the same text (landing.c embeds it). One wheel an entry:
   its package, version, tags, CUDA, torch and GPU code, and the index that installs it. */
#ifndef WG_WHEELSJSON_H
#define WG_WHEELSJSON_H

#include <stddef.h>

#include "manifest.h"
#include "util.h"

/* the files' names at the index's root (the landing page links them) */
#define WHEELSJSON_FILE "wheels.json"
#define FINDER_FILE "find.py"
/* the format wheels.json says it is in ("format"); a reader refuses another */
#define WHEELSJSON_FORMAT "wheelgen-wheels/1"

/*
 * Append wheels.json for the wheels w[0..nw) (sorted as the index sorts them; PEP 825 variant
 * wheels and their variants.json files are left out) to s. files: the URL prefix of the wheels
 * from the index's root ("files/" or the base_url), as the pages link them.
 */
void wheelsjson(struct sb *s, const struct wheelinfo *w, size_t nw, const char *files, const struct indexopts *o);
/*
 * Write index/wheels.json and index/find.py (a copy of o->finder, when set), each as
 * writepage writes a page (fresh: created in the new tree; else only if changed, through a
 * temporary renamed into place). -1 with a message.
 */
int writewheelsjson(const char *index, const struct wheelinfo *w, size_t nw, const char *files,
		    const struct indexopts *o, int fresh);

#endif
