/* key: a cell's key, the sha256 of everything that decides its wheel and test (see key.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "esc.h"
#include "files.h"
#include "gitlock.h"
#include "spec.h"
#include "key.h"
#include "layout.h"
#include "sha256.h"
#include "sources.h"
#include "steps.h"

void
keyctxinit(struct keyctx *k, const struct config *c, const char *builddir, const char *templates, enum keysource from)
{
	int t;

	memset(k, 0, sizeof(*k));
	k->c = c;
	k->builddir = builddir;
	k->templates = templates;
	k->from = from;
	for (t = 0; t < 4; t++)
		k->tmpl[t] = (struct sb)SB_INIT;
}

void
keyctxfree(struct keyctx *k)
{
	int t;

	for (t = 0; t < 4; t++)
		sbfree(&k->tmpl[t]);
	free(k->treepkg);
	free(k->treehash);
	memset(k, 0, sizeof(*k));
}

int
ishex64(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	}
	return s[64] == '\0';
}

static int
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the names in dir a build copies (as build-host.sh's wg_find_sources), sorted; -1 with a message */
static int
listdir(const char *dir, int top, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return error("cannot read the source directory '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		const char *nm = e->d_name;
		size_t len = strlen(nm);

		if (!strcmp(nm, ".") || !strcmp(nm, "..") || !strcmp(nm, ".git") || !strcmp(nm, "__pycache__") ||
		    (len > 9 && !strcmp(nm + len - 9, ".egg-info")) || (top && (!strcmp(nm, "build") || !strcmp(nm, "dist"))))
			continue;
		GROW(*names, cap, *n + 1);
		(*names)[(*n)++] = xstrdup(nm);
	}
	closedir(d);
	sortlist(*names, *n, sizeof(**names), cmpstr);
	return 0;
}

/* "<length>:<path> <sha256> <x|->\n" into h for each file under root/rel, symbolic links
   followed; each file's path (relative to root) and a newline into files, when not NULL */
