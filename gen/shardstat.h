/* shardstat: what a cell's builds left of its objects, for people and CI: each directory of
   BUILDDIR/shards/<cell>/ (a part's, or resume/ of a build stopped at its deadline) through its
   objects file, and the times of the cell's build and part steps (their logs, through status.h;
   the object counts through its manifest, manifest.h, and the logs' "wheelgen: objects:" lines).
   templates/build-host.sh writes these files; this module is the C side's one reader of them. */
#ifndef WG_SHARDSTAT_H
#define WG_SHARDSTAT_H

#include <stddef.h>

#include "shardplan.h"
#include "util.h"

/* one directory's objects file (key=value lines: state, part, objects, done, compiled, reused,
   family; other keys, such as the seconds= that build-host.sh reads back, are skipped) */
struct shardobjs {
	char dir[64];         /* its name under shards/<cell>/: K, or resume */
	int stopped;          /* state=stopped: a build that stopped at its deadline */
	long part, parts;     /* part=K/N (0/0: not a part, resume/) */
	long long objects, done, compiled, reused;  /* -1: not said */
	long long family;     /* objects from the family's compile cache; -1: not said */
};

/* the objects files of the directories of builddir/shards/<cell>/: up to max of them into o, sorted by name;
   how many there were (0: none, or no such directory) */
size_t shardobjsread(const char *builddir, const char *cell, struct shardobjs *o, size_t max);

/* what the cell's builds measured: the objects and the points for shardfitpoints */
struct shardmeasure {
	long long objects;    /* the cell's objects: its manifest's compiled + reused, else its
	                         build log's count (ninja's [i/N], else the compile commands); -1 */
	const char *objectsfrom;  /* where that count came from, for people */
	struct shardpoint pts[SHARDS_MAX + 1];  /* its build, then each part's log with an end line */
	size_t npts;
};

/* measure cell's builds in builddir into m; -1 with a message when it has no finished build
   log and no finished part log */
int shardmeasure(const char *builddir, const char *cell, struct shardmeasure *m);

#endif
