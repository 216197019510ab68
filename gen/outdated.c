/* outdated: the upstream tags newer than a config's versions (see outdated.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "esc.h"
#include "files.h"
#include "mirror.h"
#include "outdated.h"
#include "pep.h"
#include "yamledit.h"

/* a git package and its newer upstream versions */
struct pkgnew {
	const struct package *p;
	const char *newest;       /* the newest configured version */
	char **newer;             /* newest first */
	size_t n;
};

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

/* the newer upstream versions of one git package into pn; -1 when its remote cannot be listed */
static int
newerof(const struct package *p, int pre, struct pkgnew *pn)
{
	size_t k, ntags;
	char **tags;

	memset(pn, 0, sizeof(*pn));
	pn->p = p;
	for (k = 0; k < p->versions.n; k++) {
		if (!pn->newest || pepcmp(p->versions.v[k], pn->newest) > 0)
			pn->newest = p->versions.v[k];
	}
	if (gitlstags(p->git, &tags, &ntags) < 0)
		return -1;
	pn->newer = xcalloc(ntags + 1, sizeof(*pn->newer));
	for (k = 0; k < ntags; k++) {
		char *v = tagversion(p->tag, tags[k]);

		if (v && pepcmp(v, pn->newest) > 0 && (pre || !peppre(v)))
			pn->newer[pn->n++] = v;
		else
			free(v);
		free(tags[k]);
	}
	free(tags);
	qsort(pn->newer, pn->n, sizeof(*pn->newer), cmpdesc);
	return 0;
}

static void
printnewer(const struct pkgnew *v, size_t n, int json, struct sb *out)
{
	size_t i, k;

	if (json)
		sbadd(out, "[");
	else
		sbaddf(out, "%-24s %-14s %s\n", "PACKAGE", "CONFIGURED", "NEWER UPSTREAM");
	for (i = 0; i < n; i++) {
		const struct pkgnew *pn = &v[i];

		if (json) {
			sbadd(out, i ? ",\n  {\"package\": " : "\n  {\"package\": ");
			escjson(out, pn->p->name);
			sbadd(out, ", \"url\": ");
			escjson(out, pn->p->git);
			sbadd(out, ", \"configured\": ");
			escjson(out, pn->newest);
			sbadd(out, ", \"newer\": [");
			for (k = 0; k < pn->n; k++) {
				sbadd(out, k ? ", " : "");
				escjson(out, pn->newer[k]);
			}
			sbadd(out, "]}");
		} else {
			sbaddf(out, "%-24s %-14s ", pn->p->name, pn->newest);
			for (k = 0; k < pn->n; k++)
				sbaddf(out, "%s%s", k ? ", " : "", pn->newer[k]);
			sbadd(out, pn->n ? "\n" : "(up to date)\n");
		}
	}
	if (json)
		sbadd(out, n ? "\n]\n" : "]\n");
}

/* the versions list of package name in root, NULL when there is none */
static const struct node *
versionsof(const struct node *root, const char *name)
{
	return mapget(mapget(mapget(root, "packages"), name), "versions");
}

/* what to check in the written file */
struct written {
	const struct pkgnew *v;
	size_t n;
};

/* every package's versions list holds its newer versions */
static int
checkversions(const struct node *root, void *arg)
{
	const struct written *w = arg;
	size_t i, k, j;

	for (i = 0; i < w->n; i++) {
		const struct node *l = versionsof(root, w->v[i].p->name);

		for (k = 0; k < w->v[i].n; k++) {
			for (j = 0; l && l->kind == NSEQ && j < l->n && strcmp(l->kids[j]->s, w->v[i].newer[k]); j++)
				;
			if (!l || l->kind != NSEQ || j == l->n)
				return error("package %s: its versions lack %s", w->v[i].p->name, w->v[i].newer[k]);
		}
	}
	return 0;
}

/* --write: the newer versions appended to each package's versions list, oldest first (in the
   text and tree config.c read, as torch-table edits) */
static int
writeversions(const struct config *c, const struct pkgnew *v, size_t n, int json)
{
	struct yedits e = { 0 };
	struct sb why = SB_INIT, line = SB_INIT;
	struct written w = { v, n };
	const char *path = c->path, *src = c->src;
	size_t len = c->srclen, i, k;
	int rc = -1;

	for (i = 0; i < n; i++) {
		const char **add = xcalloc(v[i].n + 1, sizeof(*add));
		const struct node *l = v[i].p->versions.node;

		for (k = 0; k < v[i].n; k++)
			add[k] = v[i].newer[v[i].n - 1 - k];
		if (v[i].n && (!l || yappendlist(src, len, l, add, v[i].n, &e, &why) < 0)) {
			error("%s: package %s: %s", path, v[i].p->name, l ? why.buf : "no versions list");
			free(add);
			goto out;
		}
		free(add);
	}
	if ((rc = yrewrite(path, src, len, &e, checkversions, &w)) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (!v[i].n)
			continue;
		sbreset(&line);
		for (k = 0; k < v[i].n; k++)
			sbaddf(&line, "%s%s", k ? ", " : "", v[i].newer[v[i].n - 1 - k]);
		(json ? notice : report)("package %s: versions + %s", v[i].p->name, line.buf);
	}
	(json ? notice : report)(rc ? "wrote %s" : "%s: every version is up to date", path);
out:
	yeditsfree(&e);
	sbfree(&why);
	sbfree(&line);
	return rc < 0 ? -1 : 0;
}

int
outdated(const struct config *c, int json, int pre, const char *write, struct sb *out)
{
	struct pkgnew *v = xcalloc(c->npkgs + 1, sizeof(*v));
	size_t i, k, n = 0;
	int rc = 0;

	for (i = 0; i < c->npkgs; i++) {
		if (c->pkgs[i].src != SRC_GIT)
			continue;
		if (newerof(&c->pkgs[i], pre, &v[n]) < 0)
			rc = -1;
		else
			n++;
	}
	if (!write || json)
		printnewer(v, n, json, out);
	if (write && rc < 0)
		error("a remote could not be listed: %s is left as it is", write);
	else if (write)
		rc = writeversions(c, v, n, json);
	for (i = 0; i < n; i++) {
		for (k = 0; k < v[i].n; k++)
			free(v[i].newer[k]);
		free(v[i].newer);
	}
	free(v);
	return rc;
}
