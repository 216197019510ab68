/* cmdrun: the commands on a build directory and a CI run: status, claim, summary, shards. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim.h"
#include "cmd.h"
#include "files.h"
#include "shardplan.h"
#include "shardstat.h"
#include "status.h"
#include "summary.h"

static const char statususage[] =
	"usage: wheelgen status [--builddir DIR] [--all]\n"
	"\n"
	"Whether a ninja runs in DIR (default out), and for each build and test step of its\n"
	"runs: the step, its cell, its state (running, ok, failed, or stopped: its ninja is\n"
	"gone), its time so far or in all, and the last line of its log (DIR/logs/). Running\n"
	"steps first, then the 20 newest. Read from the logs, so it works from a second terminal\n"
	"while ninja runs, and in CI after it. A long step writes a heartbeat line to its log\n"
	"every minute, with the build's [N/M] progress.\n";

/* status's options */
struct statusopts {
	struct cmdopts c;
	int all;
};

static const struct optrow statusrows[] = {
	OPT_BUILDDIR,
	OPTFLAG("all", offsetof(struct statusopts, all), "every step, not only the running ones and the 20 newest"),
	OPTEND,
};

static int
cmdstatus(const struct command *cmd, int argc, char **argv)
{
	struct statusopts o = { .c = { 0 } };

	parseopts(argc, argv, &o.c, cmd);
	return buildstatus(o.c.builddir, o.all) < 0;
}

const struct command cmd_status = {
	"status", cmdstatus, statususage,
	"the build and test steps of the build directory: running, ok, failed; time; last line",
	statusrows, 0,
};

static const char claimusage[] =
	"usage: wheelgen claim [--builddir DIR] [--fd N]\n"
	"\n"
	"Every graph edge that changes DIR (fetch, checkout, wheel, test, index, publish,\n"
	"regeneration) runs this first. The first edge of a ninja run records that ninja's pid\n"
	"in DIR/.lock; an edge of a second ninja run in the same DIR stops at once with\n"
	"\"another ninja is running in DIR (pid N)\" while the first one lives. Outside ninja\n"
	"it only checks.\n";

/* claim's options */
struct claimopts {
	struct cmdopts c;
	long fd; /* --fd N (-1: none) */
};

static const struct optrow claimrows[] = {
	OPT_BUILDDIR,
	OPTINT("fd", offsetof(struct claimopts, fd), "N", "a descriptor", 3, 255,
	       "a descriptor open on DIR/.lock.run that the edge's shell keeps while its step runs: it gets a "
	       "shared lock. A run that takes over from a ninja killed with -9 waits until the steps that ninja "
	       "left running have ended"),
	OPTEND,
};

static int
cmdclaim(const struct command *cmd, int argc, char **argv)
{
	struct claimopts o = { .fd = -1 };

	parseopts(argc, argv, &o.c, cmd);
	return claimbuilddir(o.c.builddir, (int)o.fd) < 0;
}

const struct command cmd_claim = {
	"claim", cmdclaim, claimusage,
	"take the build directory for the ninja run above (ninja's edges run this first)",
	claimrows, 0,
};

static const char summaryusage[] =
	"usage: wheelgen summary plan [--config FILE] [--profile P] --matrix FILE\n"
	"       wheelgen summary build [--builddir DIR] [--artifact NAME] CELL...\n"
	"       wheelgen summary build --part K [--builddir DIR] [--artifact NAME] CELL\n"
	"       wheelgen summary stopped [--builddir DIR] CELL\n"
	"       wheelgen summary index [--config FILE] [--builddir DIR]\n"
	"\n"
	"Print Markdown that tells what a CI job did ($GITHUB_STEP_SUMMARY), read from what its\n"
	"steps left, so that it works after a failed step too:\n"
	"  plan    the cells of profile P (default: every cell), how many the store holds, and\n"
	"          the missing ones by build job and wheel, from --matrix FILE: what 'wheelgen\n"
	"          matrix --github' printed (a split one: its matrixK=, partsK= and finalsK= lines)\n"
	"  build   for each CELL: its wheel built or restored from the store, its test, whether\n"
	"          it was published, the wheel's size, the steps' times (DIR/wheels/, tests/,\n"
	"          publish/, logs/), its objects compiled and reused and what its parts or a\n"
	"          build stopped at its deadline kept (shards/); a failed cell's log, in the\n"
	"          artifact NAME when given, with its first error lines. With --part K: the part\n"
	"          job of a sharded CELL, its share of the objects (shards/CELL/K/objects) and time\n"
	"  stopped 'stopped=yes' for $GITHUB_OUTPUT when a build or part of CELL stopped at its\n"
	"          deadline (its objects are worth saving), else 'stopped='\n"
	"  index   after ninja merge-index: how many cells and wheels the index lists\n"
	"          (DIR/merge-index.rsp), which of them this run's builds made, and each cell of\n"
	"          the config it left out, with why (what store --pull and index wrote for it:\n"
	"          DIR/store-pull.tsv, DIR/index-left-out.tsv), and what the store gave\n"
	"Exit status 0 when a summary was printed (also one that says an input is missing).\n";

