/* placeholder: the {name} placeholders of config values, one table and one expander. */
#ifndef WG_PLACEHOLDER_H
#define WG_PLACEHOLDER_H

#include "schema.h"
#include "util.h"

/* where a placeholder may stand */
enum phwhere {
	PH_ENV = 1,       /* env: values */
	PH_LABEL = 2,     /* local_version */
	PH_TAG = 4,       /* source.tag */
	PH_TORCHREQ = 8,  /* torch_requirement */
	PH_IMAGE = 16,    /* container.image, container.cpu_image */
	PH_INDEX = 32,    /* torch_index */
};

/* what placeholders stand for in one cell; NULL: the cell has no such axis */
struct phvalues {
	const char *version, *python, *cuda, *torch;
	const struct strlist *archs;   /* cuda_archs */
};

/*
 * Append pattern to s with every placeholder replaced: {version} (2.8.3), {python} (312),
 * {cuda} (130), {cuda_version} (13.0), {cuda_major} (13), {torch} (2.9), {cuda_archs}
 * (8.0;9.0), {cuda_archs_nodot} (80;90). A placeholder whose value the cell lacks, any other
 * {word} and ${VAR} stay as written (check refuses unknown ones first).
 */
void phexpand(struct sb *s, const char *pattern, const struct phvalues *v);

/*
 * NULL if every {word} of pattern (not ${...}) is a placeholder allowed at where; else a
 * message naming the first that is not, and the ones allowed there (static buffer)
 */
const char *phcheck(const char *pattern, int where);

/* 1 if pattern uses placeholder name ("torch" for {torch}) */
int phuses(const char *pattern, const char *name);

#endif
