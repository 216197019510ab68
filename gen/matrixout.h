/* matrixout: the cells of a matrix as people and CI read them: one id per line, JSON, a GitHub
   Actions matrix, TSV, a table of what this host can build; and the summary of what it cannot. */
#ifndef WG_MATRIXOUT_H
#define WG_MATRIXOUT_H

#include "jobs.h"
#include "matrix.h"

enum matrixformat { FMT_PLAIN, FMT_JSON, FMT_GITHUB, FMT_TSV, FMT_TABLE };

/* how to print */
struct matrixout {
	enum matrixformat format;
	int bybuild;          /* JSON and GitHub: one row per wheel to build, with its cells, tests and publishes */
	long shard, nshards;  /* the shard-th of nshards near-equal contiguous slices (nshards 0: all) */
	int hostknown;        /* the table knows what this host can build (a host file was read) */
	long split;           /* GitHub: as this many matrices for $GITHUB_OUTPUT (0: one, plain); with
				 --by-build, each matrix's rows longest first */
	struct jobopts jobs;  /* --by-build: how the wheels' jobs are planned (jobs.h) */
};

/* the most rows GitHub Actions takes in one job matrix */
#define MATRIX_MAX 256

/* the first n cells of m (the selected ones) in o's format, into s; keys[i] is cells[i]'s key
   ("" when unknown). -1 with a message when --split's matrices cannot hold them */
int printcells(struct sb *s, const struct matrixout *o, const struct matrix *m, size_t n, char (*keys)[65]);

/* on stderr: how many of m's cells (n) this host cannot build, and why, grouped (gen prints it
   when the graph changed) */
void whynotsummary(const struct matrix *m, size_t n, const char *hostfile);

#endif
