/* config: packages.yml read into a checked model (see config.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "files.h"
#include "checkout.h"
#include "pep.h"
#include "placeholder.h"
#include "platform.h"

/* CPython versions wheelgen knows how to name ("t" = free-threaded) */
static const char *const knownpython[] = {
	"3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.13t",
	"3.14", "3.14t", "3.15", "3.15t", NULL,
};

static const char *const topkeys[] = { "defaults", "torch", "torch_index", "packages", "profiles", "publish", "index", "container", NULL };
static const char *const defaultkeys[] = { "python", "cuda", "cuda_archs", "platforms", NULL };
static const char *const torchkeys[] = { "cuda", "python", "pypi", "platforms", NULL };
static const char *const pkgkeys[] = {
	"source", "versions", "python", "cuda", "torch", "exclude", "include", "env", "build_args",
	"extra_deps", "test_import", "test_command", "description", "local_version", "cuda_archs",
	"memory_per_job_gb", "max_jobs", "nvcc_threads", "repair", "yanked", "patches", "build_frontend",
	"torch_requirement", "test_skip_modules", "test_deps", "abi", "skip_submodules", "torch_abi", "platforms",
	"nvcc_compress", "shards", NULL,
};
static const char *const repairkeys[] = { "plat", "exclude", "cuda", NULL };
static const char *const sourcekeys[] = { "path", "git", "tag", "pypi", NULL };
static const char *const matchkeys[] = { "version", "python", "cuda", "torch", "platforms", NULL };
static const char *const profilekeys[] = { "packages", "versions", "python", "cuda", "torch", "platforms", NULL };
static const char *const publishkeys[] = {
	"dir", "http", "github", "retries", "timeout", "stall_timeout", "index_dir", "index_http", NULL,
};
static const char *const githubkeys[] = { "repo", "tag", "replace", NULL };
static const char *const indexkeys[] = { "base_url", "title", "variants", NULL };
static const char *const imagekeys[] = { "image", "cpu_image", NULL };


static void
checkpythons(struct ctx *x, const struct strlist *l, const char *what)
{
	size_t i, k, n;
	const char *s;

	for (n = 0; knownpython[n]; n++)
		;
	for (i = 0; i < l->n; i++) {
		if (inlist(knownpython, l->v[i]))
			continue;
		s = NULL;
		for (k = 0; k < n && !s; k++) {
			if (startswith(knownpython[k], l->v[i]))
				s = knownpython[k];   /* 3.1 -> 3.10: a float's lost zero */
		}
		if (!s)
			s = nearest(l->v[i], knownpython, n);
		nodeerr(x->d, l->at[i], "unknown Python version '%s' in %s%s%s%s", l->v[i], what,
			s ? "; did you mean '" : " (known: 3.6 to 3.15, and 3.13t to 3.15t free-threaded)",
			s ? s : "", s ? "'?" : "");
	}
	checkdups(x, l, what);
}

static void
checkcudas(struct ctx *x, const struct strlist *l, const char *what)
{
	long maj, min;
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (majorminor(l->v[i], &maj, &min) && maj >= 10 && maj <= 13 && min <= 9)
			continue;
		nodeerr(x->d, l->at[i], "unknown CUDA version '%s' in %s (write MAJOR.MINOR, e.g. '12.8' or '13.0')",
			l->v[i], what);
	}
	checkdups(x, l, what);
}

static void
checkarchs(struct ctx *x, const struct strlist *l, const char *what)
{
	long maj, min;
	size_t i, n;
	char buf[32];

	for (i = 0; i < l->n; i++) {
		n = strlen(l->v[i]);
		if (n < sizeof(buf)) {
			memcpy(buf, l->v[i], n + 1);
			if (n > 4 && !strcmp(buf + n - 4, "+PTX"))
				buf[n -= 4] = '\0';
			if (n > 0 && (buf[n - 1] == 'a' || buf[n - 1] == 'f'))
				buf[--n] = '\0';
			if (majorminor(buf, &maj, &min) && maj >= 3 && maj <= 20)
				continue;
		}
		nodeerr(x->d, l->at[i], "invalid CUDA architecture '%s' in %s (e.g. '8.0', '9.0a', '12.0+PTX')",
			l->v[i], what);
	}
	checkdups(x, l, what);
}

/* platform names must be platform.c's; a missing list is the default platform alone */
static void
checkplatforms(struct ctx *x, const struct strlist *l, const char *what)
{
	struct sb all = SB_INIT;
	size_t i;
	const char *s;

	platformlist(&all, " and ");
	for (i = 0; i < l->n; i++) {
		if (platformfind(l->v[i]))
			continue;
		s = platformalias(l->v[i]);
		if (!s)
			s = nearest(l->v[i], platformnames, nplatforms);
		if (!strncmp(l->v[i], "mac", 3) || !strncmp(l->v[i], "darwin", 6))
			nodeerr(x->d, l->at[i], "unknown platform '%s' in %s: wheelgen builds wheels for %s "
				"(nothing here can build or run a macOS wheel)", l->v[i], what, all.buf);
		else if (s)
			nodeerr(x->d, l->at[i], "unknown platform '%s' in %s; did you mean '%s'?", l->v[i], what, s);
		else
			nodeerr(x->d, l->at[i], "unknown platform '%s' in %s (wheelgen builds for %s)", l->v[i], what, all.buf);
	}
	sbfree(&all);
	checkdups(x, l, what);
}

/* the default platform as a one-item list */
static void
defaultplatforms(struct ctx *x, struct strlist *l)
{
	memset(l, 0, sizeof(*l));
	l->v = aalloc(x->a, sizeof(*l->v));
	l->at = aalloc(x->a, sizeof(*l->at));
	l->v[0] = platformdefault()->name;
	l->n = 1;
}

/*
 * cuda_archs: a list (every cell), or a mapping whose keys are "default", a CUDA version, a
 * platform, or "platform/CUDA", each a list (PyTorch's own lists differ by CUDA version and
 * platform: CUDA 13 adds sm_110 and drops what is older than sm_75)
 */
