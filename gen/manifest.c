/* manifest: what a built wheel's manifest and the index spec say (see manifest.h: why the step
   tool wheelgen-step is compiled from this file too, with WG_STEP_TOOL). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "manifest.h"
#include "platform.h"
#ifndef WG_STEP_TOOL
#include "pep.h"
#endif
#include "storelayout.h"
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

/* "sm_80 sm_90a compute_90": at most 64 words, each sm_ or compute_, 2 or 3 digits, a or f
   after them ("" too: no GPU code) */
static int
gpuarchs(const char *p)
{
	int n = 0;

	while (*p) {
		size_t d;

		if (!strncmp(p, "sm_", 3))
			p += 3;
		else if (!strncmp(p, "compute_", 8))
			p += 8;
		else
			return 0;
		d = strspn(p, "0123456789");
		if (d < 2 || d > 3 || ++n > 64)
			return 0;
		p += d;
		p += *p == 'a' || *p == 'f';
		if (*p == ' ' && p[1])
			p++;
		else if (*p)
			return 0;
	}
	return 1;
}

/* words of a-z 0-9 . _ - separated by single spaces, at most 4096 bytes ("" too) */
static int
namewords(const char *p)
{
	size_t n = strlen(p);

	if (n > 4096 || strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789._- ") != n)
		return 0;
	return !n || (p[0] != ' ' && p[n - 1] != ' ' && !strstr(p, "  "));
}

/* an http(s) URL of printable ASCII without spaces, quotes, '<', '>' or a backslash ("" too) */
static int
plainurl(const char *p)
{
	const char *q;

	if (!*p)
		return 1;
	if (strncmp(p, "https://", 8) && strncmp(p, "http://", 7))
		return 0;
	for (q = p; *q; q++) {
		if (*q <= ' ' || *q >= 0x7f || strchr("\"'<>\\`", *q))
			return 0;
	}
	return q - p <= 2048;
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
#ifndef WG_STEP_TOOL
	char *norm = xmalloc(strlen(w->package) + 1);
	int normal, local;

	pepnormalize(w->package, norm);
	normal = pepname(w->package) && !strcmp(norm, w->package);
	free(norm);
	if (!normal)
		return "package is not a PEP 503 normalized project name";
	if (w->version && *w->version && !pepversion(w->version, &local))
		return "version is not a PEP 440 version";
#endif
	if ((w->cuda && *w->cuda && !isminor(w->cuda)) || (w->torch && *w->torch && !isminor(w->torch)))
		return "cuda and torch must be versions like 13.0";
	if (w->cell && !plainname(w->cell))
		return "cell is not a plain name (no '/', no control characters)";
	if (!plainname(w->filename))
		return "filename is not a plain file name (no '/', no control characters)";
	if (strlen(w->sha256) != 64 || strspn(w->sha256, "0123456789abcdef") != 64)
		return "sha256 is not 64 hex digits";
	if (w->stored && !storedwheel(w->stored, w->sha256, w->filename))
		return "stored is not " STORELAYOUT_FORMS " of this wheel";
	if (!w->vlabel != !w->vprops)
		return "variant_label and variant_properties come together";
	if (w->vlabel && (!*w->vlabel || strlen(w->vlabel) > 16 || w->vlabel[strspn(w->vlabel, VARIANTCHARS)] ||
			  !strcmp(w->vlabel, "null")))
		return "variant_label is not a PEP 825 label (1 to 16 of a-z 0-9 _ ., not null)";
	if (w->vprops && !variantprops(w->vprops))
		return "variant_properties is not namespace::feature::value[;...] (a-z 0-9 _ .)";
	/* what wheels.json carries to the finder and the page */
	if (w->archs && !gpuarchs(w->archs))
		return "gpu_archs is not a list of sm_XY and compute_XY (at most 64)";
	if (w->deps && !namewords(w->deps))
		return "dependencies is not a list of project names";
	if (w->torchcuda && *w->torchcuda && !isminor(w->torchcuda))
		return "torch_cuda must be a version like 13.0";
	if (w->torchabi && *w->torchabi && strcmp(w->torchabi, "0") && strcmp(w->torchabi, "1"))
		return "torch_cxx11_abi is not 0 or 1";
	if (w->torchindex && !plainurl(w->torchindex))
		return "torch_index is not an http(s) URL";
#ifndef WG_STEP_TOOL
	if (w->torchversion && *w->torchversion && !pepversion(w->torchversion, &local))
		return "torch_version is not a PEP 440 version";
#endif
	return NULL;
}

/* The manifest's fields, the only place their names are spelled: a string goes into its member
   of struct wheelinfo, a number into its long long; the others are carried, never read here. */
enum fieldkind { FSTR, FNUM, FKEEP };
static const struct {
	const char *key;
	enum fieldkind kind;
	size_t off;
} fields[] = {
	{ "cell", FSTR, offsetof(struct wheelinfo, cell) },
	{ "package", FSTR, offsetof(struct wheelinfo, package) },
	{ "version", FSTR, offsetof(struct wheelinfo, version) },
	{ "filename", FSTR, offsetof(struct wheelinfo, filename) },
	{ "sha256", FSTR, offsetof(struct wheelinfo, sha256) },
	{ "tags", FSTR, offsetof(struct wheelinfo, tags) },
	{ "cuda", FSTR, offsetof(struct wheelinfo, cuda) },
	{ "torch", FSTR, offsetof(struct wheelinfo, torch) },
	{ "metadata_sha256", FSTR, offsetof(struct wheelinfo, metasha) },
	{ "requires_python", FSTR, offsetof(struct wheelinfo, requirespy) },
	{ "python", FSTR, offsetof(struct wheelinfo, python) },
	{ "tested", FSTR, offsetof(struct wheelinfo, tested) },
	{ "variant_label", FSTR, offsetof(struct wheelinfo, vlabel) },
	{ "variant_properties", FSTR, offsetof(struct wheelinfo, vprops) },
	{ "key", FSTR, offsetof(struct wheelinfo, key) },
	{ "commit", FSTR, offsetof(struct wheelinfo, commit) },
	{ "gpu", FSTR, offsetof(struct wheelinfo, gpu) },
	{ "origin", FSTR, offsetof(struct wheelinfo, origin) },
	{ "stored", FSTR, offsetof(struct wheelinfo, stored) },
	{ "wheel_version", FSTR, offsetof(struct wheelinfo, wheelversion) },
	{ "platform", FSTR, offsetof(struct wheelinfo, platform) },
	{ "size", FNUM, offsetof(struct wheelinfo, size) },
	{ "objects_compiled", FNUM, offsetof(struct wheelinfo, objcompiled) },
	{ "objects_reused", FNUM, offsetof(struct wheelinfo, objreused) },
	/* families (build-host.sh): objects from the family's compile cache, the seconds of compiler
	   work of those compiled here, and the jobs that made the wheel (the estimate reads them) */
	{ "objects_family", FNUM, offsetof(struct wheelinfo, objfamily) },
	{ "compile_seconds", FNUM, offsetof(struct wheelinfo, compilesecs) },
	{ "job_times", FKEEP, 0 },
	/* its upload-time in the index (restoring from the store keeps it: the pages come out the same) */
	{ "upload_time", FNUM, offsetof(struct wheelinfo, mtime) },
	/* the exact torch it was built against (the test installs the same), and its C++ ABI */
	{ "torch_version", FSTR, offsetof(struct wheelinfo, torchversion) },
	{ "torch_cuda", FSTR, offsetof(struct wheelinfo, torchcuda) },
	{ "torch_index", FSTR, offsetof(struct wheelinfo, torchindex) },
	{ "torch_cxx11_abi", FSTR, offsetof(struct wheelinfo, torchabi) },
	/* what the index's wheels.json says of it: its GPU code (a CUDA cell's) and what it requires */
	{ "gpu_archs", FSTR, offsetof(struct wheelinfo, archs) },
	{ "dependencies", FSTR, offsetof(struct wheelinfo, deps) },
	/* a shared wheel's (abi-share.sh): its builder, and the torch its test installs */
	{ "abi_from", FKEEP, 0 },
	{ "test_torch", FKEEP, 0 },
	/* a variant wheel's (variant.py): the wheel it relabels */
	{ "variant_of", FKEEP, 0 },
};
enum { NFIELDS = sizeof(fields) / sizeof(fields[0]) };

/* the index in fields of key, or -1 */
static int
fieldindex(const char *key)
{
	size_t i;

	for (i = 0; i < NFIELDS; i++) {
		if (!strcmp(fields[i].key, key))
			return (int)i;
	}
	return -1;
}

int
manifestfield(const char *key)
{
	return fieldindex(key) >= 0;
}

/* the lines of buf[0..len) (a manifest read from what: a path, a URL), which it consumes */
static int
linesparse(char *buf, size_t len, const char *what, struct manifestlines *m, struct sb *why)
{
	char *next, *line, *eq;

	memset(m, 0, sizeof(*m));
	if (len > MANIFEST_MAX) {
		sbaddf(why, "manifest '%s' is larger than %d bytes: not a manifest", what, MANIFEST_MAX);
		return -1;
	}
	if (utf8invalid(buf, len) != len) {
		sbaddf(why, "manifest '%s' is not text (a NUL or a byte that is not UTF-8)", what);
		return -1;
	}
	next = buf;
	while ((line = nextline(&next))) {
		GROW(m->keys, m->cap, m->n + 1);
		m->vals = xrealloc(m->vals, m->cap * sizeof(*m->vals));
		eq = strchr(line, '=');
		m->keys[m->n] = eq ? xstrndup(line, (size_t)(eq - line)) : xstrdup(line);
		m->vals[m->n++] = eq ? xstrdup(eq + 1) : NULL;
	}
	return 0;
}

int
manifestlinesread(const char *path, struct manifestlines *m, struct sb *why)
{
	const char *file = strcmp(path, "-") ? path : "/dev/stdin";
	char *buf;
	size_t len;
	int rc;

	memset(m, 0, sizeof(*m));
	if (!(buf = readfilemax(file, &len, MANIFEST_MAX))) {
		if (errno == EFBIG)
			sbaddf(why, "manifest '%s' is larger than %d bytes: not a manifest", path, MANIFEST_MAX);
		else
			sbaddf(why, "cannot read manifest '%s': %s", path, strerror(errno));
		return -1;
	}
	rc = linesparse(buf, len, path, m, why);
	free(buf);
	return rc;
}

int
manifestparsetext(const char *text, size_t len, const char *what, struct wheelinfo *w, struct sb *why)
{
	struct manifestlines m;
	char *buf = xmalloc(len + 1);
	int rc;

	memcpy(buf, text, len);
	buf[len] = '\0';
	memset(w, 0, sizeof(*w));
	rc = linesparse(buf, len, what, &m, why);
	free(buf);
	if (rc == 0)
		rc = manifestcheck(&m, what, w, why);
	manifestlinesfree(&m);
	return rc;
}

const char *
manifestlinesget(const struct manifestlines *m, const char *key)
{
	size_t i;

	for (i = m->n; i-- > 0;) {
		if (m->vals[i] && !strcmp(m->keys[i], key))
			return m->vals[i];
	}
	return NULL;
}

/* take out line i */
static void
linesremove(struct manifestlines *m, size_t i)
{
	free(m->keys[i]);
	free(m->vals[i]);
	memmove(m->keys + i, m->keys + i + 1, (m->n - i - 1) * sizeof(*m->keys));
	memmove(m->vals + i, m->vals + i + 1, (m->n - i - 1) * sizeof(*m->vals));
	m->n--;
}

int
manifestlinesset(struct manifestlines *m, const char *key, const char *val)
{
	size_t i, at = m->n;

	if (!manifestfield(key))
		return error("'%s' is not a field of a manifest", key);
	if (strpbrk(val, "\n\r"))
		return error("the value of %s holds a line break", key);
	for (i = 0; i < m->n && at == m->n; i++) {
		if (m->vals[i] && !strcmp(m->keys[i], key))
			at = i;
	}
	if (at == m->n) {
		GROW(m->keys, m->cap, m->n + 1);
		m->vals = xrealloc(m->vals, m->cap * sizeof(*m->vals));
		m->keys[m->n] = xstrdup(key);
		m->vals[m->n++] = xstrdup(val);
	} else {
		free(m->vals[at]);
		m->vals[at] = xstrdup(val);
	}
	return 0;
}

void
manifestlinesdrop(struct manifestlines *m, const char *key)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (m->vals[i] && !strcmp(m->keys[i], key))
			linesremove(m, i--);
	}
}

