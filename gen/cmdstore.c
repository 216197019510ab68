/* cmdstore: the commands on the store and the index: restore, store, index. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "files.h"
#include "index.h"
#include "manifest.h"
#include "restore.h"

static const char restoreusage[] =
	"usage: wheelgen restore [--config FILE] [--builddir DIR] [--host FILE] [--templates DIR]\n"
	"                        [--test] CELL\n"
	"\n"
	"ninja's wheel/<cell> runs this before building: it writes DIR/cells/CELL/key and, when\n"
	"the store holds the cell's key with a wheel whose sha256 matches, copies the wheel, its\n"
	"METADATA and its manifest (origin=store) into DIR/wheels/CELL/. Exit status 0 when\n"
	"restored, 1 when the cell must be built: not in the store, built from other inputs,\n"
	"or a store that could not be read or holds a wrong hash (a warning names it).\n"
	"  --test   ninja's test/<cell>: when the cell's wheel came from the store, whose test\n"
	"           passed before it was published, write DIR/tests/CELL.ok (exit 0); exit 1\n"
	"           to test it, or always with WHEELGEN_RETEST=1\n";

static int
cmdrestore(const struct command *cmd, int argc, char **argv)
{
	struct keyed x;
	const struct cell *cl;
	int rc = 1;

	parseopts(argc, argv, &x.o, cmd);
	if (x.o.nargs != 1) {
		usagefail(cmd->usage, "restore needs one CELL");
	}
	if (x.o.test)
		return restoretest(x.o.builddir, x.o.args[0]);
	if (loadkeyed(&x, KEY_FROM_CHECKOUT) == 0 && (cl = cmdcell(&x.m, x.o.args[0], x.o.config)))
		rc = restorewheel(&x.k, &x.st, cl, x.o.builddir) == 0 ? 0 : 1;
	unloadkeyed(&x);
	return rc;
}

static const char *const restoreopts[] = { "config", "builddir", "host", "templates", "test", NULL };
const struct command cmd_restore = {
	"restore", cmdrestore, restoreusage,
	"take a cell's wheel (or test) from the store instead of building it (ninja runs this)",
	restoreopts, CMD_ARGS | CMD_HOST,
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
	"  --pull     for the index of everything (ninja merge-index): the manifests of the\n"
	"             config's cells that the store holds with their keys go to DIR/store/<cell>/,\n"
	"             with their wheels unless index.base_url is set (the pages link there)\n"
	"  --unused   list the store's entries that no cell of the config keys, and the\n"
	"             temporaries of publishes that did not finish (its tmp/), with their age\n"
	"  --delete   with --unused: remove them (the manifest first; a wheel another kept entry\n"
	"             names stays). An HTTP store needs DELETE (WebDAV) and a listing (autoindex);\n"
	"             a GitHub store is listed through $GITHUB_API_URL (every page), and its\n"
	"             assets are removed with gh release delete-asset; temporaries go when they\n"
	"             are older than --grace minutes (default 60: a younger one may be a publish's\n"
	"             under way)\n"
	"  verify     the scrub: every entry's wheel (and .metadata) downloaded and hashed against\n"
	"             its manifest; one line each on stdout, '<entry>\\tok' or '<entry>\\tdamaged: why'.\n"
	"             Exit status 1 when damage stays (or the store cannot be read)\n"
	"  --repair   with verify: take each damaged entry out (a directory store's manifest becomes\n"
	"             <cell>.manifest.damaged; an HTTP store's is deleted), so that the next plan\n"
	"             builds the cell again. Restore and merge-index do the same with the damage\n"
	"             they find\n";

static int
cmdstore(const struct command *cmd, int argc, char **argv)
{
	struct keyed x;
	int rc = 1, verify;

	parseopts(argc, argv, &x.o, cmd);
	verify = x.o.nargs == 1 && !strcmp(x.o.args[0], "verify");
	if (verify ? x.o.pull || x.o.unused || x.o.del
		   : x.o.nargs || x.o.repair || x.o.pull == x.o.unused || (x.o.del && !x.o.unused)) {
		usagefail(cmd->usage, "store needs --pull, --unused [--delete] [--grace MINUTES] or verify [--repair]");
	}
	if (loadkeyed(&x, KEY_FROM_LOCK) < 0)
		;
	else if (x.st.kind == STORE_NONE && (x.o.unused || verify))
		error("no store: the config has no publish: destination and WHEELGEN_STORE is not set");
	else if (x.st.kind == STORE_NONE)
		rc = 0; /* nothing to pull: the index holds the cells built here */
	else if (mkdirs(x.o.builddir) < 0)
		;
	else if (verify)
		rc = verifystore(&x.st, x.o.builddir, x.o.repair) != 0;
	else
		rc = (x.o.pull ? pullstore(&x.k, &x.st, &x.m, x.o.builddir, x.c->baseurl != NULL)
			       : unusedstore(&x.k, &x.st, &x.m, x.o.builddir, x.o.del, x.o.grace)) < 0;
	unloadkeyed(&x);
	return rc;
}

