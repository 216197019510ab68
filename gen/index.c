#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "esc.h"
#include "index.h"
#include "pep.h"
#include "util.h"

int
manifestread(const char *path, struct wheelinfo *w)
{
	static const char *const keys[] = { "cell", "package", "version", "filename", "sha256", "tags", "size",
					    "cuda", "torch", "metadata_sha256", "requires_python", "python", NULL };
	char *v[13] = { NULL };
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
	w->cuda = v[7];
	w->torch = v[8];
	w->metasha = v[9];
	w->requirespy = v[10];
	w->python = v[11];
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
	free(w->cuda);
	free(w->torch);
	free(w->metasha);
	free(w->requirespy);
	free(w->python);
	free(w->variant);
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

/* files/<name> as a hard link to <dir>/<name> (a copy across file systems) */
static int
linkfile(const char *builddir, const char *srcdir, const char *name)
{
	struct sb src = SB_INIT, dst = SB_INIT, dir = SB_INIT;
	struct stat a, b;
	int rc = 0;

	sbaddf(&src, "%s/%s", srcdir, name);
	sbaddf(&dir, "%s/index/files", builddir);
	sbaddf(&dst, "%s/%s", dir.buf, name);
	if (stat(src.buf, &a) < 0) {
		rc = error("'%s' named by its manifest is missing: %s", src.buf, strerror(errno));
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

/* the wheel and its .metadata into files/; its mtime and variant into w */
static int
linkwheel(const char *builddir, struct wheelinfo *w)
{
	struct sb path = SB_INIT, meta = SB_INIT;
	struct stat st;
	int rc = linkfile(builddir, w->dir, w->filename);

	sbaddf(&path, "%s/%s", w->dir, w->filename);
	if (rc == 0 && stat(path.buf, &st) == 0)
		w->mtime = (long long)st.st_mtime;
	sbaddf(&meta, "%s.metadata", w->filename);
	if (rc == 0 && w->metasha && *w->metasha && linkfile(builddir, w->dir, meta.buf) < 0)
		rc = -1;
	if (w->cuda && *w->cuda) {
		struct sb v = SB_INIT;
		const char *q;

		sbadd(&v, "cu");
		for (q = w->cuda; *q; q++) {
			if (*q != '.')
				sbaddc(&v, *q);
		}
		if (w->torch && *w->torch)
			sbaddf(&v, "-torch%s", w->torch);
		w->variant = xstrdup(v.buf);
		sbfree(&v);
	}
	sbfree(&path);
	sbfree(&meta);
	return rc;
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

static void
pagehead(struct sb *s, const char *title)
{
	sbadd(s, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
		 "<meta name=\"pypi:repository-version\" content=\"1.1\">\n<title>");
	eschtml(s, title);
	sbadd(s, "</title>\n</head>\n<body>\n");
}

/* the version part of a wheel file name (name-VERSION-...) */
static void
wheelversion(struct sb *s, const char *filename)
{
	const char *a = strchr(filename, '-'), *b = a ? strchr(a + 1, '-') : NULL;

	if (a && b)
		sbaddn(s, a + 1, (size_t)(b - a - 1));
}

static void
isotime(struct sb *s, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[64];

	gmtime_r(&tt, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S.000000Z", &tm);
	sbadd(s, buf);
}

static int
writepage(const char *path, const struct sb *s)
{
	return writeifchanged(path, s->buf, s->len);
}

/* does wheel w belong to the tree of variant v (NULL: the combined tree)? */
static int
intree(const struct wheelinfo *w, const char *v)
{
	return !v || !w->variant || !strcmp(w->variant, v);
}

/*
 * One simple/ tree: <top>/simple/index.{html,json} and <top>/simple/<project>/index.{html,json}
 * for the wheels of variant v (NULL: all). files is the way from a project page to files/.
 */
static int
writetree(const char *top, const struct wheelinfo *w, size_t nw, const char *v, const char *files)
{
	struct sb root = SB_INIT, rootj = SB_INIT, page = SB_INIT, json = SB_INIT, vers = SB_INIT, path = SB_INIT;
	size_t i, j, k, nproj = 0;
	int rc = 0;

	pagehead(&root, "Simple index");
	sbadd(&rootj, "{\"meta\": {\"api-version\": \"1.1\"}, \"projects\": [");
	for (i = 0; i < nw; i = j) {
		size_t nfiles = 0, nvers = 0;

		for (j = i; j < nw && !strcmp(w[j].package, w[i].package); j++)
			;
		for (k = i; k < j; k++)
			nfiles += intree(&w[k], v);
		if (!nfiles)
			continue;
		sbadd(&root, "<a href=\"");
		hrefname(&root, w[i].package);
		sbadd(&root, "/\">");
		eschtml(&root, w[i].package);
		sbadd(&root, "</a><br>\n");
		sbadd(&rootj, nproj++ ? ", {\"name\": " : "{\"name\": ");
		escjson(&rootj, w[i].package);
		sbaddc(&rootj, '}');

		sbreset(&page);
		sbreset(&json);
		sbreset(&vers);
		pagehead(&page, w[i].package);
		sbadd(&page, "<h1>Links for ");
		eschtml(&page, w[i].package);
		sbadd(&page, "</h1>\n");
		sbadd(&json, "{\"meta\": {\"api-version\": \"1.1\"}, \"name\": ");
		escjson(&json, w[i].package);
		sbadd(&json, ", \"files\": [");
		nfiles = 0;
		for (k = i; k < j; k++) {
			struct sb ver = SB_INIT, t = SB_INIT;
			const struct wheelinfo *x = &w[k];
			int hasrp = x->requirespy && *x->requirespy, hasmeta = x->metasha && *x->metasha;

			if (!intree(x, v) || (k > i && !strcmp(x->filename, w[k - 1].filename)))
				continue;
			isotime(&t, x->mtime);
			/* HTML (PEP 503, 592, 658/714) */
			sbaddf(&page, "<a href=\"%s", files);
			hrefname(&page, x->filename);
			if (x->sha256) {
				sbadd(&page, "#sha256=");
				eschtml(&page, x->sha256);
			}
			sbaddc(&page, '"');
			if (hasrp) {
				sbadd(&page, " data-requires-python=\"");
				eschtml(&page, x->requirespy);
				sbaddc(&page, '"');
			}
			if (hasmeta) {
				sbadd(&page, " data-core-metadata=\"sha256=");
				eschtml(&page, x->metasha);
				sbadd(&page, "\" data-dist-info-metadata=\"sha256=");
				eschtml(&page, x->metasha);
				sbaddc(&page, '"');
			}
			if (x->sha256)
				sbaddf(&page, " data-size=\"%lld\" data-upload-time=\"%s\"", x->size, t.buf);
			sbaddc(&page, '>');
			eschtml(&page, x->filename);
			sbadd(&page, "</a><br>\n");
			/* JSON (PEP 691, 700) */
			sbadd(&json, nfiles++ ? ", {\"filename\": " : "{\"filename\": ");
			escjson(&json, x->filename);
			sbadd(&json, ", \"url\": \"");
			sbadd(&json, files);
			hrefname(&json, x->filename);
			sbadd(&json, "\", \"hashes\": {");
			if (x->sha256) {
				sbadd(&json, "\"sha256\": ");
				escjson(&json, x->sha256);
			}
			sbadd(&json, "}, \"requires-python\": ");
			if (hasrp)
				escjson(&json, x->requirespy);
			else
				sbadd(&json, "null");
			if (hasmeta) {
				sbadd(&json, ", \"core-metadata\": {\"sha256\": ");
				escjson(&json, x->metasha);
				sbadd(&json, "}, \"dist-info-metadata\": {\"sha256\": ");
				escjson(&json, x->metasha);
				sbaddc(&json, '}');
			} else {
				sbadd(&json, ", \"core-metadata\": false");
			}
			if (x->sha256)
				sbaddf(&json, ", \"size\": %lld, \"upload-time\": \"%s\"", x->size, t.buf);
			sbadd(&json, ", \"yanked\": false}");
			/* versions (PEP 700): each once */
			wheelversion(&ver, x->filename);
			if (ver.len) {
				struct sb needle = SB_INIT;

				escjson(&needle, ver.buf);
				if (!strstr(vers.buf ? vers.buf : "", needle.buf)) {
					sbadd(&vers, nvers++ ? ", " : "");
					sbadd(&vers, needle.buf);
				}
				sbfree(&needle);
			}
			sbfree(&ver);
			sbfree(&t);
		}
		sbadd(&page, "</body>\n</html>\n");
		sbaddf(&json, "], \"versions\": [%s]}\n", vers.buf ? vers.buf : "");
		sbreset(&path);
		sbaddf(&path, "%s/simple/%s/index.html", top, w[i].package);
		if (writepage(path.buf, &page) < 0)
			goto fail;
		sbreset(&path);
		sbaddf(&path, "%s/simple/%s/index.json", top, w[i].package);
		if (writepage(path.buf, &json) < 0)
			goto fail;
	}
	sbadd(&root, "</body>\n</html>\n");
	sbadd(&rootj, "]}\n");
	sbreset(&path);
	sbaddf(&path, "%s/simple/index.html", top);
	if (writepage(path.buf, &root) < 0)
		goto fail;
	sbreset(&path);
	sbaddf(&path, "%s/simple/index.json", top);
	if (writepage(path.buf, &rootj) < 0)
		goto fail;
	goto out;
fail:
	rc = -1;
out:
	sbfree(&root);
	sbfree(&rootj);
	sbfree(&page);
	sbfree(&json);
	sbfree(&vers);
	sbfree(&path);
	return rc;
}

/* index.html: which wheel fits which setup, and the line that installs from each variant */
static void
landing(struct sb *s, const struct wheelinfo *w, size_t nw, const char **variants, size_t nv)
{
	size_t i, k;

	pagehead(s, "Wheels");
	sbadd(s, "<h1>Wheels</h1>\n"
		 "<p>Each CUDA/torch variant has an index of its own: point pip or uv at the one that matches your "
		 "torch and CUDA, and it cannot pick a wheel built for another. <code>INDEX</code> is the URL of this "
		 "page's directory. Wheels without CUDA are in every index.</p>\n");
	for (k = 0; k < nv; k++) {
		sbadd(s, "<h2>");
		eschtml(s, variants[k]);
		sbadd(s, "</h2>\n<pre>pip install --index-url INDEX/");
		eschtml(s, variants[k]);
		sbadd(s, "/simple/ PACKAGE\nuv pip install --index-url INDEX/");
		eschtml(s, variants[k]);
		sbadd(s, "/simple/ PACKAGE</pre>\n<p><a href=\"");
		hrefname(s, variants[k]);
		sbadd(s, "/simple/\">the ");
		eschtml(s, variants[k]);
		sbadd(s, " index</a></p>\n");
	}
	sbadd(s, "<h2>All wheels</h2>\n<p><a href=\"simple/\">the combined index</a> (every variant: pip takes the "
		 "highest local label, so name a variant's index instead)</p>\n"
		 "<table border=\"1\">\n<tr><th>package</th><th>version</th><th>variant</th><th>Python</th>"
		 "<th>wheel</th><th>built (UTC)</th></tr>\n");
	for (i = 0; i < nw; i++) {
		struct sb ver = SB_INIT, t = SB_INIT;

		if (i && !strcmp(w[i].filename, w[i - 1].filename))
			continue;
		wheelversion(&ver, w[i].filename);
		isotime(&t, w[i].mtime);
		sbadd(s, "<tr><td>");
		eschtml(s, w[i].package);
		sbadd(s, "</td><td>");
		eschtml(s, ver.len ? ver.buf : "");
		sbadd(s, "</td><td>");
		eschtml(s, w[i].variant ? w[i].variant : "any");
		sbadd(s, "</td><td>");
		eschtml(s, w[i].python ? w[i].python : "");
		sbadd(s, "</td><td><a href=\"files/");
		hrefname(s, w[i].filename);
		sbadd(s, "\">");
		eschtml(s, w[i].filename);
		sbadd(s, "</a></td><td>");
		sbaddn(s, t.buf, 10);
		sbadd(s, "</td></tr>\n");
		sbfree(&ver);
		sbfree(&t);
	}
	sbadd(s, "</table>\n</body>\n</html>\n");
}

/*
 * A distribution file name as the only thing known of it (--from-list): its project is the
 * first field of a wheel name, and for an sdist what comes before the first "-<digit>".
 */
static int
fromname(const char *name, struct wheelinfo *w)
{
	const char *e = NULL, *q;
	char *proj;

	memset(w, 0, sizeof(*w));
	if (!*name || strchr(name, '/'))
		return -1;
	if (strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".whl"))
		e = strchr(name, '-');
	for (q = name; !e && (q = strchr(q, '-')); q++) {
		if (q[1] >= '0' && q[1] <= '9')
			e = q;
	}
	if (!e || e == name)
		return -1;
	proj = xstrndup(name, (size_t)(e - name));
	w->package = xcalloc(strlen(proj) + 1, 1);
	pepnormalize(proj, w->package);
	free(proj);
	w->filename = xstrdup(name);
	return 0;
}

int
writeindex(const char *builddir, char **manifests, size_t n, int fromlist)
{
	struct wheelinfo *w = xcalloc(n ? n : 1, sizeof(*w));
	const char **variants = xcalloc(n ? n : 1, sizeof(*variants));
	struct sb top = SB_INIT, page = SB_INIT;
	size_t i, k, nw = 0, nv = 0, skipped = 0;
	const char *firstskipped = NULL;
	int rc = 0;

	for (i = 0; i < n; i++) {
		if (fromlist) {
			if (fromname(manifests[i], &w[nw]) == 0) {
				nw++;
			} else if (!skipped++) {
				firstskipped = manifests[i];
			}
			continue;
		}
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
	if (skipped)
		fprintf(stderr, "wheelgen: skipped %zu file name%s whose project cannot be told (the first: '%s')\n",
			skipped, skipped == 1 ? "" : "s", firstskipped);
	if (rc < 0)
		goto out;
	qsort(w, nw, sizeof(*w), cmpwheel);
	for (i = 0; i < nw; i++) {
		for (k = 0; w[i].variant && k < nv && strcmp(variants[k], w[i].variant); k++)
			;
		if (w[i].variant && k == nv)
			variants[nv++] = w[i].variant;
	}
	sbaddf(&top, "%s/index", builddir);
	if (writetree(top.buf, w, nw, NULL, "../../files/") < 0)
		goto fail;
	for (k = 0; k < nv; k++) {
		sbreset(&top);
		sbaddf(&top, "%s/index/%s", builddir, variants[k]);
		if (writetree(top.buf, w, nw, variants[k], "../../../files/") < 0)
			goto fail;
	}
	landing(&page, w, nw, variants, nv);
	sbreset(&top);
	sbaddf(&top, "%s/index/index.html", builddir);
	if (writepage(top.buf, &page) < 0)
		goto fail;
	goto out;
fail:
	rc = -1;
out:
	for (i = 0; i < nw; i++)
		manifestfree(&w[i]);
	free(w);
	free(variants);
	sbfree(&top);
	sbfree(&page);
	return rc;
}
