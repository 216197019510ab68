/* cmdrun: the commands on a build directory and a CI run: status, claim, summary. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim.h"
#include "cmd.h"
#include "status.h"
#include "summary.h"

static const char statususage[] =
	"usage: wheelgen status [--builddir DIR] [--all]\n"
	"\n"
	"Whether a ninja runs in DIR (default out), and for each build and test step of its\n"
	"runs: the step, its cell, its state (running, ok, failed, or stopped: its ninja is\n"
	"gone), its time so far or in all, and the last line of its log (DIR/logs/). Running\n"
	"steps first, then the 20 newest; --all lists every one. Read from the logs, so it\n"
	"works from a second terminal while ninja runs, and in CI after it. A long step writes\n"
	"a heartbeat line to its log every minute, with the build's [N/M] progress.\n";

static int
cmdstatus(const struct command *cmd, int argc, char **argv)
{
	struct opts o;

	parseopts(argc, argv, &o, cmd);
	return buildstatus(o.builddir, o.all) < 0;
}

static const char *const statusopts[] = { "builddir", "all", NULL };
const struct command cmd_status = {
	"status", cmdstatus, statususage,
	"the build and test steps of the build directory: running, ok, failed; time; last line",
	statusopts, 0,
};

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

static int
cmdclaim(const struct command *cmd, int argc, char **argv)
{
	struct opts o;

	parseopts(argc, argv, &o, cmd);
	return claimbuilddir(o.builddir, o.fd) < 0;
}

static const char *const claimopts[] = { "builddir", "fd", NULL };
const struct command cmd_claim = {
	"claim", cmdclaim, claimusage,
	"take the build directory for the ninja run above (ninja's edges run this first)",
	claimopts, 0,
};

static const char summaryusage[] =
	"usage: wheelgen summary plan [--config FILE] [--profile P] --matrix FILE\n"
	"       wheelgen summary build [--builddir DIR] [--artifact NAME] CELL...\n"
	"       wheelgen summary index [--config FILE] [--builddir DIR]\n"
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
	"          the config it left out, with why (what store --pull and index wrote for it:\n"
	"          DIR/store-pull.tsv, DIR/index-left-out.tsv), and what the store gave\n"
	"Exit status 0 when a summary was printed (also one that says an input is missing).\n";

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
		if (!(c = cmdload(&a, &o, &h, &m)))
			sbaddf(&out, "### %s\n\nThe config could not be read: the log of this step says why.\n",
			       *what == 'p' ? "Plan" : "Index");
		else if (o.profile && !(prof = cmdprofile(c, o.profile, o.config)))
			sbadd(&out, "### Plan\n\nThe config has no such profile: the log of this step lists its profiles.\n");
		else if (*what == 'p')
			summaryplan(&out, &m, prof, o.matrixfile);
		else
			summaryindex(&out, &m, o.builddir);
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

static const char *const summaryopts[] = { "config", "builddir", "profile", "matrix", "artifact", NULL };
const struct command cmd_summary = {
	"summary", cmdsummary, summaryusage,
	"Markdown for a CI job's summary: the plan, a build job's cells, the index",
	summaryopts, CMD_ARGS,
};