static const char *const storeopts[] = { "config", "builddir", "host", "templates", "pull", "unused", "delete", "repair", "grace", NULL };
const struct command cmd_store = {
	"store", cmdstore, storeusage,
	"the store: pull the config's stored cells for the index; list or remove unused entries",
	storeopts, CMD_ARGS | CMD_HOST,
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
	"  find.py              the finder (a copy of DIR/find.py, --templates DIR: default templates):\n"
	"                       it reads a machine and names the wheel that fits, or why none does\n"
	"Pages are written only if their content changed; pages of projects and variants\n"
	"that are gone and files no manifest names are removed. --spec FILE (ninja passes\n"
	"DIR/index.spec, written by gen from the config) gives the base_url, the title and\n"
	"the yanked versions. templates/nginx-index.conf serves\n"
	"the tree, HTML or JSON by the Accept header. --from-list FILE builds the same pages\n"
	"from distribution file names, one per line (no files, hashes or metadata; for\n"
	"benchmarks: bench/index-bench.sh).\n"
	"The project pages of an index with 256 projects or more are written by one thread\n"
	"per processor (at most 8); WHEELGEN_INDEX_THREADS=N sets the number.\n";

static int
cmdindex(const struct command *cmd, int argc, char **argv)
{
	struct indexopts io = { 0 };
	struct sb finder = SB_INIT;
	struct opts o;
	char *list, *p, **v = NULL;
	size_t n = 0, cap = 0, len;
	int rc;

	parseopts(argc, argv, &o, cmd);
	if (!o.manifests) {
		usagefail(cmd->usage, "index needs --manifests FILE or --from-list FILE");
	}
	list = readfile(o.manifests, &len);
	if (!list) {
		error("cannot read '%s': %s", o.manifests, strerror(errno));
		return 1;
	}
	for (p = strtok(list, o.fromlist ? "\r\n" : " \t\n"); p; p = strtok(NULL, o.fromlist ? "\r\n" : " \t\n")) {
		GROW(v, cap, n + 1);
		v[n++] = p;
	}
	io.fromlist = o.fromlist;
	sbaddf(&finder, "%s/find.py", o.templates);
	io.finder = finder.buf;
	rc = (o.spec && indexspecread(o.spec, &io) < 0) || writeindex(o.builddir, v, n, &io) < 0;
	indexoptsfree(&io);
	sbfree(&finder);
	free(v);
	free(list);
	return rc;
}

static const char *const indexopts[] = { "builddir", "manifests", "from-list", "spec", "templates", NULL };
const struct command cmd_index = {
	"index", cmdindex, indexusage,
	"write the static package index from wheel manifests (ninja runs this)",
	indexopts, 0,
};
