/*
 * key: a cell's key, the sha256 of everything that decides its wheel and its test:
 * the build and test specs without the host's paths, the source's identity (git commit,
 * name==version of a PyPI sdist, a content hash of a path tree), the patches, the
 * templates the steps run, the container image, and the key's format version. Two clones
 * in different directories on different hosts compute the same key for the same cell; the
 * store (store.h) is looked up by it. The files of a path source that the key hashes are also
 * what the build's depfile names (depfilewrite): one list.
 */
#ifndef WG_KEY_H
#define WG_KEY_H

#include "matrix.h"
#include "util.h"

/* the key's format: part of every key, raised when what goes into a key changes */
#define KEY_FORMAT 1

/* where a git cell's commit is looked up first */
enum keysource {
	KEY_FROM_LOCK,      /* the lock file, then the checkout's stamp (what the config says: matrix) */
	KEY_FROM_CHECKOUT,  /* the checkout's stamp, then the lock file (what is built: restore) */
};

/* what computing keys needs; caches the hashes shared by many cells */
struct keyctx {
	const struct config *c; /* for the lock file */
	const char *builddir;   /* for the checkout stamps BUILDDIR/src/<package>-<version>.commit */
	const char *templates;  /* the templates directory (the steps' scripts) */
	enum keysource from;
	struct sb tmpl[4];      /* cached template lines: [container * 2 + another platform than x86_64] */
	int havetmpl[4];
	const struct package **treepkg; /* path packages whose tree hash is cached */
	char (*treehash)[65];
	size_t ntree, treecap;
};

/* a context for cells of one build directory; free with keyctxfree */
void keyctxinit(struct keyctx *k, const struct config *c, const char *builddir, const char *templates, enum keysource from);
void keyctxfree(struct keyctx *k);

/*
 * The key of cl into out (64 hex digits). commit, when not NULL, is the git commit to key a
 * git cell with (a stored manifest's, to check it against the config). Returns 0, 1 when the
 * source's identity is unknown (a git cell with no lock entry, no checkout and no commit
 * given: nothing written to out), or -1 with a message.
 * keytext, when not NULL, receives the text that was hashed (for wheelgen key --explain).
 */
int cellkey(struct keyctx *k, const struct cell *cl, const char *commit, char out[65], struct sb *keytext);

/* the files of a path source that a build copies (and its key hashes), relative to root, one
   per line, sorted; -1 with a message */
int treefiles(const char *root, struct sb *files);

/*
 * The one writer of a build's depfile (BUILDDIR/wheels/<cell>/manifest.d; wheelgen restore writes
 * it before every build and restore of cl): "target:" (the output as ninja spells it), then each
 * file of a path source, the files treefiles lists and the key hashes, as <path>/<file>, by
 * esc.h's escdepfile (every depfile's writer: a part's too, through wheelgen-step); a git or PyPI
 * source names none (ninja follows its checkout's stamp or its spec).
 * Written if changed; -1 with a message (a path a depfile cannot name).
 */
int depfilewrite(const struct cell *cl, const char *target, const char *path);

/* 1 if s is 64 lowercase hex digits (a key or a sha256) */
int ishex64(const char *s);

#endif