void
manifestlinesclean(struct manifestlines *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (!m->vals[i])
			linesremove(m, i--);
	}
}

void
manifestlinestext(struct sb *s, const struct manifestlines *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (m->vals[i])
			sbaddf(s, "%s=%s\n", m->keys[i], m->vals[i]);
		else
			sbaddf(s, "%s\n", m->keys[i]);
	}
}

int
manifestlineswrite(const char *path, const struct manifestlines *m)
{
	struct sb text = SB_INIT;
	int rc;

	manifestlinestext(&text, m);
	rc = writeifchanged(path, text.buf ? text.buf : "", text.len);
	sbfree(&text);
	return rc;
}

void
manifestlinesfree(struct manifestlines *m)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		free(m->keys[i]);
		free(m->vals[i]);
	}
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

int
manifeststoreentry(struct sb *out, const struct manifestlines *m, const char *testrecord, const char *stored,
		   struct sb *why)
{
	static const char *const dropped[] = { "origin", "tested", "gpu", "stored" };
	const char *sha = manifestlinesget(m, "sha256");
	char *rec, *next, *line;
	size_t i, k;

	if (!sha) {
		sbadd(why, "the manifest has no sha256");
		return -1;
	}
	if (!(rec = readfilemax(testrecord, NULL, MANIFEST_MAX))) {
		sbaddf(why, "cannot read the test record '%s': %s", testrecord, strerror(errno));
		return -1;
	}
	for (i = 0; i < m->n; i++) {
		for (k = 0; k < sizeof(dropped) / sizeof(dropped[0]); k++) {
			if (m->vals[i] && !strcmp(m->keys[i], dropped[k]))
				break;
		}
		if (k < sizeof(dropped) / sizeof(dropped[0]))
			continue;
		if (m->vals[i])
			sbaddf(out, "%s=%s\n", m->keys[i], m->vals[i]);
		else
			sbaddf(out, "%s\n", m->keys[i]);
	}
	sbaddf(out, "origin=build\ntested=%s\n", sha);
	/* what became of its GPU test, as the test record says it */
	next = rec;
	while ((line = nextline(&next))) {
		if (startswith(line, "gpu="))
			sbaddf(out, "%s\n", line);
	}
	free(rec);
	sbaddf(out, "stored=%s\n", stored);
	return 0;
}

