/* wheelgen: dispatch subcommands. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claim.h"
#include "config.h"
#include "esc.h"
#include "files.h"
#include "checkout.h"
#include "gitlock.h"
#include "layout.h"
#include "sources.h"
#include "graph.h"
#include "index.h"
#include "matrix.h"
#include "matrixout.h"
#include "outdated.h"
#include "pep.h"
#include "plan.h"
#include "restore.h"
#include "status.h"
#include "store.h"
#include "torchtable.h"
#include "summary.h"
#include "util.h"

#define WG_VERSION "0.1.0"

static const char usage[] =
	"usage: wheelgen <command> [options]\n"
	"\n"
	"Turns a package list (packages.yml) into a Ninja graph that builds, tests and\n"
	"indexes Python wheels for every package x version x Python x CUDA [x torch] cell.\n"
	"\n"
	"commands:\n"
	"  check    check a config and print every problem in it\n"
	"  matrix   print the cells of a config (plain, --json, --github, --tsv, --table)\n"
	"  gen      write the cell specs and graph.ninja (build.ninja runs this for you)\n"
	"  index    write the static package index from wheel manifests (ninja runs this)\n"
	"  lock     resolve the tag of every git package version into the lock file\n"
	"  fetch    update the mirrors of git sources (one URL, or every one of a config)\n"
	"  checkout check out one git source with its submodules (ninja runs this)\n"
	"  outdated list upstream tags newer than the newest configured version (--write: add them)\n"
	"  torch-table  the torch table read from torch's page on a package index (--write: update it)\n"
	"  key      print the key of cells: the hash of everything that decides their wheels\n"
	"  restore  take a cell's wheel (or test) from the store instead of building it (ninja runs this)\n"
	"  store    the store: pull the config's stored cells for the index; list or remove unused entries\n"
	"  status   the build and test steps of the build directory: running, ok, failed; time; last line\n"
	"  claim    take the build directory for the ninja run above (ninja's edges run this first)\n"
	"  summary  Markdown for a CI job's summary: the plan, a build job's cells, the index\n"
	"\n"
	"Without --config, commands read the config ./configure named for the build directory\n"
	"(DIR/config.ninja), else config/packages.yml.\n"
	"Run 'wheelgen <command> --help' for a command's options. Usually you run\n"
	"'./configure && ninja', which builds wheelgen and runs it.\n";

static const char checkusage[] =
	"usage: wheelgen check [--config FILE] [--verbose]\n"
	"\n"
	"Check FILE (default: the config ./configure named, else config/packages.yml): YAML\n"
	"syntax, keys, types, names,\n"
	"versions, excludes, includes and profiles. Every problem is printed as\n"
	"file:line:col: error: message, with the line and a caret. Exit status 1 if any.\n"
	"  --verbose   also list the cells that excludes and the torch table drop, and why\n";

static const char matrixusage[] =
	"usage: wheelgen matrix [--config FILE] [--json | --github [--by-build] [--split N] | --tsv | --table\n"
	"                       | --count] [--profile NAME] [--canary] [--missing] [--shard I/N] [--host FILE]\n"
	"                       [--builddir DIR] [--templates DIR] [--verbose]\n"
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
	"                matrices cannot hold them\n"
	"  --by-build    with --json or --github: one row per wheel to build, not per cell; a wheel\n"
	"                that several cells test (abi3, torch_abi: stable) gets the first one's row\n"
	"                with cells (the selected cells that test it), tests and publishes (their\n"
	"                ninja targets, space-separated): one CI job builds it once and tests it in each\n"
	"  --tsv         tab-separated: cell package version python cuda torch key build platform\n"
	"                runner (header first)\n"
	"  --table       a table for people: each cell's platform, whether this host can build it\n"
	"                and why not\n"
	"  --profile P   only the cells of profile P\n"
	"  --canary      only one cell per package and platform (of the profile's): its newest version against\n"
	"                its newest torch, PyPI's CUDA of that torch (else its newest CUDA), the\n"
	"                middle of its Pythons; what an upstream update's pull request builds\n"
	"  --count       instead of the cells, how many there are: a line \"(all)<TAB>N\", then\n"
	"                one \"PROFILE<TAB>N\" per profile of the config\n"
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

static const char genusage[] =
	"usage: wheelgen gen [--config FILE] [--builddir DIR] [--host FILE] [--verbose]\n"
	"\n"
	"Check FILE, then write DIR/cells/<cell>/spec and test for every cell and\n"
	"DIR/graph.ninja, each only if its content changed. Nothing is written when the\n"
	"config has errors. DIR defaults to out, FILE to the config ./configure named for\n"
	"DIR (else config/packages.yml), the host file to DIR/host.txt.\n"
	"  --verbose   list dropped cells and cells this host cannot build, and why\n";

static const char indexusage[] =
	"usage: wheelgen index [--builddir DIR] [--spec FILE] (--manifests FILE | --from-list FILE)\n"
	"\n"
	"Write DIR/index/ from the wheel manifests listed in FILE (separated by whitespace):\n"
	"  files/               the wheels and their METADATA (<wheel>.metadata, PEP 658);\n"
	"                       not with a base_url (the pages link the wheels there)\n"
	"  simple/              every wheel: index.html (PEP 503) and index.json (PEP 691/700)\n"
	"  <variant>/simple/    one index per CUDA/torch variant (cu130-torch2.9), holding its\n"
	"                       wheels and those without CUDA\n"
	"  index.html           which wheel fits which setup, and how to install from each variant\n"
	"Pages are written only if their content changed; pages of projects and variants\n"
	"that are gone and files no manifest names are removed. --spec FILE (ninja passes\n"
	"DIR/index.spec, written by gen from the config) gives the base_url, the title and\n"
	"the yanked versions. templates/nginx-index.conf serves\n"
	"the tree, HTML or JSON by the Accept header. --from-list FILE builds the same pages\n"
	"from distribution file names, one per line (no files, hashes or metadata; for\n"
	"benchmarks: bench/index-bench.sh).\n"
	"The project pages of an index with 256 projects or more are written by one thread\n"
	"per processor (at most 8); WHEELGEN_INDEX_THREADS=N sets the number.\n";

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

static const char storeusage[] =
	"usage: wheelgen store [--config FILE] [--builddir DIR] [--host FILE] [--templates DIR]\n"
	"                      (--pull | --unused [--delete] | verify [--repair])\n"
	"\n"
	"The store is where published cells live: for each, <cell>.manifest (with its key and\n"
	"test record), the wheel and its .metadata. It is read from $WHEELGEN_STORE (a directory,\n"
	"an http(s):// URL, or 'none'), else the config's publish.dir, else publish.http, else\n"
	"the download URL of publish.github's release. Reading needs no token.\n"
	"  --pull     for the index of everything (ninja merge-index): the manifests of the\n"
	"             config's cells that the store holds with their keys go to DIR/store/<cell>/,\n"
	"             with their wheels unless index.base_url is set (the pages link there)\n"
	"  --unused   list the store's entries that no cell of the config keys\n"
	"  --delete   with --unused: remove them (the manifest first; a wheel another kept entry\n"
	"             names stays). An HTTP store needs DELETE (WebDAV) and a listing (autoindex)\n"
	"  verify     the scrub: every entry's wheel (and .metadata) downloaded and hashed against\n"
	"             its manifest; one line each on stdout, '<entry>\\tok' or '<entry>\\tdamaged: why'.\n"
	"             Exit status 1 when damage stays (or the store cannot be read)\n"
	"  --repair   with verify: take each damaged entry out (a directory store's manifest becomes\n"
	"             <cell>.manifest.damaged; an HTTP store's is deleted), so that the next plan\n"
	"             builds the cell again. Restore and merge-index do the same with the damage\n"
	"             they find\n";

static const char claimusage[] =
	"usage: wheelgen claim [--builddir DIR] [--fd N]\n"
	"\n"
	"Every graph edge that changes DIR (fetch, checkout, wheel, test, index, publish,\n"
	"regeneration) runs this first. The first edge of a ninja run records that ninja's pid\n"
	"in DIR/.lock; an edge of a second ninja run in the same DIR stops at once with\n"
	"\"another ninja is running in DIR (pid N)\" while the first one lives. Outside ninja\n"
	"it only checks.\n"
	"  --fd N   a descriptor open on DIR/.lock.run that the edge's shell keeps while its\n"
	"           step runs: it gets a shared lock. A run that takes over from a ninja killed\n"
	"           with -9 waits until the steps that ninja left running have ended.\n";

static const char statususage[] =
	"usage: wheelgen status [--builddir DIR] [--all]\n"
	"\n"
	"Whether a ninja runs in DIR (default out), and for each build and test step of its\n"
	"runs: the step, its cell, its state (running, ok, failed, or stopped: its ninja is\n"
	"gone), its time so far or in all, and the last line of its log (DIR/logs/). Running\n"
	"steps first, then the 20 newest; --all lists every one. Read from the logs, so it\n"
	"works from a second terminal while ninja runs, and in CI after it. A long step writes\n"
	"a heartbeat line to its log every minute, with the build's [N/M] progress.\n";

static const char lockusage[] =
	"usage: wheelgen lock [--config FILE] [--builddir DIR] [--update]\n"
	"\n"
	"Fetch every git source of FILE into its mirror under DIR/git/, resolve the tag of\n"
	"each configured version and record the commit in the lock file: FILE with .lock\n"
	"for its extension (config/packages.yml -> config/packages.lock).\n"
	"A tag that now points elsewhere than the lock says is an error naming the tag and\n"
	"both commits, unless --update is given (then the lock takes the new commit).\n"
	"Entries for versions the config no longer lists are removed, each named.\n";

static const char fetchusage[] =
	"usage: wheelgen fetch [--builddir DIR] [--url URL | --config FILE]\n"
	"\n"
	"Fetch heads and tags of URL (or of every git source of FILE, by default the config\n"
	"./configure named) into its bare mirror\n"
	"DIR/git/<host>/<path>.git, creating it if needed. Prints the bytes received.\n";

static const char checkoutusage[] =
	"usage: wheelgen checkout [--builddir DIR] [--update] SPEC\n"
	"\n"
	"Check out the source that SPEC (DIR/src/<package>-<version>.spec, written by\n"
	"wheelgen gen) describes, with its submodules, fetching only what the mirrors lack,\n"
	"and check the commit against the lock file. Prints the commit and bytes received.\n";

static const char outdatedusage[] =
	"usage: wheelgen outdated [--config FILE] [--json] [--pre] [--write FILE]\n"
	"\n"
	"For every git package of FILE, list the upstream tags that match its tag pattern\n"
	"and name a version newer (PEP 440) than the newest configured one. Nothing is\n"
	"cloned: the tags are listed from the remote. Pre-releases only with --pre.\n"
	"  --json        a JSON list: package, url, configured, newer (newest first)\n"
	"  --write FILE  add the newer versions to each package's versions: list in FILE (the\n"
	"                config read), oldest first, changing nothing else in the file; one line\n"
	"                per package says what was added. Nothing is written when a remote could\n"
	"                not be listed. Run 'wheelgen lock' to pin the new versions' commits.\n";

static const char torchtableusage[] =
	"usage: wheelgen torch-table [--config FILE | --write FILE] [--index URL] [--cuda-index URL|none]\n"
	"                            [--since X.Y] [--pre] [--range] [--drop] [--follow]\n"
	"                            [--no-platforms] [--timeout S]\n"
	"\n"
	"Read torch's project page from a package index (PEP 691 JSON, or PEP 503 HTML) and\n"
	"print the config's torch: table as the index says it, one row per minor:\n"
	"  \"2.15\": {cuda: [...], python: [...], pypi: \"13.2\", platforms: [\"x86_64\", \"aarch64\"]}\n"
	"Per minor: its newest release (pre-releases with --pre; yanked files left out); python:\n"
	"the CPython ABIs of its Linux x86_64 wheels (\"t\": free-threaded; aarch64's when it has\n"
	"no x86_64 wheel); platforms: the Linux machines it has wheels for; pypi: the CUDA of\n"
	"PyPI's own wheel, from the Requires-Dist of one wheel's core metadata per platform\n"
	"(PEP 658 .metadata: nvidia-cuda-runtime-cu12==12.8.*, cuda-toolkit==13.x); cuda: the\n"
	"+cuXYZ variants of its newest release on --cuda-index. No wheel is downloaded. What\n"
	"cannot be read is kept as FILE has it, and a line on stderr says so; lines on stderr\n"
	"also say how the index differs from FILE. Rows of minors older than --since (default:\n"
	"the oldest row of FILE) are left out. Network input is never trusted: a malformed,\n"
	"truncated, oversized or hostile page or metadata file is an error naming its URL.\n"
	"  --write FILE     update FILE's table instead of printing it: changed values, new rows\n"
	"                   (in version order), nothing else in the file (comments, quoting\n"
	"                   and the order stay); written through a temporary and a rename, and\n"
	"                   only when everything was read. One line per change on stdout\n"
	"  --index URL      the simple index (default " TT_INDEX "); the page is URL/torch/\n"
	"  --cuda-index URL an index whose torch wheels carry +cuXYZ labels, one page for all\n"
	"                   CUDAs (default " TT_CUDAINDEX "); none: keep the cuda lists\n"
	"  --since X.Y      the oldest minor of the table\n"
	"  --range          where the index serves no .metadata file, read METADATA out of the\n"
	"                   wheel with HTTP range requests (its zip's central directory and the\n"
	"                   member: about 2 MB, not the wheel)\n"
	"  --drop           --write removes the rows of minors the index does not have (kept\n"
	"                   otherwise: older configs may use them)\n"
	"  --follow         --write: a package whose torch: list has the table's newest minor gets\n"
	"                   the new minors too (their cells are then planned)\n"
	"  --no-platforms   leave the platforms: key out (for configs without the platform axis)\n"
	"  --timeout S      seconds one transfer may take (default 60)\n";

static const char summaryusage[] =
	"usage: wheelgen summary plan [--config FILE] [--profile P] --matrix FILE\n"
	"       wheelgen summary build [--builddir DIR] [--artifact NAME] CELL...\n"
	"       wheelgen summary index [--config FILE] [--builddir DIR] [--log FILE]\n"
	"\n"
	"Print Markdown that tells what a CI job did ($GITHUB_STEP_SUMMARY), read from what its\n"
	"steps left, so that it works after a failed step too:\n"
	"  plan    the cells of profile P (default: every cell), how many the store holds, and\n"
	"          the missing ones by build job and wheel, from FILE: what 'wheelgen matrix\n"
	"          --github' printed (with --split N, its matrixK= lines)\n"
	"  build   for each CELL: its wheel built or restored from the store, its test, whether\n"
	"          it was published, the wheel's size, the steps' times (DIR/wheels/, tests/,\n"
	"          publish/, logs/); a failed cell's log, in the artifact NAME when given, with\n"
	"          its first error lines\n"
	"  index   after ninja merge-index: how many cells and wheels the index lists\n"
	"          (DIR/merge-index.rsp), which of them this run's builds made, and each cell of\n"
	"          the config it left out, with why (merge-index's messages: --log FILE, its\n"
	"          output)\n"
	"Exit status 0 when a summary was printed (also one that says an input is missing).\n";

/* a command given what it cannot take: the error, then its usage; exit status 2 */
WG_NORETURN static void usagefail(const char *text, const char *fmt, ...) WG_PRINTF(2, 3);

