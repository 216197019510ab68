/*
 * layout: the build directory's paths, each spelled once. A path is a place (a cell's spec, its
 * wheel's manifest, a checkout's stamp ...) and a name: a cell id, or <package>-<version> for
 * a source. The step scripts (templates/) spell the same paths in shell; the manual's "The out/
 * directory" lists them.
 */
#ifndef WG_LAYOUT_H
#define WG_LAYOUT_H

#include "util.h"

enum bdplace {
	BD_CHECKOUT,    /* src/<package>-<version>: a git source's checkout */
	BD_STAMP,       /* src/<package>-<version>.commit: the commits it was checked out at */
	BD_SRCSPEC,     /* src/<package>-<version>.spec: what wheelgen checkout checks out */
	BD_SPEC,        /* cells/<cell>/spec: the build parameters */
	BD_TESTSPEC,    /* cells/<cell>/test: the test parameters */
	BD_KEY,         /* cells/<cell>/key: the key the build writes into its manifest */
	BD_WHEELDIR,    /* wheels/<cell>: the wheel, its .metadata, the manifest */
	BD_MANIFEST,    /* wheels/<cell>/manifest */
	BD_DEPFILE,     /* wheels/<cell>/manifest.d: the build's depfile */
	BD_TESTDONE,    /* tests/<cell>.done: the test ran (and how) */
	BD_TESTOK,      /* tests/<cell>.ok: the test passed */
	BD_PUBLISHED,   /* publish/<cell>.done: the cell was published */
	BD_VARIANT,     /* variants/<cell>/manifest: its PEP 825 variant wheel */
	BD_STOREDIR,    /* store/<cell>: a stored cell pulled for the index */
	BD_HOSTFILE,    /* host.txt: what ./configure found (name ignored) */
	BD_TESTFAILED,  /* tests/<cell>.failed: the test ran and failed (templates/test.sh) */
	BD_BUILDLOG,    /* logs/<cell>.build.log: the build step's log */
	BD_TESTLOG,     /* logs/<cell>.test.log: the test step's log */
	BD_MERGELIST,   /* merge-index.rsp: the manifests ninja merge-index indexed (name ignored) */
	BD_PULLNOTE,    /* store-pull.tsv: what store --pull left out, its counts (leftout.h; name ignored) */
	BD_INDEXNOTE,   /* index-left-out.tsv: what index left out (leftout.h; name ignored) */
	BD_SHARDDIR,    /* shards/<cell>: its parts' objects (<part>/, resume/) and <part>.done stamps */
	BD_LOGDIR,      /* logs: every step's log, logs/<cell>.<kind>.log (bdlog; name ignored) */
	BD_GRAPH,       /* graph.ninja: the graph gen writes (name ignored) */
	BD_PUBLISHSPEC, /* publish.spec: where and how the publish edges upload (name ignored) */
	BD_INDEXSPEC,   /* index.spec: the index's base_url, title and variants (name ignored) */
	BD_CONFIGNINJA, /* config.ninja: what ./configure wrote, the config among it (name ignored) */
	BD_INDEXDIR,    /* index: the static index tree (name ignored) */
	BD_INDEXPAGE,   /* index/simple/index.html: its top page, the index edge's output (name ignored) */
	BD_INDEXLOCK,   /* index.lock: one wheelgen index at a time (name ignored) */
	BD_CATALOG,     /* store-catalog: what was read from the store, under its validators (catalog.h; name ignored) */
};

/* the path of place for name relative to the build directory, appended to s */
void bdrel(struct sb *s, enum bdplace place, const char *name);
/* builddir/<the same>, appended to s */
void bdpath(struct sb *s, const char *builddir, enum bdplace place, const char *name);
/* builddir/logs/<cell>.<kind>.log, appended to s: the log of cell's step kind (build, test,
   shard<K>: templates/step-lib.sh, wg_begin); builddir NULL: relative to the build directory */
void bdlog(struct sb *s, const char *builddir, const char *cell, const char *kind);

#endif
