/* shardplan: which N for a cell's shards (wheelgen shards suggest), from what its builds took:
   a job's time is a fixed setup (runner, venv, torch, checkout, link) plus a time per compiled
   object; hash-split parts hold a binomial share of the objects, so N is chosen for the
   expected largest part, not the average one. Pure arithmetic: the command reads the logs. */
#ifndef WG_SHARDPLAN_H
#define WG_SHARDPLAN_H

#include <stddef.h>

/* the most parts a package may have (config's shards: 1 to 64) */
#define SHARDS_MAX 64

/* one build of the cell: how many objects it compiled, and how long its step took */
struct shardpoint {
	long long compiled;   /* objects it compiled (not reused) */
	long long secs;       /* the step's seconds */
};

/* a job's time as setup + perobject x compiled */
struct shardfit {
	double setup;         /* seconds of a job that compiles nothing */
	double perobject;     /* seconds per compiled object */
	int fitted;           /* 1: setup fitted from builds of different counts; 0: given */
};

/* why shardfitpoints could not fit */
enum {
	SHARDFIT_NOTHING = -1,   /* no build compiled anything */
	SHARDFIT_ONECOUNT = -2,  /* no setup given, and the builds' counts do not differ */
	SHARDFIT_NOTIME = -3,    /* the times do not grow with the objects (or the setup is longer) */
};

/*
 * Fit f from the n builds p. With setup >= 0 it is taken as given and perobject is the total
 * time past setup over the total objects compiled; else, from builds of at least two different
 * counts, both by least squares (a negative setup is taken as 0). 0, or a SHARDFIT_ reason.
 */
int shardfitpoints(const struct shardpoint *p, size_t n, double setup, struct shardfit *f);

/* the expected largest share of n hash-split parts of total objects: the binomial
   Binomial(total, 1/n)'s mean plus two standard deviations, at most total */
double shardlargest(long long total, long n);

/* the seconds of the job of the largest of n parts: f's setup + perobject x shardlargest */
double shardjobsecs(long long total, long n, const struct shardfit *f);

/* the smallest n (1 .. SHARDS_MAX) whose largest part's job fits target seconds; 0 when none
   does (one object, or the setup, is more than the target) */
long shardsuggest(long long total, const struct shardfit *f, double target);

#endif
