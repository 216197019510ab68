/* cmdcells: the commands on a config and its cells: check, matrix, gen, key. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "estimate.h"
#include "files.h"
#include "graph.h"
#include "layout.h"
#include "matrixout.h"
#include "plan.h"
#include "sources.h"

static const char checkusage[] =
	"usage: wheelgen check [--config FILE] [--verbose]\n"
	"\n"
	"Check FILE (default: the config ./configure named, else config/packages.yml): YAML\n"
	"syntax, keys, types, names,\n"
	"versions, excludes, includes and profiles. Every problem is printed as\n"
	"file:line:col: error: message, with the line and a caret. Exit status 1 if any.\n";

static const struct optrow checkrows[] = {
	OPT_CONFIG,
	OPT_VERBOSE("also list the cells that excludes and the torch table drop, and why"),
	OPTEND,
};

static int
cmdcheck(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct cmdopts o = { 0 };
	struct host h;
	struct matrix m;
	struct config *c;

	parseopts(argc, argv, &o, cmd);
	c = cmdload(&a, &o, &h, &m);
	if (c)
		printf("%s: ok: %zu package%s, %zu cell%s\n", o.config, c->npkgs, c->npkgs == 1 ? "" : "s", m.n,
		       m.n == 1 ? "" : "s");
	free(m.cells);
	afree(&a);
	return c ? 0 : 1;
}

const struct command cmd_check = {
	"check", cmdcheck, checkusage,
	"check a config and print every problem in it",
	checkrows, 0,
};

static const char matrixusage[] =
	"usage: wheelgen matrix [--config FILE] [--json | --github [--by-build] [--split N] | --tsv | --table\n"
	"                       | --count | --estimate [--runners R] [--times FILE] [--job-overhead M]]\n"
	"                       [--profile NAME] [--canary] [--missing] [--shard I/N] [--host FILE]\n"
	"                       [--no-families] [--builddir DIR] [--templates DIR] [--verbose]\n"
	"\n"
	"Print the cells of FILE (default: the config ./configure named for --builddir, else\n"
	"config/packages.yml), one id per line, or as the options say. A key is empty when it\n"
	"cannot be known yet: a git source with no lock entry and no checkout ('wheelgen lock' pins\n"
	"them). docs/manual.md tells the rest.\n";

/* matrix's options */
struct matrixopts {
	struct cmdopts c;
	int format;                    /* --json, --github, --tsv, --table: enum matrixformat */
	int bybuild, nofamilies, count, estimate, canary, missing;
	long split;                    /* --split N (0: not given) */
	long runners;                  /* --runners R (0: not given) */
	const char *times;             /* --times FILE */
	double overhead;               /* --job-overhead M (below 0: not given) */
	const char *profile;
	long shard[2];                 /* --shard I/N: I and N (N 0: not given) */
};
#define MO(field) offsetof(struct matrixopts, field)

/* --shard I/N: I and N into place, two longs */
static int
shardarg(const char *arg, void *place)
{
	long *v = place;
	char *end;

	v[0] = strtol(arg, &end, 10);
	if (*end != '/' || (v[1] = strtol(end + 1, &end, 10)) < 1 || *end || v[0] < 1 || v[0] > v[1])
		return error("--shard wants I/N with 1 <= I <= N, not '%s'", arg);
	return 0;
}

