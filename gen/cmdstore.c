/* cmdstore: the commands on the store and the index: restore, store, index. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "files.h"
#include "index.h"
#include "manifest.h"
#include "restore.h"
#include "wheelsjson.h"

static const char restoreusage[] =
	"usage: wheelgen restore [--config FILE] [--builddir DIR] [--host FILE] [--templates DIR]\n"
	"                        [--test] CELL\n"
	"\n"
	"ninja's wheel/<cell> runs this before building: it writes DIR/cells/CELL/key and, when\n"
	"the store holds the cell's key with a wheel whose sha256 matches, copies the wheel, its\n"
	"METADATA and its manifest (origin=store) into DIR/wheels/CELL/. Exit status 0 when\n"
	"restored, 1 when the cell must be built: not in the store, built from other inputs,\n"
	"or a store that could not be read or holds a wrong hash (a warning names it).\n";

/* restore's options */
struct restoreopts {
	struct cmdopts c;
	int test;
};

static const struct optrow restorerows[] = {
	OPT_CONFIG,
	OPT_BUILDDIR,
	OPT_HOST,
	OPT_TEMPLATES,
	OPTFLAG("test", offsetof(struct restoreopts, test),
		"ninja's test/<cell>: when the cell's wheel came from the store, whose test passed before it was "
		"published, write DIR/tests/CELL.ok (exit 0); exit 1 to test it, or always with WHEELGEN_RETEST=1"),
	OPTEND,
};

static int
cmdrestore(const struct command *cmd, int argc, char **argv)
{
	struct restoreopts o = { .c = { 0 } };
	struct keyed x;
	const struct cell *cl;
	int rc = 1;

	parseopts(argc, argv, &o.c, cmd);
	if (o.c.nargs != 1)
		usagefail(cmd, "restore needs one CELL");
	if (o.test)
		return restoretest(o.c.builddir, o.c.args[0]);
	if (loadkeyed(&x, &o.c, KEY_FROM_CHECKOUT) == 0 && (cl = cmdcell(&x.m, o.c.args[0], o.c.config)))
		rc = restorewheel(&x.k, &x.st, cl, o.c.builddir) == 0 ? 0 : 1;
	unloadkeyed(&x);
	return rc;
}

const struct command cmd_restore = {
	"restore", cmdrestore, restoreusage,
	"take a cell's wheel (or test) from the store instead of building it (ninja runs this)",
	restorerows, CMD_ARGS,
};

static const char storeusage[] =
	"usage: wheelgen store [--config FILE] [--builddir DIR] [--host FILE] [--templates DIR]\n"
	"                      (--pull | --unused [--delete] [--grace MINUTES] | verify [--repair])\n"
	"\n"
	"The store is where published cells live: for each, <cell>.manifest (with its key and\n"
	"test record), the wheel and its .metadata. It is read from $WHEELGEN_STORE (a directory,\n"
	"an http(s):// URL, or 'none'), else the config's publish.dir, else publish.http, else\n"
	"publish.github's releases: a cell's files are in the release\n"
	"<tag>-<package>-<version>-py<XY>[-<platform>] (its name without CUDA and torch), under\n"
	"$GITHUB_SERVER_URL (else https://github.com). A public store needs no token; reads send\n"
	"WG_HTTP_TOKEN (an HTTP store) or GH_TOKEN, else GITHUB_TOKEN (GitHub) where set, to the\n"
	"store's own host only. A store that timed out is given up on for the rest of the ninja\n"
	"run (DIR/store-down/).\n"
	"  verify   the scrub: every entry's wheel (and .metadata) downloaded and hashed against\n"
	"           its manifest; one line each on stdout, '<entry>\\tok' or '<entry>\\tdamaged: why'.\n"
	"           Exit status 1 when damage stays (or the store cannot be read)\n";

/* store's options */
struct storeopts {
	struct cmdopts c;
	int pull, unused, del, repair;
	long grace; /* --grace MINUTES: a younger temporary may be a publish's under way */
};
#define STO(field) offsetof(struct storeopts, field)

static const struct optrow storerows[] = {
	OPT_CONFIG,
	OPT_BUILDDIR,
	OPT_HOST,
	OPT_TEMPLATES,
	OPTFLAG("pull", STO(pull),
		"for the index of everything (ninja merge-index): the manifests of the config's cells that the "
		"store holds with their keys go to DIR/store/<cell>/, with their wheels unless index.base_url is set "
		"(the pages link there)"),
	OPTFLAG("unused", STO(unused),
		"list the store's entries that no cell of the config keys, and the temporaries of publishes that "
		"did not finish (its tmp/), with their age"),
	OPTFLAG("delete", STO(del),
		"with --unused: remove them (the manifest first; a wheel another kept entry names stays). An HTTP "
		"store needs DELETE (WebDAV) and a listing (autoindex); a GitHub store is listed through "
		"$GITHUB_API_URL (every page), and its assets are removed with gh release delete-asset; temporaries "
		"go when they are older than --grace minutes"),
	OPTINT("grace", STO(grace), "MINUTES", "minutes", 0, 525600,
	       "with --delete: the temporaries younger than this stay (default 60: a younger one may be a "
	       "publish's under way)"),
	OPTFLAG("repair", STO(repair),
		"with verify: take each damaged entry out (a directory store's manifest becomes "
		"<cell>.manifest.damaged; an HTTP store's is deleted), so that the next plan builds the cell again. "
		"Restore and merge-index do the same with the damage they find"),
	OPTEND,
};