/* summary's options */
struct summaryopts {
	struct cmdopts c;
	const char *profile, *matrix, *artifact;
	long part; /* --part K (0: none) */
};
#define SO(field) offsetof(struct summaryopts, field)

static const struct optrow summaryrows[] = {
	OPT_CONFIG,
	OPT_BUILDDIR,
	OPTSTR("profile", SO(profile), "P", "plan: the cells of profile P (default: every cell)"),
	OPTSTR("matrix", SO(matrix), "FILE", "plan: what 'wheelgen matrix --github' printed"),
	OPTSTR("artifact", SO(artifact), "NAME", "build: the artifact that holds the failed cells' logs"),
	OPTINT("part", SO(part), "K", "a part", 1, SHARDS_MAX, "build: the part job K of a sharded cell"),
	OPTEND,
};

static int
cmdsummary(const struct command *cmd, int argc, char **argv)
{
	struct arena a = { 0 };
	struct sb out = SB_INIT;
	const struct profile *prof = NULL;
	struct summaryopts o = { .c = { 0 } };
	struct host h;
	struct matrix m;
	struct config *c = NULL;
	const char *what;
	int rc = 1;

	parseopts(argc, argv, &o.c, cmd);
	what = o.c.nargs ? o.c.args[0] : "";
	memset(&m, 0, sizeof(m));
	if (!strcmp(what, "build") && o.part) {
		if (o.c.nargs != 2)
			usagefail(cmd, "summary build --part K takes one cell");
		rc = summarypart(&out, o.c.builddir, o.c.args[1], o.part, o.artifact) < 0;
	} else if (!strcmp(what, "build")) {
		rc = summarybuild(&out, o.c.builddir, o.c.args + 1, (size_t)o.c.nargs - 1, o.artifact) < 0;
	} else if (!strcmp(what, "stopped")) {
		if (o.c.nargs != 2)
			usagefail(cmd, "summary stopped takes one cell");
		rc = summarystopped(&out, o.c.builddir, o.c.args[1]) < 0;
	} else if (!strcmp(what, "plan") || !strcmp(what, "index")) {
		if (!strcmp(what, "plan") && !o.matrix)
			usagefail(cmd, "summary plan needs --matrix FILE");
		if (o.c.nargs > 1)
			usagefail(cmd, "unexpected argument '%s'", o.c.args[1]);
		/* (without the config, or the profile, the job's summary still says where to look) */
		if (!(c = cmdload(&a, &o.c, &h, &m)))
			sbaddf(&out, "### %s\n\nThe config could not be read: the log of this step says why.\n",
			       *what == 'p' ? "Plan" : "Index");
		else if (o.profile && !(prof = cmdprofile(c, o.profile, o.c.config)))
			sbadd(&out, "### Plan\n\nThe config has no such profile: the log of this step lists its profiles.\n");
		else if (*what == 'p')
			summaryplan(&out, &m, prof, o.matrix);
		else
			summaryindex(&out, &m, o.c.builddir);
		/* (a summary that says an input is missing is still one) */
		rc = c && (!o.profile || prof) ? 0 : 1;
	} else {
		usagefail(cmd, "summary needs plan, build, stopped or index");
	}
	fwrite(out.buf, 1, out.len, stdout);
	sbfree(&out);
	free(m.cells);
	afree(&a);
	return rc;
}

const struct command cmd_summary = {
	"summary", cmdsummary, summaryusage,
	"Markdown for a CI job's summary: the plan, a build job's cells, the index",
	summaryrows, CMD_ARGS,
};

static const char shardsusage[] =
	"usage: wheelgen shards suggest [--builddir DIR] [--target-minutes M] [--setup-minutes S] CELL\n"
	"\n"
	"Suggest the shards: (N) of CELL's package for jobs of at most M minutes (default 330, of a\n"
	"GitHub runner's 360), from what its builds in DIR (default out) took:\n"
	"  objects   its manifest's objects_compiled + objects_reused, else its build log's count\n"
	"            (ninja's [i/N], else its compile commands)\n"
	"  times     its build log and each part's log (logs/CELL.build.log, CELL.shardK.log): a job\n"
	"            takes a fixed setup (runner, venv, torch, checkout, link) plus a time per object\n"
	"            it compiles. The setup is fitted from builds that compiled different counts (the\n"
	"            whole and its parts, or a final step that compiled 0), else give it: --setup-minutes\n"
	"A part holds a binomial share of the objects (an object is in part K by a hash), so N is the\n"
	"smallest for which the expected largest part, its mean plus two standard deviations, fits M\n"
	"with the setup. Objects differ in time too (flash-attn's take 1 to 13 minutes): that spread\n"
	"is not modelled, so keep some margin in M. Prints the measurement, a line per N up to the\n"
	"suggestion, and last 'shards: \"N\"'. Exit status 1 when no N up to 64 fits, or nothing\n"
	"could be measured.\n";

