/* manifest: what a built wheel's manifest and the index spec say (see manifest.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "manifest.h"
#include "platform.h"
#include "pep.h"
#include "util.h"

/* does the first line of path say sha? */
static int
firstlineis(const char *path, const char *sha)
{
	char *buf = readfile(path, NULL);
	int is = buf && strlen(buf) >= 64 && !strncmp(buf, sha, 64) && (buf[64] == '\n' || !buf[64]);

	free(buf);
	return is;
}

/*
 * Did w's wheel pass its test? Its test record is BUILDDIR/tests/<cell>.ok (this host's test),
 * <manifest's directory>/tested (the test step writes it beside the wheel, so that a CI
 * artifact of the directory carries it), or tested= in the manifest (a store entry's).
 */
int
manifesttested(const char *builddir, const struct wheelinfo *w)
{
	struct sb p = SB_INIT;
	int ok;

	if (!w->sha256 || strlen(w->sha256) != 64)
		return 0;
	if (w->tested && !strcmp(w->tested, w->sha256))
		return 1;
	sbaddf(&p, "%s/tested", w->dir);
	ok = firstlineis(p.buf, w->sha256);
	if (!ok && w->cell && !strchr(w->cell, '/')) {
		sbreset(&p);
		sbaddf(&p, "%s/tests/%s.ok", builddir, w->cell);
		ok = firstlineis(p.buf, w->sha256);
	}
	sbfree(&p);
	return ok;
}

/* "X.Y": digits, a dot, digits (a CUDA or torch version as cells name them) */
static int
isminor(const char *s)
{
	size_t a = strspn(s, "0123456789"), b;

	if (!a || s[a] != '.')
		return 0;
	b = strspn(s + a + 1, "0123456789");
	return b && !s[a + 1 + b];
}


#define VARIANTCHARS "abcdefghijklmnopqrstuvwxyz0123456789_."

/* "ns::feature::value[;ns::feature::value...]", every part a run of VARIANTCHARS */
static int
variantprops(const char *p)
{
	for (;;) {
		int k;

		for (k = 0; k < 3; k++) {
			size_t n = strspn(p, VARIANTCHARS);

			if (!n)
				return 0;
			p += n;
			if (k < 2) {
				if (strncmp(p, "::", 2))
					return 0;
				p += 2;
			}
		}
		if (!*p)
			return 1;
		if (*p++ != ';')
			return 0;
	}
}

/*
 * What is wrong with a manifest's fields that become paths and URLs (a manifest may come
 * from another job's artifact, or a store): NULL when nothing is. The package must be a PEP
 * 503 normalized name, the version PEP 440, cuda and torch "X.Y", cell and filename plain
 * file names.
 */
