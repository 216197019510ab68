/* graph: the cells' spec files and graph.ninja (see graph.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "files.h"
#include "mirror.h"
#include "graph.h"
#include "layout.h"
#include "manifest.h"
#include "pep.h"
#include "placeholder.h"
#include "sources.h"
#include "spec.h"
#include "steps.h"
#include "store.h"


/* " $builddir/<place>" (layout.c), a place of the whole build directory: a spec, the index */
static void
toppath(struct sb *s, enum bdplace place)
{
	struct sb rel = SB_INIT;

	bdrel(&rel, place, NULL);
	sbadd(s, " $builddir/");
	if (escninjapath(s, rel.buf) < 0)
		BUG("a place of layout.c with a newline or '|'");
	sbfree(&rel);
}

/* " $builddir/<place of the cell>" (layout.c) */
static void
cellpath(struct sb *s, enum bdplace place, const struct cell *cl)
{
	struct sb rel = SB_INIT;

	bdrel(&rel, place, cl->id);
	sbadd(s, " $builddir/");
	if (escninjapath(s, rel.buf) < 0)
		BUG("cell id with a newline or '|'");
	sbfree(&rel);
}

/* the per-cell phony targets: name/<cell> -> $builddir/<place of the cell> */
static const struct {
	const char *name;
	enum bdplace place;
} phonies[] = {
	{ "wheel", BD_MANIFEST },
	{ "test", BD_TESTOK },
	{ "publish", BD_PUBLISHED },
};

/* " templates/<script>" for each script the steps run under the backend (steps.c's table) */
static void
scripts(struct sb *g, int steps, int container, int foreign)
{
	const char *name;
	size_t i = 0;

	while ((name = stepscript(&i, steps, container, foreign)))
		sbaddf(g, " templates/%s", name);
}

/* what the publish edges depend on: their scripts and publish.spec */
static void
publishdeps(struct sb *g)
{
	scripts(g, STEP_PUBLISH, 0, 0);
	toppath(g, BD_PUBLISHSPEC);
}

/* does the config name somewhere to publish wheels? */
static int
haspublish(const struct config *c)
{
	return c->publishdir || c->publishhttp || c->ghrepo;
}


/* DIR/index.spec: what wheelgen index needs of the config (manifest.c writes and reads it) */
static void
indexspec(struct sb *s, const struct config *c)
{
	struct indexopts o = { 0 };
	size_t i, k;

	o.baseurl = (char *)c->baseurl;
	o.title = (char *)c->title;
	o.variants = c->variants;
	/* pages link the store's blobs only under a base_url: without one the spec stays the same
	   when a store is added, and the index is not rebuilt for it */
	o.blobs = c->baseurl && (c->publishdir || c->publishhttp);
	/* (a GitHub store: a wheel built here is published into its cell's release) */
	if (c->baseurl && !o.blobs && c->ghrepo)
		o.release = (char *)c->ghtag;
	for (i = 0; i < c->npkgs; i++) {
		for (k = 0; k < c->pkgs[i].nyanked; k++) {
			struct sb y = SB_INIT;

			sbaddf(&y, "%s\t%s\t%s", c->pkgs[i].norm, c->pkgs[i].yanked[k].version, c->pkgs[i].yanked[k].reason);
			GROW(o.yanked, o.nyankedcap, o.nyanked + 1);
			o.yanked[o.nyanked++] = sbdetach(&y);
		}
	}
	indexspecwrite(s, &o);
	for (i = 0; i < o.nyanked; i++)
		free(o.yanked[i]);
	free(o.yanked);
}

/* the spec files of the whole build, beside cells/ */
static const struct {
	enum bdplace place;
	void (*write)(struct sb *, const struct config *);
} topspecs[] = {
	{ BD_PUBLISHSPEC, publishspec },
	{ BD_INDEXSPEC, indexspec },
};

