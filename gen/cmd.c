/* cmd: the options of every command, parsed once; the config loaded once (see cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "files.h"
#include "layout.h"
#include "shardplan.h"

void
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
	OPT_MATRIX, OPT_ARTIFACT, OPT_PART, OPT_TARGETMIN, OPT_SETUPMIN, OPT_GRACE,
	OPT_NOFAMILIES, OPT_ESTIMATE, OPT_RUNNERS, OPT_TIMES, OPT_OVERHEAD,
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
	bdpath(&path, builddir, BD_CONFIGNINJA, NULL);
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

/* every option of every command, and its syntax: a command takes those its opts name */
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
	{ "part", required_argument, NULL, OPT_PART },
	{ "target-minutes", required_argument, NULL, OPT_TARGETMIN },
	{ "setup-minutes", required_argument, NULL, OPT_SETUPMIN },
	{ "grace", required_argument, NULL, OPT_GRACE },
	{ "no-families", no_argument, NULL, OPT_NOFAMILIES },
	{ "estimate", no_argument, NULL, OPT_ESTIMATE },
	{ "runners", required_argument, NULL, OPT_RUNNERS },
	{ "times", required_argument, NULL, OPT_TIMES },
	{ "job-overhead", required_argument, NULL, OPT_OVERHEAD },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* an option cmd does not take: the error and cmd's usage, exit status 2 */
static void
takes(const struct command *cmd, const char *name)
{
	const char *const *p;

	for (p = cmd->opts; *p; p++) {
		if (!strcmp(*p, name))
			return;
	}
	usagefail(cmd->usage, "%s does not take --%s", cmd->name, name);
}

/* the options of summary build --part and shards suggest */
static void
shardopts(struct opts *o, int c)
{
	char *end;
	double v;

	if (c == OPT_PART) {
		o->part = strtol(optarg, &end, 10);
		if (*end || o->part < 1 || o->part > SHARDS_MAX) {
			error("--part wants a part from 1 to %d, not '%s'", SHARDS_MAX, optarg);
			exit(2);
		}
		return;
	}
	v = strtod(optarg, &end);
	if (end == optarg || *end || !(v >= 0 && v <= 100000) || (c == OPT_TARGETMIN && v <= 0)) {
		error("--%s wants minutes (a number%s), not '%s'", c == OPT_TARGETMIN ? "target-minutes" : "setup-minutes",
		      c == OPT_TARGETMIN ? " above 0" : "", optarg);
		exit(2);
	}
	*(c == OPT_TARGETMIN ? &o->targetmin : &o->setupmin) = v;
	o->setupset |= c == OPT_SETUPMIN;
}

/* the options of matrix's families and its estimate (--no-families, --estimate, --runners R,
   --times FILE, --job-overhead MINUTES) */
static void
estimateopts(struct opts *o, int c)
{
	char *end;
	double v;

	switch (c) {
	case OPT_NOFAMILIES: o->nofamilies = 1; break;
	case OPT_ESTIMATE: o->estimate = 1; break;
	case OPT_TIMES: o->times = optarg; break;
	case OPT_RUNNERS:
		o->runners = strtol(optarg, &end, 10);
		if (*end || o->runners < 1 || o->runners > 100000) {
			error("--runners wants a number of concurrent jobs from 1 to 100000, not '%s'", optarg);
			exit(2);
		}
		break;
	case OPT_OVERHEAD:
		v = strtod(optarg, &end);
		if (end == optarg || *end || !(v >= 0 && v <= 1440)) {
			error("--job-overhead wants minutes (a number from 0 to 1440), not '%s'", optarg);
			exit(2);
		}
		o->overheadmin = v;
		o->overheadset = 1;
		break;
	}
}

/* the options of matrix's plan, of the commands that update a config (torch-table, outdated), claim's --fd,
   summary build --part and shards suggest */
