/* indexprune: removing what an earlier index run wrote and this one would not (indexprune.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "indexprune.h"
#include "util.h"

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* 1 if name is in the sorted array v */
static int
sortedhas(const char **v, size_t n, const char *name)
{
	return n && bsearch(&name, v, n, sizeof(*v), cmpstr) != NULL;
}

/* remove dir/<e>/index.html and index.json and the directory, for every entry e of dir not in keep
   (sorted); only pages this program writes are removed, so anything else put there stays */
int
prunepages(const char *dir, const char **keep, size_t nkeep)
{
	struct sb p = SB_INIT;
	struct dirent *e;
	DIR *d = opendir(dir);
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 : error("cannot read '%s': %s", dir, strerror(errno));
	sweeptemps(dir);
	while ((e = readdir(d))) {
		static const char *const pages[] = { "index.html", "index.json" };
		size_t k;

		if (e->d_name[0] == '.')
			continue;
		sbreset(&p);
		sbaddf(&p, "%s/%s", dir, e->d_name);
		if (sortedhas(keep, nkeep, e->d_name)) {
			sweeptemps(p.buf); /* a killed writer's page temporaries */
			continue;
		}
		for (k = 0; k < 2; k++) {
			sbreset(&p);
			sbaddf(&p, "%s/%s/%s", dir, e->d_name, pages[k]);
			if (unlink(p.buf) < 0 && errno != ENOENT && errno != ENOTDIR)
				rc = error("cannot remove '%s': %s", p.buf, strerror(errno));
		}
		sbreset(&p);
		sbaddf(&p, "%s/%s", dir, e->d_name);
		rmdir(p.buf); /* left if something else is in it */
	}
	closedir(d);
	sbfree(&p);
	return rc;
}

/* remove the simple/ trees of variants that are no longer built: index/<v>/simple/ for v not in keep (sorted) */
static int
prunevariants(const char *index, const char **keep, size_t nkeep)
{
	struct sb p = SB_INIT;
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(index);
	int rc = 0;

	if (!d)
		return errno == ENOENT ? 0 : error("cannot read '%s': %s", index, strerror(errno));
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, "simple") || !strcmp(e->d_name, "files") ||
		    sortedhas(keep, nkeep, e->d_name))
			continue;
		sbreset(&p);
		sbaddf(&p, "%s/%s/simple", index, e->d_name);
		if (stat(p.buf, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (prunepages(p.buf, NULL, 0) < 0)
			rc = -1;
		sbreset(&p);
		sbaddf(&p, "%s/%s", index, e->d_name);
		if (prunepages(p.buf, NULL, 0) < 0) /* simple/index.{html,json} and simple/ */
			rc = -1;
		rmdir(p.buf);
	}
	closedir(d);
	sbfree(&p);
	return rc;
}

/* remove the files of files/ that no manifest names (all of them with a base_url) */
static int
prunefiles(const char *index, const struct wheelinfo *w, size_t nw, int keep)
{
	const char **names = xcalloc(2 * nw + 1, sizeof(*names));
	char **metas = xcalloc(nw + 1, sizeof(*metas));
	struct sb p = SB_INIT;
	struct dirent *e;
	size_t i, n = 0;
	DIR *d;
	int rc = 0;

	for (i = 0; keep && i < nw; i++) {
		struct sb m = SB_INIT;

		names[n++] = w[i].filename;
		sbaddf(&m, "%s.metadata", w[i].filename);
		metas[i] = sbdetach(&m);
		names[n++] = metas[i];
	}
	qsort(names, n, sizeof(*names), cmpstr);
	sbaddf(&p, "%s/files", index);
	if ((d = opendir(p.buf))) {
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.' || sortedhas(names, n, e->d_name))
				continue;
			sbreset(&p);
			sbaddf(&p, "%s/files/%s", index, e->d_name);
			if (unlink(p.buf) < 0 && errno != EISDIR && errno != EPERM)
				rc = error("cannot remove '%s': %s", p.buf, strerror(errno));
		}
		closedir(d);
		sbreset(&p);
		sbaddf(&p, "%s/files", index);
		if (!keep)
			rmdir(p.buf);
	} else if (errno != ENOENT) {
		rc = error("cannot read '%s': %s", p.buf, strerror(errno));
	}
	for (i = 0; i < nw; i++)
		free(metas[i]);
	free(metas);
	free(names);
	sbfree(&p);
	return rc;
}

/* remove what an earlier run wrote into index and this one would not have */
int
pruneindex(const char *index, const struct wheelinfo *w, size_t nw, const char **variants, size_t nv,
	   const struct indexopts *o)
{
	const char **sorted = xcalloc(nv + 1, sizeof(*sorted));
	int rc = 0;

	memcpy(sorted, variants, nv * sizeof(*sorted));
	qsort(sorted, nv, sizeof(*sorted), cmpstr);
	if (prunevariants(index, sorted, nv) < 0 || (!o->fromlist && prunefiles(index, w, nw, !o->baseurl) < 0))
		rc = -1;
	free(sorted);
	return rc;
}