/* " <sysroot>/.done": a cross-built cell's root file system, made by its own edge */
static void
sysrootdep(struct sb *g, const struct cell *cl)
{
	struct sb p = SB_INIT;

	if (!cl->sysroot || cl->whynot)
		return;
	sbaddf(&p, "%s/.done", cl->sysroot);
	sbaddc(g, ' ');
	if (escninjapath(g, p.buf) < 0)
		BUG("sysroot path with a newline");
	sbfree(&p);
}

/* the implicit inputs of a cell's build (the wheel, and each part of a sharded one), and the
   order-only programs it runs */
static void
buildinputs(struct sb *g, const struct cell *cl, int container)
{
	size_t k;

	cellpath(g, BD_SPEC, cl);
	scripts(g, STEP_BUILD, container, cellforeign(cl));
	sysrootdep(g, cl);
	if (cl->pkg->src == SRC_GIT) {
		struct sb name = SB_INIT;

		srcname(&name, cl->pkg, cl->version);
		sbaddc(g, ' ');
		bdpath(g, "$builddir", BD_STAMP, name.buf);
		sbfree(&name);
	}
	for (k = 0; k < cl->pkg->patches.n; k++) {
		sbaddc(g, ' ');
		if (escninjapath(g, cl->pkg->patches.v[k]) < 0)
			BUG("patch path with a newline");
	}
	sbadd(g, " || $builddir/wheelgen $builddir/wheelgen-cc $builddir/wheelgen-step");
}

/* the edge's cell binding: "\n  cell = ID" (the line of the edge's inputs ends with it) */
static void
cellvar(struct sb *g, const struct cell *cl)
{
	sbadd(g, "\n  cell = ");
	escninjavalue(g, cl->id);
}

/* the edge of a cell's wheel: unbuildable here (the reason), shared with the cell that builds
   it, or built */
static void
wheeledge(struct sb *g, const struct cell *cl, int container)
{
	struct sb why = SB_INIT;
	size_t k;

	if (cl->whynot) {
		escshell(&why, cl->whynot);
		sbadd(g, "build");
		cellpath(g, BD_MANIFEST, cl);
		sbadd(g, ": unbuildable");
		cellvar(g, cl);
		sbadd(g, "\n  why = ");
		if (escninjavalue(g, why.buf) < 0)
			BUG("reason with a newline");
		sbaddc(g, '\n');
	} else if (cl->builtby) {
		/* abi3: the wheel of the cell that builds it, shared (hard links) under this cell's name */
		sbadd(g, "build");
		cellpath(g, BD_MANIFEST, cl);
		sbadd(g, ": abishare $builddir/");
		sbreset(&why);
		bdrel(&why, BD_MANIFEST, cl->builtby);
		escninjapath(g, why.buf);
		sbadd(g, " |");
		scripts(g, STEP_SHARE, container, cellforeign(cl));
		cellpath(g, BD_TESTSPEC, cl);
		sbadd(g, " || $builddir/wheelgen $builddir/wheelgen-step");
		cellvar(g, cl);
		sbadd(g, "\n  from = ");
		escninjavalue(g, cl->builtby);
		sbaddc(g, '\n');
	} else {
		sbadd(g, "build");
		cellpath(g, BD_MANIFEST, cl);
		sbadd(g, ": wheel |");
		buildinputs(g, cl, container);
		cellvar(g, cl);
		sbaddc(g, '\n');
		/* shards: N parts of its compile, each on a runner of its own (wheelgen-cc); a cell in
		   one piece has one (part 1 of 1: what a family's part job compiles, "Families") */
		for (k = 1; k <= (size_t)cellparts(cl); k++) {
			sbadd(g, "build");
			sbreset(&why);
			bdrel(&why, BD_SHARDDIR, cl->id);
			sbaddf(&why, "/%zu.done", k);
			sbadd(g, " $builddir/");
			escninjapath(g, why.buf);
			sbadd(g, ": shard |");
			buildinputs(g, cl, container);
			cellvar(g, cl);
			sbaddf(g, "\n  part = %zu\n  shards = %ld\n", k, cellparts(cl));
			sbadd(g, "build shard/");
			escninjapath(g, cl->id);
			sbaddf(g, "/%zu: phony $builddir/", k);
			escninjapath(g, why.buf);
			sbaddc(g, '\n');
		}
	}
	sbfree(&why);
}