static void
updateopts(struct opts *o, int c)
{
	char *end;

	switch (c) {
	case OPT_PART: case OPT_TARGETMIN: case OPT_SETUPMIN: shardopts(o, c); break;
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
	case OPT_FD:
		o->fd = (int)strtol(optarg, &end, 10);
		if (*end || o->fd < 3 || o->fd > 255) {
			error("--fd wants a descriptor from 3 to 255, not '%s'", optarg);
			exit(2);
		}
		break;
	case OPT_GRACE:
		o->grace = strtol(optarg, &end, 10);
		if (*end || end == optarg || o->grace < 0 || o->grace > 525600) {
			error("--grace wants minutes from 0 to 525600, not '%s'", optarg);
			exit(2);
		}
		break;
	case OPT_TIMEOUT:
		o->timeout = strtol(optarg, &end, 10);
		if (*end || o->timeout < 1 || o->timeout > 86400) {
			error("--timeout wants seconds from 1 to 86400, not '%s'", optarg);
			exit(2);
		}
		break;
	}
}

void
parseopts(int argc, char **argv, struct opts *o, const struct command *cmd)
{
	const char *help = cmd->usage;
	char *end;
	int c, li;

	memset(o, 0, sizeof(*o));
	o->config = "config/packages.yml";
	o->builddir = "out";
	o->templates = "templates";
	o->fd = -1;
	o->grace = 60;
	opterr = 0;
	optind = 1;
	for (li = -1; (c = getopt_long(argc, argv, "c:b:vh", longopts, &li)) != -1; li = -1) {
		if (c != 'h' && c != '?' && c != ':')
			takes(cmd, li >= 0 ? longopts[li].name : c == 'c' ? "config" : c == 'b' ? "builddir" : "verbose");
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
		case OPT_TEST: o->test = 1; break;
		case OPT_PULL: o->pull = 1; break;
		case OPT_UNUSED: o->unused = 1; break;
		case OPT_DELETE: o->del = 1; break;
		case OPT_EXPLAIN: o->explain = 1; break;
		case OPT_ALL: o->all = 1; break;
		case OPT_CANARY: case OPT_COUNT: case OPT_WRITE: case OPT_INDEX: case OPT_CUDAINDEX: case OPT_SINCE:
		case OPT_DROP: case OPT_FOLLOW: case OPT_NOPLATFORMS: case OPT_RANGE: case OPT_TIMEOUT: case OPT_REPAIR:
		case OPT_FD: case OPT_PART: case OPT_TARGETMIN: case OPT_SETUPMIN: case OPT_GRACE:
			updateopts(o, c);
			break;
		case OPT_NOFAMILIES: case OPT_ESTIMATE: case OPT_RUNNERS: case OPT_TIMES: case OPT_OVERHEAD:
			estimateopts(o, c);
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

		bdpath(&path, o->builddir, BD_HOSTFILE, NULL);
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

struct config *
cmdload(struct arena *a, const struct opts *o, struct host *h, struct matrix *m)
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

const struct profile *
cmdprofile(const struct config *c, const char *name, const char *config)
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

const struct cell *
cmdcell(const struct matrix *m, const char *id, const char *config)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (!strcmp(m->cells[i].id, id))
			return &m->cells[i];
	}
	error("no cell '%s' in %s", id, config);
	return NULL;
}

int
loadkeyed(struct keyed *x, enum keysource from)
{
	memset(&x->a, 0, sizeof(x->a));
	memset(&x->k, 0, sizeof(x->k));
	memset(&x->st, 0, sizeof(x->st));
	if (!(x->c = cmdload(&x->a, &x->o, &x->h, &x->m)))
		return -1;
	keyctxinit(&x->k, x->c, x->o.builddir, x->o.templates, from);
	storeopen(x->c, x->o.builddir, &x->st);
	return 0;
}

void
unloadkeyed(struct keyed *x)
{
	keyctxfree(&x->k);
	storefree(&x->st);
	free(x->m.cells);
	afree(&x->a);
}