static const char *
manifestbad(const struct wheelinfo *w)
{
	char *norm = xmalloc(strlen(w->package) + 1);
	int normal, local;

	pepnormalize(w->package, norm);
	normal = pepname(w->package) && !strcmp(norm, w->package);
	free(norm);
	if (!normal)
		return "package is not a PEP 503 normalized project name";
	if (w->version && *w->version && !pepversion(w->version, &local))
		return "version is not a PEP 440 version";
	if ((w->cuda && *w->cuda && !isminor(w->cuda)) || (w->torch && *w->torch && !isminor(w->torch)))
		return "cuda and torch must be versions like 13.0";
	if (w->cell && !plainname(w->cell))
		return "cell is not a plain name (no '/', no control characters)";
	if (!plainname(w->filename))
		return "filename is not a plain file name (no '/', no control characters)";
	if (strlen(w->sha256) != 64 || strspn(w->sha256, "0123456789abcdef") != 64)
		return "sha256 is not 64 hex digits";
	if (w->stored) {
		/* a wheel stored by its content: blobs/<its sha256>/<its file name>; or a GitHub
		   release's asset: <release>/<its file name> */
		size_t n = strlen(w->filename), m = strlen(w->stored);
		const char *slash = strchr(w->stored, '/');

		if (strncmp(w->stored, "blobs/", 6) && slash && m > n + 1 && slash == w->stored + m - n - 1 &&
		    !strcmp(slash + 1, w->filename) && w->stored[0] != '.' &&
		    strspn(w->stored, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+") == m - n - 1)
			;
		else if (m != 6 + 64 + 1 + n || strncmp(w->stored, "blobs/", 6) || strncmp(w->stored + 6, w->sha256, 64) ||
			 w->stored[70] != '/' || strcmp(w->stored + 71, w->filename))
			return "stored is not blobs/<sha256>/<filename> or <release>/<filename> of this wheel";
	}
	if (!w->vlabel != !w->vprops)
		return "variant_label and variant_properties come together";
	if (w->vlabel && (!*w->vlabel || strlen(w->vlabel) > 16 || w->vlabel[strspn(w->vlabel, VARIANTCHARS)] ||
			  !strcmp(w->vlabel, "null")))
		return "variant_label is not a PEP 825 label (1 to 16 of a-z 0-9 _ ., not null)";
	if (w->vprops && !variantprops(w->vprops))
		return "variant_properties is not namespace::feature::value[;...] (a-z 0-9 _ .)";
	return NULL;
}

/* the manifest's keys: strings go into their field (size and upload_time are numbers) */
static const struct {
	const char *key;
	size_t off;
} fields[] = {
	{ "cell", offsetof(struct wheelinfo, cell) },
	{ "package", offsetof(struct wheelinfo, package) },
	{ "version", offsetof(struct wheelinfo, version) },
	{ "filename", offsetof(struct wheelinfo, filename) },
	{ "sha256", offsetof(struct wheelinfo, sha256) },
	{ "tags", offsetof(struct wheelinfo, tags) },
	{ "cuda", offsetof(struct wheelinfo, cuda) },
	{ "torch", offsetof(struct wheelinfo, torch) },
	{ "metadata_sha256", offsetof(struct wheelinfo, metasha) },
	{ "requires_python", offsetof(struct wheelinfo, requirespy) },
	{ "python", offsetof(struct wheelinfo, python) },
	{ "tested", offsetof(struct wheelinfo, tested) },
	{ "variant_label", offsetof(struct wheelinfo, vlabel) },
	{ "variant_properties", offsetof(struct wheelinfo, vprops) },
	{ "key", offsetof(struct wheelinfo, key) },
	{ "commit", offsetof(struct wheelinfo, commit) },
	{ "gpu", offsetof(struct wheelinfo, gpu) },
	{ "origin", offsetof(struct wheelinfo, origin) },
	{ "stored", offsetof(struct wheelinfo, stored) },
	{ "wheel_version", offsetof(struct wheelinfo, wheelversion) },
	{ "platform", offsetof(struct wheelinfo, platform) },
};
enum { NFIELDS = sizeof(fields) / sizeof(fields[0]) };

/* the field of w that key names, or NULL */
static char **
fieldof(struct wheelinfo *w, const char *key)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++) {
		if (!strcmp(fields[i].key, key))
			return (char **)((char *)w + fields[i].off);
	}
	return NULL;
}