static void
celledges(struct sb *g, const struct config *c, const struct cell *cl, int container)
{
	size_t k;

	wheeledge(g, cl, container);
	/* the test runs in one edge, which records its outcome and never fails (so that the index
	   of the passing cells is still written under -k 0), and is judged in the next */
	sbadd(g, "build");
	cellpath(g, BD_TESTDONE, cl);
	sbadd(g, ": test");
	cellpath(g, BD_MANIFEST, cl);
	sbadd(g, " |");
	cellpath(g, BD_TESTSPEC, cl);
	scripts(g, STEP_TEST, container, cellforeign(cl));
	sysrootdep(g, cl);
	sbadd(g, " || $builddir/wheelgen $builddir/wheelgen-step");
	cellvar(g, cl);
	sbaddc(g, '\n');
	if (c->variants && cl->cuda) {
		/* PEP 825: the tested wheel as a variant wheel, for the index's variants tree */
		sbadd(g, "build");
		cellpath(g, BD_VARIANT, cl);
		sbadd(g, ": variant");
		cellpath(g, BD_MANIFEST, cl);
		sbadd(g, " |");
		scripts(g, STEP_VARIANT, container, cellforeign(cl));
		cellpath(g, BD_TESTDONE, cl);
		sbadd(g, " || $builddir/wheelgen $builddir/wheelgen-step");
		cellvar(g, cl);
		sbaddc(g, '\n');
	}
	sbadd(g, "build");
	cellpath(g, BD_TESTOK, cl);
	sbadd(g, ": testverdict");
	cellpath(g, BD_TESTDONE, cl);
	cellvar(g, cl);
	sbaddc(g, '\n');
	sbadd(g, "build");
	cellpath(g, BD_PUBLISHED, cl);
	sbadd(g, haspublish(c) ? ": publish" : ": nopublish");
	cellpath(g, BD_TESTOK, cl);
	sbadd(g, " |");
	publishdeps(g);
	sbadd(g, " || $builddir/wheelgen-step");
	cellvar(g, cl);
	sbaddc(g, '\n');
	if (c->ghrepo) {
		/* the GitHub release of the cell's files (store.h: one rule, for readers and publish) */
		struct sb tag = SB_INIT;

		storerelease(c->ghtag, cl->id, &tag);
		sbadd(g, "  release = ");
		escninjavalue(g, tag.buf);
		sbaddc(g, '\n');
		sbfree(&tag);
	}
	/* the names people and CI type */
	for (k = 0; k < sizeof(phonies) / sizeof(phonies[0]); k++) {
		sbaddf(g, "build %s/", phonies[k].name);
		escninjapath(g, cl->id);
		sbadd(g, ": phony");
		cellpath(g, phonies[k].place, cl);
		sbaddc(g, '\n');
	}
}

/* build <name>: phony <paths of the buildable cells that keep() selects> */
static void
group(struct sb *g, const char *name, const struct matrix *m, enum bdplace place, const struct package *pkg,
      const struct profile *prof)
{
	size_t i;

	sbadd(g, "build ");
	escninjapath(g, name);
	sbadd(g, ": phony");
	for (i = 0; i < m->n; i++) {
		const struct cell *cl = &m->cells[i];

		if (cl->whynot || (pkg && cl->pkg != pkg) || (prof && !profilehas(prof, cl)))
			continue;
		sbadd(g, " $\n   ");
		cellpath(g, place, cl);
	}
	sbaddc(g, '\n');
}

