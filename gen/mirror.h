/* mirror: git sources through libgit2: one bare mirror per repository (BUILDDIR/git/<host>/<path>.git),
   shared by every version and package that uses the URL, fetched under a lock. */
#ifndef WG_MIRROR_H
#define WG_MIRROR_H

#include <git2.h>
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
/* resolve a submodule url (maybe relative: ./x, ../x) against the url of its parent */
char *resolveurl(const char *parent, const char *url);

/*
 * Fetch heads and tags of url into its mirror (created if missing, re-created if
 * corrupt), under a lock so concurrent fetches of one mirror are safe. Progress
 * goes to stderr when it is a terminal. -1 with a message naming url on failure.
 */
int gitfetch(const char *builddir, const char *url, struct fetchstats *st);

/* the tag names of the repository at url, listed without cloning (malloc'd; free each and the array) */
int gitlstags(const char *url, char ***tags, size_t *n);

/* set up libgit2: ignore the user's and the system's git config, honour SSL_CERT_FILE/DIR */
void gitinit(void);
void gitshutdown(void);

/* for checkout.c: libgit2's last error as text */
const char *giterr(void);
/* for checkout.c: does repo hold the object oid? */
int hasobject(git_repository *repo, const git_oid *oid);
/*
 * For checkout.c: open the mirror of url into *repo, fetching first if fetch is set or it does
 * not exist; with need, not when the mirror holds that object by the time the lock is ours (a
 * checkout beside this one fetched it while this one waited). -1 with a message.
 */
int openmirror(const char *builddir, const char *url, int fetch, const git_oid *need, struct fetchstats *st,
	       git_repository **repo);

#endif
