/*
 * jobs: the jobs a CI plan runs for its wheels (wheelgen matrix --by-build), and what each is
 * expected to take (docs/manual.md, "Families" and "What a plan costs").
 *
 * A wheel built in one piece is a build row. A family (the wheels of cells that differ only in
 * their Python) of two or more wheels, or a wheel whose package has shards, is built as part
 * rows and final rows: the part rows compile every object of its first wheel once (N parts: the
 * package's shards, 1 for a package without), and a final row per wheel links, taking the
 * parts' objects (the first wheel) or the family's compile cache (the others), so that it
 * compiles only what its Python changes. A family of a package without shards is built so only
 * where that costs fewer runner-seconds than building each wheel in one piece (jobs.c, jobsfamily).
 *
 * What a job takes is a fixed setup plus a time per object it compiles (the model of `wheelgen
 * shards suggest`, gen/shardplan.h), with each package's figures in a struct pkgtimes: where
 * earlier builds recorded them (estimate.h), else the model below. Pure arithmetic on cells.
 */
#ifndef WG_JOBS_H
#define WG_JOBS_H

#include "matrix.h"

/* what a package's cells take, per job */
struct pkgtimes {
	double setup;       /* seconds of a job that compiles nothing (venv, torch, checkout, link) */
	double perobject;   /* seconds per object compiled, at archs architectures */
	long archs;         /* the CUDA architectures those objects held (0: the time is not scaled) */
	double objects;     /* the objects of a cell */
	double pyobjects;   /* of them, the ones every Python compiles (that include Python.h) */
	double pyperobject; /* seconds per such object (host code: not scaled by architectures); 0:
			       perobject's */
	const char *from;   /* where the figures come from, for people */
};

/* the model's figures where nothing was recorded: a CUDA package's cell is 10 objects of 4
   minutes at 4 architectures, one of which includes Python.h, after 5 minutes of setup; a cell
   without CUDA 10 objects of 10 s, each including Python.h, after 2 minutes */
void jobsmodel(const struct cell *cl, struct pkgtimes *t);

enum jobkind {
	JOB_BUILD,   /* a wheel in one piece (its cells' tests and publishes) */
	JOB_PART,    /* part K of N of its part cell's compile: shard/<cell>/K */
	JOB_FINAL,   /* a wheel linked after the parts (its cells' tests and publishes) */
};

/* one job */
struct job {
	enum jobkind kind;
	size_t cell;        /* the wheel's cell (its index in the matrix); JOB_PART: the part cell */
	long part, parts;   /* JOB_PART: K of N; JOB_FINAL: N, the parts it waits for */
	size_t partcell;    /* JOB_FINAL: the cell whose parts it takes (its own, or its family's first) */
	size_t group;       /* JOB_PART: which set of parts (all the parts of one part cell share it) */
	double secs;        /* expected seconds, the overhead included */
};

/* a plan's jobs: its part rows first (by group, K = 1..N), then build and final rows in the
   order of their wheels */
struct jobplan {
	struct job *v;
	size_t n, cap;
};

/* what to plan with */
struct jobopts {
	const struct pkgtimes *times;  /* per package of the config (its index in c->pkgs) */
	const struct package *pkgs;    /* the config's packages (c->pkgs) */
	double overhead;               /* seconds every job takes besides its build step (the
					  runner, checkout, configure, the disk); 0: none */
	int nofamilies;                /* 1: every wheel on its own (the plan before families) */
	/* whether family's compile cache holds its objects from an earlier run (the Actions cache):
	   its cells then compile only what includes Python.h; NULL: none does */
	int (*cached)(const void *ctx, const char *family);
	const void *ctx;
};

/*
 * The jobs of the wheels of m's cells [lo, hi) (the first selected cell of each wheel: --by-build's
 * rows) into p. Each family is those cells' wheels of one family name (cell.family).
 */
void jobsplan(const struct matrix *m, size_t lo, size_t hi, const struct jobopts *o, struct jobplan *p);

/* what running a plan takes */
struct jobsrun {
	double runnersecs;    /* every job's seconds, summed */
	double wall;          /* from the first job's start to the last one's end on the runners */
	double chain;         /* the longest chain of jobs one after another (the wall time with
				 runners enough) */
	size_t chainfirst;    /* its longest job (the index in the plan) */
	size_t chainlast;     /* its last job: a final row after part rows, or the first again */
};

/*
 * Run p on runners concurrent jobs, on paper: a final row starts once every part row has ended
 * (the workflow's final jobs need every part job), the rest at once; a free runner takes the
 * ready job with the longest chain after it first (a part row's chain: it, then the longest
 * final row). runners 0: as many as there are jobs.
 */
void jobsrun(const struct jobplan *p, long runners, struct jobsrun *r);

void jobsfree(struct jobplan *p);

#endif