static void
usagefail(const char *text, const char *fmt, ...)
{
	struct sb msg = SB_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbvaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s", msg.buf);
	fputs(text, stderr);
	sbfree(&msg);
	exit(2);
}

enum {
	OPT_JSON = 256, OPT_GITHUB, OPT_TSV, OPT_TABLE, OPT_URL, OPT_UPDATE, OPT_PRE, OPT_FROMLIST, OPT_SPEC,
	OPT_TEMPLATES, OPT_MISSING, OPT_TEST, OPT_PULL, OPT_UNUSED, OPT_DELETE, OPT_EXPLAIN, OPT_FD, OPT_ALL,
	OPT_BYBUILD, OPT_SPLIT, OPT_WRITE, OPT_INDEX, OPT_CUDAINDEX, OPT_SINCE, OPT_DROP, OPT_FOLLOW, OPT_NOPLATFORMS, OPT_RANGE,
	OPT_TIMEOUT, OPT_CANARY, OPT_COUNT, OPT_REPAIR,
	OPT_MATRIX, OPT_ARTIFACT, OPT_LOG,
};

/* a subcommand: its name, what runs it, its --help text and what it takes */
struct command {
	const char *name;
	int (*fn)(const struct command *, int, char **);
	const char *usage;
	int flags;            /* CMD_GIT, CMD_ARGS, CMD_HOST */
};
enum {
	CMD_GIT = 1,   /* needs libgit2 set up */
	CMD_ARGS = 2,  /* takes operands */
	CMD_HOST = 4,  /* reads the host file: --host, else BUILDDIR/host.txt when there is one */
};

