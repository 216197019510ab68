/* gitlock: the lock file beside the config (config/packages.yml -> config/packages.lock): the
   commit of every (git package, version), "package version commit" lines, sorted, after a
   comment. Written and read here alone, under BUILDDIR/lock.lck. */
#ifndef WG_GITLOCK_H
#define WG_GITLOCK_H

#include "util.h"

/*
 * Check the lock's entry for (package, version) against hex and add it if missing; another
 * commit is an error naming what (e.g. "tag 'v1.0' of URL") unless update is set (then it is
 * replaced). lock "" for none. -1 with a message.
 */
int lockcheck(const char *builddir, const char *lock, const char *package, const char *version, const char *hex,
	      int update, const char *what);
/* the commit the lock file records for (package, version), into hex: 0, or 1 when it has none */
int lockread(const char *lock, const char *package, const char *version, char hex[65]);
/* remove the entries of the lock file that keep (a setadd() set of "package version") lacks,
   saying so for each; under builddir's lock.lck */
int lockprune(const char *builddir, const char *lock, const char *keep);

#endif
