/*
 * torchindex: what a package index says of torch. From torch's project page (PEP 691 or
 * PEP 503) it keeps the newest release of each minor, derives the CPython ABIs and the Linux
 * platforms it ships from the file names, and the CUDA of PyPI's own wheel from the core
 * metadata (PEP 658 .metadata, or METADATA by range requests) of one wheel per minor and
 * platform; the CUDAs of each minor's newest release on an index of +cuXYZ wheels when one
 * answers. No wheel is downloaded. Network input is never trusted: what is malformed is an
 * error naming its URL. It knows nothing of the config (torchtable.c compares and writes).
 */
#ifndef WG_TORCHINDEX_H
#define WG_TORCHINDEX_H

#include "http.h"
#include "platform.h"
#include "simpleapi.h"
#include "util.h"

/* the Linux machines a row's platforms name: their places in platform.c's table, the one list
   of machines (a unit test holds the two in step) */
enum { M_X86, M_ARM, NMACH };
#define machines(k) (platforms[(k)].machine)

/* a set of strings, in the order added (the strings are not copied) */
struct strset {
	const char **v;
	size_t n, cap;
};

void setadd1(struct strset *s, const char *v);
int sethas(const struct strset *s, const char *v);
/* the same strings, in any order */
int setequal(const struct strset *a, const struct strset *b);
void setfree(struct strset *s);
/* "3.9" < "3.10" < "3.13" < "3.13t" < "3.14", and MAJOR.MINOR versions alike (qsort's form) */
int cmpmm(const void *a, const void *b);
/* sorted by cmpmm */
void setsort(struct strset *s);

/* a wheel of torch's page */
struct twheel {
	const struct indexfile *f;
	char *release;            /* its version without a local label */
	const char *local;        /* the local label ("cu128"), "" when none */
	long build;               /* its build tag's number, -1 when none */
	int machine;              /* M_X86, M_ARM, or -1: not a Linux wheel of those */
	char python[16];          /* the CPython its ABI tag names ("3.12", "3.13t"), "" when none */
};

/* a minor on the index */
struct minor {
	char version[32];         /* "2.15" */
	const char *release;      /* its newest release */
	struct strset py[NMACH];  /* the Pythons of its Linux wheels, per machine */
	const struct twheel *pick[NMACH];  /* the wheel whose metadata is read */
	int known[NMACH];         /* 1: cuda[] was read from its metadata */
	char cuda[NMACH][16];     /* the CUDA PyPI's wheel needs there, "" for a CPU-only wheel */
	const char *cudarelease;  /* its newest release on PyTorch's index, NULL: none there */
	struct strset cudas;      /* the CUDAs of that release's Linux wheels there */
};

/* one survey: what to read (set by the caller, the rest zeroed), and what was read */
struct tindex {
	const char *index;        /* the simple index's root (torch's page is <index>torch/) */
	const char *cudaindex;    /* the root of an index whose torch files carry +cuXYZ labels; NULL: none */
	const char *since;        /* the oldest minor; NULL: every minor */
	int sincetable;           /* since is the config's table's oldest row (said so in messages) */
	const char *config;       /* the config whose values stand where the index says nothing (messages) */
	int pre;                  /* pre-releases count as releases */
	int range;                /* read METADATA out of a wheel by range requests where no .metadata is served */
	long timeout;             /* seconds one transfer may take; 0: HTTP_TIMEOUT */

	const char *pageurl, *cudaurl;  /* torch's pages read */
	int cudaread;             /* the CUDA index answered */
	struct minor *m;          /* the minors of torch's page from since on, in version order */
	size_t nm;

	struct arena a;           /* the survey's own */
	char tmp[256];
	struct httplimits lim;
	struct indexpage page, cpage;
	struct twheel *w;
	size_t nw, wcap;
};

/* read the index into t->m; 0, or -1 with the errors printed */
int torchsurvey(struct tindex *t);
/* the minor of version ("2.15"), NULL when the index has none */
const struct minor *torchminor(const struct tindex *t, const char *version);
/* free the survey and remove its temporary files */
void tindexfree(struct tindex *t);

#endif