static void
loadarchs(struct ctx *x, struct node *n, const char *what, struct archsel *sel)
{
	size_t i;

	memset(sel, 0, sizeof(*sel));
	if (n->kind != NMAP) {
		sel->v = aalloc(x->a, sizeof(*sel->v));
		getlist(x, n, what, &sel->v[0].archs, 1);
		checkarchs(x, &sel->v[0].archs, what);
		sel->n = 1;
		return;
	}
	sel->v = aalloc(x->a, (n->n + 1) * sizeof(*sel->v));
	for (i = 0; i < n->n; i++) {
		struct node *k = n->kids[2 * i], *v = n->kids[2 * i + 1];
		struct archset *a;
		const char *slash, *plat = NULL, *cuda = NULL;
		char buf[96];
		long maj, min;
		size_t j;

		if (k->kind != NSCALAR)
			continue;
		slash = strchr(k->s, '/');
		if (strcmp(k->s, "default")) {
			if (slash) {
				plat = astrndup(x->a, k->s, (size_t)(slash - k->s));
				cuda = slash + 1;
			} else if (platformfind(k->s)) {
				plat = k->s;
			} else {
				cuda = k->s;
			}
			if ((plat && !platformfind(plat)) || (cuda && !(majorminor(cuda, &maj, &min) && maj >= 10 && maj <= 13))) {
				nodeerr(x->d, k, "'%s' in %s is not a CUDA version, a platform or platform/CUDA (e.g. \"13.0\", "
					"\"%s\", \"%s/13.0\", or \"default\")", k->s, what, platforms[1].name, platforms[1].name);
				continue;
			}
		}
		for (j = 0; j < sel->n; j++) {
			if (!strcmp(orempty(sel->v[j].platform), orempty(plat)) && !strcmp(orempty(sel->v[j].cuda), orempty(cuda)))
				nodeerr(x->d, k, "'%s' appears twice in %s", k->s, what);
		}
		a = &sel->v[sel->n++];
		a->platform = plat;
		a->cuda = cuda;
		snprintf(buf, sizeof(buf), "%s '%s'", what, k->s);
		getlist(x, v, buf, &a->archs, 1);
		checkarchs(x, &a->archs, buf);
	}
}

/* torch values must name a row of the support table */
static void
checktorches(struct ctx *x, const struct strlist *l, const char *what)
{
	const char **names;
	const char *s;
	size_t i, k;

	names = aalloc(x->a, (x->c->ntorch + 1) * sizeof(*names));
	for (k = 0; k < x->c->ntorch; k++)
		names[k] = x->c->torch[k].version;
	for (i = 0; i < l->n; i++) {
		if (torchfind(x->c, l->v[i]))
			continue;
		s = nearest(l->v[i], names, x->c->ntorch);
		if (x->c->ntorch == 0)
			nodeerr(x->d, l->at[i], "unknown torch version '%s' in %s: the top-level 'torch:' table is empty",
				l->v[i], what);
		else if (s)
			nodeerr(x->d, l->at[i], "unknown torch version '%s' in %s; did you mean '%s'?", l->v[i], what, s);
		else
			nodeerr(x->d, l->at[i], "unknown torch version '%s' in %s (the 'torch:' table has %s%s)",
				l->v[i], what, names[0], x->c->ntorch > 1 ? " and others" : "");
	}
	checkdups(x, l, what);
}

static void
checkversions(struct ctx *x, const struct strlist *l, const char *what)
{
	size_t i;
	int local;

	for (i = 0; i < l->n; i++) {
		if (!pepversion(l->v[i], &local))
			nodeerr(x->d, l->at[i], "'%s' in %s is not a valid PEP 440 version", l->v[i], what);
		else if (local)
			nodeerr(x->d, l->at[i], "'%s' in %s has a local label (+...): use 'local_version' instead",
				l->v[i], what);
	}
	checkdups(x, l, what);
}

static void
loaddefaults(struct ctx *x, struct node *n)
{
	if (!wantmap(x, n, "'defaults'"))
		return;
	checkmapkeys(x, n, defaultkeys, "'defaults'");
	getlist(x, mapget(n, "python"), "defaults.python", &x->c->python, 0);
	checkpythons(x, &x->c->python, "defaults.python");
	getlist(x, mapget(n, "cuda"), "defaults.cuda", &x->c->cuda, 0);
	checkcudas(x, &x->c->cuda, "defaults.cuda");
	if (mapget(n, "cuda_archs"))
		loadarchs(x, mapget(n, "cuda_archs"), "defaults.cuda_archs", &x->c->cuda_archs);
	if (mapget(n, "platforms")) {
		getlist(x, mapget(n, "platforms"), "defaults.platforms", &x->c->platforms, 0);
		checkplatforms(x, &x->c->platforms, "defaults.platforms");
		if (x->c->platforms.n == 0 && mapget(n, "platforms")->kind == NSEQ) {
			struct sb all = SB_INIT;

			platformlist(&all, ", ");
			nodeerr(x->d, mapget(n, "platforms"), "defaults.platforms is empty: name at least one (%s)", all.buf);
			sbfree(&all);
		}
	}
}

static void
loadtorch(struct ctx *x, struct node *n)
{
	struct torchrow *r;
	struct node *pv;
	long maj, min;
	size_t i;

	if (!wantmap(x, n, "'torch'"))
		return;
	x->c->torch = aalloc(x->a, (n->n + 1) * sizeof(*x->c->torch));
	for (i = 0; i < n->n; i++) {
		struct node *k = n->kids[2 * i], *v = n->kids[2 * i + 1];

		if (k->kind != NSCALAR)
			continue;
		if (!majorminor(k->s, &maj, &min)) {
			nodeerr(x->d, k, "torch version '%s' must be MAJOR.MINOR, e.g. '2.8'", k->s);
			continue;
		}
		r = &x->c->torch[x->c->ntorch++];
		r->version = k->s;
		r->at = k;
		r->val = v;
		if (!wantmap(x, v, "a torch table entry"))
			continue;
		checkmapkeys(x, v, torchkeys, "a torch table entry");
		if (!mapget(v, "cuda") || !mapget(v, "python"))
			nodeerr(x->d, k, "torch %s must list both 'cuda' and 'python'", k->s);
		getlist(x, mapget(v, "cuda"), "torch.cuda", &r->cuda, 0);
		checkcudas(x, &r->cuda, "the torch table");
		getlist(x, mapget(v, "python"), "torch.python", &r->python, 0);
		checkpythons(x, &r->python, "the torch table");
		if (mapget(v, "platforms")) {
			getlist(x, mapget(v, "platforms"), "torch.platforms", &r->platforms, 0);
			checkplatforms(x, &r->platforms, "the torch table");
		} else {
			defaultplatforms(x, &r->platforms);
		}
		if ((pv = mapget(v, "pypi")) && (r->pypi = getstr(x, pv, "torch.pypi")) && r->cuda.n &&
		    !strlisthas(&r->cuda, r->pypi))
			nodeerr(x->d, pv, "torch %s: pypi names CUDA '%s', which is not in its cuda list", k->s, r->pypi);
	}
}

