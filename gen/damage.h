/*
 * damage: what is wrong with a store's entry (store.h: <cell>.manifest, the wheel and .metadata
 * it names), found with or without a download, and taking a damaged entry out of the store so
 * that the next plan builds the cell again. Its readers decide what damage means for them:
 * restore (restore.h) builds the cell instead, merge-index leaves it out of the index, and the
 * scrub (wheelgen store verify [--repair]) reports it. Every check says why in words for people
 * and decides by its return value: 0 whole, 1 damaged (why), -1 a fault (why: the store could
 * not be read, a local file not written), which is never damage.
 */
#ifndef WG_DAMAGE_H
#define WG_DAMAGE_H

#include "manifest.h"
#include "matrix.h"
#include "store.h"
#include "util.h"
#include "wheelfile.h"

/* 1 if f can be a stored wheel's file name: a plain file name, not hidden, ending in .whl */
int plainwheel(const char *f);

/* the store's name of manifest m's wheel: its blob (m->stored), or (published flat) its file name */
const char *entrywheel(const struct wheelinfo *m);

/* how a store's wheel is not as its manifest says (wheelmismatch) */
enum mismatch {
	MISMATCH_MISSING,    /* the wheel is not there */
	MISMATCH_SIZE,       /* it has another size */
	MISMATCH_SHA256,     /* it has another sha256 */
	MISMATCH_NOMETADATA, /* its .metadata is not there */
};

/* why s's wheel of manifest m is not as m says, appended to why: what, and what the store has
   (size for MISMATCH_SIZE, hash for MISMATCH_SHA256; else unused) */
void wheelmismatch(const struct store *s, const struct wheelinfo *m, enum mismatch what, unsigned long long size,
		   const char *hash, struct sb *why);

/* what cell cl's wheel must be by its manifest m (wheelfile.h), into want */
void cellwant(struct wheelwant *want, const struct cell *cl, const struct wheelinfo *m);

/*
 * Does the store hold the wheel m names, as m says, seen without a download: there, of its size,
 * and of its sha256 where the store can tell (a directory store hashes it), with its .metadata
 * beside it where m names one? 0, 1 or -1 with why.
 */
int wheeldamage(const struct store *s, const struct wheelinfo *m, struct sb *why);

/*
 * Does manifest m, the store's entry of cell cl, contradict the cell: its cell=, version=,
 * python=, platform= or its wheel's file name (project, tags=, Python, machine)? Or does its
 * test record (tested=) name another wheel than its sha256=? Seen without the wheel. 0, or 1
 * with why.
 */
int entrydamage(const struct cell *cl, const struct wheelinfo *m, struct sb *why);

/*
 * Fetch the store's name into dest and check its sha256 (and its size, when size > 0). 0; 1
 * with why (missing, or other bytes); -1 with why (the store could not be read or dest not
 * written). Nothing is left at dest but on 0.
 */
int fetchverified(const struct store *s, const char *name, const char *dest, const char *sha, long long size,
		  struct sb *why);
/* the same check of dest, the store's name fetched already: 0, or 1 with why (dest removed) */
int fileverified(const struct store *s, const char *name, const char *dest, const char *sha, long long size,
		 struct sb *why);

/*
 * Take the damaged entry of cell out of the store, so that the next plan builds it again: a
 * directory store's <cell>.manifest becomes <cell>.manifest.damaged (kept for a look), an HTTP
 * store's is removed (DELETE, WG_HTTP_TOKEN). Only while the store's manifest still names the
 * wheel of sha256 (NULL: any): a publisher's new entry stays. A store that cannot be written
 * (a GitHub release, a refused DELETE) keeps it, with a warning. Prints what it did; why: the
 * damage. 0 when the entry is out, -1 when it stays.
 */
int storetakeout(const struct store *s, const char *cell, const char *sha256, const char *why);

/*
 * The scrub: every entry of the store (<cell>.manifest) read, its wheel downloaded and hashed
 * against the manifest (sha256, size), and its .metadata's; one line each on stdout,
 * "<entry>\tok" or "<entry>\tdamaged: <why>"; with repair, each damaged entry taken out
 * (storetakeout). 0 when every entry is whole or (repair) was taken out; 1 when damage stays;
 * -1 when the store could not be listed or read (a message printed).
 */
int verifystore(const struct store *s, const char *builddir, int repair);

/* storetakeout of cl's entry whose manifest was fetched to tmpman (its wheel's sha256, when it parses) */
void takeoutentry(const struct store *s, const struct cell *cl, const char *tmpman, const char *why);

#endif