/*
 * Around every edge that changes the build directory: one ninja run at a time (claim.c). The
 * shell keeps .lock.run open (fd 9) while the step runs; the step itself does not inherit it
 * (a daemon a build leaves behind must not hold the lock).
 */
#define CLAIM "exec 9>>$builddir/.lock.run && $builddir/wheelgen claim --builddir $builddir --fd 9 && { "
#define UNCLAIM "; } 9>&-"

/* index.variants: the PEP 825 variant wheel of a tested CUDA cell */
static const char variantrule[] =
	"rule variant\n"
	"  command = " CLAIM "python3 templates/variant.py $builddir $cell" UNCLAIM "\n"
	"  description = VARIANT $cell\n"
	"  restat = 1\n";

static const char rules[] =
	"rule wheel\n"
	"  command = " CLAIM "$builddir/wheelgen restore --builddir $builddir --config $config --host $builddir/host.txt $cell"
	" || sh templates/build-$backend.sh $builddir $cell" UNCLAIM "\n"
	"  description = WHEEL $cell\n"
	"  depfile = $builddir/wheels/$cell/manifest.d\n"
	"  deps = gcc\n"
	"  restat = 1\n"
	"  pool = $wheelpool\n"
	"rule abishare\n"
	"  command = " CLAIM "sh templates/abi-share.sh $builddir $from $cell $config" UNCLAIM "\n"
	"  description = ABI3 $cell = $from\n"
	"  restat = 1\n"
	"rule test\n"
	"  command = " CLAIM "sh templates/test.sh $builddir $cell $backend" UNCLAIM "\n"
	"  description = TEST $cell\n"
	"  restat = 1\n"
	"rule testverdict\n"
	"  command = if test -e $builddir/tests/$cell.failed; then echo \"wheelgen: test $cell failed (see above; log: $builddir/logs/$cell.test.log)\" >&2; exit 1; fi; touch $out\n"
	"  description = TESTED $cell\n"
	"  restat = 1\n"
	"rule publish\n"
	"  command = " CLAIM "sh templates/publish.sh $builddir $cell $release" UNCLAIM "\n"
	"  description = PUBLISH $cell\n"
	"rule nopublish\n"
	"  command = echo \"wheelgen: cannot publish $cell: the config's 'publish:' names no destination for wheels (dir, http or github)\" >&2; exit 1\n"
	"  description = PUBLISH $cell\n"
	"rule publishindex\n"
	"  command = " CLAIM "sh templates/publish.sh --index $builddir" UNCLAIM "\n"
	"  description = PUBLISH-INDEX\n"
	"rule nopublishindex\n"
	"  command = echo \"wheelgen: cannot publish the index: the config's 'publish:' has no index_dir or index_http\" >&2; exit 1\n"
	"  description = PUBLISH-INDEX\n"
	"rule unbuildable\n"
	"  command = echo \"wheelgen: cannot build $cell on this host: \"$why >&2; exit 1\n"
	"  description = WHEEL $cell\n"
	"rule index\n"
	"  command = " CLAIM "$builddir/wheelgen index --builddir $builddir --spec $builddir/index.spec --manifests $out.rsp" UNCLAIM "\n"
	"  description = INDEX $builddir/index\n"
	"  rspfile = $out.rsp\n"
	"  rspfile_content = $in\n"
	"  restat = 1\n"
	"rule mergeindex\n"
	"  command = " CLAIM "$builddir/wheelgen store --pull --builddir $builddir --config $config --host $builddir/host.txt &&"
	" find $builddir/wheels $builddir/store -name manifest -type f 2>/dev/null | sort >$builddir/merge-index.rsp &&"
	" $builddir/wheelgen index --builddir $builddir --spec $builddir/index.spec --manifests $builddir/merge-index.rsp" UNCLAIM "\n"
	"  description = MERGE-INDEX $builddir/index\n"
	"rule checkout\n"
	"  command = " CLAIM "mkdir -p $builddir/logs && $builddir/wheelgen checkout --builddir $builddir $in >$builddir/logs/$name.checkout.log" UNCLAIM "\n"
	"  description = CHECKOUT $name\n"
	"  restat = 1\n"
	"rule fetchurl\n"
	"  command = " CLAIM "$builddir/wheelgen fetch --builddir $builddir --url $url >$out.log" UNCLAIM "\n"
	"  description = FETCH $url\n"
	"  restat = 1\n"
	"  pool = console\n"
	"rule fetchall\n"
	"  command = " CLAIM "$builddir/wheelgen fetch --builddir $builddir --config $config" UNCLAIM "\n"
	"  description = FETCH every git source of $config\n"
	"  pool = console\n"
	"rule respec\n"
	"  command = " CLAIM "$builddir/wheelgen gen --config $config --builddir $builddir --host $builddir/host.txt" UNCLAIM "\n"
	"  description = REGEN missing spec files\n"
	"  generator = 1\n"
	"  restat = 1\n"
	"rule checkconfig\n"
	"  command = $builddir/wheelgen check --config $config && touch $out\n"
	"  description = CHECK $config\n\n";