int
manifestparse(const char *path, struct wheelinfo *w, struct sb *why)
{
	struct manifestlines m;
	int rc;

	memset(w, 0, sizeof(*w));
	if (manifestlinesread(path, &m, why) < 0)
		return -1;
	rc = manifestcheck(&m, path, w, why);
	manifestlinesfree(&m);
	return rc;
}

int
manifestcheck(const struct manifestlines *m, const char *path, struct wheelinfo *w, struct sb *why)
{
	const char *bad, *slash;
	size_t i;

	memset(w, 0, sizeof(*w));
	w->objcompiled = w->objreused = w->objfamily = w->compilesecs = -1;
	for (i = 0; i < m->n; i++) {
		int f = m->vals[i] ? fieldindex(m->keys[i]) : -1;

		if (f < 0 || fields[f].kind == FKEEP)
			continue;
		if (fields[f].kind == FNUM) {
			*(long long *)((char *)w + fields[f].off) = strtoll(m->vals[i], NULL, 10);
		} else {
			char **p = (char **)((char *)w + fields[f].off);

			free(*p);
			*p = xstrdup(m->vals[i]);
		}
	}
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
	struct manifestlines m;
	struct sb why = SB_INIT;
	int rc;

	if (manifestlinesread(from, &m, &why) < 0) {
		error("%s", why.buf);
		sbfree(&why);
		return -1;
	}
	manifestlinesdrop(&m, "origin");
	rc = manifestlinesset(&m, "origin", origin) < 0 || manifestlineswrite(to, &m) < 0 ? -1 : 0;
	manifestlinesfree(&m);
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
	free(w->archs);
	free(w->deps);
	free(w->torchversion);
	free(w->torchcuda);
	free(w->torchindex);
	free(w->torchabi);
	free(w->dir);
	memset(w, 0, sizeof(*w));
}

long long
wheelobjects(const struct wheelinfo *w)
{
	if (w->objcompiled < 0 || w->objreused < 0)
		return -1;
	return w->objcompiled + w->objreused + (w->objfamily > 0 ? w->objfamily : 0);
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