int
manifestparse(const char *path, struct wheelinfo *w, struct sb *why)
{
	char *buf, *next, *line, *eq, **f;
	const char *bad, *slash;
	size_t len;

	memset(w, 0, sizeof(*w));
	if (!(buf = readfilemax(path, &len, MANIFEST_MAX))) {
		if (errno == EFBIG)
			sbaddf(why, "manifest '%s' is larger than %d bytes: not a manifest", path, MANIFEST_MAX);
		else
			sbaddf(why, "cannot read manifest '%s': %s", path, strerror(errno));
		return -1;
	}
	if (utf8invalid(buf, len) != len) {
		free(buf);
		sbaddf(why, "manifest '%s' is not text (a NUL or a byte that is not UTF-8)", path);
		return -1;
	}
	w->objcompiled = w->objreused = -1;
	next = buf;
	while ((line = nextline(&next))) {
		if (!(eq = strchr(line, '=')))
			continue;
		*eq++ = '\0';
		if ((f = fieldof(w, line))) {
			free(*f);
			*f = xstrdup(eq);
		} else if (!strcmp(line, "size")) {
			w->size = strtoll(eq, NULL, 10);
		} else if (!strcmp(line, "objects_compiled")) {
			w->objcompiled = strtoll(eq, NULL, 10);
		} else if (!strcmp(line, "objects_reused")) {
			w->objreused = strtoll(eq, NULL, 10);
		} else if (!strcmp(line, "upload_time")) {
			/* restoring from the store keeps it: the pages come out the same */
			w->mtime = strtoll(eq, NULL, 10);
		}
	}
	free(buf);
	slash = strrchr(path, '/');
	w->dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	if (w->cuda && *w->cuda) {
		struct sb var = SB_INIT;
		const char *q;

		sbadd(&var, "cu");
		for (q = w->cuda; *q; q++) {
			if (*q != '.')
				sbaddc(&var, *q);
		}
		if (w->torch && *w->torch)
			sbaddf(&var, "-torch%s", w->torch);
		w->variant = sbdetach(&var);
	}
	if (!w->package || !w->filename || !w->sha256) {
		manifestfree(w);
		sbaddf(why, "manifest '%s' lacks package, filename or sha256", path);
		return -1;
	}
	if ((bad = manifestbad(w))) {
		sbaddf(why, "manifest '%s': %s", path, bad);
		manifestfree(w);
		return -1;
	}
	return 0;
}

int
manifestread(const char *path, struct wheelinfo *w)
{
	struct sb why = SB_INIT;
	int rc = manifestparse(path, w, &why);

	if (rc < 0)
		error("%s", why.buf);
	sbfree(&why);
	return rc;
}

int
manifestcopy(const char *from, const char *to, const char *origin)
{
	struct sb out = SB_INIT;
	char *buf, *next, *line;
	size_t len;
	int rc;

	if (!(buf = readfilemax(from, &len, MANIFEST_MAX)))
		return error("cannot read '%s': %s", from, strerror(errno));
	next = buf;
	while ((line = nextline(&next))) {
		if (!startswith(line, "origin="))
			sbaddf(&out, "%s\n", line);
	}
	sbaddf(&out, "origin=%s\n", origin);
	rc = writeifchanged(to, out.buf, out.len) < 0 ? -1 : 0;
	free(buf);
	sbfree(&out);
	return rc;
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
	free(w->vlabel);
	free(w->vprops);
	free(w->python);
	free(w->variant);
	free(w->tested);
	free(w->key);
	free(w->commit);
	free(w->gpu);
	free(w->origin);
	free(w->stored);
	free(w->wheelversion);
	free(w->platform);
	free(w->dir);
	memset(w, 0, sizeof(*w));
}

void
indexspecwrite(struct sb *s, const struct indexopts *o)
{
	size_t i;

	sbadd(s, "# index parameters, generated by wheelgen from the config; do not edit\n");
	sbaddf(s, "base_url=%s\ntitle=%s\nvariants=%d\nblobs=%d\n", orempty(o->baseurl), orempty(o->title), o->variants,
	       o->blobs);
	if (o->release)
		sbaddf(s, "release=%s\n", o->release);
	for (i = 0; i < o->nyanked; i++)
		sbaddf(s, "yanked=%s\n", o->yanked[i]);
}

int
indexspecread(const char *path, struct indexopts *o)
{
	char *buf, *next, *line, *eq;

	if (!(buf = readfile(path, NULL)))
		return error("cannot read index spec '%s': %s", path, strerror(errno));
	next = buf;
	while ((line = nextline(&next))) {
		if (*line == '#' || !(eq = strchr(line, '=')))
			continue;
		*eq++ = '\0';
		if (!strcmp(line, "base_url")) {
			free(o->baseurl);
			o->baseurl = *eq ? xstrdup(eq) : NULL;
		} else if (!strcmp(line, "title")) {
			free(o->title);
			o->title = *eq ? xstrdup(eq) : NULL;
		} else if (!strcmp(line, "variants")) {
			o->variants = !strcmp(eq, "1");
		} else if (!strcmp(line, "blobs")) {
			o->blobs = !strcmp(eq, "1");
		} else if (!strcmp(line, "release")) {
			free(o->release);
			o->release = *eq ? xstrdup(eq) : NULL;
		} else if (!strcmp(line, "yanked") && strchr(eq, '\t')) {
			GROW(o->yanked, o->nyankedcap, o->nyanked + 1);
			o->yanked[o->nyanked++] = xstrdup(eq);
		}
	}
	free(buf);
	return 0;
}