static const struct optrow matrixrows[] = {
	OPT_CONFIG,
	OPTONEOF("json", MO(format), FMT_JSON,
		 "a JSON list of objects: cell, package, version, python, cuda, torch, key, build, platform, "
		 "runner (the GitHub Actions runner that builds it natively)"),
	OPTONEOF("github", MO(format), FMT_GITHUB,
		 "a GitHub Actions matrix on one line: {\"include\": [ ...the same... ]}"),
	OPTINT("split", MO(split), "N", "a number of matrices", 1, 64,
	       "with --github: N matrices, lines matrixK={...} and countK=ROWS (K = 1..N) for $GITHUB_OUTPUT, each "
	       "platform's rows apart, at most 256 rows each; with --by-build, part rows in partsK= partcountK= and "
	       "final rows in finalsK= finalcountK=; each matrix's rows longest first"),
	OPTFLAG("by-build", MO(bybuild),
		"with --json or --github: one row per wheel to build (a wheel several cells test is one row: cells, "
		"tests, publishes) with family. A wheel of a package with shards: \"N\" gets N part rows (part, parts, "
		"targets shard/<cell>/K), then a final row (parts, partsof). The wheels of one family share the part "
		"rows of the first where their package has shards or where that costs fewer runner-hours (N: its "
		"shards, else 1), and each has a final row"),
	OPTFLAG("no-families", MO(nofamilies), "every wheel on its own: the plan before families"),
	OPTONEOF("tsv", MO(format), FMT_TSV,
		 "tab-separated: cell package version python cuda torch key build platform runner (header first)"),
	OPTONEOF("table", MO(format), FMT_TABLE,
		 "each cell's platform, whether this host can build it and why not, and \"[N parts]\" where its "
		 "package has shards; also the cells no lane builds"),
	OPTFLAG("count", MO(count),
		"how many cells: \"(all)<TAB>N\", then \"PROFILE<TAB>N\" per profile; where the plan has part rows, "
		"a third column: their number"),
	OPTFLAG("estimate", MO(estimate),
		"what the plan (its --by-build rows) costs: its runner-hours, its wall time on R concurrent jobs and "
		"its longest chain, from the job times builds recorded (their manifests here and, with --missing, the "
		"store's), a --times FILE, else a model"),
	OPTINT("runners", MO(runners), "R", "a number of concurrent jobs", 1, 100000,
	       "with --estimate: how many jobs run at once (default 20)"),
	OPTSTR("times", MO(times), "FILE",
	       "with --estimate: the job times, lines \"PACKAGE objects=N python_objects=N object_seconds=S "
	       "python_object_seconds=S setup_seconds=S archs=N\""),
	OPTNUM("job-overhead", MO(overhead), "M", "minutes", 0, 1440,
	       "with --estimate: the minutes each job also takes (default 3: runner, checkout, configure)"),
	OPTSTR("profile", MO(profile), "NAME", "only the cells of profile NAME"),
	OPTFLAG("canary", MO(canary),
		"one cell per package and platform: its newest version against its newest torch and CUDA, the "
		"middle of its Pythons (an upstream update's check)"),
	OPTFLAG("missing", MO(missing),
		"only the cells whose key the store lacks ('wheelgen store --help'); a store that cannot be read is "
		"a warning, and every cell is listed"),
	OPTPARSE("shard", MO(shard), "I/N", shardarg, "only the I-th of N near-equal contiguous shards (1 <= I <= N)"),
	OPT_HOST,
	OPT_BUILDDIR,
	OPT_TEMPLATES,
	OPT_VERBOSE("list dropped cells and why on stderr"),
	OPTEND,
};

/* the part rows of the plan of m's cells that profile p selects (NULL: all) */
static size_t
partrows(const struct matrix *m, const struct profile *p, const struct jobopts *jo)
{
	struct matrix sub = { 0 };
	struct jobplan plan;
	size_t j, parts = 0;

	sub.cells = xcalloc(m->n + 1, sizeof(*sub.cells));
	for (j = 0; j < m->n; j++) {
		if (!m->cells[j].nolane && (!p || profilehas(p, &m->cells[j])))
			sub.cells[sub.n++] = m->cells[j];
	}
	jobsplan(&sub, 0, sub.n, jo, &plan);
	for (j = 0; j < plan.n; j++)
		parts += plan.v[j].kind == JOB_PART;
	jobsfree(&plan);
	free(sub.cells);
	return parts;
}

