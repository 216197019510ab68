#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "esc.h"
#include "index.h"
#include "util.h"

int
manifestread(const char *path, struct wheelinfo *w)
{
	static const char *const keys[] = { "cell", "package", "version", "filename", "sha256", "tags", "size", NULL };
	char *v[8] = { NULL };
	const char *slash;

	memset(w, 0, sizeof(*w));
	if (readkeys(path, keys, v) < 0)
		return error("cannot read manifest '%s': %s", path, strerror(errno));
	w->cell = v[0];
	w->package = v[1];
	w->version = v[2];
	w->filename = v[3];
	w->sha256 = v[4];
	w->tags = v[5];
	w->size = v[6] ? strtoll(v[6], NULL, 10) : 0;
	free(v[6]);
	slash = strrchr(path, '/');
	w->dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	if (!w->package || !w->filename || !w->sha256 || strchr(w->filename, '/') || !*w->filename) {
		manifestfree(w);
		return error("manifest '%s' lacks package, filename or sha256", path);
	}
	return 0;
}

void
manifestfree(struct wheelinfo *w)
{
	free(w->cell);
	free(w->package);
	free(w->version);
	free(w->filename);
	free(w->sha256);
	free(w->tags);
	free(w->dir);
	memset(w, 0, sizeof(*w));
}

static int
cmpwheel(const void *a, const void *b)
{
	const struct wheelinfo *x = a, *y = b;
	int r = strcmp(x->package, y->package);

	return r ? r : strcmp(x->filename, y->filename);
}

/* files/<name> as a hard link to the built wheel (a copy across file systems) */
static int
linkwheel(const char *builddir, const struct wheelinfo *w)
{
	struct sb src = SB_INIT, dst = SB_INIT, dir = SB_INIT;
	struct stat a, b;
	int rc = 0;

	sbaddf(&src, "%s/%s", w->dir, w->filename);
	sbaddf(&dir, "%s/index/files", builddir);
	sbaddf(&dst, "%s/%s", dir.buf, w->filename);
	if (stat(src.buf, &a) < 0) {
		rc = error("wheel '%s' named by its manifest is missing: %s", src.buf, strerror(errno));
		goto out;
	}
	if (stat(dst.buf, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
		goto out;
	if (mkdirs(dir.buf) < 0) {
		rc = -1;
		goto out;
	}
	unlink(dst.buf);
	if (link(src.buf, dst.buf) < 0) {
		char *data;
		size_t len;

		if (!(data = readfile(src.buf, &len))) {
			rc = error("cannot read '%s': %s", src.buf, strerror(errno));
			goto out;
		}
		rc = writeifchanged(dst.buf, data, len) < 0 ? -1 : 0;
		free(data);
	}
out:
	sbfree(&src);
	sbfree(&dst);
	sbfree(&dir);
	return rc;
}

static void
pagehead(struct sb *s, const char *title)
{
	sbadd(s, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
		 "<meta name=\"pypi:repository-version\" content=\"1.0\">\n<title>");
	eschtml(s, title);
	sbadd(s, "</title>\n</head>\n<body>\n");
}

/* a file name in an href: '+' and other reserved characters percent-encoded */
static void
hrefname(struct sb *s, const char *name)
{
	for (; *name; name++) {
		unsigned char c = (unsigned char)*name;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr("-._~", c))
			sbaddc(s, (char)c);
		else
			sbaddf(s, "%%%02X", c);
	}
}

int
writeindex(const char *builddir, char **manifests, size_t n)
{
	struct wheelinfo *w = xcalloc(n ? n : 1, sizeof(*w));
	struct sb root = SB_INIT, page = SB_INIT, path = SB_INIT;
	size_t i, j, nw = 0;
	int rc = 0;

	for (i = 0; i < n; i++) {
		if (manifestread(manifests[i], &w[nw]) < 0) {
			rc = -1;
			continue;
		}
		if (linkwheel(builddir, &w[nw]) < 0) {
			rc = -1;
			manifestfree(&w[nw]);
			continue;
		}
		nw++;
	}
	if (rc < 0)
		goto out;
	qsort(w, nw, sizeof(*w), cmpwheel);
	pagehead(&root, "Simple index");
	for (i = 0; i < nw; i = j) {
		sbadd(&root, "<a href=\"");
		hrefname(&root, w[i].package);
		sbadd(&root, "/\">");
		eschtml(&root, w[i].package);
		sbadd(&root, "</a><br>\n");
		sbreset(&page);
		pagehead(&page, w[i].package);
		sbadd(&page, "<h1>Links for ");
		eschtml(&page, w[i].package);
		sbadd(&page, "</h1>\n");
		for (j = i; j < nw && !strcmp(w[j].package, w[i].package); j++) {
			if (j > i && !strcmp(w[j].filename, w[j - 1].filename))
				continue;
			sbadd(&page, "<a href=\"../../files/");
			hrefname(&page, w[j].filename);
			sbadd(&page, "#sha256=");
			eschtml(&page, w[j].sha256);
			sbadd(&page, "\">");
			eschtml(&page, w[j].filename);
			sbadd(&page, "</a><br>\n");
		}
		sbadd(&page, "</body>\n</html>\n");
		sbreset(&path);
		sbaddf(&path, "%s/index/simple/%s/index.html", builddir, w[i].package);
		if (writeifchanged(path.buf, page.buf, page.len) < 0) {
			rc = -1;
			goto out;
		}
	}
	sbadd(&root, "</body>\n</html>\n");
	sbreset(&path);
	sbaddf(&path, "%s/index/simple/index.html", builddir);
	if (writeifchanged(path.buf, root.buf, root.len) < 0)
		rc = -1;
out:
	for (i = 0; i < nw; i++)
		manifestfree(&w[i]);
	free(w);
	sbfree(&root);
	sbfree(&page);
	sbfree(&path);
	return rc;
}