void
indexoptsfree(struct indexopts *o)
{
	size_t i;

	for (i = 0; i < o->nyanked; i++)
		free(o->yanked[i]);
	free(o->yanked);
	free(o->baseurl);
	free(o->title);
	free(o->release);
	memset(o, 0, sizeof(*o));
}

/* the version part of a distribution file name: name-VERSION-....whl, or an sdist's
   name-VERSION.tar.gz (.zip, .tar.bz2, .tgz) where VERSION starts at the first "-<digit>" */
void
wheelversion(struct sb *s, const char *filename)
{
	static const char *const exts[] = { ".tar.gz", ".zip", ".tar.bz2", ".tar.xz", ".tgz", NULL };
	size_t len = strlen(filename), k;
	const char *a, *b;

	if (len > 4 && !strcmp(filename + len - 4, ".whl")) {
		a = strchr(filename, '-');
		b = a ? strchr(a + 1, '-') : NULL;
		if (a && b)
			sbaddn(s, a + 1, (size_t)(b - a - 1));
		return;
	}
	for (k = 0; exts[k]; k++) {
		size_t el = strlen(exts[k]);

		if (len > el && !strcmp(filename + len - el, exts[k])) {
			for (a = filename; (a = strchr(a, '-')); a++) {
				if (a[1] >= '0' && a[1] <= '9') {
					if (filename + len - el > a + 1)
						sbaddn(s, a + 1, (size_t)(filename + len - el - a - 1));
					return;
				}
			}
			return;
		}
	}
}

/* why w's version is yanked ("" when no reason was given), or NULL when it is not */
const char *
yankof(const struct indexopts *o, const struct wheelinfo *w)
{
	struct sb ver = SB_INIT;
	const char *why = NULL;
	size_t i, plen = strlen(w->package);

	if (!o->nyanked)
		return NULL;
	if (w->version && *w->version) {
		sbadd(&ver, w->version);
	} else {
		wheelversion(&ver, w->filename);
		if (ver.len && strchr(ver.buf, '+'))
			*strchr(ver.buf, '+') = '\0';
	}
	for (i = 0; i < o->nyanked && !why && ver.buf; i++) {
		const char *e = o->yanked[i], *t = strchr(e, '\t'), *r = t ? strchr(t + 1, '\t') : NULL;
		size_t vlen = strlen(ver.buf);

		if (r && (size_t)(t - e) == plen && !strncmp(e, w->package, plen) && (size_t)(r - t - 1) == vlen &&
		    !strncmp(t + 1, ver.buf, vlen))
			why = r + 1;
	}
	sbfree(&ver);
	return why;
}

/* the API version the pages claim: 1.1 (PEP 700: size, upload-time, versions), but 1.0 for
   pages built from file names alone (--from-list), which know no sizes */
const char *
indexapiversion(const struct indexopts *o)
{
	return o && o->fromlist ? "1.0" : "1.1";
}

const char *
wheelplatform(const char *filename)
{
	const char *dash = strrchr(filename, '-'), *p, *end;
	const struct platform *pl;
	size_t n;

	if (!dash)
		return "";
	n = strlen(dash + 1);
	if (n > 4 && !strcmp(dash + 1 + n - 4, ".whl"))
		n -= 4;
	if (n == 3 && !strncmp(dash + 1, "any", 3))
		return "any";
	/* a compressed tag set: each of its tags names the machine alike; the machines are
	   platform.c's */
	for (p = dash + 1, end = dash + 1 + n; p < end; p += strcspn(p, ".") + 1) {
		size_t t = strcspn(p, ".");

		if ((pl = platformoftag(p, t < (size_t)(end - p) ? t : (size_t)(end - p))))
			return pl->machine;
	}
	return "";
}