static int
hashtree(struct sha256 *h, struct sb *files, const char *root, const char *rel, int depth)
{
	struct sb dir = SB_INIT, path = SB_INIT, sub = SB_INIT;
	char **names;
	size_t n, i;
	int rc = 0;

	if (depth > 64)
		return error("source tree '%s' is nested more than 64 directories deep (a symbolic link loop?)", root);
	sbaddf(&dir, "%s%s%s", root, *rel ? "/" : "", rel);
	if (listdir(dir.buf, !*rel, &names, &n) < 0) {
		sbfree(&dir);
		return -1;
	}
	for (i = 0; i < n && rc == 0; i++) {
		struct stat st;

		sbreset(&path);
		sbaddf(&path, "%s/%s", dir.buf, names[i]);
		sbreset(&sub);
		sbaddf(&sub, "%s%s%s", rel, *rel ? "/" : "", names[i]);
		if (stat(path.buf, &st) < 0) {
			rc = error("cannot read '%s': %s", path.buf, strerror(errno));
		} else if (S_ISDIR(st.st_mode)) {
			rc = hashtree(h, files, root, sub.buf, depth + 1);
		} else if (S_ISREG(st.st_mode)) {
			char hex[65];
			struct sb line = SB_INIT;

			if (files)
				sbaddf(files, "%s\n", sub.buf);
			if (!h) {
			} else if (sha256file(path.buf, hex) < 0) {
				rc = error("cannot read '%s': %s", path.buf, strerror(errno));
			} else {
				sbaddf(&line, "%zu:%s %s %c\n", sub.len, sub.buf, hex, st.st_mode & 0100 ? 'x' : '-');
				sha256add(h, line.buf, line.len);
			}
			sbfree(&line);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	sbfree(&dir);
	sbfree(&path);
	sbfree(&sub);
	return rc;
}

int
treefiles(const char *root, struct sb *files)
{
	return hashtree(NULL, files, root, "", 0);
}

int
depfilewrite(const struct cell *cl, const char *target, const char *path)
{
	struct sb d = SB_INIT, files = SB_INIT, bad = SB_INIT, why = SB_INIT;
	char *line, *next;
	const char **deps = NULL;
	size_t n = 0, cap = 0;
	int rc = 0, e;

	if (cl->pkg->src == SRC_PATH && treefiles(cl->pkg->path, &files) < 0)
		rc = -1;
	next = files.buf;
	while (rc == 0 && files.len && (line = nextline(&next))) {
		GROW(deps, cap, n + 1);
		deps[n++] = line;
	}
	if (rc == 0 && (e = escdepfile(&d, &bad, target, cl->pkg->path, deps, n)) < 0) {
		escdepfilewhy(&why, e, target, bad.buf);
		rc = error("%s", why.buf);
	}
	if (rc == 0 && writeifchanged(path, d.buf, d.len) < 0)
		rc = -1;
	free(deps);
	sbfree(&d);
	sbfree(&files);
	sbfree(&bad);
	sbfree(&why);
	return rc;
}

/* the content hash of a path package's tree (computed once per package) */
static const char *
treeof(struct keyctx *k, const struct package *p)
{
	struct sha256 h;
	size_t i;

	for (i = 0; i < k->ntree; i++) {
		if (k->treepkg[i] == p)
			return k->treehash[i];
	}
	sha256init(&h);
	if (hashtree(&h, NULL, p->path, "", 0) < 0)
		return NULL;
	if (k->ntree == k->treecap) {
		k->treecap = k->treecap ? 2 * k->treecap : 8;
		k->treepkg = xrealloc(k->treepkg, k->treecap * sizeof(*k->treepkg));
		k->treehash = xrealloc(k->treehash, k->treecap * sizeof(*k->treehash));
	}
	k->treepkg[k->ntree] = p;
	sha256hex(&h, k->treehash[k->ntree]);
	return k->treehash[k->ntree++];
}

/* "template NAME SHA256" lines of the scripts of the keyed steps (steps.c), computed once per
   backend and kind of platform */
static const char *
templatesof(struct keyctx *k, int container, int foreign)
{
	struct sb path = SB_INIT;
	const char *name;
	size_t i = 0;
	int t = container * 2 + foreign;

	if (k->havetmpl[t])
		return k->tmpl[t].buf;
	while ((name = stepscript(&i, STEPS_KEYED, container, foreign))) {
		char hex[65];

		sbreset(&path);
		sbaddf(&path, "%s/%s", k->templates, name);
		if (sha256file(path.buf, hex) < 0) {
			error("cannot read the template '%s': %s", path.buf, strerror(errno));
			sbfree(&path);
			return NULL;
		}
		sbaddf(&k->tmpl[t], "template %s %s\n", name, hex);
	}
	sbfree(&path);
	k->havetmpl[t] = 1;
	return k->tmpl[t].buf;
}

/* the commit the checkout's stamp records (its first word), into hex; 0 if found, 1 if not */
static int
stampcommit(const struct keyctx *k, const struct cell *cl, char hex[65])
{
	struct sb name = SB_INIT, path = SB_INIT;
	int rc;

	srcname(&name, cl->pkg, cl->version);
	bdpath(&path, k->builddir, BD_STAMP, name.buf);
	rc = stampread(path.buf, hex);
	sbfree(&name);
	sbfree(&path);
	return rc;
}

/* the commit the lock file records for the cell's version, into hex; 0 if found, 1 if not */
static int
lockcommit(const struct keyctx *k, const struct cell *cl, char hex[65])
{
	return lockread(k->c->lockpath, cl->pkg->name, cl->version, hex);
}

int
cellkey(struct keyctx *k, const struct cell *cl, const char *commit, char out[65], struct sb *keytext)
{
	const struct package *p = cl->pkg;
	struct sb text = SB_INIT, spec = SB_INIT;
	const char *tmpl, *tree;
	struct sha256 h;
	char hex[65];
	size_t i;
	int rc = -1;

	sbaddf(&text, "wheelgen cell key, format %d\n[build spec]\n", KEY_FORMAT);
	cellspec(&text, cl, "", 1);
	sbadd(&text, "[test spec]\n");
	celltestspec(&text, cl, 1);
	sbadd(&text, "[source]\n");
	switch (p->src) {
	case SRC_GIT:
		if (commit && strlen(commit) < sizeof(hex)) {
			strcpy(hex, commit);
		} else if (k->from == KEY_FROM_LOCK ? lockcommit(k, cl, hex) && stampcommit(k, cl, hex)
						    : stampcommit(k, cl, hex) && lockcommit(k, cl, hex)) {
			rc = 1;
			goto out;
		}
		/* the submodules' commits are those the superproject's tree records at this commit */
		sbaddf(&text, "git commit %s\n", hex);
		break;
	case SRC_PYPI:
		sbaddf(&text, "pypi %s==%s\n", p->name, cl->version);
		break;
	case SRC_PATH:
		if (!(tree = treeof(k, p)))
			goto out;
		sbaddf(&text, "path tree %s\n", tree);
		break;
	}
	for (i = 0; i < p->patches.n; i++) {
		if (sha256file(p->patches.v[i], hex) < 0) {
			error("cannot read the patch '%s': %s", p->patches.v[i], strerror(errno));
			goto out;
		}
		sbaddf(&text, "patch %s\n", hex);
	}
	if (!(tmpl = templatesof(k, cl->image != NULL, cl->platform != platformdefault())))
		goto out;
	sbadd(&text, tmpl);
	sha256init(&h);
	sha256add(&h, text.buf, text.len);
	sha256hex(&h, out);
	if (keytext)
		sbadd(keytext, text.buf);
	rc = 0;
out:
	sbfree(&text);
	sbfree(&spec);
	return rc;
}