struct opts {
	const char *config, *builddir, *host, *profile, *manifests, *url, *spec, *templates;
	enum matrixformat format;
	int verbose, update, configset, pre, fromlist, missing, test, pull, unused, del, explain;
	char **args;   /* what remains after the options */
	int nargs;
	long shard, nshards;
	int fd;        /* claim --fd */
	int all;       /* status --all */
	int bybuild;   /* matrix --by-build */
	long split;    /* matrix --split N */
	int canary;    /* matrix --canary */
	int repair;    /* store verify --repair */
	int count;     /* matrix --count */
	const char *write;                  /* torch-table, outdated --write FILE */
	const char *index, *cudaindex, *since;  /* torch-table */
	int drop, follow, noplatforms, range;   /* torch-table */
	long timeout;                       /* torch-table --timeout */
	const char *matrixfile, *artifact, *log;   /* summary --matrix, --artifact, --log */
};

/*
 * The config ./configure named for builddir (its config.ninja's "config = FILE"), so that
 * commands run by hand after `./configure --config X` read X; config/packages.yml without one
 */
static const char *
configuredconfig(const char *builddir)
{
	static char *found;
	struct sb path = SB_INIT;
	char *buf, *next, *line;

	if (found)
		return found;
	sbaddf(&path, "%s/config.ninja", builddir);
	buf = readfile(path.buf, NULL);
	sbfree(&path);
	next = buf;
	while (next && (line = nextline(&next))) {
		if (!strncmp(line, "config = ", 9) && line[9]) {
			found = xstrdup(line + 9);
			break;
		}
	}
	free(buf);
	return found ? found : "config/packages.yml";
}

