/*
 * manifest: a built wheel's manifest and the index spec (builddir/index.spec), each written and
 * read here alone.
 *
 * A manifest is "key=value" lines (BUILDDIR/wheels/<cell>/manifest, <cell>.manifest in a store).
 * This module owns its field names (one table in manifest.c), its reading (bounded, UTF-8, the
 * fields that become paths and URLs checked: manifests are network input, they come from stores
 * and artifacts) and its writing (lines in place, appended in the order given, a file rewritten
 * only when it changes, through a temporary renamed into place). The step scripts never spell a
 * field as key=: they call BUILDDIR/wheelgen-step (gen/step/wheelgen-step.c), a static program
 * built from this same source, because the steps may run inside a build container where the
 * dynamically linked wheelgen (libgit2, libyaml, PCRE2) does not, as BUILDDIR/wheelgen-cc does.
 * Compiled for it (-DWG_STEP_TOOL), the reader leaves out the two checks that need PCRE2 (the
 * package a PEP 503 name, the version PEP 440): the steps read the manifests their own build
 * wrote (publish.sh also reads back a store's sha256=, every other check made), and wheelgen
 * checks all of it wherever it takes a manifest from a store or an artifact.
 */
#ifndef WG_MANIFEST_H
#define WG_MANIFEST_H

#include <stddef.h>

#include "util.h"

/* one wheel, as its manifest (key=value lines) describes it */
struct wheelinfo {
	char *cell, *package, *version, *filename, *sha256, *tags;
	char *cuda, *torch, *python;   /* the cell's coordinates ("" or NULL when it has none) */
	char *metasha;     /* sha256 of <wheel>.metadata beside it (NULL: none) */
	char *requirespy;  /* Requires-Python from its METADATA (NULL or "": none) */
	char *variant;     /* "cu130-torch2.9", "cu130", or NULL for a wheel that fits every variant */
	char *dir;      /* directory holding the manifest and the wheel */
	char *tested;   /* tested=: the sha256 of the wheel whose test passed (a store entry's), or NULL */
	char *vlabel;   /* a PEP 825 variant wheel's label (cu130), or NULL for an ordinary wheel */
	char *vprops;   /* its properties: "nvidia::cuda_version_lower_bound::13.0[;...]" */
	char *key;      /* the cell's key (the store is looked up by it), or NULL */
	char *commit;   /* a git source's commit, or NULL */
	char *gpu;      /* a store entry's GPU test record (passed, skipped, cpu, none), or NULL */
	char *origin;   /* build (built here) or store (restored), or NULL */
	char *stored;   /* where a store holds the wheel (blobs/<sha256>/<filename>), or NULL: filename */
	char *wheelversion; /* the wheel's version, with its local label (wheel_version=), or NULL */
	char *platform;     /* the machine its cell is built for (platform=: "x86_64", "aarch64"), or NULL */
	char *archs;    /* gpu_archs=: its GPU code, "sm_80 sm_90a compute_90" ("": none), or NULL: not known */
	char *deps;     /* dependencies=: the projects its METADATA requires, "einops torch", or NULL: not known */
	char *torchversion; /* torch_version=: the torch it was built against (2.9.0+cu130), or NULL */
	char *torchcuda;    /* torch_cuda=: that torch's CUDA, or NULL */
	char *torchindex;   /* torch_index=: where that torch came from ("" or NULL: PyPI) */
	char *torchabi;     /* torch_cxx11_abi=: "1" or "0", that torch's C++ ABI, or NULL */
	int vjson;      /* not a wheel: the {name}-{version}-variants.json of the index's variant wheels */
	long long size;
	long long mtime;   /* its upload-time in the index: the manifest's upload_time, else the wheel's mtime */
	long long objcompiled, objreused; /* objects_compiled=, objects_reused= (shards, deadlines); -1: not counted */
	long long objfamily;   /* objects_family=: objects from the family's compile cache; -1: not counted */
	long long compilesecs; /* compile_seconds=: compiler work of the objects compiled; -1: not said */
};

/* the most a manifest may hold (about 1 KB in practice): anything larger is not one */
#define MANIFEST_MAX 65536

/* a manifest's lines in order: keys[i]=vals[i], or (vals[i] NULL) a line without '=' as it was */
struct manifestlines {
	char **keys, **vals;
	size_t n, cap;
};

/* 1 if key is a field of the manifest (manifest.c's table) */
int manifestfield(const char *key);
/* read a manifest's lines ("-": standard input): at most MANIFEST_MAX bytes of UTF-8 text; -1
   with why (nothing printed) */
int manifestlinesread(const char *path, struct manifestlines *m, struct sb *why);
/* the value of key's last line, or NULL */
const char *manifestlinesget(const struct manifestlines *m, const char *key);
/* set key's first line to val where it stands, else append it; -1 when key is no field or val
   holds a line break */