/* matrix --count: "(all)<TAB>N", then "PROFILE<TAB>N" per profile; where the plan has part rows
   (a package with shards, a family built in parts), a third column: the part rows of the wheels
   to build. The cells counted are those the plain matrix lists: not those no lane can build (a
   Windows CUDA cell: plancells leaves them out) */
static void
printcount(const struct config *c, const struct matrix *m, const struct jobopts *jo)
{
	size_t i, j, n = 0, parts = partrows(m, NULL, jo);
	int sharded = parts > 0;

	for (j = 0; j < m->n; j++)
		n += !m->cells[j].nolane;
	printf(sharded ? "(all)\t%zu\t%zu\n" : "(all)\t%zu\n", n, parts);
	for (i = 0; i < c->nprofiles; i++) {
		size_t hits = 0;

		for (j = 0; j < m->n; j++)
			hits += !m->cells[j].nolane && profilehas(&c->profiles[i], &m->cells[j]);
		parts = sharded ? partrows(m, &c->profiles[i], jo) : 0;
		printf(sharded ? "%s\t%zu\t%zu\n" : "%s\t%zu\n", c->profiles[i].name, hits, parts);
	}
}

/* plan hook: a cell the store holds, and its manifest there */
static void
heldcell(void *ctx, const struct cell *cl, const char *manifest)
{
	estimatemanifest(ctx, cl, manifest, 1);
}

/* jobs.h's hook: whether a family's compile cache is kept from an earlier run */
static int
cachedfamily(const void *ctx, const char *family)
{
	return estimatecached(ctx, family);
}

/* what the jobs take, for the outputs that plan them (--by-build, --count, --estimate), into est
   and jo: a times file's figures, else what the builds here and (with --missing, heldcell) the
   store's entries recorded, else the model. -1 with a message (est is set up even then) */
static int
matrixtimes(const struct matrixopts *o, const struct config *c, const struct matrix *m, struct estimate *est,
	    struct jobopts *jo)
{
	estimateinit(est, c, m);
	if (o->times && estimatetimes(est, o->times) < 0)
		return -1;
	estimatebuilddir(est, o->c.builddir, m);
	jo->times = est->times;
	jo->pkgs = c->pkgs;
	jo->nofamilies = o->nofamilies;
	jo->cached = cachedfamily;
	jo->ctx = est;
	return 0;
}

/* the option combinations matrix refuses; -1 with a message */
static int
matrixoptscheck(const struct matrixopts *o)
{
	if (o->bybuild && o->format != FMT_JSON && o->format != FMT_GITHUB)
		return error("--by-build goes with --json or --github");
	if (o->split && o->format != FMT_GITHUB)
		return error("--split goes with --github");
	if (o->estimate && (o->format || o->count || o->bybuild))
		return error("--estimate prints the estimate, not the rows: it goes with no --json, --github, --tsv, --table, "
			     "--count or --by-build");
	if ((o->runners || o->times || o->overhead >= 0) && !o->estimate)
		return error("--runners, --times and --job-overhead go with --estimate");
	return 0;
}

/* matrix --estimate: the plan of m's first n cells, what it costs, on standard output */
static void
printestimate(const struct matrixopts *o, const struct estimate *est, const struct matrix *m, size_t n, struct jobopts *jo)
{
	struct sb s = SB_INIT;
	struct jobplan p;

	jo->overhead = (o->overhead >= 0 ? o->overhead : 3) * 60;
	jobsplan(m, 0, n, jo, &p);
	estimateprint(&s, est, m, &p, o->runners ? o->runners : 20, jo->overhead);
	fwrite(s.buf, 1, s.len, stdout);
	jobsfree(&p);
	sbfree(&s);
}