/* every command's options (parseopts takes them all; the usage texts say which apply) */
static const struct option longopts[] = {
	{ "config", required_argument, NULL, 'c' },
	{ "builddir", required_argument, NULL, 'b' },
	{ "host", required_argument, NULL, 'H' },
	{ "profile", required_argument, NULL, 'p' },
	{ "shard", required_argument, NULL, 's' },
	{ "manifests", required_argument, NULL, 'm' },
	{ "from-list", required_argument, NULL, OPT_FROMLIST },
	{ "spec", required_argument, NULL, OPT_SPEC },
	{ "verbose", no_argument, NULL, 'v' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "github", no_argument, NULL, OPT_GITHUB },
	{ "tsv", no_argument, NULL, OPT_TSV },
	{ "table", no_argument, NULL, OPT_TABLE },
	{ "url", required_argument, NULL, OPT_URL },
	{ "update", no_argument, NULL, OPT_UPDATE },
	{ "pre", no_argument, NULL, OPT_PRE },
	{ "templates", required_argument, NULL, OPT_TEMPLATES },
	{ "missing", no_argument, NULL, OPT_MISSING },
	{ "test", no_argument, NULL, OPT_TEST },
	{ "pull", no_argument, NULL, OPT_PULL },
	{ "unused", no_argument, NULL, OPT_UNUSED },
	{ "delete", no_argument, NULL, OPT_DELETE },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "fd", required_argument, NULL, OPT_FD },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "by-build", no_argument, NULL, OPT_BYBUILD },
	{ "split", required_argument, NULL, OPT_SPLIT },
	{ "write", required_argument, NULL, OPT_WRITE },
	{ "index", required_argument, NULL, OPT_INDEX },
	{ "cuda-index", required_argument, NULL, OPT_CUDAINDEX },
	{ "since", required_argument, NULL, OPT_SINCE },
	{ "drop", no_argument, NULL, OPT_DROP },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
	{ "no-platforms", no_argument, NULL, OPT_NOPLATFORMS },
	{ "range", no_argument, NULL, OPT_RANGE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "canary", no_argument, NULL, OPT_CANARY },
	{ "count", no_argument, NULL, OPT_COUNT },
	{ "repair", no_argument, NULL, OPT_REPAIR },
	{ "matrix", required_argument, NULL, OPT_MATRIX },
	{ "artifact", required_argument, NULL, OPT_ARTIFACT },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* the options of matrix's plan and of the commands that update a config (torch-table, outdated) */
static void
updateopts(struct opts *o, int c)
{
	char *end;

	switch (c) {
	case OPT_CANARY: o->canary = 1; break;
	case OPT_COUNT: o->count = 1; break;
	case OPT_WRITE: o->write = optarg; break;
	case OPT_INDEX: o->index = optarg; break;
	case OPT_CUDAINDEX: o->cudaindex = optarg; break;
	case OPT_SINCE: o->since = optarg; break;
	case OPT_DROP: o->drop = 1; break;
	case OPT_FOLLOW: o->follow = 1; break;
	case OPT_NOPLATFORMS: o->noplatforms = 1; break;
	case OPT_RANGE: o->range = 1; break;
	case OPT_REPAIR: o->repair = 1; break;
	case OPT_TIMEOUT:
		o->timeout = strtol(optarg, &end, 10);
		if (*end || o->timeout < 1 || o->timeout > 86400) {
			error("--timeout wants seconds from 1 to 86400, not '%s'", optarg);
			exit(2);
		}
		break;
	}
}