/* shards's options */
struct shardsopts {
	struct cmdopts c;
	double target, setup; /* --target-minutes, --setup-minutes (below 0: not given) */
};

static const struct optrow shardsrows[] = {
	OPT_BUILDDIR,
	OPTNUMABOVE("target-minutes", offsetof(struct shardsopts, target), "M", "minutes", 0, 100000,
		    "the longest a job may take (default 330)"),
	OPTNUM("setup-minutes", offsetof(struct shardsopts, setup), "S", "minutes", 0, 100000,
	       "a job's setup, where the builds cannot tell it (default: fitted)"),
	OPTEND,
};

static int
cmdshards(const struct command *cmd, int argc, char **argv)
{
	struct shardmeasure sm;
	struct shardfit f;
	struct shardsopts o = { .target = -1, .setup = -1 };
	const char *cell;
	double target;
	char t[32];
	long n, k;
	size_t i;

	parseopts(argc, argv, &o.c, cmd);
	if (o.c.nargs != 2 || strcmp(o.c.args[0], "suggest"))
		usagefail(cmd, "shards takes suggest and one cell");
	cell = o.c.args[1];
	if (!plainname(cell))
		return error("'%s' is not a cell's name", cell), 1;
	if (shardmeasure(o.c.builddir, cell, &sm) < 0)
		return 1;
	if (sm.objects <= 0)
		return error("%s: no object count (its manifest has none, and its build log shows no compile)", cell), 1;
	switch (shardfitpoints(sm.pts, sm.npts, o.setup >= 0 ? o.setup * 60 : -1, &f)) {
	case 0:
		break;
	case SHARDFIT_NOTHING:
		return error("%s: its builds compiled nothing: no time per object to measure", cell), 1;
	case SHARDFIT_ONECOUNT:
		return error("%s: the setup cannot be told from the compile time: its builds did not compile different "
			     "counts (build its parts too, or give --setup-minutes)", cell), 1;
	default:
		return error("%s: its builds' times do not grow with what they compiled (the logs count whole seconds: "
			     "a build of seconds is too short to measure; or --setup-minutes is too long)", cell), 1;
	}
	/* (the default: 330 of a GitHub runner's 360 minutes, the workflow's deadline) */
	target = (o.target > 0 ? o.target : 330) * 60;
	printf("%s: %lld objects (%s)\n", cell, sm.objects, sm.objectsfrom ? sm.objectsfrom : "?");
	for (i = 0; i < sm.npts; i++) {
		stepduration(t, sizeof(t), sm.pts[i].secs);
		printf("  a build: %lld compiled in %s\n", sm.pts[i].compiled, t);
	}
	stepduration(t, sizeof(t), (long long)(f.setup + 0.5));
	printf("a job: %s of setup (%s)", t, f.fitted ? "fitted" : "--setup-minutes");
	stepduration(t, sizeof(t), (long long)(f.perobject + 0.5));
	printf(" + %s an object\n", t);
	n = shardsuggest(sm.objects, &f, target);
	for (k = 1; k <= (n ? n : SHARDS_MAX); k++) {
		/* (the first, and the last 8 up to the suggestion; without one, 1 to 8 and the last) */
		if ((n && k < n - 8 && k > 1) || (!n && k > 8 && k < SHARDS_MAX))
			continue;
		stepduration(t, sizeof(t), (long long)(shardjobsecs(sm.objects, k, &f) + 0.5));
		printf("  N=%-2ld  largest part %5.1f objects (mean %.1f + 2 sd): %s%s\n", k, shardlargest(sm.objects, k),
		       (double)sm.objects / (double)k, t, shardjobsecs(sm.objects, k, &f) <= target ? "" : " (over)");
	}
	stepduration(t, sizeof(t), (long long)target);
	if (!n) {
		error("no N up to %d fits jobs of %s: an object, or the setup, takes too long", SHARDS_MAX, t);
		return 1;
	}
	printf("shards: \"%ld\"   (jobs of at most %s)\n", n, t);
	return 0;
}

const struct command cmd_shards = {
	"shards", cmdshards, shardsusage,
	"suggest N for a package's shards: from a cell's build, for a target job time",
	shardsrows, CMD_ARGS,
};