/* part K of N of a cell's compile (shards: ninja shard/<cell>/K; the build step with WG_SHARD and
   the cell's key; N is 1 for a cell in one piece) */
static const char shardrule[] =
	"rule shard\n"
	"  command = " CLAIM "mkdir -p $builddir/shards/$cell && wg_key=$$($builddir/wheelgen key --builddir $builddir --config $config"
	" --host $builddir/host.txt $cell) && WG_SHARD=$part/$shards WG_SHARD_KEY=$${wg_key%% *} sh templates/build-$backend.sh"
	" $builddir $cell && touch $out" UNCLAIM "\n"
	"  description = SHARD $cell $part/$shards\n"
	"  depfile = $out.d\n"
	"  deps = gcc\n"
	"  pool = $wheelpool\n";

/* a cross build's root file system (templates/sysroot.sh): only in graphs with cross-built cells */
static const char sysrootrule[] =
	"rule sysroot\n"
	"  command = " CLAIM "sh templates/sysroot.sh $dir $suite $deb >$dir.log 2>&1 || { tail -n 20 $dir.log >&2; exit 1; }" UNCLAIM "\n"
	"  description = SYSROOT $dir ($deb, Debian $suite)\n";

/* the edges that make the root file systems the buildable cells of m use (host.txt's sysroot lines) */
static void
sysrootedges(struct sb *g, const struct matrix *m, const struct host *h)
{
	size_t i, k;
	int any = 0;

	for (k = 0; h && k < h->nsysroots; k++) {
		const struct hostsysroot *r = &h->sysroots[k];
		const struct platform *plat = platformfind(r->platform);
		struct sb p = SB_INIT;

		for (i = 0; i < m->n; i++) {
			if (!m->cells[i].whynot && m->cells[i].sysroot && !strcmp(m->cells[i].sysroot, r->dir))
				break;
		}
		/* (a Windows CPython has no edge: configure fetches it) */
		if (i == m->n || !plat || !plat->deb)
			continue;
		if (!any++)
			sbadd(g, sysrootrule);
		sbaddf(&p, "%s/.done", r->dir);
		sbadd(g, "build ");
		if (escninjapath(g, p.buf) < 0)
			BUG("sysroot path with a newline");
		sbadd(g, ": sysroot | templates/sysroot.sh templates/voice.sh\n  dir = ");
		sbreset(&p);
		escshell(&p, r->dir);
		escninjavalue(g, p.buf);
		sbadd(g, "\n  suite = ");
		sbreset(&p);
		escshell(&p, r->suite);
		escninjavalue(g, p.buf);
		sbaddf(g, "\n  deb = %s\n", plat->deb);
		sbfree(&p);
	}
}