static void
parseopts(int argc, char **argv, struct opts *o, const struct command *cmd)
{
	const char *help = cmd->usage;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->config = "config/packages.yml";
	o->builddir = "out";
	o->templates = "templates";
	o->fd = -1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:b:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c': o->config = optarg; o->configset = 1; break;
		case OPT_URL: o->url = optarg; break;
		case OPT_UPDATE: o->update = 1; break;
		case OPT_PRE: o->pre = 1; break;
		case OPT_TEMPLATES: o->templates = optarg; break;
		case OPT_MISSING: o->missing = 1; break;
		case OPT_BYBUILD: o->bybuild = 1; break;
		case OPT_SPLIT:
			o->split = strtol(optarg, &end, 10);
			if (*end || o->split < 1 || o->split > 64) {
				error("--split wants a number of matrices from 1 to 64, not '%s'", optarg);
				exit(2);
			}
			break;
		case OPT_MATRIX: o->matrixfile = optarg; break;
		case OPT_ARTIFACT: o->artifact = optarg; break;
		case OPT_LOG: o->log = optarg; break;
		case OPT_TEST: o->test = 1; break;
		case OPT_PULL: o->pull = 1; break;
		case OPT_UNUSED: o->unused = 1; break;
		case OPT_DELETE: o->del = 1; break;
		case OPT_EXPLAIN: o->explain = 1; break;
		case OPT_ALL: o->all = 1; break;
		case OPT_CANARY: case OPT_COUNT: case OPT_WRITE: case OPT_INDEX: case OPT_CUDAINDEX: case OPT_SINCE:
		case OPT_DROP: case OPT_FOLLOW: case OPT_NOPLATFORMS: case OPT_RANGE: case OPT_TIMEOUT: case OPT_REPAIR:
			updateopts(o, c);
			break;
		case OPT_FD:
			o->fd = (int)strtol(optarg, &end, 10);
			if (*end || o->fd < 3 || o->fd > 255) {
				error("--fd wants a descriptor from 3 to 255, not '%s'", optarg);
				exit(2);
			}
			break;
		case 'b': o->builddir = optarg; break;
		case 'H': o->host = optarg; break;
		case 'p': o->profile = optarg; break;
		case 'm': o->manifests = optarg; break;
		case OPT_FROMLIST: o->manifests = optarg; o->fromlist = 1; break;
		case OPT_SPEC: o->spec = optarg; break;
		case 'v': o->verbose = 1; break;
		case 's':
			o->shard = strtol(optarg, &end, 10);
			if (*end != '/' || (o->nshards = strtol(end + 1, &end, 10)) < 1 || *end || o->shard < 1 ||
			    o->shard > o->nshards) {
				error("--shard wants I/N with 1 <= I <= N, not '%s'", optarg);
				exit(2);
			}
			break;
		case OPT_JSON: case OPT_GITHUB: case OPT_TSV: case OPT_TABLE: {
			enum matrixformat f = c == OPT_JSON ? FMT_JSON : c == OPT_GITHUB ? FMT_GITHUB : c == OPT_TSV ? FMT_TSV : FMT_TABLE;

			if (o->format && o->format != f) {
				error("choose one of --json, --github, --tsv, --table");
				exit(2);
			}
			o->format = f;
			break;
		}
		case 'h':
			fputs(help, stdout);
			exit(0);
		default:
			if (optopt && optopt < 256)
				usagefail(help, "option '-%c' %s", optopt, strchr("cbHpsm", optopt) ? "needs a value" : "is unknown");
			usagefail(help, "unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (!o->configset)
		o->config = configuredconfig(o->builddir);
	if (!o->host && (cmd->flags & CMD_HOST)) {
		/* what ./configure found for this build directory: its backend, Pythons, toolkits */
		static struct sb path = SB_INIT;

		sbaddf(&path, "%s/host.txt", o->builddir);
		if (access(path.buf, R_OK) == 0)
			o->host = path.buf;
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	if (o->nargs > 0 && !(cmd->flags & CMD_ARGS)) {
		usagefail(help, "unexpected argument '%s'", argv[optind]);
		exit(2);
	}
}

/* load, check and expand; prints diagnostics; returns NULL on any error */
static struct config *
load(struct arena *a, const struct opts *o, struct host *h, struct matrix *m)
{
	struct diags d = { 0 };
	struct config *c;
	size_t i;

	memset(h, 0, sizeof(*h));
	memset(m, 0, sizeof(*m));
	if (o->host && hostload(a, o->host, h) < 0)
		return NULL;
	c = configload(a, o->config, &d);
	if (c && d.errors == 0)
		matrixexpand(a, c, h, m, &d);
	if (c && d.errors == 0)
		profilescheck(c, m, &d);
	if (diagprint(&d, stderr) || !c)
		c = NULL;
	diagfree(&d);
	if (c && o->verbose) {
		for (i = 0; i < m->ndropped; i++)
			notice("dropped %s: %s", m->dropped[i].id, m->dropped[i].why);
		for (i = 0; i < m->n; i++) {
			if (m->cells[i].whynot)
				notice("cannot build %s here: %s", m->cells[i].id, m->cells[i].whynot);
		}
	}
	free(m->dropped);
	m->dropped = NULL;
	return c;
}

static int
cmdcheck(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct opts o;
	struct host h;
	struct matrix m;
	struct config *c;

	parseopts(argc, argv, &o, cmd);
	c = load(&a, &o, &h, &m);
	if (c)
		printf("%s: ok: %zu package%s, %zu cell%s\n", o.config, c->npkgs, c->npkgs == 1 ? "" : "s", m.n,
		       m.n == 1 ? "" : "s");
	free(m.cells);
	afree(&a);
	return c ? 0 : 1;
}

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
	c = load(&a, &o, &h, &m);
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
	size_t i, n = 0;
	int rc = 1;
	char (*keys)[65] = NULL;
	struct keyctx k;
	struct store st;
	struct matrixout mo;
	struct planopts po;
	struct sb tmp = SB_INIT;

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
	c = load(&a, &o, &h, &m);
	if (!c)
		goto out;
	if (o.profile) {
		for (i = 0; i < c->nprofiles; i++) {
			if (!strcmp(c->profiles[i].name, o.profile))
				prof = &c->profiles[i];
		}
		if (!prof) {
			error("no profile '%s' in %s%s", o.profile, o.config, c->nprofiles ? "; it has:" : "");
			for (i = 0; i < c->nprofiles; i++)
				fprintf(stderr, "  %s\n", c->profiles[i].name);
			goto out;
		}
	}
	if (o.count) {
		printf("(all)\t%zu\n", m.n);
		for (i = 0; i < c->nprofiles; i++) {
			size_t j, hits = 0;

			for (j = 0; j < m.n; j++)
				hits += profilehas(&c->profiles[i], &m.cells[j]);
			printf("%s\t%zu\n", c->profiles[i].name, hits);
		}
		rc = 0;
		goto out;
	}
	/* keep the selected cells at the front, with their keys where they are shown or asked for */
	keys = xcalloc(m.n ? m.n : 1, sizeof(*keys));
	keyctxinit(&k, c, o.builddir, o.templates, KEY_FROM_LOCK);
	storeopen(c, &st);
	if (o.missing && st.kind == STORE_NONE)
		warn("--missing: no store (the config has no publish: destination and "
				"WHEELGEN_STORE is not set): every cell is missing");
	sbaddf(&tmp, "%s/.matrix-manifest.%ld", o.builddir, (long)getpid());
	po.prof = prof;
	po.canary = o.canary;
	po.missing = o.missing;
	po.needkeys = o.format && o.format != FMT_TABLE;
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
	free(keys);
	keyctxfree(&k);
	storefree(&st);
	free(m.cells);
	afree(&a);
	return rc;
}

/* the cell named id in m, or NULL with a message */
static const struct cell *
findcell(const struct matrix *m, const char *id, const char *config)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (!strcmp(m->cells[i].id, id))
			return &m->cells[i];
	}
	error("no cell '%s' in %s", id, config);
	return NULL;
}

