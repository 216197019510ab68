/* cmdupstream: the commands on git sources and upstream: lock, fetch, checkout, outdated, torch-table. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkout.h"
#include "cmd.h"
#include "gitlock.h"
#include "mirror.h"
#include "outdated.h"
#include "sources.h"
#include "torchtable.h"

/* the git packages of the config at o->config, as source specs (one per package version; update:
   the lock may take a tag that moved) */
static int
eachgit(const struct cmdopts *o, int update, int (*fn)(const struct cmdopts *, struct srcspec *, void *), void *arg)
{
	struct arena a = { 0 };
	struct host h;
	struct matrix m;
	struct config *c;
	size_t i, k;
	int rc = 0;

	c = cmdload(&a, o, &h, &m);
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

			sourcespec(&a, c, p, p->versions.v[k], o->builddir, update, &s);
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
lockone(const struct cmdopts *o, struct srcspec *s, void *arg)
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
fetchone(const struct cmdopts *o, struct srcspec *s, void *arg)
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

static const char lockusage[] =
	"usage: wheelgen lock [--config FILE] [--builddir DIR] [--update]\n"
	"\n"
	"Fetch every git source of FILE into its mirror under DIR/git/, resolve the tag of\n"
	"each configured version and record the commit in the lock file: FILE with .lock\n"
	"for its extension (config/packages.yml -> config/packages.lock).\n"
	"A tag that now points elsewhere than the lock says is an error naming the tag and\n"
	"both commits, unless --update is given (then the lock takes the new commit).\n"
	"Entries for versions the config no longer lists are removed, each named.\n";

/* the options of lock and checkout */
struct updateopts {
	struct cmdopts c;
	int update;
};

static const struct optrow lockrows[] = {
	OPT_CONFIG,
	OPT_BUILDDIR,
	OPTFLAG("update", offsetof(struct updateopts, update), "the lock takes the new commit of a tag that moved"),
	OPTEND,
};

static int
cmdlock(const struct command *cmd, int argc, char **argv)
{
	struct lockrun r = { SB_INIT, NULL };
	struct updateopts o = { .c = { 0 } };
	int rc;

	parseopts(argc, argv, &o.c, cmd);
	rc = eachgit(&o.c, o.update, lockone, &r);
	/* entries of versions no longer configured go, once every configured one is pinned */
	if (rc == 0 && r.lock && lockprune(o.c.builddir, r.lock, r.keep.buf ? r.keep.buf : "") < 0)
		rc = -1;
	free((char *)r.lock);
	sbfree(&r.keep);
	return rc < 0;
}

const struct command cmd_lock = {
	"lock", cmdlock, lockusage,
	"resolve the tag of every git package version into the lock file",
	lockrows, CMD_GIT,
};

static const char fetchusage[] =
	"usage: wheelgen fetch [--builddir DIR] [--url URL | --config FILE]\n"
	"\n"
	"Fetch heads and tags of URL (or of every git source of FILE, by default the config\n"
	"./configure named) into its bare mirror\n"
	"DIR/git/<host>/<path>.git, creating it if needed. Prints the bytes received.\n";

/* fetch's options */
struct fetchopts {
	struct cmdopts c;
	const char *url;
};

static const struct optrow fetchrows[] = {
	OPT_BUILDDIR,
	OPTSTR("url", offsetof(struct fetchopts, url), "URL", "the git repository to fetch, instead of the config's"),
	OPT_CONFIG,
	OPTEND,
};

static int
cmdfetch(const struct command *cmd, int argc, char **argv)
{
	struct fetchstats st = { 0 };
	struct sb seen = SB_INIT;
	struct fetchopts o = { .c = { 0 } };
	int rc;

	parseopts(argc, argv, &o.c, cmd);
	if (o.url) {
		rc = gitfetch(o.c.builddir, o.url, &st);
		if (rc == 0)
			printf("%s: %zu bytes, %zu objects received\n", o.url, st.bytes, st.objects);
		return rc < 0;
	}
	rc = eachgit(&o.c, 0, fetchone, &seen);
	sbfree(&seen);
	return rc < 0;
}

const struct command cmd_fetch = {
	"fetch", cmdfetch, fetchusage,
	"update the mirrors of git sources (one URL, or every one of a config)",
	fetchrows, CMD_GIT,
};

static const char checkoutusage[] =
	"usage: wheelgen checkout [--builddir DIR] [--update] SPEC\n"
	"\n"
	"Check out the source that SPEC (DIR/src/<package>-<version>.spec, written by\n"
	"wheelgen gen) describes, with its submodules, fetching only what the mirrors lack,\n"
	"and check the commit against the lock file. Prints the commit and bytes received.\n";

static const struct optrow checkoutrows[] = {
	OPT_BUILDDIR,
	OPTFLAG("update", offsetof(struct updateopts, update), "the lock takes the new commit of a tag that moved"),
	OPTEND,
};

static int
cmdcheckout(const struct command *cmd, int argc, char **argv)
{
	struct fetchstats st = { 0 };
	struct srcspec s;
	struct updateopts o = { .c = { 0 } };
	int rc;

	parseopts(argc, argv, &o.c, cmd);
	if (o.c.nargs != 1)
		usagefail(cmd, "checkout needs one source spec");
	if (srcspecread(o.c.args[0], &s) < 0)
		return 1;
	s.updatelock = o.update;
	rc = gitcheckout(o.c.builddir, &s, &st);
	if (rc == 0)
		printf("%s %s: checked out %s; %zu bytes, %zu objects received%s%s%s\n", s.package, s.version, s.ref,
		       st.bytes, st.objects, *st.from ? " (from " : "", st.from, *st.from ? ")" : "");
	srcspecfree(&s);
	return rc < 0;
}

const struct command cmd_checkout = {
	"checkout", cmdcheckout, checkoutusage,
	"check out one git source with its submodules (ninja runs this)",
	checkoutrows, CMD_GIT | CMD_ARGS,
};

static const char outdatedusage[] =
	"usage: wheelgen outdated [--config FILE] [--json] [--pre] [--write FILE]\n"
	"\n"
	"For every git package of FILE, list the upstream tags that match its tag pattern\n"
	"and name a version newer (PEP 440) than the newest configured one. Nothing is\n"
	"cloned: the tags are listed from the remote.\n";

/* outdated's options */
struct outdatedopts {
	struct cmdopts c;
	int json;
	int pre;
	const char *write;
};

static const struct optrow outdatedrows[] = {
	OPT_CONFIG,
	OPTFLAG("json", offsetof(struct outdatedopts, json), "a JSON list: package, url, configured, newer (newest first)"),
	OPTFLAG("pre", offsetof(struct outdatedopts, pre), "pre-releases too"),
	OPTSTR("write", offsetof(struct outdatedopts, write), "FILE",
	       "add the newer versions to each package's versions: list in FILE (the config read), oldest first, "
	       "changing nothing else in the file; one line per package says what was added. Nothing is written "
	       "when a remote could not be listed. Run 'wheelgen lock' to pin the new versions' commits."),
	OPTEND,
};

static int
cmdoutdated(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct sb out = SB_INIT;
	struct outdatedopts o = { .c = { 0 } };
	struct host h;
	struct matrix m;
	struct config *c;
	int rc = 1;

	parseopts(argc, argv, &o.c, cmd);
	if (o.write) {
		if (o.c.configset && strcmp(o.c.config, o.write))
			usagefail(cmd, "--write FILE is the config read: leave --config out");
		o.c.config = o.write;
	}
	if ((c = cmdload(&a, &o.c, &h, &m))) {
		rc = outdated(c, o.json, o.pre, o.write, &out) < 0;
		fwrite(out.buf, 1, out.len, stdout);
	}
	sbfree(&out);
	free(m.cells);
	afree(&a);
	return rc;
}

const struct command cmd_outdated = {
	"outdated", cmdoutdated, outdatedusage,
	"list upstream tags newer than the newest configured version (--write: add them)",
	outdatedrows, CMD_GIT,
};

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
	"truncated, oversized or hostile page or metadata file is an error naming its URL.\n";

/* torch-table's options */
struct torchtableopts {
	struct cmdopts c;
	const char *write, *index, *cudaindex, *since;
	int pre, range, drop, follow, noplatforms;
	long timeout; /* 0: not given */
};
#define TO(field) offsetof(struct torchtableopts, field)

static const struct optrow torchtablerows[] = {
	OPT_CONFIG,
	OPTSTR("write", TO(write), "FILE",
	       "update FILE's table instead of printing it: changed values, new rows (in version order), nothing "
	       "else in the file (comments, quoting and the order stay); written through a temporary and a rename, "
	       "and only when everything was read. One line per change on stdout"),
	OPTSTR("index", TO(index), "URL", "the simple index (default " TT_INDEX "); the page is URL/torch/"),
	OPTSTR("cuda-index", TO(cudaindex), "URL|none",
	       "an index whose torch wheels carry +cuXYZ labels, one page for all CUDAs (default " TT_CUDAINDEX
	       "); none: keep the cuda lists"),
	OPTSTR("since", TO(since), "X.Y", "the oldest minor of the table"),
	OPTFLAG("pre", TO(pre), "a minor's newest release may be a pre-release"),
	OPTFLAG("range", TO(range),
		"where the index serves no .metadata file, read METADATA out of the wheel with HTTP range requests "
		"(its zip's central directory and the member: about 2 MB, not the wheel)"),
	OPTFLAG("drop", TO(drop),
		"--write removes the rows of minors the index does not have (kept otherwise: older configs may use "
		"them)"),
	OPTFLAG("follow", TO(follow),
		"--write: a package whose torch: list has the table's newest minor gets the new minors too (their "
		"cells are then planned)"),
	OPTFLAG("no-platforms", TO(noplatforms), "leave the platforms: key out (for configs without the platform axis)"),
	OPTINT("timeout", TO(timeout), "S", "seconds", 1, 86400, "seconds one transfer may take (default 60)"),
	OPTEND,
};

static int
cmdtorchtable(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct ttopts t;
	struct torchtableopts o = { .c = { 0 } };
	struct host h;
	struct matrix m;
	struct config *c;
	int rc = 1;

	parseopts(argc, argv, &o.c, cmd);
	memset(&t, 0, sizeof(t));
	if (o.write && o.c.configset && strcmp(o.c.config, o.write))
		usagefail(cmd, "--write FILE is the config read: leave --config out");
	if ((o.drop || o.follow) && !o.write)
		usagefail(cmd, "--drop and --follow go with --write FILE");
	if (o.since) {
		long maj, min;
		char *end;

		maj = strtol(o.since, &end, 10);
		if (end == o.since || *end != '.' || (min = strtol(end + 1, &end, 10)) < 0 || *end || maj < 0)
			usagefail(cmd, "--since wants MAJOR.MINOR, not '%s'", o.since);
	}
	if (o.write)
		o.c.config = o.write;
	t.config = o.c.config;
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
	if ((c = cmdload(&a, &o.c, &h, &m)))
		rc = torchtable(c, &t);
	free(m.cells);
	afree(&a);
	return rc;
}

const struct command cmd_torchtable = {
	"torch-table", cmdtorchtable, torchtableusage,
	"the torch table read from torch's page on a package index (--write: update it)",
	torchtablerows, 0,
};