/* the memory pool's depth: how many of the largest build fit in memory_gb (at least 1); 0 for no pool */
static long
pooldepth(const struct matrix *m, double memory_gb, double *claim, const char **who)
{
	size_t i;
	double c;
	long depth;

	*claim = 0;
	*who = NULL;
	if (memory_gb <= 0)
		return 0;
	for (i = 0; i < m->n; i++) {
		const struct cell *cl = &m->cells[i];

		if (cl->whynot)
			continue;
		c = cl->memory_gb;
		if (c > *claim) {
			*claim = c;
			*who = cl->pkg->name;
		}
	}
	if (!*who) {
		*who = "no buildable cell";
		return 1;
	}
	depth = (long)(memory_gb / *claim);
	return depth < 1 ? 1 : depth;
}

/* one source spec and checkout edge per (git package, version) that has cells */
static int
sources(struct sb *g, struct sb *specs, const struct config *c, const struct matrix *m, const struct graphopts *o)
{
	struct sb spec = SB_INIT, path = SB_INIT, done = SB_INIT, mirror = SB_INIT, mirrors = SB_INIT, name = SB_INIT;
	struct srcspec ss;
	struct arena a = { 0 };
	size_t i;
	int rc = 0, any = 0;

	for (i = 0; i < m->n && rc == 0; i++) {
		const struct cell *cl = &m->cells[i];
		const struct package *p = cl->pkg;

		if (p->src != SRC_GIT)
			continue;
		/* a package's cells are contiguous (its includes last): remember its versions only */
		if (i == 0 || m->cells[i - 1].pkg != p)
			sbreset(&done);
		sbreset(&name);
		srcname(&name, p, cl->version);
		if (!setadd(&done, name.buf))
			continue;
		any = 1;
		sbreset(&spec);
		sourcespec(&a, c, p, cl->version, o->builddir, 0, &ss);
		srcspecwrite(&spec, &ss);
		sbreset(&path);
		bdpath(&path, o->builddir, BD_SRCSPEC, name.buf);
		if (writeifchanged(path.buf, spec.buf, spec.len) < 0)
			rc = -1;
		sbreset(&path);
		bdpath(&path, "$builddir", BD_SRCSPEC, name.buf);
		sbaddf(specs, " %s", path.buf);
		sbreset(&mirror);
		if (mirrorpath(&mirror, "$builddir", p->git) < 0) {
			rc = -1;
			break;
		}
		/* one fetch edge per mirror: the checkouts of its versions depend on its refs */
		if (setadd(&mirrors, mirror.buf)) {
			sbaddf(g, "build %s.fetched: fetchurl || $builddir/wheelgen\n  url = ", mirror.buf);
			sbreset(&path);
			escshell(&path, p->git);
			if (escninjavalue(g, path.buf) < 0) {
				rc = error("git url of '%s' has a newline", p->name);
				break;
			}
			sbaddc(g, '\n');
		}
		sbadd(g, "build ");
		bdpath(g, "$builddir", BD_STAMP, name.buf);
		sbadd(g, ": checkout ");
		bdpath(g, "$builddir", BD_SRCSPEC, name.buf);
		sbaddf(g, " | %s.fetched || $builddir/wheelgen\n  name = %s\n", mirror.buf, name.buf);
	}
	if (any)
		sbadd(g, "build fetch: fetchall || $builddir/wheelgen\n\n");
	sbfree(&spec);
	sbfree(&path);
	sbfree(&done);
	sbfree(&mirror);
	sbfree(&mirrors);
	sbfree(&name);
	afree(&a);
	return rc;
}

static const char *const reserved[] = {
	"wheels", "tests", "index", "publish", "publish-index", "merge-index", "publish-merged-index", "check", "all",
	"build.ninja", "wheel", "test", "profile", "fetch", "shard", NULL,
};