/* what key, restore and store work on: the loaded config, its cells, keys and store */
struct keyed {
	struct arena a;
	struct opts o;
	struct host h;
	struct matrix m;
	struct config *c;
	struct keyctx k;
	struct store st;
};

/* load o's config and set up keys (looked up first where from says) and the store; -1 on errors */
static int
loadkeyed(struct keyed *x, enum keysource from)
{
	memset(&x->a, 0, sizeof(x->a));
	memset(&x->k, 0, sizeof(x->k));
	memset(&x->st, 0, sizeof(x->st));
	if (!(x->c = load(&x->a, &x->o, &x->h, &x->m)))
		return -1;
	keyctxinit(&x->k, x->c, x->o.builddir, x->o.templates, from);
	storeopen(x->c, &x->st);
	return 0;
}

static void
unloadkeyed(struct keyed *x)
{
	keyctxfree(&x->k);
	storefree(&x->st);
	free(x->m.cells);
	afree(&x->a);
}

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
		const struct cell *cl = findcell(&x.m, x.o.args[i], x.o.config);
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
	if (loadkeyed(&x, KEY_FROM_CHECKOUT) == 0 && (cl = findcell(&x.m, x.o.args[0], x.o.config)))
		rc = restorewheel(&x.k, &x.st, cl, x.o.builddir) == 0 ? 0 : 1;
	unloadkeyed(&x);
	return rc;
}

static int
cmdstatus(const struct command *cmd, int argc, char **argv)
{
	struct opts o;

	parseopts(argc, argv, &o, cmd);
	return buildstatus(o.builddir, o.all) < 0;
}

static int
cmdclaim(const struct command *cmd, int argc, char **argv)
{
	struct opts o;

	parseopts(argc, argv, &o, cmd);
	return claimbuilddir(o.builddir, o.fd) < 0;
}

/* the profile named name of c, or NULL with a message listing c's profiles */
static const struct profile *
profilenamed(const struct config *c, const char *name, const char *config)
{
	size_t i;

	for (i = 0; i < c->nprofiles; i++) {
		if (!strcmp(c->profiles[i].name, name))
			return &c->profiles[i];
	}
	error("no profile '%s' in %s%s", name, config, c->nprofiles ? "; it has:" : "");
	for (i = 0; i < c->nprofiles; i++)
		fprintf(stderr, "  %s\n", c->profiles[i].name);
	return NULL;
}