int manifestlinesset(struct manifestlines *m, const char *key, const char *val);
/* take out every line of key */
void manifestlinesdrop(struct manifestlines *m, const char *key);
/* take out the lines without '=' */
void manifestlinesclean(struct manifestlines *m);
/* the manifest's text, appended to s */
void manifestlinestext(struct sb *s, const struct manifestlines *m);
/* write it to path unless path holds it already (a temporary renamed into place): 1 written,
   0 unchanged, -1 with a message */
int manifestlineswrite(const char *path, const struct manifestlines *m);
void manifestlinesfree(struct manifestlines *m);
/*
 * The store's entry of a cell (what the publish step sends), appended to out: the cell's
 * manifest less origin, tested, gpu and stored, then origin=build, tested=<its sha256>, the
 * gpu= lines of its test record (BUILDDIR/tests/<cell>.ok) and stored=STORED. -1 with why.
 */
int manifeststoreentry(struct sb *out, const struct manifestlines *m, const char *testrecord, const char *stored,
		       struct sb *why);

/*
 * Read a manifest (written by wheelgen-step; it may come from another job's artifact or
 * a store: untrusted) and check the fields that become paths and URLs. -1 with why (nothing
 * printed) when it cannot be read, is larger than MANIFEST_MAX, is not UTF-8 text, lacks
 * package, filename or sha256, or has a field that is not what its name says.
 */
int manifestparse(const char *path, struct wheelinfo *w, struct sb *why);
/* the same of the text of a manifest read elsewhere (a store's catalog), what naming it in
   messages (its dir "": it has no directory here) */
int manifestparsetext(const char *text, size_t len, const char *what, struct wheelinfo *w, struct sb *why);
/* the same of lines read already (from path: the manifest's directory, the messages) */
int manifestcheck(const struct manifestlines *m, const char *path, struct wheelinfo *w, struct sb *why);
/* the same, the problem printed as an error */
int manifestread(const char *path, struct wheelinfo *w);
/* copy the manifest from to to (written if changed) with origin=ORIGIN; -1 with a message */
int manifestcopy(const char *from, const char *to, const char *origin);
/* free a manifest's strings */
void manifestfree(struct wheelinfo *w);
/* the objects of w's build: objects_compiled + objects_reused + objects_family (when it has
   some); -1 when compiled or reused was not counted */
long long wheelobjects(const struct wheelinfo *w);

/* what the config says of the index (builddir/index.spec, written by gen) */
struct indexopts {
	char *baseurl;     /* wheel URLs are baseurl + file name; NULL: relative, into files/ */
	char *title;       /* the landing page's title; NULL: "Wheels" */
	char **yanked;     /* "<normalized project>\t<version>\t<reason>" (PEP 592) */
	size_t nyanked, nyankedcap;
	int fromlist;      /* the names are distribution file names, not manifests */
	int variants;      /* variants=1: the variants/simple/ tree (PEP 825 variant wheels) */
	int blobs;         /* blobs=1: the store (publish.dir, publish.http) keeps wheels at
			      blobs/<sha256>/<file>: under baseurl, a wheel not from the store is there */
	char *release;     /* release=TAG: the store is GitHub releases (publish.github.tag): under baseurl, a
			      wheel not from the store is at <its cell's release>/<file> (store.h) */
	const char *finder; /* the finder the index serves as find.py (templates/find.py), or NULL: none;
			       not in the spec (wheelgen index's --templates), never freed here */
};

/* the text of an index spec (key=value lines: base_url, title, variants, blobs, yanked), into s */
void indexspecwrite(struct sb *s, const struct indexopts *o);
/* read an index spec; -1 with a message */
int indexspecread(const char *path, struct indexopts *o);
void indexoptsfree(struct indexopts *o);

/*
 * Did w's wheel pass its test? Its test record is BUILDDIR/tests/<cell>.ok (this host's test),
 * <manifest's directory>/tested (the test step writes it beside the wheel, so that a CI
 * artifact of the directory carries it), or tested= in the manifest (a store entry's).
 */
int manifesttested(const char *builddir, const struct wheelinfo *w);
/* the version part of a distribution file name (a wheel's, or an sdist's), appended to s */
void wheelversion(struct sb *s, const char *filename);
/* why w's version is yanked ("" when no reason was given), or NULL when it is not */
const char *yankof(const struct indexopts *o, const struct wheelinfo *w);
/* the machine of platform.c's table a wheel's file name's platform tag names ("x86_64",
   "aarch64"), "any", or "" for none of them (a macOS or Windows wheel, Linux i686) */
const char *wheelplatform(const char *filename);
/* the API version the pages claim: 1.1 (PEP 700), 1.0 for pages built from file names alone */
const char *indexapiversion(const struct indexopts *o);

#endif