static int
cmdmatrix(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct sb s = SB_INIT;
	const struct profile *prof = NULL;
	struct matrixopts o = { .overhead = -1 };
	struct host h;
	struct matrix m;
	struct config *c;
	size_t n = 0;
	int rc = 1;
	char (*keys)[65] = NULL;
	struct keyctx k;
	struct store st;
	struct matrixout mo;
	struct planopts po;
	struct sb tmp = SB_INIT;
	struct estimate est;
	int estimating = 0;

	memset(&k, 0, sizeof(k));
	memset(&st, 0, sizeof(st));
	parseopts(argc, argv, &o.c, cmd);
	if (matrixoptscheck(&o) < 0)
		return 2;
	c = cmdload(&a, &o.c, &h, &m);
	if (!c)
		goto out;
	if (o.profile && !(prof = cmdprofile(c, o.profile, o.c.config)))
		goto out;
	memset(&mo, 0, sizeof(mo));
	estimating = o.bybuild || o.count || o.estimate;
	if (estimating && matrixtimes(&o, c, &m, &est, &mo.jobs) < 0)
		goto out;
	if (o.count) {
		estimatefinish(&est);
		printcount(c, &m, &mo.jobs);
		rc = 0;
		goto out;
	}
	/* keep the selected cells at the front, with their keys where they are shown or asked for */
	keys = xcalloc(m.n ? m.n : 1, sizeof(*keys));
	keyctxinit(&k, c, o.c.builddir, o.c.templates, KEY_FROM_LOCK);
	storeopen(c, o.c.builddir, &st);
	if (o.missing && st.kind == STORE_NONE)
		warn("--missing: no store (the config has no publish: destination and "
				"WHEELGEN_STORE is not set): every cell is missing");
	sbaddf(&tmp, "%s/.matrix-manifest.%ld", o.c.builddir, (long)getpid());
	po.prof = prof;
	po.canary = o.canary;
	po.missing = o.missing;
	po.needkeys = o.format && o.format != FMT_TABLE;
	po.alllanes = o.format == FMT_TABLE;
	po.tmp = tmp.buf;
	po.builddir = o.c.builddir;
	po.held = estimating ? heldcell : NULL;
	po.heldctx = &est;
	if ((o.missing && st.kind != STORE_NONE && mkdirs(o.c.builddir) < 0) || plancells(&k, &st, &m, &po, keys, &n) < 0)
		goto out;
	if (estimating)
		estimatefinish(&est);
	if (o.estimate) {
		printestimate(&o, &est, &m, n, &mo.jobs);
		rc = 0;
		goto out;
	}
	mo.format = o.format;
	mo.bybuild = o.bybuild;
	mo.shard = o.shard[0];
	mo.nshards = o.shard[1];
	mo.hostknown = o.c.host != NULL;
	mo.split = o.split;
	if (printcells(&s, &mo, &m, n, keys) < 0)
		goto out;
	fwrite(s.buf, 1, s.len, stdout);
	if (o.missing)
		notice("%zu cell%s missing from the store %s", n, n == 1 ? "" : "s", storename(&st));
	rc = 0;
out:
	if (tmp.len)
		unlink(tmp.buf);
	sbfree(&tmp);
	sbfree(&s);
	if (estimating)
		estimatefree(&est);
	free(keys);
	keyctxfree(&k);
	storefree(&st);
	free(m.cells);
	afree(&a);
	return rc;
}

const struct command cmd_matrix = {
	"matrix", cmdmatrix, matrixusage,
	"print the cells of a config (plain, --json, --github, --tsv, --table)",
	matrixrows, 0,
};

static const char genusage[] =
	"usage: wheelgen gen [--config FILE] [--builddir DIR] [--host FILE] [--verbose]\n"
	"\n"
	"Check FILE, then write DIR/cells/<cell>/spec and test for every cell and\n"
	"DIR/graph.ninja, each only if its content changed. Nothing is written when the\n"
	"config has errors. DIR defaults to out, FILE to the config ./configure named for\n"
	"DIR (else config/packages.yml), the host file to DIR/host.txt.\n";

static const struct optrow genrows[] = {
	OPT_CONFIG,
	OPT_BUILDDIR,
	OPT_HOST,
	OPT_VERBOSE("list dropped cells and cells this host cannot build, and why"),
	OPTEND,
};