static int
cmdsummary(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct sb out = SB_INIT;
	const struct profile *prof = NULL;
	struct opts o;
	struct host h;
	struct matrix m;
	struct config *c = NULL;
	const char *what;
	int rc = 1;

	parseopts(argc, argv, &o, cmd);
	what = o.nargs ? o.args[0] : "";
	memset(&m, 0, sizeof(m));
	if (!strcmp(what, "build")) {
		rc = summarybuild(&out, o.builddir, o.args + 1, (size_t)o.nargs - 1, o.artifact) < 0;
	} else if (!strcmp(what, "plan") || !strcmp(what, "index")) {
		if (!strcmp(what, "plan") && !o.matrixfile)
			usagefail(cmd->usage, "summary plan needs --matrix FILE");
		if (o.nargs > 1)
			usagefail(cmd->usage, "unexpected argument '%s'", o.args[1]);
		/* (without the config, or the profile, the job's summary still says where to look) */
		if (!(c = load(&a, &o, &h, &m)))
			sbaddf(&out, "### %s\n\nThe config could not be read: the log of this step says why.\n",
			       *what == 'p' ? "Plan" : "Index");
		else if (o.profile && !(prof = profilenamed(c, o.profile, o.config)))
			sbadd(&out, "### Plan\n\nThe config has no such profile: the log of this step lists its profiles.\n");
		else if (*what == 'p')
			summaryplan(&out, &m, prof, o.matrixfile);
		else
			summaryindex(&out, &m, o.builddir, o.log);
		/* (a summary that says an input is missing is still one) */
		rc = c && (!o.profile || prof) ? 0 : 1;
	} else {
		usagefail(cmd->usage, "summary needs plan, build or index");
	}
	fwrite(out.buf, 1, out.len, stdout);
	sbfree(&out);
	free(m.cells);
	afree(&a);
	return rc;
}

static int
cmdstore(const struct command *cmd, int argc, char **argv)
{
	struct keyed x;
	int rc = 1, verify;

	parseopts(argc, argv, &x.o, cmd);
	verify = x.o.nargs == 1 && !strcmp(x.o.args[0], "verify");
	if (verify ? x.o.pull || x.o.unused || x.o.del
		   : x.o.nargs || x.o.repair || x.o.pull == x.o.unused || (x.o.del && !x.o.unused)) {
		usagefail(cmd->usage, "store needs --pull, --unused [--delete] or verify [--repair]");
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
			       : unusedstore(&x.k, &x.st, &x.m, x.o.builddir, x.o.del)) < 0;
	unloadkeyed(&x);
	return rc;
}

static int
cmdindex(const struct command *cmd, int argc, char **argv)
{
	struct indexopts io = { 0 };
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
	rc = (o.spec && indexspecread(o.spec, &io) < 0) || writeindex(o.builddir, v, n, &io) < 0;
	indexoptsfree(&io);
	free(v);
	free(list);
	return rc;
}

/* the git packages of the config at o->config, as source specs (one per package version) */
static int
eachgit(const struct opts *o, int (*fn)(const struct opts *, struct srcspec *, void *), void *arg)
{
	struct arena a = { 0 };
	struct host h;
	struct matrix m;
	struct config *c;
	size_t i, k;
	int rc = 0;

	c = load(&a, o, &h, &m);
	if (!c) {
		free(m.cells);
		afree(&a);
		return -1;
	}
	for (i = 0; i < c->npkgs; i++) {
		const struct package *p = &c->pkgs[i];

		if (p->src != SRC_GIT)
			continue;
		for (k = 0; k < p->versions.n; k++) {
			struct srcspec s;

			sourcespec(&a, c, p, p->versions.v[k], o->builddir, o->update, &s);
			if (fn(o, &s, arg) < 0)
				rc = -1;
		}
	}
	free(m.cells);
	afree(&a);
	return rc;
}

struct lockrun {
	struct sb keep;   /* setadd() set of the configured "package version" pairs */
	const char *lock;
};

static int
lockone(const struct opts *o, struct srcspec *s, void *arg)
{
	struct lockrun *r = arg;
	struct fetchstats st = { 0 };
	struct sb key = SB_INIT;
	char hex[64];

	sbaddf(&key, "%s %s", s->package, s->version);
	setadd(&r->keep, key.buf);
	sbfree(&key);
	if (!r->lock)
		r->lock = xstrdup(s->lock);
	if (gitlock(o->builddir, s, &st, hex) < 0)
		return -1;
	printf("%s %s %s %s\n", s->package, s->version, s->ref, hex);
	return 0;
}

static int
cmdlock(const struct command *cmd, int argc, char **argv)
{
	struct lockrun r = { SB_INIT, NULL };
	struct opts o;
	int rc;

	parseopts(argc, argv, &o, cmd);
	rc = eachgit(&o, lockone, &r);
	/* entries of versions no longer configured go, once every configured one is pinned */
	if (rc == 0 && r.lock && lockprune(o.builddir, r.lock, r.keep.buf ? r.keep.buf : "") < 0)
		rc = -1;
	free((char *)r.lock);
	sbfree(&r.keep);
	return rc < 0;
}

static int
fetchone(const struct opts *o, struct srcspec *s, void *arg)
{
	struct fetchstats st = { 0 };
	int rc = 0;

	if (setadd(arg, s->url)) {
		rc = gitfetch(o->builddir, s->url, &st);
		if (rc == 0)
			printf("%s: %zu bytes, %zu objects received\n", s->url, st.bytes, st.objects);
	}
	return rc;
}

