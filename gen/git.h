/* git: sources through libgit2 — one bare mirror per repository, pinned checkouts with submodules, the lock file. */
#ifndef WG_GIT_H
#define WG_GIT_H

#include <stddef.h>

#include "util.h"

/* what one fetch did */
struct fetchstats {
	size_t bytes;     /* bytes received from the remote */
	size_t objects;   /* objects received */
	int created;      /* 1 if the mirror was created (or re-created after corruption) */
	char from[512];   /* the urls fetched from that sent bytes, space-separated (cut at the end) */
};

/* the mirror directory of url under builddir: builddir/git/<host>/<path>.git (into s); -1 with
   a message naming url when it has none ('.' or '..' components, no host and path) */
int mirrorpath(struct sb *s, const char *builddir, const char *url);
/* the same without a message: -1 with *why set (config checks use it: check and gen agree) */
int mirrorpathwhy(struct sb *s, const char *builddir, const char *url, const char **why);
/* remove the entries of the lock file that keep (a setadd() set of "package version") lacks,
   saying so for each; under builddir's lock.lck */
int lockprune(const char *builddir, const char *lock, const char *keep);
/* why tag cannot name refs/tags/<tag> (control characters, git's reference name rules), or NULL */
const char *tagwhy(const char *tag);

/* resolve a submodule url (maybe relative: ./x, ../x) against the url of its parent */
char *resolveurl(const char *parent, const char *url);

/*
 * Fetch heads and tags of url into its mirror (created if missing, re-created if
 * corrupt), under a lock so concurrent fetches of one mirror are safe. Progress
 * goes to stderr when it is a terminal. -1 with a message naming url on failure.
 */
int gitfetch(const char *builddir, const char *url, struct fetchstats *st);

/* what to check out: read from a source spec file (key=value lines) */
struct srcspec {
	char *package, *version, *url, *ref;   /* ref: the tag, e.g. v2.8.3 */
	char *dest;                            /* directory to fill */
	char *stamp;                           /* file to write: commit ids (only if changed) */
	char *lock;                            /* lock file; "" for none */
	char *skip;                            /* submodule paths not to check out, blank-separated; NULL: none */
	int updatelock;                        /* 1: a moved tag updates the lock instead of failing */
};

/* read a source spec; -1 with a message if unreadable or incomplete */
int srcspecread(const char *path, struct srcspec *s);
void srcspecfree(struct srcspec *s);

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

/* the tag names of the repository at url, listed without cloning (malloc'd; free each and the array) */
int gitlstags(const char *url, char ***tags, size_t *n);

/* set up libgit2: ignore the user's and the system's git config, honour SSL_CERT_FILE/DIR */
void gitinit(void);
void gitshutdown(void);

#endif
