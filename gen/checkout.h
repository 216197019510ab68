/* checkout: a git source's pinned checkout (BUILDDIR/src/<package>-<version>/) with its submodules,
   each from its own mirror; the source spec that asks for it (written by gen, read by
   wheelgen checkout: one owner of the format), and the stamp that records what was checked out. */
#ifndef WG_CHECKOUT_H
#define WG_CHECKOUT_H

#include "mirror.h"
#include "util.h"

/* what to check out: read from a source spec file (key=value lines) */
struct srcspec {
	char *package, *version, *url, *ref;   /* ref: the tag, e.g. v2.8.3 */
	char *dest;                            /* directory to fill */
	char *stamp;                           /* file to write: commit ids (only if changed) */
	char *lock;                            /* lock file; "" for none */
	char *skip;                            /* submodule paths not to check out, blank-separated; NULL: none */
	int updatelock;                        /* 1: a moved tag updates the lock instead of failing */
};

/* the text of a source spec (key=value lines; the paths as given), into out */
void srcspecwrite(struct sb *out, const struct srcspec *s);
/* read a source spec; -1 with a message if unreadable or incomplete */
int srcspecread(const char *path, struct srcspec *s);
void srcspecfree(struct srcspec *s);

/* the commit a checkout's stamp (BUILDDIR/src/<package>-<version>.commit) records, into hex: 0,
   or 1 when there is no stamp (or it names no commit) */
int stampread(const char *stamp, char hex[65]);

/*
 * Check out s->ref of s->url into s->dest with its submodules (recursively, each
 * from its own mirror at the commit the tree records), writing into a temporary
 * and renaming. Fetches only when the ref or a submodule commit is missing from a
 * mirror. Checks and records the commit in the lock file. Writes s->stamp only if
 * the commits changed. -1 with a message naming package, version and url on failure.
 */
int gitcheckout(const char *builddir, const struct srcspec *s, struct fetchstats *st);

/*
 * Fetch s->url, resolve s->ref and check it against the lock file, adding the
 * entry if missing (replacing it if s->updatelock). hexout gets the commit (41 bytes).
 */
int gitlock(const char *builddir, const struct srcspec *s, struct fetchstats *st, char *hexout);

/* why tag cannot name refs/tags/<tag> (control characters, git's reference name rules), or NULL */
const char *tagwhy(const char *tag);

#endif
