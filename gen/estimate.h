/*
 * estimate: what a plan costs before it runs (wheelgen matrix --estimate; docs/manual.md, "What
 * a plan costs"). Each package's figures for jobs.h (a job's setup, the seconds per object it
 * compiles, a cell's objects and those that include Python.h) come, in this order, from a
 * times file (--times: recorded by hand, from a record), from what earlier builds recorded in
 * their manifests (job_times: each job's objects compiled and seconds, fitted as `wheelgen shards
 * suggest` fits them, gen/shardplan.h; objects_compiled, objects_reused and objects_family),
 * read from the build directory and from the store, else from the model (jobsmodel). A
 * manifest is network input: its fields are bounded and checked before they count.
 */
#ifndef WG_ESTIMATE_H
#define WG_ESTIMATE_H

#include "jobs.h"
#include "shardplan.h"

/* the most job records one package keeps */
#define ESTIMATE_POINTS 512

/* what the builds of one package recorded */
struct pkgrecord {
	struct shardpoint pts[ESTIMATE_POINTS];  /* each job: objects compiled, seconds */
	size_t npts;
	long long objects;     /* the most objects a cell had */
	double pysum;          /* objects compiled by builds that took the rest from their family */
	long pyn;              /* how many such builds */
	long archs;            /* the CUDA architectures of the cells measured (the first's) */
	long builds;           /* manifests that said something */
	const char *timesfile; /* a times file's line gave the figures ("FILE:LINE"), or NULL */
};

/* the figures of a config's packages and where they come from */
struct estimate {
	const struct config *c;
	struct pkgtimes *times;      /* per package (c->pkgs' order): the figures the plan uses */
	struct pkgrecord *rec;       /* per package: what was recorded */
	struct arena a;              /* the figures' texts */
	char **cached;               /* the families of cells the store holds (their compile cache is
					in the Actions cache, the estimate assumes) */
	size_t ncached, capcached;
};

/* the model's figures for every package of c that has a cell in m; free with estimatefree */
void estimateinit(struct estimate *e, const struct config *c, const struct matrix *m);
void estimatefree(struct estimate *e);

/*
 * Read a times file: one line per package, "PACKAGE KEY=VALUE...", the keys objects,
 * python_objects, object_seconds, python_object_seconds, setup_seconds and archs (numbers of at
 * least 0), '#' comments and blank lines. Its figures override what was recorded. -1 with
 * "file:line: message".
 */
int estimatetimes(struct estimate *e, const char *path);

/* count the jobs the manifest at path (cell cl's: its build directory's or its store entry's)
   recorded; stored: the store holds the cell (its family's compile cache is assumed kept) */
void estimatemanifest(struct estimate *e, const struct cell *cl, const char *path, int stored);

/* estimatemanifest on BUILDDIR/wheels/<cell>/manifest of each cell of m that has one */
void estimatebuilddir(struct estimate *e, const char *builddir, const struct matrix *m);

/* turn what was recorded into e->times (a package without records keeps the model's) */
void estimatefinish(struct estimate *e);

/* 1 if the store holds a cell of family (its compile cache kept from an earlier run) */
int estimatecached(const struct estimate *e, const char *family);

/*
 * The estimate of plan p (jobs of m's cells) on runners concurrent jobs, as text: its rows, its
 * runner-hours, its wall time, its longest chain, and each package's figures with where they came
 * from. overhead: the seconds each job took on top (counted in p's jobs already).
 */
void estimateprint(struct sb *s, const struct estimate *e, const struct matrix *m, const struct jobplan *p, long runners,
		   double overhead);

#endif