static int
cmdgen(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct graphopts go = { 0 };
	struct graphstats st;
	struct cmdopts o = { 0 };
	struct host h;
	struct matrix m;
	struct config *c;
	int rc = 1;

	parseopts(argc, argv, &o, cmd);
	c = cmdload(&a, &o, &h, &m);
	if (c) {
		go.builddir = o.builddir;
		go.memory_gb = h.memory_gb;
		go.container = h.container;
		go.host = &h;
		if (gengraph(c, &m, &go, &st) == 0) {
			rc = 0;
			if (st.graphwritten && st.buildable < st.cells && o.host)
				whynotsummary(&m, st.cells - st.buildable, o.host);
			if (o.verbose)
				notice("%zu cells, %zu buildable here; %zu spec files written; graph.ninja %s",
					st.cells, st.buildable, st.written, st.graphwritten ? "written" : "unchanged");
		}
	}
	free(m.cells);
	afree(&a);
	return rc;
}

const struct command cmd_gen = {
	"gen", cmdgen, genusage,
	"write the cell specs and graph.ninja (build.ninja runs this for you)",
	genrows, 0,
};

static const char keyusage[] =
	"usage: wheelgen key [--config FILE] [--builddir DIR] [--host FILE] [--templates DIR]\n"
	"                    [--explain] CELL...\n"
	"\n"
	"Print \"KEY CELL\" for each CELL: the sha256 of everything that decides its wheel and\n"
	"test (its build and test specs without this host's paths, the source's identity: git\n"
	"commit, PyPI name==version or a path tree's content hash; the patches, the templates the\n"
	"steps run, the container image, and the key's format). The same cell has the same key\n"
	"in every clone on every host. A git cell's commit is its checkout's (BUILDDIR/src), else\n"
	"the lock file's.\n";

/* key's options */
struct keyopts {
	struct cmdopts c;
	int explain;
};

static const struct optrow keyrows[] = {
	OPT_CONFIG,
	OPT_BUILDDIR,
	OPT_HOST,
	OPT_TEMPLATES,
	OPTFLAG("explain", offsetof(struct keyopts, explain), "print the text that is hashed instead of the key"),
	OPTEND,
};

static int
cmdkey(const struct command *cmd, int argc, char **argv)
{
	struct keyopts o = { .c = { 0 } };
	struct keyed x;
	int i, rc = 1;

	parseopts(argc, argv, &o.c, cmd);
	if (o.c.nargs < 1)
		usagefail(cmd, "key needs at least one CELL");
	if (loadkeyed(&x, &o.c, KEY_FROM_CHECKOUT) == 0)
		rc = 0;
	for (i = 0; x.c && i < o.c.nargs; i++) {
		const struct cell *cl = cmdcell(&x.m, o.c.args[i], o.c.config);
		struct sb text = SB_INIT;
		char key[65];
		int r;

		if (!cl || (r = cellkey(&x.k, cl, NULL, key, &text)) < 0) {
			rc = 1;
		} else if (r == 1) {
			struct sb name = SB_INIT, stamp = SB_INIT;

			srcname(&name, cl->pkg, cl->version);
			bdpath(&stamp, o.c.builddir, BD_STAMP, name.buf);
			error("the key of %s is not known yet: its git source has no lock entry and no checkout "
			      "(ninja %s, or wheelgen lock)", cl->id, stamp.buf);
			sbfree(&name);
			sbfree(&stamp);
			rc = 1;
		} else if (o.explain) {
			fputs(text.buf, stdout);
		} else {
			printf("%s %s\n", key, cl->id);
		}
		sbfree(&text);
	}
	unloadkeyed(&x);
	return rc;
}

const struct command cmd_key = {
	"key", cmdkey, keyusage,
	"print the key of cells: the hash of everything that decides their wheels",
	keyrows, CMD_ARGS,
};
