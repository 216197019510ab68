/* outdated: the upstream tags newer than a config's versions (see outdated.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "mirror.h"
#include "outdated.h"
#include "pep.h"

char *
tagversion(const char *pattern, const char *tag)
{
	const char *at = strstr(pattern, "{version}");
	size_t pre, post, len = strlen(tag);
	char *v;
	int local;

	if (!at)
		return NULL;
	pre = (size_t)(at - pattern);
	post = strlen(at + 9);
	if (len <= pre + post || strncmp(tag, pattern, pre) || strcmp(tag + len - post, at + 9))
		return NULL;
	v = xstrndup(tag + pre, len - pre - post);
	if (!pepversion(v, &local) || local) {
		free(v);
		return NULL;
	}
	return v;
}

static int
cmpdesc(const void *a, const void *b)
{
	return pepcmp(*(char *const *)b, *(char *const *)a);
}

int
outdated(const struct config *c, int json, int pre, struct sb *out)
{
	size_t i, k, ntags, nnew, shown = 0;
	char **tags, **newer;
	int rc = 0;

	if (json)
		sbadd(out, "[");
	else
		sbaddf(out, "%-24s %-14s %s\n", "PACKAGE", "CONFIGURED", "NEWER UPSTREAM");
	for (i = 0; i < c->npkgs; i++) {
		const struct package *p = &c->pkgs[i];
		const char *newest = NULL;

		if (p->src != SRC_GIT)
			continue;
		for (k = 0; k < p->versions.n; k++) {
			if (!newest || pepcmp(p->versions.v[k], newest) > 0)
				newest = p->versions.v[k];
		}
		if (gitlstags(p->git, &tags, &ntags) < 0) {
			rc = -1;
			continue;
		}
		newer = xcalloc(ntags + 1, sizeof(*newer));
		for (k = nnew = 0; k < ntags; k++) {
			char *v = tagversion(p->tag, tags[k]);

			if (v && pepcmp(v, newest) > 0 && (pre || !peppre(v)))
				newer[nnew++] = v;
			else
				free(v);
			free(tags[k]);
		}
		free(tags);
		qsort(newer, nnew, sizeof(*newer), cmpdesc);
		if (json) {
			sbadd(out, shown++ ? ",\n  {\"package\": " : "\n  {\"package\": ");
			escjson(out, p->name);
			sbadd(out, ", \"url\": ");
			escjson(out, p->git);
			sbadd(out, ", \"configured\": ");
			escjson(out, newest);
			sbadd(out, ", \"newer\": [");
			for (k = 0; k < nnew; k++) {
				sbadd(out, k ? ", " : "");
				escjson(out, newer[k]);
			}
			sbadd(out, "]}");
		} else {
			sbaddf(out, "%-24s %-14s ", p->name, newest);
			for (k = 0; k < nnew; k++)
				sbaddf(out, "%s%s", k ? ", " : "", newer[k]);
			sbadd(out, nnew ? "\n" : "(up to date)\n");
		}
		for (k = 0; k < nnew; k++)
			free(newer[k]);
		free(newer);
	}
	if (json)
		sbadd(out, shown ? "\n]\n" : "]\n");
	return rc;
}