/* the memory pool: how many wheel builds fit in memory_gb at once (none when it is unknown) */
static void
poolheader(struct sb *g, const struct matrix *m, double memory_gb)
{
	double claim = 0;
	const char *who = NULL;
	long depth = pooldepth(m, memory_gb, &claim, &who);

	if (depth > 0) {
		sbaddf(g, "# memory-aware parallelism: builds may use %.1f GB; the largest build claims %.1f GB\n"
			   "# (memory_per_job_gb x MAX_JOBS x NVCC_THREADS, %s), so at most %ld wheel builds run at once\n"
			   "pool wheelmem\n  depth = %ld\nwheelpool = wheelmem\n",
		       memory_gb, claim, who, depth, depth);
	} else {
		sbadd(g, "# memory unknown (no host file): no memory pool\nwheelpool =\n");
	}
}

/* the group targets, the index edges and the per-package and per-profile targets */
static void
topedges(struct sb *g, const struct config *c, const struct matrix *m)
{
	size_t i;

	group(g, "wheels", m, BD_MANIFEST, NULL, NULL);
	group(g, "tests", m, BD_TESTOK, NULL, NULL);
	group(g, "publish", m, BD_PUBLISHED, NULL, NULL);
	/* the index of the tested wheels: after every test (wheelgen index leaves out a wheel
	   without a test record) */
	sbadd(g, "build");
	toppath(g, BD_INDEXPAGE);
	sbadd(g, ": index");
	for (i = 0; i < m->n; i++) {
		if (!m->cells[i].whynot) {
			sbadd(g, " $\n   ");
			cellpath(g, BD_MANIFEST, &m->cells[i]);
		}
		if (!m->cells[i].whynot && c->variants && m->cells[i].cuda) {
			sbadd(g, " $\n   ");
			cellpath(g, BD_VARIANT, &m->cells[i]);
		}
	}
	sbadd(g, " | $builddir/wheelgen");
	toppath(g, BD_INDEXSPEC);
	sbadd(g, " templates/find.py"); /* the finder the index serves (wheelsjson.h) */
	for (i = 0; i < m->n; i++) {
		if (!m->cells[i].whynot) {
			sbadd(g, " $\n   ");
			cellpath(g, BD_TESTDONE, &m->cells[i]);
		}
	}
	sbadd(g, "\nbuild index: phony");
	toppath(g, BD_INDEXPAGE);
	sbaddc(g, '\n');
	/* no file: it always runs, and publish.sh sends only what changed since the last time */
	sbaddf(g, "build publish-index: %s", c->indexdir || c->indexhttp ? "publishindex" : "nopublishindex");
	toppath(g, BD_INDEXPAGE);
	sbadd(g, " |");
	publishdeps(g);
	sbaddc(g, '\n');
	/* CI: jobs built the cells elsewhere and their wheels/<cell>/ came back as artifacts; these
	   index (and publish the index of) whatever manifests are there, building nothing */
	sbadd(g, "build merge-index: mergeindex | $builddir/wheelgen");
	toppath(g, BD_INDEXSPEC);
	sbadd(g, " templates/find.py");
	sbaddc(g, '\n');
	sbaddf(g, "build publish-merged-index: %s merge-index |", c->indexdir || c->indexhttp ? "publishindex" : "nopublishindex");
	publishdeps(g);
	sbaddc(g, '\n');
	sbadd(g, "build $builddir/check.stamp: checkconfig $config | $builddir/wheelgen\n");
	sbadd(g, "build check: phony $builddir/check.stamp\n");
	for (i = 0; i < c->npkgs; i++)
		group(g, c->pkgs[i].norm, m, BD_TESTOK, &c->pkgs[i], NULL);
	for (i = 0; i < c->nprofiles; i++) {
		char name[300];

		snprintf(name, sizeof(name), "profile/%s", c->profiles[i].name);
		group(g, name, m, BD_TESTOK, NULL, &c->profiles[i]);
	}
}

