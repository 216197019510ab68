/*
 * summary: what each job of a CI run tells of it, as Markdown for $GITHUB_STEP_SUMMARY (wheelgen
 * summary): the plan (a profile's cells, those the store holds, those missing, by job), a build
 * job's cells (built or restored, the test, the wheel's size, the steps' times; for a failure its
 * log and first errors) and the index (what it lists, what this run added, what it left out and
 * why). Read from what the jobs leave behind: the plan's matrix (json.c reads it), the manifests,
 * the test records, the step logs (status.h) and the rows merge-index wrote for it (leftout.h). Each writer appends to out and
 * returns 0, or -1 when an input it needs could not be read: the text then says so.
 */
#ifndef WG_SUMMARY_H
#define WG_SUMMARY_H

#include <stddef.h>

#include "matrix.h"
#include "util.h"

/*
 * The plan job: the cells of m in profile p (NULL: every cell of the config), how many of them
 * the store holds, and the missing ones by build job and wheel, read from matrixfile: what
 * wheelgen matrix --github printed, one {"include": [...]} line, or with --split N the lines
 * matrixK={"include": [...]} (and countK=N) for $GITHUB_OUTPUT.
 */
int summaryplan(struct sb *out, const struct matrix *m, const struct profile *p, const char *matrixfile);

/*
 * A build job: for each of the n cells, from builddir: its wheel (built, restored from the
 * store, or not made), its test (passed, failed, not run), whether it was published, the wheel's
 * size and the steps' times (and its objects: compiled, reused, and each part's share kept in
 * builddir/shards/<cell>/); for a failed step, its log (in the artifact named artifact, which
 * holds builddir/logs/; NULL: none) and the log's first error lines. -1 when a CELL is not a
 * plain name (reported; the others are summed up).
 */
int summarybuild(struct sb *out, const char *builddir, char *const *cells, size_t n, const char *artifact);

/*
 * A part job of a sharded cell (wheelgen summary build --part K CELL): part K's share of the
 * cell's objects, compiled and reused, from builddir/shards/<cell>/K/objects, its step's time
 * and, when it failed, its log (in the artifact named artifact) and first errors. -1 when cell
 * is not a plain name.
 */
int summarypart(struct sb *out, const char *builddir, const char *cell, long part, const char *artifact);

/*
 * For $GITHUB_OUTPUT: "stopped=yes" when a build or part of cell stopped at its deadline (an
 * objects file under builddir/shards/<cell>/ says state=stopped: what it made is worth saving),
 * else "stopped=". -1 when cell is not a plain name.
 */
int summarystopped(struct sb *out, const char *builddir, const char *cell);

/*
 * The index job, after ninja merge-index: how many cells and wheels the index lists (the tested
 * manifests of builddir/merge-index.rsp), which of them this run's build jobs made, which cells
 * of m it left out, each with why (the rows store --pull and index wrote for it: leftout.h; else
 * "not in the store"), and the store's counts. Never from the text of a message.
 */
int summaryindex(struct sb *out, const struct matrix *m, const char *builddir);

/*
 * The first error lines of a step's log, into lines (one per line, "N: text", at most max), as
 * the step found them: templates/step-lib.sh owns the rule (wg_first_errors_of) and writes them
 * beside the log (BUILDDIR/logs/CELL.KIND.errors for CELL.KIND.log) when the step fails; read
 * only when not older than the log. Without them, the log's last lines (not its "wheelgen-step:"
 * lines). 0, or -1 when neither can be read.
 */
int firsterrors(const char *log, size_t max, struct sb *lines);

#endif