/* torch_index: the URL template torch comes from for cells whose CUDA is not PyPI's */
static void
loadtorchindex(struct ctx *x, struct node *n)
{
	const char *s, *why;

	x->c->torchindex = "https://download.pytorch.org/whl/cu{cuda}";
	if (!n || !(s = getstr(x, n, "torch_index")))
		return;
	if (strncmp(s, "https://", 8) && strncmp(s, "http://", 7) && strncmp(s, "file://", 7)) {
		nodeerr(x->d, n, "torch_index must be an http://, https:// or file:// URL, not '%s'", s);
		return;
	}
	if ((why = phcheck(s, PH_INDEX)) != NULL) {
		nodeerr(x->d, n, "torch_index '%s': %s", s, why);
		return;
	}
	x->c->torchindex = s;
}

/* a list for one coordinate of an exclude/include/profile entry */
static void
loadaxis(struct ctx *x, struct node *map, const char *key, struct strlist *l, const char *what)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s '%s'", what, key);
	getlist(x, mapget(map, key), buf, l, 0);
	if (!strcmp(key, "python"))
		checkpythons(x, l, buf);
	else if (!strcmp(key, "cuda"))
		checkcudas(x, l, buf);
	else if (!strcmp(key, "torch"))
		checktorches(x, l, buf);
	else if (!strcmp(key, "platforms"))
		checkplatforms(x, l, buf);
	else if (!strcmp(key, "version") || !strcmp(key, "versions"))
		checkversions(x, l, buf);
}

static struct match *
loadmatches(struct ctx *x, struct node *n, const char *what, size_t *count, int include)
{
	struct match *v, *m;
	size_t i;

	*count = 0;
	if (!n || n->kind == NBAD)
		return NULL;
	if (n->kind != NSEQ) {
		nodeerr(x->d, n, "'%s' must be a list of mappings, not %s", what, nodekindname(n));
		return NULL;
	}
	v = aalloc(x->a, (n->n + 1) * sizeof(*v));
	for (i = 0; i < n->n; i++) {
		struct node *e = n->kids[i];

		if (!wantmap(x, e, include ? "an include entry" : "an exclude entry"))
			continue;
		checkmapkeys(x, e, matchkeys, include ? "an include entry" : "an exclude entry");
		if (e->n == 0) {
			nodeerr(x->d, e, "empty %s entry: name at least one of version, python, cuda, torch, platforms", what);
			continue;
		}
		m = &v[(*count)++];
		m->at = e;
		loadaxis(x, e, "version", &m->version, what);
		loadaxis(x, e, "python", &m->python, what);
		loadaxis(x, e, "cuda", &m->cuda, what);
		loadaxis(x, e, "torch", &m->torch, what);
		loadaxis(x, e, "platforms", &m->platforms, what);
	}
	return v;
}

static int
validident(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	for (s++; *s; s++) {
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	}
	return 1;
}

static int
validmodule(const char *s)
{
	const char *p = s;

	for (;;) {
		if (!isalpha((unsigned char)*p) && *p != '_')
			return 0;
		for (p++; isalnum((unsigned char)*p) || *p == '_'; p++)
			;
		if (*p == '\0')
			return 1;
		if (*p != '.')
			return 0;
		p++;
	}
}

static void
loadsource(struct ctx *x, struct package *p, struct node *n)
{
	struct node *path, *git, *tag, *pypi;
	const char *s, *why;
	int kinds;

	p->src = SRC_PYPI;
	if (!wantmap(x, n, "'source'"))
		return;
	checkmapkeys(x, n, sourcekeys, "'source'");
	path = mapget(n, "path");
	git = mapget(n, "git");
	tag = mapget(n, "tag");
	pypi = mapget(n, "pypi");
	kinds = !!path + !!git + !!pypi;
	if (kinds != 1) {
		nodeerr(x->d, n, "'source' needs exactly one of 'path', 'git' or 'pypi'");
		return;
	}
	if (tag && !git)
		nodeerr(x->d, tag, "'tag' only goes with 'git'");
	if (path && (s = getstr(x, path, "source.path"))) {
		if (strchr(s, '\n')) {
			nodeerr(x->d, path, "source.path must not contain a newline");
			return;
		}
		p->src = SRC_PATH;
		p->path = abspath(x, s);
		if (access(p->path, R_OK | X_OK) != 0)
			nodeerr(x->d, path, "source directory '%s' cannot be read: %s", p->path, strerror(errno));
	} else if (git && (s = getstr(x, git, "source.git"))) {
		const char *auth = strstr(s, "://"), *end, *at;

		/* user:password@ in a URL: a config in a repository is no place for a password */
		if (auth) {
			auth += 3;
			end = auth + strcspn(auth, "/");
			at = memchr(auth, '@', (size_t)(end - auth));
			if (at && memchr(auth, ':', (size_t)(at - auth)))
				nodeerr(x->d, git, "source.git has a password in its URL: leave it out and give the token "
						   "in the environment (WHEELGEN_GIT_TOKEN, with WHEELGEN_GIT_USER)");
		}
		{
			/* the mirror path gen will make of it, by the same function */
			struct sb mp = SB_INIT;

			if (mirrorpathwhy(&mp, "out", s, &why) < 0)
				nodeerr(x->d, git, "source.git: %s", why);
			sbfree(&mp);
		}
		p->src = SRC_GIT;
		p->git = s;
		p->tag = "v{version}";
		if (tag && (s = getstr(x, tag, "source.tag"))) {
			if (!strstr(s, "{version}"))
				nodeerr(x->d, tag, "tag pattern '%s' must contain {version}", s);
			else if ((why = phcheck(s, PH_TAG)) != NULL)
				nodeerr(x->d, tag, "tag pattern '%s': %s", s, why);
			p->tag = s;
		}
	} else if (pypi && (s = getstr(x, pypi, "source.pypi"))) {
		if (strcmp(s, "true") && strcmp(s, "yes"))
			nodeerr(x->d, pypi, "source.pypi must be 'true' (let pip fetch the sdist)");
	}
}

