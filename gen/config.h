/* config: packages.yml read into a checked model. Every value keeps the node it came from. */
#ifndef WG_CONFIG_H
#define WG_CONFIG_H

#include "diag.h"
#include "platform.h"
#include "schema.h"
#include "util.h"
#include "ydoc.h"

/* the time limits of every transfer to or from a store (curl --max-time, and --speed-limit 1024
   --speed-time): sized for a wheel of several hundred MB on a slow link, and a store that
   accepts connections but never answers */
#define STORE_TIMEOUT 1800
#define STORE_STALL 60

/* one row of the torch support table: what a torch minor ships for */
struct torchrow {
	const char *version;     /* "2.8" */
	struct node *at;         /* its key */
	struct node *val;        /* its value (the row torch-table rewrites) */
	struct strlist cuda;     /* CUDA versions it ships wheels for */
	struct strlist python;   /* Python versions it ships wheels for */
	struct strlist platforms; /* platforms PyPI's CUDA wheels of it exist for (default: x86_64;
				     .node is NULL when the row says none) */
	const char *pypi;        /* the CUDA version of PyPI's own wheel of it, NULL if not said */
};

/*
 * The CUDA architectures of cells of one platform or CUDA version (cuda_archs as a mapping):
 * the key "default", a CUDA version ("13.0"), a platform ("aarch64") or both ("aarch64/13.0")
 */
struct archset {
	const char *platform, *cuda;   /* NULL: any */
	struct strlist archs;
};

/* cuda_archs: a list for every cell, or sets by platform and CUDA version (the most specific wins) */
struct archsel {
	struct archset *v;
	size_t n;
};

/* an exclude or include entry; an empty list means "any" (excludes only) */
struct match {
	struct node *at;         /* the entry's mapping */
	struct strlist version, python, cuda, torch, platforms;
	size_t hits;             /* cells it matched (excludes) or added (includes) */
};

/* a yanked version (PEP 592) and why; reason is "" when none was given */
struct yank {
	const char *version, *reason;
};

enum srckind {
	SRC_PYPI,  /* pip fetches the sdist name==version from the package index (default) */
	SRC_PATH,  /* a local directory */
	SRC_GIT,   /* a git repository and a tag pattern */
};

/* one entry of packages: */
struct package {
	const char *name;          /* as written */
	const char *norm;          /* PEP 503 normalized: used in cell ids and paths */
	struct node *at;           /* the name's key node */
	enum srckind src;
	const char *path;          /* SRC_PATH: absolute directory */
	const char *git, *tag;     /* SRC_GIT: URL and tag pattern ("v{version}" by default) */
	struct strlist versions, python, cuda, torch, extra_deps, build_args, test_import, test_deps;
	struct archsel cuda_archs; /* CUDA architectures, by platform and CUDA version */
	const char *nvcc_compress; /* nvcc -compress-mode for its CUDA code (size, speed, balance, none), NULL: nvcc's own */
	struct strlist platforms;  /* the platforms its cells are built for (platform.h) */
	struct strlist skipsubs;   /* skip_submodules */
	int cudaaxis;              /* 1 if cells have a CUDA coordinate */
	int torchaxis;             /* 1 if cells have a torch coordinate */
	struct match *exclude, *include;
	size_t nexclude, ninclude;
	struct envvar *env;
	size_t nenv;
	struct envvar *skipmods;   /* test_skip_modules: module name and reason */
	size_t nskipmods;
	const char *test_command, *description, *local_version; /* NULL when not given */
	double memory_per_job_gb;  /* memory one compile job takes (default 2) */
	long max_jobs;             /* MAX_JOBS for the build (0: the host's processors) */
	long nvcc_threads;         /* NVCC_THREADS for the build (default 1) */
	long shards;               /* shards: the parts each cell's compile is split into (1: one piece) */
	struct node *localat;      /* where local_version was written */
	int repair;                /* 1: auditwheel repair the wheel (repair: given) */
	const char *repairplat;    /* repair.plat, NULL: auditwheel's choice */
	struct strlist repairexclude; /* repair.exclude: more libraries to leave out */
	const char *repaircuda;    /* repair.cuda: pypi, vendor or none; NULL: pypi (torch cells: torch's) */
	struct strlist patches;    /* patches: unified diffs applied to the source (absolute paths) */
	const char *frontend;      /* build_frontend: "uv", "pip", NULL: uv where the venv is uv's */
	const char *abi;           /* "abi3": one wheel per (version, CUDA, torch), by the lowest Python */
	const char *torchabi;      /* "stable": one wheel per (version, Python, CUDA), by the lowest torch */
	const char *torchreq;      /* torch_requirement: a template with {torch}; "": none; NULL: torch>=X.Y,<X.(Y+1) */
	struct yank *yanked;       /* yanked: versions the index marks yanked */
	size_t nyanked;
};