static int
cmdstore(const struct command *cmd, int argc, char **argv)
{
	struct storeopts o = { .grace = 60 };
	struct keyed x;
	int rc = 1, verify;

	parseopts(argc, argv, &o.c, cmd);
	verify = o.c.nargs == 1 && !strcmp(o.c.args[0], "verify");
	if (verify ? o.pull || o.unused || o.del : o.c.nargs || o.repair || o.pull == o.unused || (o.del && !o.unused))
		usagefail(cmd, "store needs --pull, --unused [--delete] [--grace MINUTES] or verify [--repair]");
	if (loadkeyed(&x, &o.c, KEY_FROM_LOCK) < 0)
		;
	else if (x.st.kind == STORE_NONE && (o.unused || verify))
		error("no store: the config has no publish: destination and WHEELGEN_STORE is not set");
	else if (x.st.kind == STORE_NONE)
		rc = 0; /* nothing to pull: the index holds the cells built here */
	else if (mkdirs(o.c.builddir) < 0)
		;
	else if (verify)
		rc = verifystore(&x.st, o.c.builddir, o.repair) != 0;
	else
		rc = (o.pull ? pullstore(&x.k, &x.st, &x.m, o.c.builddir, x.c->baseurl != NULL)
			       : unusedstore(&x.k, &x.st, &x.m, o.c.builddir, o.del, o.grace)) < 0;
	unloadkeyed(&x);
	return rc;
}

const struct command cmd_store = {
	"store", cmdstore, storeusage,
	"the store: pull the config's stored cells for the index; list or remove unused entries",
	storerows, CMD_ARGS,
};

static const char indexusage[] =
	"usage: wheelgen index [--builddir DIR] [--spec FILE] [--templates DIR]\n"
	"                      (--manifests FILE | --from-list FILE)\n"
	"\n"
	"Write DIR/index/ from the wheel manifests listed in FILE (separated by whitespace):\n"
	"  files/               the wheels and their METADATA (<wheel>.metadata, PEP 658);\n"
	"                       not with a base_url (the pages link the wheels there)\n"
	"  simple/              every wheel: index.html (PEP 503) and index.json (PEP 691/700)\n"
	"  <variant>/simple/    one index per CUDA/torch variant (cu130-torch2.9), holding its\n"
	"                       wheels and those without CUDA\n"
	"  index.html           which wheel fits which setup, and how to install from each variant\n"
	"  wheels.json          every wheel: package, version, tags, CUDA, torch, GPU code, its index\n"
	"  find.py              the finder (a copy of find.py of --templates DIR):\n"
	"                       it reads a machine and names the wheel that fits, or why none does\n"
	"Pages are written only if their content changed; pages of projects and variants\n"
	"that are gone and files no manifest names are removed. templates/nginx-index.conf serves\n"
	"the tree, HTML or JSON by the Accept header.\n"
	"The project pages of an index with 256 projects or more are written by one thread\n"
	"per processor (at most 8); WHEELGEN_INDEX_THREADS=N sets the number.\n";

/* index's options (index.h's struct indexopts: what writeindex is asked) */
struct indexcmdopts {
	struct cmdopts c;
	const char *manifests, *fromlist, *spec;
};
#define IO(field) offsetof(struct indexcmdopts, field)

static const struct optrow indexrows[] = {
	OPT_BUILDDIR,
	OPTSTR("spec", IO(spec), "FILE",
	       "the base_url, the title and the yanked versions (ninja passes DIR/index.spec, written by gen from "
	       "the config)"),
	OPT_TEMPLATES,
	OPTSTR("manifests", IO(manifests), "FILE", "the wheel manifests, separated by whitespace"),
	OPTSTR("from-list", IO(fromlist), "FILE",
	       "the same pages from distribution file names, one per line (no files, hashes or metadata; for "
	       "benchmarks: bench/index-bench.sh)"),
	OPTEND,
};

static int
cmdindex(const struct command *cmd, int argc, char **argv)
{
	struct indexopts io = { 0 };
	struct sb finder = SB_INIT;
	struct indexcmdopts o = { .c = { 0 } };
	const char *file, *sep;
	char *list, *p, **v = NULL;
	size_t n = 0, cap = 0, len;
	int rc;

	parseopts(argc, argv, &o.c, cmd);
	if (!(file = o.fromlist ? o.fromlist : o.manifests))
		usagefail(cmd, "index needs --manifests FILE or --from-list FILE");
	list = readfile(file, &len);
	if (!list) {
		error("cannot read '%s': %s", file, strerror(errno));
		return 1;
	}
	sep = o.fromlist ? "\r\n" : " \t\n";
	for (p = strtok(list, sep); p; p = strtok(NULL, sep)) {
		GROW(v, cap, n + 1);
		v[n++] = p;
	}
	io.fromlist = o.fromlist != NULL;
	sbaddf(&finder, "%s/" FINDER_FILE, o.c.templates);
	io.finder = finder.buf;
	rc = (o.spec && indexspecread(o.spec, &io) < 0) || writeindex(o.c.builddir, v, n, &io) < 0;
	indexoptsfree(&io);
	sbfree(&finder);
	free(v);
	free(list);
	return rc;
}

const struct command cmd_index = {
	"index", cmdindex, indexusage,
	"write the static package index from wheel manifests (ninja runs this)",
	indexrows, 0,
};
