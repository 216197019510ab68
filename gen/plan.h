/*
 * plan: the cells a run builds: those of a profile (every cell without one), or its canary (one
 * cell per package against the newest torch), and, asked for the missing ones, only those whose
 * key the store does not hold. What a CI plan job prints (wheelgen matrix --missing). A store
 * that cannot be read errs toward building: every cell counts as missing, with a warning.
 */
#ifndef WG_PLAN_H
#define WG_PLAN_H

#include "key.h"
#include "restore.h"

/* what to plan */
struct planopts {
	const struct profile *prof;   /* only this profile's cells; NULL: every cell */
	int canary;                   /* only one cell per package: its newest version against its
					 newest torch, PyPI's CUDA of that torch where it has it (else its
					 newest CUDA), the middle one of its Pythons (not free-threaded
					 where it has others): what an upstream update's pull request builds */
	int missing;                  /* only the cells the store lacks */
	int needkeys;                 /* compute every selected cell's key (it is printed) */
	int alllanes;                 /* keep the cells no lane builds yet (matrix --table shows why) */
	const char *tmp;              /* a scratch file for the store's manifests */
	const char *builddir;         /* where the store's catalog is kept (catalog.h) */
	/* called with each cell the store holds and its manifest there (the estimate reads what its
	   build recorded); NULL: none */
	void (*held)(void *ctx, const struct cell *cl, const char *manifest);
	void *heldctx;
};

/*
 * Move the planned cells of m to its front (in order) and their keys into keys[0..*n) ("" when
 * a git cell's commit is unknown); *n gets their number. 0, or -1 when a key could not be
 * computed (a message printed).
 */
int plancells(struct keyctx *k, const struct store *st, struct matrix *m, const struct planopts *o, char (*keys)[65],
	      size_t *n);

#endif