int
gengraph(const struct config *c, const struct matrix *m, const struct graphopts *o, struct graphstats *st)
{
	struct sb g = SB_INIT, spec = SB_INIT, path = SB_INIT, srcdir = SB_INIT, srcspecs = SB_INIT;
	size_t i, k;
	int r, rc = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < c->npkgs; i++) {
		for (k = 0; reserved[k]; k++) {
			if (!strcmp(c->pkgs[i].norm, reserved[k]))
				return error("package '%s' has the name of a wheelgen target; rename it", c->pkgs[i].name);
		}
	}
	sbadd(&g, "# the cell graph, generated by wheelgen from the config; do not edit\n");
	/* the steps run on the host (build-host.sh) or in a container (build-container.sh runs
	   docker/podman, which runs build-host.sh inside) */
	sbaddf(&g, "backend = %s\n", o->container ? "container" : "host");
	for (k = 0; k < sizeof(topspecs) / sizeof(topspecs[0]); k++) {
		sbreset(&spec);
		topspecs[k].write(&spec, c);
		sbreset(&path);
		bdpath(&path, o->builddir, topspecs[k].place, NULL);
		if (writeifchanged(path.buf, spec.buf, spec.len) < 0)
			goto fail;
	}
	poolheader(&g, m, o->memory_gb);
	sbadd(&g, rules);
	if (c->variants)
		sbadd(&g, variantrule);
	sbadd(&g, shardrule);
	if (sources(&g, &srcspecs, c, m, o) < 0)
		goto fail;
	sysrootedges(&g, m, o->host);
	for (i = 0; i < m->n; i++) {
		const struct cell *cl = &m->cells[i];

		st->cells++;
		st->buildable += !cl->whynot;
		celledges(&g, c, cl, o->container);
		sbreset(&srcdir);
		if (cl->pkg->src == SRC_GIT) {
			/* the checkout, absolute (the step runs in its scratch directory) */
			sbreset(&path);
			srcname(&path, cl->pkg, cl->version);
			if (o->builddir[0] != '/')
				sbaddf(&srcdir, "%s/", c->topdir);
			bdpath(&srcdir, o->builddir, BD_CHECKOUT, path.buf);
		}
		for (k = 0; k < 2; k++) {
			sbreset(&spec);
			if (k)
				celltestspec(&spec, cl, 0);
			else
				cellspec(&spec, cl, srcdir.buf, 0);
			sbreset(&path);
			bdpath(&path, o->builddir, k ? BD_TESTSPEC : BD_SPEC, cl->id);
			if ((r = writeifchanged(path.buf, spec.buf, spec.len)) < 0)
				goto fail;
			st->written += (size_t)r;
		}
	}
	sbaddc(&g, '\n');
	topedges(&g, c, m);
	/* the spec files are written by gen itself; this edge only brings back deleted ones */
	sbadd(&g, "build");
	for (i = 0; i < m->n; i++) {
		cellpath(&g, BD_SPEC, &m->cells[i]);
		cellpath(&g, BD_TESTSPEC, &m->cells[i]);
		sbadd(&g, " $\n ");
	}
	sbadd(&g, srcspecs.buf);
	toppath(&g, BD_PUBLISHSPEC);
	toppath(&g, BD_INDEXSPEC);
	sbadd(&g, ": respec || $builddir/wheelgen\n");
	sbadd(&g, "\ndefault wheels tests index\n");
	sbreset(&path);
	bdpath(&path, o->builddir, BD_GRAPH, NULL);
	if ((r = writeifchanged(path.buf, g.buf, g.len)) < 0)
		goto fail;
	st->graphwritten = r;
	goto out;
fail:
	rc = -1;
out:
	sbfree(&g);
	sbfree(&spec);
	sbfree(&path);
	sbfree(&srcdir);
	sbfree(&srcspecs);
	return rc;
}
