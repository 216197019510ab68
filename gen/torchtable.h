/*
 * torchtable: the config's torch table as a package index says it. It starts from the config's
 * model (config.c reads the table; this file reads no YAML of its own), asks torchindex.c what
 * the index serves, and compares the two row by row. Prints the table, or writes it into the
 * config, changing nothing but the table (yamledit.c, on the text and tree config.c read).
 */
#ifndef WG_TORCHTABLE_H
#define WG_TORCHTABLE_H

#include "config.h"

/* what torch-table does */
struct ttopts {
	const char *config;     /* the config whose table is kept and compared (--write: the file written) */
	int write;              /* 1: update the config's table; 0: print the table */
	const char *index;      /* the simple index's root (torch's page is <index>torch/) */
	const char *cudaindex;  /* the root of an index whose torch files carry +cuXYZ labels; NULL: none */
	const char *since;      /* the oldest minor; NULL: the table's oldest (every minor without one) */
	int pre;                /* pre-releases count as releases */
	int drop;               /* --write removes the rows of minors the index no longer has */
	int follow;             /* --write: packages that list the table's newest minor get the new rows newer
				   than it (only as the rows are added: a minor taken out of a package stays out) */
	int platforms;          /* write each row's platforms: key */
	int range;              /* read METADATA out of a wheel by range requests where no .metadata is served */
	long timeout;           /* seconds one transfer may take */
};

#define TT_INDEX "https://pypi.org/simple/"
#define TT_CUDAINDEX "https://download.pytorch.org/whl/"

/* run torch-table on c (loaded from o->config, without errors); the exit status (0, or 1 with
   the errors printed and nothing written) */
int torchtable(const struct config *c, const struct ttopts *o);

#endif
