/* outdated: the upstream tags of a config's git packages that name versions newer than the
   newest configured one, read from the remotes' ref lists without cloning; and added to the
   config's versions lists (--write). */
#ifndef WG_OUTDATED_H
#define WG_OUTDATED_H

#include "config.h"

/* the version a tag names under pattern (e.g. "v{version}"): a PEP 440 version without a local
   label (malloc'd), or NULL */
char *tagversion(const char *pattern, const char *tag);

/*
 * For every git package of c: the configured newest version and the newer upstream ones
 * (pre-releases with pre), newest first, as a table or (json) a JSON list of objects package,
 * url, configured, newer, into out. -1 when a remote could not be listed (a message printed;
 * the other packages are still there). With write (the file c was read from): instead of the
 * table, the newer versions are appended to each package's versions list there, oldest first,
 * the rest of the file kept byte for byte (yamledit.c), and one line per package says what was
 * added (on stderr with json); nothing is written when a remote could not be listed.
 */
int outdated(const struct config *c, int json, int pre, const char *write, struct sb *out);

#endif
