/* sources: the git sources of a config, as the build directory has them: for each (git package,
   version) the name of its checkout, <package>-<version>, and the source spec that asks for it. */
#ifndef WG_SOURCES_H
#define WG_SOURCES_H

#include "checkout.h"
#include "config.h"

/* "<normalized package>-<version>": the name of (p, version)'s checkout, stamp and source spec
   in the build directory (layout.h: BD_CHECKOUT, BD_STAMP, BD_SRCSPEC), appended to s */
void srcname(struct sb *s, const struct package *p, const char *version);

/*
 * The source spec of git package p's version for builddir, its strings in the arena (not to
 * be given to srcspecfree): the config's name, the URL, the tag, the checkout and its stamp
 * under builddir, the config's lock file, skip_submodules; update as wheelgen lock --update.
 */
void sourcespec(struct arena *a, const struct config *c, const struct package *p, const char *version,
		const char *builddir, int update, struct srcspec *s);

#endif