/* a named subset of the matrix; empty lists mean "any" */
struct profile {
	const char *name;
	struct node *at;
	struct strlist packages, versions, python, cuda, torch, platforms;
};

/* the whole file */
struct config {
	const char *path;          /* as given */
	const char *src;           /* the file's text as read; root's positions point into it: the
				      commands that edit the config (yamledit.c) change this text */
	size_t srclen;
	struct node *root;
	struct strlist python, cuda, platforms;   /* defaults: (platforms: x86_64 unless said) */
	struct archsel cuda_archs;                /* defaults.cuda_archs */
	struct torchrow *torch;
	size_t ntorch;
	/* container: images for CUDA and CPU-only cells, per platform (platforms[i]; {cuda} etc. expanded per cell) */
	const char *image[PLATFORM_MAX], *cpuimage[PLATFORM_MAX];
	const char *torchindex;    /* torch_index: URL template ({cuda}, {cuda_major}) for torch not from PyPI */
	struct package *pkgs;
	size_t npkgs;
	struct profile *profiles;
	size_t nprofiles;
	const char *publishdir;    /* publish: {dir: ...}, absolute; NULL if none */
	const char *publishhttp;   /* publish.http: URL wheels are PUT under; NULL if none */
	const char *ghrepo, *ghtag; /* publish.github: {repo, tag}: a GitHub release; NULL if none */
	int ghreplace;             /* publish.github.replace: replace an asset whose sha256 differs */
	long retries;              /* publish.retries: tries per upload (default 3) */
	long timeout;              /* publish.timeout: seconds one transfer to or from the store may take */
	long stall;                /* publish.stall_timeout: seconds a transfer may move under 1 KiB/s */
	const char *indexdir;      /* publish.index_dir: publish-index copies the index here (absolute) */
	const char *indexhttp;     /* publish.index_http: publish-index PUTs the index under this URL */
	const char *baseurl;       /* index: {base_url: ...}; NULL if none */
	const char *title;         /* index: {title: ...}; NULL if none */
	int variants;              /* index: {variants: true}: PEP 825 variant wheels of the CUDA cells */
	struct node *pkgsat;       /* the packages: mapping */
	const char *lockpath;      /* the lock file: the config's path with .lock for its extension (absolute) */
	const char *topdir;        /* the current directory when loaded: spec paths are made absolute with it */
};

/*
 * Read and check path. Every problem found goes to d; the return value is the
 * model (also when d holds errors, as far as it could be built) or NULL when
 * the file could not be read or parsed at all.
 */
struct config *configload(struct arena *a, const char *path, struct diags *d);

/* the git ref of a version: the package's tag pattern with {version} replaced (into the arena) */
const char *gitref(struct arena *a, const struct package *p, const char *version);

/* the CUDA architectures of a cell of package p for platform and cuda: the most specific set of
   its cuda_archs ("aarch64/13.0", then "13.0", then "aarch64", then "default" or its list), or
   an empty list */
const struct strlist *archsof(const struct package *p, const char *platform, const char *cuda);
/* the torch row for version v, or NULL */
const struct torchrow *torchfind(const struct config *c, const char *v);
/* 1 if l holds s */
int strlisthas(const struct strlist *l, const char *s);
/* "3.12" -> "312"; "13.0" -> "130"; "3.14t" -> "314t" (into the arena) */
const char *nodots(struct arena *a, const char *v);

#endif