/* a list of pip requirements, one line each (a requirements file holds them) */
static void
getrequirements(struct ctx *x, struct node *n, const char *what, struct strlist *l)
{
	struct sb q = SB_INIT;
	size_t i;

	sbaddf(&q, "'%s'", what);
	getlist(x, n, q.buf, l, 0);
	sbfree(&q);
	for (i = 0; i < l->n; i++) {
		const char *s;

		for (s = l->v[i]; *s; s++) {
			if ((unsigned char)*s < 0x20 || *s == 0x7f) {
				nodeerr(x->d, l->at[i], "%s entries must not contain control characters", what);
				break;
			}
		}
		if (!*l->v[i] || *l->v[i] == '-')
			nodeerr(x->d, l->at[i], "%s entries are requirements ('einops', 'numpy>=2'), not empty or options", what);
	}
}

/* repair: {plat: ..., exclude: [...], cuda: ...}: how auditwheel repairs the wheel after the build ({} for the defaults) */
static void
loadrepair(struct ctx *x, struct package *p, struct node *n)
{
	struct node *v;
	size_t i;

	if (!wantmap(x, n, "'repair'"))
		return;
	checkmapkeys(x, n, repairkeys, "'repair'");
	p->repair = 1;
	if ((v = mapget(n, "plat")) && (p->repairplat = getstr(x, v, "repair.plat"))) {
		const char *s = p->repairplat;

		if (strncmp(s, "manylinux", 9) && strncmp(s, "musllinux", 9))
			nodeerr(x->d, v, "repair.plat '%s' is not a manylinux or musllinux tag, e.g. manylinux_2_28_%s", s,
				platformdefault()->machine);
		else if (s[strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_")])
			nodeerr(x->d, v, "repair.plat '%s' may hold only lower-case letters, digits and '_'", s);
	}
	/* the CUDA libraries the wheel links and does not carry: declared (PyPI's wheels), vendored, or neither */
	if ((v = mapget(n, "cuda")) && (p->repaircuda = getstr(x, v, "repair.cuda")) && strcmp(p->repaircuda, "pypi") &&
	    strcmp(p->repaircuda, "vendor") && strcmp(p->repaircuda, "none"))
		nodeerr(x->d, v, "repair.cuda must be 'pypi', 'vendor' or 'none', not '%s'", p->repaircuda);
	getlist(x, mapget(n, "exclude"), "'repair.exclude'", &p->repairexclude, 0);
	for (i = 0; i < p->repairexclude.n; i++) {
		const char *s = p->repairexclude.v[i];

		if (!*s || strchr(s, '/') || s[strcspn(s, " \t\n'\"\\")])
			nodeerr(x->d, p->repairexclude.at[i], "repair.exclude entries are library file names or globs (libfoo.so.*), not '%s'", s);
	}
}

/* build_frontend: what builds the wheel: "uv" (uv build) or "pip" (pip wheel); left out, the
   build picks uv build where uv made the venv and the source is a tree */
static void
loadfrontend(struct ctx *x, struct package *p, struct node *n)
{
	const char *f = getstr(x, n, "build_frontend");

	if (!f)
		return;
	if (strcmp(f, "pip") && strcmp(f, "uv"))
		nodeerr(x->d, n, "build_frontend must be 'uv' or 'pip', not '%s'", f);
	else if (!strcmp(f, "uv") && p->src == SRC_PYPI)
		nodeerr(x->d, n, "build_frontend 'uv' needs a git or path source (uv build takes a source tree; pip builds a PyPI sdist)");
	else
		p->frontend = f;
}

/* patches: files (relative to the config) that patch -p1 applies to the source (a PyPI source's
 * unpacked sdist too), in order */
static void
loadpatches(struct ctx *x, struct package *p, struct node *n)
{
	size_t i;

	getlist(x, n, "'patches'", &p->patches, 0);
	for (i = 0; i < p->patches.n; i++) {
		const char *s = p->patches.v[i];

		if (!*s || s[strcspn(s, "\n\r|")]) {
			nodeerr(x->d, p->patches.at[i], "a patch must be a file name on one line, without '|'");
			continue;
		}
		p->patches.v[i] = abspath(x, s);
		if (access(p->patches.v[i], R_OK) != 0)
			nodeerr(x->d, p->patches.at[i], "patch '%s' cannot be read: %s", s, strerror(errno));
	}
}

/* yanked: a list of versions, or a mapping version -> reason (PEP 592) */
static void
loadyanked(struct ctx *x, struct package *p, struct node *n)
{
	size_t i, cnt;

	if (n->kind == NBAD)
		return;
	if (n->kind == NSCALAR) { /* one version */
		struct node *one[1];
		struct node seq = *n;

		one[0] = n;
		seq.kind = NSEQ;
		seq.kids = one;
		seq.n = 1;
		loadyanked(x, p, &seq);
		return;
	}
	if (n->kind != NSEQ && n->kind != NMAP) {
		nodeerr(x->d, n, "'yanked' must be a list of versions or a mapping of version to reason, not %s",
			nodekindname(n));
		return;
	}
	cnt = n->n;
	p->yanked = aalloc(x->a, (cnt + 1) * sizeof(*p->yanked));
	for (i = 0; i < cnt; i++) {
		struct node *k = n->kind == NMAP ? n->kids[2 * i] : n->kids[i];
		struct node *r = n->kind == NMAP ? n->kids[2 * i + 1] : NULL;
		const char *v = getstr(x, k, "a yanked version"), *why = "";

		if (!v)
			continue;
		if (r && r->kind != NNULL && !(why = getstr(x, r, "a yank reason")))
			continue;
		if (strchr(why, '\n') || strchr(why, '\r')) {
			nodeerr(x->d, r, "a yank reason must be one line");
			continue;
		}
		if (!strlisthas(&p->versions, v)) {
			nodeerr(x->d, k, "yanked version '%s' is not one of the versions of package '%s'", v, p->name);
			continue;
		}
		p->yanked[p->nyanked].version = v;
		p->yanked[p->nyanked++].reason = why;
	}
}

/* check the local_version pattern: its placeholders, and a sample expansion */
static void
checklocal(struct ctx *x, struct package *p, struct node *n)
{
	static const char *const cudaph[] = { "cuda", "cuda_version", "cuda_major" };
	const char *s = getstr(x, n, "local_version"), *why;
	struct phvalues sample = { NULL, "1.2", "1.2", "1.2", NULL };
	struct sb out = SB_INIT;
	size_t i;

	if (!s)
		return;
	p->local_version = s;
	p->localat = n;
	if ((why = phcheck(s, PH_LABEL)) != NULL) {
		nodeerr(x->d, n, "local_version '%s': %s", s, why);
		return;
	}
	for (i = 0; !p->cudaaxis && i < 3; i++) {
		if (phuses(s, cudaph[i])) {
			nodeerr(x->d, n, "local_version uses {%s} but package '%s' has no CUDA versions", cudaph[i], p->name);
			break;
		}
	}
	if (!p->torchaxis && phuses(s, "torch"))
		nodeerr(x->d, n, "local_version uses {torch} but package '%s' has no torch versions", p->name);
	phexpand(&out, s, &sample);
	if (!peplocal(out.buf))
		nodeerr(x->d, n, "local_version '%s' does not give a valid local label (letters, digits, '.', '-', '_')", s);
	sbfree(&out);
}

/*
 * torch_requirement: what the wheel's METADATA says of torch (Requires-Dist), a requirement on
 * torch with {torch} for the cell's torch minor, or "none" (a wheel on torch's stable ABI)
 */
static void
checktorchreq(struct ctx *x, struct package *p, struct node *n)
{
	const char *s = getstr(x, n, "torch_requirement"), *q, *why;

	if (!s)
		return;
	if (!p->torchaxis) {
		nodeerr(x->d, n, "torch_requirement is for packages with torch versions; '%s' has none", p->name);
		return;
	}
	if (!strcmp(s, "none")) {
		p->torchreq = "";
		return;
	}
	if (strncmp(s, "torch", 5) || (s[5] && !strchr(" <>=!~;[(", s[5]))) {
		nodeerr(x->d, n, "torch_requirement '%s' is not a requirement on torch (e.g. \"torch>={torch},<3\", or none)", s);
		return;
	}
	for (q = s; *q; q++) {
		if ((unsigned char)*q < 0x20) {
			nodeerr(x->d, n, "torch_requirement must not contain control characters");
			return;
		}
	}
	if ((why = phcheck(s, PH_TORCHREQ)) != NULL) {
		nodeerr(x->d, n, "torch_requirement '%s': %s", s, why);
		return;
	}
	p->torchreq = s;
}

/* every {word} of an env value is a placeholder (${VAR} is left alone) */
static void
checkenvplaceholders(struct ctx *x, const struct node *env)
{
	const char *why;
	size_t i;

	for (i = 0; env && env->kind == NMAP && i < env->n; i++) {
		const struct node *k = env->kids[2 * i], *val = env->kids[2 * i + 1];

		if (k->kind == NSCALAR && val->kind == NSCALAR && (why = phcheck(val->s, PH_ENV)) != NULL)
			nodeerr(x->d, val, "env %s: %s", k->s, why);
	}
}

/* skip_submodules: submodule paths (from the top of the checkout) left empty, e.g. a ROCm
   backend a CUDA build never reads */
static void
loadskipsubs(struct ctx *x, struct package *p, struct node *n)
{
	size_t i;

	getlist(x, n, "'skip_submodules'", &p->skipsubs, 0);
	if (n && p->src != SRC_GIT)
		nodeerr(x->d, n, "skip_submodules goes with a git source");
	for (i = 0; i < p->skipsubs.n; i++) {
		const char *q = p->skipsubs.v[i], *c;
		int bad = !*q || *q == '/' || q[strlen(q) - 1] == '/' || strstr(q, "//");

		for (c = q; *c && !bad; c++)
			bad = (unsigned char)*c <= 0x20 || *c == 0x7f || *c == '\\';
		for (c = q; !bad && *c; c += strcspn(c, "/"), c += *c == '/') {
			size_t len = strcspn(c, "/");

			bad = (len == 1 && *c == '.') || (len == 2 && c[0] == '.' && c[1] == '.');
		}
		if (bad)
			nodeerr(x->d, p->skipsubs.at[i], "'%s' in skip_submodules is not a submodule path inside the "
				"checkout (like csrc/composable_kernel: no blanks, '..' or leading '/')", q);
	}
}

/*
 * torch_abi: stable: one wheel for every torch minor of the package (torch's stable ABI), built
 * against the lowest: its label and its torch requirement must not name one minor
 */
static void
loadtorchabi(struct ctx *x, struct package *p, struct node *n)
{
	const char *s = getstr(x, n, "torch_abi");

	if (!s)
		return;
	if (strcmp(s, "stable")) {
		nodeerr(x->d, n, "torch_abi must be 'stable' (one wheel for every torch of the package), not '%s'", s);
		return;
	}
	if (!p->torchaxis) {
		nodeerr(x->d, n, "torch_abi goes with a package that has torch versions; '%s' has none", p->name);
		return;
	}
	if (p->local_version && strstr(p->local_version, "{torch}"))
		nodeerr(x->d, n, "torch_abi: stable makes one wheel for every torch, but local_version '%s' names one "
			"with {torch}: use a label without it (e.g. \"cu{cuda}\")", p->local_version);
	if (!p->torchreq)
		nodeerr(x->d, n, "torch_abi: stable needs a torch_requirement that every torch of the package meets "
			"(e.g. \"torch>={torch}\", or none); the default pins the minor it was built against");
	p->torchabi = s;
}

/* test_import, test_command, description, local_version, torch_requirement and abi */
static void
loadtestkeys(struct ctx *x, struct package *p, struct node *v)
{
	struct node *n;
	size_t i;

	n = mapget(v, "test_import");
	getlist(x, n, "'test_import'", &p->test_import, 1);
	for (i = 0; i < p->test_import.n; i++) {
		if (!validmodule(p->test_import.v[i]))
			nodeerr(x->d, p->test_import.at[i], "'%s' in test_import is not a Python module name",
				p->test_import.v[i]);
	}
	if ((n = mapget(v, "test_command")))
		p->test_command = getstr(x, n, "test_command");
	if ((n = mapget(v, "description")))
		p->description = getstr(x, n, "description");
	if ((n = mapget(v, "local_version")))
		checklocal(x, p, n);
	if ((n = mapget(v, "torch_requirement")))
		checktorchreq(x, p, n);
	if ((n = mapget(v, "abi")) != NULL && (p->abi = getstr(x, n, "abi")) != NULL && strcmp(p->abi, "abi3")) {
		nodeerr(x->d, n, "abi must be 'abi3' (one wheel for every Python of the package: the stable ABI), not '%s'", p->abi);
		p->abi = NULL;
	}
	if ((n = mapget(v, "torch_abi")) != NULL)
		loadtorchabi(x, p, n);
}

/* a package's axes: python, cuda, torch, cuda_archs and platforms, each from the defaults when not given */
static void
loadaxes(struct ctx *x, struct package *p, struct node *k, struct node *v)
{
	struct node *n;

	n = mapget(v, "python");
	getlist(x, n, "'python'", &p->python, 0);
	checkpythons(x, &p->python, "'python'");
	if (!n)
		p->python = x->c->python;
	/* (a python: of the wrong type was reported already) */
	if (p->python.n == 0 && (!n || (n->kind == NSEQ && n->n == 0)))
		nodeerr(x->d, n ? n : k, "package '%s' has no Python versions: set 'python' here or in 'defaults'",
			p->name);

	n = mapget(v, "cuda");
	getlist(x, n, "'cuda'", &p->cuda, 0);
	checkcudas(x, &p->cuda, "'cuda'");
	if (!n)
		p->cuda = x->c->cuda;
	p->cudaaxis = p->cuda.n > 0;

	getlist(x, mapget(v, "torch"), "'torch'", &p->torch, 0);
	checktorches(x, &p->torch, "'torch'");
	p->torchaxis = p->torch.n > 0;

	n = mapget(v, "platforms");
	getlist(x, n, "'platforms'", &p->platforms, 0);
	checkplatforms(x, &p->platforms, "'platforms'");
	if (!n)
		p->platforms = x->c->platforms;
	else if (n->kind == NSEQ && n->n == 0)
		nodeerr(x->d, n, "'platforms' of package '%s' is empty", p->name);

	n = mapget(v, "cuda_archs");
	if (n)
		loadarchs(x, n, "'cuda_archs'", &p->cuda_archs);
	else
		p->cuda_archs = x->c->cuda_archs;
}

static void
loadpackage(struct ctx *x, struct package *p, struct node *k, struct node *v)
{
	struct node *n;
	char where[160];
	size_t i;

	p->name = k->s;
	p->at = k;
	p->norm = aalloc(x->a, strlen(k->s) + 1);
	pepnormalize(k->s, (char *)p->norm);
	if (!pepname(k->s))
		nodeerr(x->d, k, "'%s' is not a valid package name (PEP 508: letters, digits, '.', '-', '_', "
			"starting and ending with a letter or digit)", k->s);
	snprintf(where, sizeof(where), "package '%.100s'", k->s);
	if (!wantmap(x, v, where))
		return;
	checkmapkeys(x, v, pkgkeys, where);
	loadsource(x, p, mapget(v, "source"));

	n = mapget(v, "versions");
	if (!n)
		nodeerr(x->d, k, "package '%s' has no 'versions'", p->name);
	getlist(x, n, "'versions'", &p->versions, 0);
	if (n && n->kind == NSEQ && n->n == 0)
		nodeerr(x->d, n, "'versions' of package '%s' is empty", p->name);
	checkversions(x, &p->versions, "'versions'");
	if (p->src == SRC_GIT) {
		/* each version's tag, by the validator the checkout step applies to it */
		const struct node *src = mapget(v, "source"), *tn = mapget(src, "tag");
		const char *why;

		for (i = 0; i < p->versions.n; i++) {
			const char *t = gitref(x->a, p, p->versions.v[i]);

			if ((why = tagwhy(t)) != NULL) {
				nodeerr(x->d, tn ? tn : mapget(src, "git"), "the tag of version %s, '%s': %s",
					p->versions.v[i], t, why);
				break;
			}
		}
	}

	loadaxes(x, p, k, v);

	p->exclude = loadmatches(x, mapget(v, "exclude"), "exclude", &p->nexclude, 0);
	p->include = loadmatches(x, mapget(v, "include"), "include", &p->ninclude, 1);

	p->env = loadpairs(x, mapget(v, "env"), "env", validident, "is not a valid environment variable name", 0, &p->nenv);
	checkenvplaceholders(x, mapget(v, "env"));
	/* test_skip_modules: {module: reason}: compiled modules the test step does not load */
	p->skipmods = loadpairs(x, mapget(v, "test_skip_modules"), "test_skip_modules", validmodule,
				"in test_skip_modules is not a Python module name", 1, &p->nskipmods);

	getlist(x, mapget(v, "build_args"), "'build_args'", &p->build_args, 1);
	getrequirements(x, mapget(v, "extra_deps"), "extra_deps", &p->extra_deps);
	loadskipsubs(x, p, mapget(v, "skip_submodules"));
	getrequirements(x, mapget(v, "test_deps"), "test_deps", &p->test_deps);
	loadtestkeys(x, p, v);
	if ((n = mapget(v, "repair")))
		loadrepair(x, p, n);
	if ((n = mapget(v, "yanked")))
		loadyanked(x, p, n);
	if ((n = mapget(v, "patches")))
		loadpatches(x, p, n);
	if ((n = mapget(v, "build_frontend")))
		loadfrontend(x, p, n);
	if ((n = mapget(v, "nvcc_compress")) && (p->nvcc_compress = getstr(x, n, "nvcc_compress"))) {
		static const char *const modes[] = { "size", "speed", "balance", "none", "default", NULL };

		if (!inlist(modes, p->nvcc_compress)) {
			nodeerr(x->d, n, "nvcc_compress must be size, speed, balance, none or default (nvcc -compress-mode), not '%s'",
				p->nvcc_compress);
			p->nvcc_compress = NULL;
		}
	}
	p->memory_per_job_gb = getnumber(x, mapget(v, "memory_per_job_gb"), "memory_per_job_gb", 2, 0.01, 4096, 0);
	p->max_jobs = (long)getnumber(x, mapget(v, "max_jobs"), "max_jobs", 0, 1, 1024, 1);
	p->nvcc_threads = (long)getnumber(x, mapget(v, "nvcc_threads"), "nvcc_threads", 1, 1, 64, 1);
	p->shards = (long)getnumber(x, mapget(v, "shards"), "shards", 1, 1, 64, 1);
}

static void
loadpackages(struct ctx *x, struct node *n)
{
	size_t i, j;

	x->c->pkgsat = n;
	if (!wantmap(x, n, "'packages'"))
		return;
	if (n->n == 0) {
		nodeerr(x->d, n, "'packages' is empty: nothing to build");
		return;
	}
	x->c->pkgs = aalloc(x->a, (n->n + 1) * sizeof(*x->c->pkgs));
	for (i = 0; i < n->n; i++) {
		struct node *k = n->kids[2 * i];
		struct package *p;

		if (k->kind != NSCALAR)
			continue;
		p = &x->c->pkgs[x->c->npkgs++];
		loadpackage(x, p, k, n->kids[2 * i + 1]);
		for (j = 0; j + 1 < x->c->npkgs; j++) {
			if (!strcmp(x->c->pkgs[j].norm, p->norm) && strcmp(x->c->pkgs[j].name, p->name)) {
				nodeerr(x->d, k, "package '%s' is the same package as '%s' (both normalize to '%s')",
					p->name, x->c->pkgs[j].name, p->norm);
				nodenote(x->d, x->c->pkgs[j].at, "'%s' defined here", x->c->pkgs[j].name);
			}
		}
	}
}

static void
loadprofiles(struct ctx *x, struct node *n)
{
	struct profile *pr;
	size_t i, j, k;
	const char *s;

	if (!wantmap(x, n, "'profiles'"))
		return;
	x->c->profiles = aalloc(x->a, (n->n + 1) * sizeof(*x->c->profiles));
	for (i = 0; i < n->n; i++) {
		struct node *key = n->kids[2 * i], *v = n->kids[2 * i + 1];

		if (key->kind != NSCALAR)
			continue;
		for (s = key->s; *s; s++) {
			if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
				break;
		}
		if (*s || !*key->s) {
			nodeerr(x->d, key, "profile name '%s' may only hold letters, digits, '.', '-' and '_'", key->s);
			continue;
		}
		pr = &x->c->profiles[x->c->nprofiles++];
		pr->name = key->s;
		pr->at = key;
		if (v->kind == NNULL)
			continue;
		if (!wantmap(x, v, "a profile"))
			continue;
		checkmapkeys(x, v, profilekeys, "a profile");
		getlist(x, mapget(v, "packages"), "profile packages", &pr->packages, 0);
		for (j = 0; j < pr->packages.n; j++) {
			char *norm = xmalloc(strlen(pr->packages.v[j]) + 1);
			const char **names = aalloc(x->a, (x->c->npkgs + 1) * sizeof(*names));

			pepnormalize(pr->packages.v[j], norm);
			for (k = 0; k < x->c->npkgs; k++) {
				names[k] = x->c->pkgs[k].name;
				if (!strcmp(x->c->pkgs[k].norm, norm))
					break;
			}
			if (k == x->c->npkgs) {
				s = nearest(pr->packages.v[j], names, x->c->npkgs);
				if (s)
					nodeerr(x->d, pr->packages.at[j], "profile '%s' names unknown package '%s'; did you mean '%s'?",
						pr->name, pr->packages.v[j], s);
				else
					nodeerr(x->d, pr->packages.at[j], "profile '%s' names unknown package '%s'",
						pr->name, pr->packages.v[j]);
			} else {
				pr->packages.v[j] = x->c->pkgs[k].norm;
			}
			free(norm);
		}
		loadaxis(x, v, "versions", &pr->versions, "profile");
		loadaxis(x, v, "python", &pr->python, "profile");
		loadaxis(x, v, "cuda", &pr->cuda, "profile");
		loadaxis(x, v, "torch", &pr->torch, "profile");
		loadaxis(x, v, "platforms", &pr->platforms, "profile");
	}
}

/* an image reference: no blanks or shell/ninja specials; placeholders as placeholder.c allows in images */
static const char *
checkimage(struct ctx *x, struct node *n, const char *s)
{
	const char *why;

	if (!*s || s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/:@{}")])
		nodeerr(x->d, n, "'%s' is not an image reference (letters, digits and . _ - / : @ only)", s);
	else if ((why = phcheck(s, PH_IMAGE)) != NULL)
		nodeerr(x->d, n, "image '%s': %s", s, why);
	return s;
}

/* container: the images of the docker and podman backends, per platform */
static void
loadcontainer(struct ctx *x, struct node *root)
{
	struct node *n, *v;
	const char *s;
	size_t k;

	/* images for the docker and podman backends: each platform's defaults (platform.c); a
	   platform other than x86_64 has its own (container.<platform>: {image, cpu_image}) */
	for (k = 0; k < nplatforms; k++) {
		x->c->image[k] = platforms[k].image;
		x->c->cpuimage[k] = platforms[k].cpuimage;
	}
	if ((n = mapget(root, "container")) && wantmap(x, n, "'container'")) {
		const char *containerkeys[2 + PLATFORM_MAX + 1] = { "image", "cpu_image" };

		for (k = 1; k < nplatforms; k++)
			containerkeys[1 + k] = platforms[k].name;
		checkmapkeys(x, n, containerkeys, "'container'");
		for (k = 0; k < nplatforms; k++) {
			struct node *m = n;
			char what[64];

			if (k > 0 && !((m = mapget(n, platforms[k].name)) && wantmap(x, m, "a platform's images")))
				continue;
			if (k > 0)
				checkmapkeys(x, m, imagekeys, "a platform's images");
			snprintf(what, sizeof(what), "container.%s%simage", k ? platforms[k].name : "", k ? "." : "");
			if ((v = mapget(m, "image")) && (s = getstr(x, v, what)))
				x->c->image[k] = checkimage(x, v, s);
			snprintf(what, sizeof(what), "container.%s%scpu_image", k ? platforms[k].name : "", k ? "." : "");
			if ((v = mapget(m, "cpu_image")) && (s = getstr(x, v, what)))
				x->c->cpuimage[k] = checkimage(x, v, s);
		}
	}
}

static void
loadsmall(struct ctx *x, struct node *root)
{
	struct node *n, *v;
	const char *s;

	x->c->retries = 3;
	x->c->timeout = STORE_TIMEOUT;
	x->c->stall = STORE_STALL;
	if ((n = mapget(root, "publish")) && wantmap(x, n, "'publish'")) {
		checkmapkeys(x, n, publishkeys, "'publish'");
		if ((v = mapget(n, "dir")) && (s = getstr(x, v, "publish.dir")))
			x->c->publishdir = abspath(x, s);
		if ((v = mapget(n, "http")))
			x->c->publishhttp = geturl(x, v, "publish.http");
		if ((v = mapget(n, "index_dir")) && (s = getstr(x, v, "publish.index_dir")))
			x->c->indexdir = abspath(x, s);
		if ((v = mapget(n, "index_http")))
			x->c->indexhttp = geturl(x, v, "publish.index_http");
		x->c->retries = (long)getnumber(x, mapget(n, "retries"), "publish.retries", 3, 1, 100, 1);
		x->c->timeout = (long)getnumber(x, mapget(n, "timeout"), "publish.timeout", STORE_TIMEOUT, 1, 86400, 1);
		x->c->stall = (long)getnumber(x, mapget(n, "stall_timeout"), "publish.stall_timeout", STORE_STALL, 1, 3600, 1);
		if ((v = mapget(n, "github")) && wantmap(x, v, "'publish.github'")) {
			struct node *r = mapget(v, "repo"), *t = mapget(v, "tag"), *rp = mapget(v, "replace");

			checkmapkeys(x, v, githubkeys, "'publish.github'");
			if (!r)
				nodeerr(x->d, v, "publish.github needs 'repo' (owner/name)");
			else if ((s = getstr(x, r, "publish.github.repo")) &&
				 (!strchr(s, '/') || strchr(s, '/') != strrchr(s, '/') || s[0] == '/' ||
				  s[strlen(s) - 1] == '/' ||
				  s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./")]))
				nodeerr(x->d, r, "publish.github.repo must be owner/name, not '%s'", s);
			else
				x->c->ghrepo = s;
			if (!t)
				nodeerr(x->d, v, "publish.github needs 'tag' (the release's tag)");
			else if ((s = getstr(x, t, "publish.github.tag")) &&
				 (!*s || s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+")]))
				nodeerr(x->d, t, "publish.github.tag may hold letters, digits and '-_./+', not '%s'", s);
			else
				x->c->ghtag = s;
			if (rp && (s = getstr(x, rp, "publish.github.replace"))) {
				if (!strcmp(s, "true"))
					x->c->ghreplace = 1;
				else if (strcmp(s, "false"))
					nodeerr(x->d, rp, "publish.github.replace must be true or false, not '%s'", s);
			}
		}
	}
	loadcontainer(x, root);
	if ((n = mapget(root, "index")) && wantmap(x, n, "'index'")) {
		checkmapkeys(x, n, indexkeys, "'index'");
		if ((v = mapget(n, "base_url")) && (s = geturl(x, v, "index.base_url")))
			x->c->baseurl = s;
		if ((v = mapget(n, "title")) && (s = getstr(x, v, "index.title"))) {
			if (strchr(s, '\n') || strchr(s, '\r'))
				nodeerr(x->d, v, "index.title must be one line");
			else
				x->c->title = s;
		}
		if ((v = mapget(n, "variants")) && (s = getstr(x, v, "index.variants"))) {
			if (!strcmp(s, "true"))
				x->c->variants = 1;
			else if (strcmp(s, "false"))
				nodeerr(x->d, v, "index.variants must be true or false, not '%s'", s);
			else
				v = NULL;
			/* the variant wheels are made here and live in the index's files/ */
			if (v && x->c->baseurl)
				nodeerr(x->d, v, "index.variants cannot be used with index.base_url: the variant wheels are made by the index's build and served from its files/ (publish-index uploads them with the pages)");
		}
	}
}

struct config *
configload(struct arena *a, const char *path, struct diags *d)
{
	struct ctx x;
	struct config *c;
	char *src, *dir, cwd[PATH_MAX];
	const char *slash;
	size_t len;

	d->file = path;
	src = readfile(path, &len);
	if (!src) {
		error("cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	d->src = astrndup(a, src, len);
	d->srclen = len;
	free(src);
	c = aalloc(a, sizeof(*c));
	c->path = path;
	x.a = a;
	x.d = d;
	x.c = c;
	slash = strrchr(path, '/');
	if (!getcwd(cwd, sizeof(cwd)))
		fatal("cannot get the current directory: %s", strerror(errno));
	if (path[0] == '/')
		dir = xstrndup(path, (size_t)(slash - path));
	else if (slash)
		dir = xstrndup(path, (size_t)(slash - path));
	else
		dir = xstrdup(".");
	x.dir = dir[0] == '/' ? astrdup(a, dir) : !strcmp(dir, ".") ? astrdup(a, cwd) : aprintf(a, "%s/%s", cwd, dir);
	if (path[0] == '/' && !*x.dir)
		x.dir = "/";
	free(dir);

	{
		/* config/packages.yml -> config/packages.lock */
		const char *base = slash ? slash + 1 : path, *dot = strrchr(base, '.');

		c->lockpath = aprintf(a, "%s/%.*s.lock", x.dir, (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base)), base);
	}
	c->topdir = astrdup(a, cwd);
	c->src = d->src;
	c->srclen = len;
	c->root = ydocparse(a, d->src, len, d);
	if (!c->root) {
		if (d->errors == 0)
			diagerr(d, 1, 1, 1, "the file is empty: it needs at least a 'packages:' mapping");
		return d->errors && !c->root ? NULL : c;
	}
	if (!wantmap(&x, c->root, "the top level"))
		return c;
	checkmapkeys(&x, c->root, topkeys, "the top level");
	defaultplatforms(&x, &c->platforms);
	loaddefaults(&x, mapget(c->root, "defaults"));
	loadtorch(&x, mapget(c->root, "torch"));
	loadtorchindex(&x, mapget(c->root, "torch_index"));
	if (!mapget(c->root, "packages"))
		diagerr(d, c->root->line, c->root->col, 1, "no 'packages:' mapping: nothing to build");
	loadpackages(&x, mapget(c->root, "packages"));
	loadprofiles(&x, mapget(c->root, "profiles"));
	loadsmall(&x, c->root);
	return c;
}

const struct torchrow *
torchfind(const struct config *c, const char *v)
{
	size_t i;

	for (i = 0; i < c->ntorch; i++) {
		if (!strcmp(c->torch[i].version, v))
			return &c->torch[i];
	}
	return NULL;
}

int
strlisthas(const struct strlist *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (!strcmp(l->v[i], s))
			return 1;
	}
	return 0;
}

const char *
nodots(struct arena *a, const char *v)
{
	char *p = astrdup(a, v), *q = p;

	for (; *v; v++) {
		if (*v != '.')
			*q++ = *v;
	}
	*q = '\0';
	return p;
}

const struct strlist *
archsof(const struct package *p, const char *platform, const char *cuda)
{
	static const struct strlist none;
	const struct archset *best = NULL;
	int bestrank = -1;
	size_t i;

	for (i = 0; i < p->cuda_archs.n; i++) {
		const struct archset *a = &p->cuda_archs.v[i];
		int rank = (a->cuda ? 2 : 0) + (a->platform ? 1 : 0);

		if ((a->platform && (!platform || strcmp(a->platform, platform))) || (a->cuda && (!cuda || strcmp(a->cuda, cuda))))
			continue;
		if (rank > bestrank) {
			best = a;
			bestrank = rank;
		}
	}
	return best ? &best->archs : &none;
}

const char *
gitref(struct arena *a, const struct package *p, const char *version)
{
	struct phvalues v = { version, NULL, NULL, NULL, NULL };
	struct sb s = SB_INIT;
	const char *r;

	phexpand(&s, p->tag, &v);
	r = astrdup(a, s.buf);
	sbfree(&s);
	return r;
}