static int
cmdfetch(const struct command *cmd, int argc, char **argv)
{
	struct fetchstats st = { 0 };
	struct sb seen = SB_INIT;
	struct opts o;
	int rc;

	parseopts(argc, argv, &o, cmd);
	if (o.url) {
		rc = gitfetch(o.builddir, o.url, &st);
		if (rc == 0)
			printf("%s: %zu bytes, %zu objects received\n", o.url, st.bytes, st.objects);
		return rc < 0;
	}
	rc = eachgit(&o, fetchone, &seen);
	sbfree(&seen);
	return rc < 0;
}

static int
cmdcheckout(const struct command *cmd, int argc, char **argv)
{
	struct fetchstats st = { 0 };
	struct srcspec s;
	struct opts o;
	int rc;

	parseopts(argc, argv, &o, cmd);
	if (o.nargs != 1) {
		usagefail(cmd->usage, "checkout needs one source spec");
	}
	if (srcspecread(o.args[0], &s) < 0)
		return 1;
	s.updatelock = o.update;
	rc = gitcheckout(o.builddir, &s, &st);
	if (rc == 0)
		printf("%s %s: checked out %s; %zu bytes, %zu objects received%s%s%s\n", s.package, s.version, s.ref,
		       st.bytes, st.objects, *st.from ? " (from " : "", st.from, *st.from ? ")" : "");
	srcspecfree(&s);
	return rc < 0;
}

static int
cmdoutdated(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct sb out = SB_INIT;
	struct opts o;
	struct host h;
	struct matrix m;
	struct config *c;
	int rc = 1;

	parseopts(argc, argv, &o, cmd);
	if (o.write) {
		if (o.configset && strcmp(o.config, o.write))
			usagefail(cmd->usage, "--write FILE is the config read: leave --config out");
		o.config = o.write;
	}
	if ((c = load(&a, &o, &h, &m))) {
		rc = outdated(c, o.format == FMT_JSON, o.pre, o.write, &out) < 0;
		fwrite(out.buf, 1, out.len, stdout);
	}
	sbfree(&out);
	free(m.cells);
	afree(&a);
	return rc;
}

static int
cmdtorchtable(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct ttopts t;
	struct opts o;
	struct host h;
	struct matrix m;
	struct config *c;
	int rc = 1;

	parseopts(argc, argv, &o, cmd);
	memset(&t, 0, sizeof(t));
	if (o.write && o.configset && strcmp(o.config, o.write))
		usagefail(cmd->usage, "--write FILE is the config read: leave --config out");
	if ((o.drop || o.follow) && !o.write)
		usagefail(cmd->usage, "--drop and --follow go with --write FILE");
	if (o.since) {
		long maj, min;
		char *end;

		maj = strtol(o.since, &end, 10);
		if (end == o.since || *end != '.' || (min = strtol(end + 1, &end, 10)) < 0 || *end || maj < 0)
			usagefail(cmd->usage, "--since wants MAJOR.MINOR, not '%s'", o.since);
	}
	if (o.write)
		o.config = o.write;
	t.config = o.config;
	t.write = o.write != NULL;
	t.index = o.index ? o.index : TT_INDEX;
	t.cudaindex = o.cudaindex ? (strcmp(o.cudaindex, "none") ? o.cudaindex : NULL) : TT_CUDAINDEX;
	t.since = o.since;
	t.pre = o.pre;
	t.drop = o.drop;
	t.follow = o.follow;
	t.platforms = !o.noplatforms;
	t.range = o.range;
	t.timeout = o.timeout;
	if ((c = load(&a, &o, &h, &m)))
		rc = torchtable(c, &t);
	free(m.cells);
	afree(&a);
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct command commands[] = {
		{ "check", cmdcheck, checkusage, 0 },
		{ "matrix", cmdmatrix, matrixusage, CMD_HOST },
		{ "gen", cmdgen, genusage, CMD_HOST },
		{ "index", cmdindex, indexusage, 0 },
		{ "lock", cmdlock, lockusage, CMD_GIT },
		{ "fetch", cmdfetch, fetchusage, CMD_GIT },
		{ "checkout", cmdcheckout, checkoutusage, CMD_GIT | CMD_ARGS },
		{ "outdated", cmdoutdated, outdatedusage, CMD_GIT },
		{ "torch-table", cmdtorchtable, torchtableusage, 0 },
		{ "key", cmdkey, keyusage, CMD_ARGS | CMD_HOST },
		{ "restore", cmdrestore, restoreusage, CMD_ARGS | CMD_HOST },
		{ "store", cmdstore, storeusage, CMD_ARGS | CMD_HOST },
		{ "status", cmdstatus, statususage, 0 },
		{ "claim", cmdclaim, claimusage, 0 },
		{ "summary", cmdsummary, summaryusage, CMD_ARGS },
		{ NULL, NULL, NULL, 0 },
	};
	const struct command *c;
	int rc;

	if (argc < 2) {
		fputs(usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("wheelgen %s\n", WG_VERSION);
		return 0;
	}
	for (c = commands; c->name && strcmp(c->name, argv[1]); c++)
		;
	if (!c->name) {
		usagefail(usage, "unknown command '%s'", argv[1]);
	}
	if (c->flags & CMD_GIT)
		gitinit();
	rc = c->fn(c, argc - 1, argv + 1);
	if (c->flags & CMD_GIT)
		gitshutdown();
	pepfree();
	if (fflush(stdout) != 0 || ferror(stdout))
		fatal("cannot write to standard output: %s", strerror(errno));
	return rc;
}
