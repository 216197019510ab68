/* cmdcells: the commands on a config and its cells: check, matrix, gen, key. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "files.h"
#include "graph.h"
#include "layout.h"
#include "plan.h"
#include "sources.h"

static const char checkusage[] =
	"usage: wheelgen check [--config FILE] [--verbose]\n"
	"\n"
	"Check FILE (default: the config ./configure named, else config/packages.yml): YAML\n"
	"syntax, keys, types, names,\n"
	"versions, excludes, includes and profiles. Every problem is printed as\n"
	"file:line:col: error: message, with the line and a caret. Exit status 1 if any.\n"
	"  --verbose   also list the cells that excludes and the torch table drop, and why\n";

static int
cmdcheck(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct opts o;
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

static const char *const checkopts[] = { "config", "verbose", NULL };
const struct command cmd_check = {
	"check", cmdcheck, checkusage,
	"check a config and print every problem in it",
	checkopts, 0,
};

static const char matrixusage[] =
	"usage: wheelgen matrix [--config FILE] [--json | --github [--by-build] [--split N] | --tsv | --table\n"
	"                       | --count] [--profile NAME] [--canary] [--missing] [--shard I/N] [--host FILE]\n"
	"                       [--no-families] [--builddir DIR] [--templates DIR] [--verbose]\n"
	"\n"
	"Print the cells of FILE (default: the config ./configure named for --builddir, else\n"
	"config/packages.yml), one id per line.\n"
	"  --json        a JSON list of objects: cell, package, version, python, cuda, torch, key,\n"
	"                build, platform, runner (the GitHub Actions runner that builds it natively)\n"
	"  --github      a GitHub Actions matrix on one line (for $GITHUB_OUTPUT):\n"
	"                {\"include\": [ ...the same objects... ]}\n"
	"  --split N     with --github: N matrices, as lines matrixK={...} and countK=ROWS\n"
	"                (K = 1..N) for $GITHUB_OUTPUT: each platform's rows in matrices of\n"
	"                their own, at most 256 rows each (GitHub's limit); an error when N\n"
	"                matrices cannot hold them. With --by-build, a sharded wheel's rows go to\n"
	"                N more matrices each for its part rows, partsK={...} partcountK=ROWS, and\n"
	"                its final row, finalsK={...} finalcountK=ROWS (at most 256 rows each, filled\n"
	"                in order, a wheel's parts in one where they fit; an error past N x 256):\n"
	"                its parts wait for nothing, its final row for every part matrix; each\n"
	"                matrix's rows longest first (as the plan's estimate has them)\n"
	"  --by-build    with --json or --github: one row per wheel to build, not per cell; a wheel\n"
	"                that several cells test (abi3, torch_abi: stable) gets the first one's row\n"
	"                with cells (the selected cells that test it), tests and publishes (their\n"
	"                ninja targets, space-separated): one CI job builds it once and tests it in each.\n"
	"                A wheel whose package has shards: \"N\" gets N part rows first, its row with\n"
	"                part (\"K\"), parts (\"N\") and targets (\"shard/<cell>/K\") and no tests, then\n"
	"                its own row with parts (\"N\"): the final job, which links what the parts made.\n"
	"                Every row has family (its family: the cell less -py<XY>). Two or more wheels\n"
	"                of one family whose package has shards, or for which it costs fewer runner-\n"
	"                seconds (CUDA kernels that never include Python.h), share one set of part\n"
	"                rows, its first wheel's (N: its shards, else 1), and each has a final row\n"
	"                with parts and partsof (the cell whose parts it waits for): it compiles only\n"
	"                what its Python changes, the rest from the family's compile cache\n"
	"  --no-families every wheel on its own (its own parts where its package has shards): the\n"
	"                plan before families\n"
	"  --tsv         tab-separated: cell package version python cuda torch key build platform\n"
	"                runner (header first)\n"
	"  --table       a table for people: each cell's platform, whether this host can build it\n"
	"                and why not, and \"[N parts]\" where its package has shards; only the table\n"
	"                lists the cells no lane builds yet (CUDA and torch for win_amd64: a Windows\n"
	"                runner with MSVC is needed)\n"
	"  --profile P   only the cells of profile P\n"
	"  --canary      only one cell per package and platform (of the profile's): its newest version against\n"
	"                its newest torch, PyPI's CUDA of that torch (else its newest CUDA), the\n"
	"                middle of its Pythons; what an upstream update's pull request builds\n"
	"  --count       instead of the cells, how many there are: a line \"(all)<TAB>N\", then\n"
	"                one \"PROFILE<TAB>N\" per profile of the config; where the plan has part\n"
	"                rows (shards, families), a third column: the part rows of the wheels to build\n"
	"  --missing     only the cells whose key the store lacks (the store: see 'wheelgen store\n"
	"                --help'); a store that cannot be read is a warning, and every cell is listed\n"
	"  --shard I/N   only the I-th of N near-equal contiguous shards (1 <= I <= N)\n"
	"  --host FILE   the host description that ./configure wrote (default: BUILDDIR/host.txt,\n"
	"                when there is one); under\n"
	"                --backend docker/podman it names the images, which are part of the keys\n"
	"  --builddir D  where checkouts are (their commits key git cells the lock file does not\n"
	"                pin); default out\n"
	"  --templates D the steps' scripts, part of every key (default templates)\n"
	"  --verbose     list dropped cells and why on stderr\n"
	"A key is empty when it cannot be known yet: a git source with no lock entry and no\n"
	"checkout ('wheelgen lock' pins them).\n";

/* the part rows of the plan of m's cells that profile p selects (NULL: all) */
static size_t
partrows(const struct matrix *m, const struct profile *p, const struct jobopts *jo)
{
	struct matrix sub = { 0 };
	struct jobplan plan;
	size_t j, parts = 0;

	sub.cells = xcalloc(m->n + 1, sizeof(*sub.cells));
	for (j = 0; j < m->n; j++) {
		if (!p || profilehas(p, &m->cells[j]))
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
   to build */
static void
printcount(const struct config *c, const struct matrix *m, const struct jobopts *jo)
{
	size_t i, j, parts = partrows(m, NULL, jo);
	int sharded = parts > 0;

	printf(sharded ? "(all)\t%zu\t%zu\n" : "(all)\t%zu\n", m->n, parts);
	for (i = 0; i < c->nprofiles; i++) {
		size_t hits = 0;

		for (j = 0; j < m->n; j++)
			hits += profilehas(&c->profiles[i], &m->cells[j]);
		parts = sharded ? partrows(m, &c->profiles[i], jo) : 0;
		printf(sharded ? "%s\t%zu\t%zu\n" : "%s\t%zu\n", c->profiles[i].name, hits, parts);
	}
}

/* the figures the plan's jobs are estimated with, per package of c (the model: jobs.h) */
static struct pkgtimes *
plantimes(const struct config *c, const struct matrix *m)
{
	struct pkgtimes *t = xcalloc(c->npkgs + 1, sizeof(*t));
	size_t i;

	for (i = 0; i < m->n; i++) {
		size_t k = (size_t)(m->cells[i].pkg - c->pkgs);

		if (!t[k].from)
			jobsmodel(&m->cells[i], &t[k]);
	}
	return t;
}

static int
cmdmatrix(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct sb s = SB_INIT;
	const struct profile *prof = NULL;
	struct opts o;
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
	struct pkgtimes *times = NULL;

	memset(&k, 0, sizeof(k));
	memset(&st, 0, sizeof(st));
	parseopts(argc, argv, &o, cmd);
	if (o.bybuild && o.format != FMT_JSON && o.format != FMT_GITHUB) {
		error("--by-build goes with --json or --github");
		return 2;
	}
	if (o.split && o.format != FMT_GITHUB) {
		error("--split goes with --github");
		return 2;
	}
	c = cmdload(&a, &o, &h, &m);
	if (!c)
		goto out;
	if (o.profile && !(prof = cmdprofile(c, o.profile, o.config)))
		goto out;
	times = plantimes(c, &m);
	mo.jobs.times = times;
	mo.jobs.pkgs = c->pkgs;
	mo.jobs.overhead = 0;
	mo.jobs.nofamilies = o.nofamilies;
	if (o.count) {
		printcount(c, &m, &mo.jobs);
		rc = 0;
		goto out;
	}
	/* keep the selected cells at the front, with their keys where they are shown or asked for */
	keys = xcalloc(m.n ? m.n : 1, sizeof(*keys));
	keyctxinit(&k, c, o.builddir, o.templates, KEY_FROM_LOCK);
	storeopen(c, o.builddir, &st);
	if (o.missing && st.kind == STORE_NONE)
		warn("--missing: no store (the config has no publish: destination and "
				"WHEELGEN_STORE is not set): every cell is missing");
	sbaddf(&tmp, "%s/.matrix-manifest.%ld", o.builddir, (long)getpid());
	po.prof = prof;
	po.canary = o.canary;
	po.missing = o.missing;
	po.needkeys = o.format && o.format != FMT_TABLE;
	po.alllanes = o.format == FMT_TABLE;
	po.tmp = tmp.buf;
	if ((o.missing && st.kind != STORE_NONE && mkdirs(o.builddir) < 0) || plancells(&k, &st, &m, &po, keys, &n) < 0)
		goto out;
	mo.format = o.format;
	mo.bybuild = o.bybuild;
	mo.shard = o.shard;
	mo.nshards = o.nshards;
	mo.hostknown = o.host != NULL;
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
	free(times);
	free(keys);
	keyctxfree(&k);
	storefree(&st);
	free(m.cells);
	afree(&a);
	return rc;
}

static const char *const matrixopts[] = { "config", "json", "github", "by-build", "split", "tsv", "table", "count", "profile",
					   "canary", "missing", "shard", "host", "builddir", "templates", "verbose",
					   "no-families", NULL };
const struct command cmd_matrix = {
	"matrix", cmdmatrix, matrixusage,
	"print the cells of a config (plain, --json, --github, --tsv, --table)",
	matrixopts, CMD_HOST,
};

static const char genusage[] =
	"usage: wheelgen gen [--config FILE] [--builddir DIR] [--host FILE] [--verbose]\n"
	"\n"
	"Check FILE, then write DIR/cells/<cell>/spec and test for every cell and\n"
	"DIR/graph.ninja, each only if its content changed. Nothing is written when the\n"
	"config has errors. DIR defaults to out, FILE to the config ./configure named for\n"
	"DIR (else config/packages.yml), the host file to DIR/host.txt.\n"
	"  --verbose   list dropped cells and cells this host cannot build, and why\n";

static int
cmdgen(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct graphopts go = { 0 };
	struct graphstats st;
	struct opts o;
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

static const char *const genopts[] = { "config", "builddir", "host", "verbose", NULL };
const struct command cmd_gen = {
	"gen", cmdgen, genusage,
	"write the cell specs and graph.ninja (build.ninja runs this for you)",
	genopts, CMD_HOST,
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
	"the lock file's. --explain prints the text that is hashed instead.\n";

static int
cmdkey(const struct command *cmd, int argc, char **argv)
{
	struct keyed x;
	int i, rc = 1;

	parseopts(argc, argv, &x.o, cmd);
	if (x.o.nargs < 1) {
		usagefail(cmd->usage, "key needs at least one CELL");
	}
	if (loadkeyed(&x, KEY_FROM_CHECKOUT) == 0)
		rc = 0;
	for (i = 0; x.c && i < x.o.nargs; i++) {
		const struct cell *cl = cmdcell(&x.m, x.o.args[i], x.o.config);
		struct sb text = SB_INIT;
		char key[65];
		int r;

		if (!cl || (r = cellkey(&x.k, cl, NULL, key, &text)) < 0) {
			rc = 1;
		} else if (r == 1) {
			struct sb name = SB_INIT, stamp = SB_INIT;

			srcname(&name, cl->pkg, cl->version);
			bdpath(&stamp, x.o.builddir, BD_STAMP, name.buf);
			error("the key of %s is not known yet: its git source has no lock entry and no checkout "
			      "(ninja %s, or wheelgen lock)", cl->id, stamp.buf);
			sbfree(&name);
			sbfree(&stamp);
			rc = 1;
		} else if (x.o.explain) {
			fputs(text.buf, stdout);
		} else {
			printf("%s %s\n", key, cl->id);
		}
		sbfree(&text);
	}
	unloadkeyed(&x);
	return rc;
}

static const char *const keyopts[] = { "config", "builddir", "host", "templates", "explain", NULL };
const struct command cmd_key = {
	"key", cmdkey, keyusage,
	"print the key of cells: the hash of everything that decides their wheels",
	keyopts, CMD_ARGS | CMD_HOST,
};
