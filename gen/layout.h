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
};

/* the path of place for name relative to the build directory, appended to s */
void bdrel(struct sb *s, enum bdplace place, const char *name);
/* builddir/<the same>, appended to s */
void bdpath(struct sb *s, const char *builddir, enum bdplace place, const char *name);

#endif
