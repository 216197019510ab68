/* unit tests of summary: the first error lines of a step's log */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "files.h"
#include "summary.h"
#include "util.h"
#include "unit.h"

/* the first error lines of a step's log (gen/summary.c): those the step wrote beside the log
   (templates/step-lib.sh owns the rule), else the log's tail */
void
testsummary(void)
{
	static const char log1[] =
		"wheelgen-step: start 1 build x\n+ gcc -c a.c\na.c:3:1: error: unknown type 'x'\nwheelgen-step: end 2 1 1 s\n";
	static const char log2[] = "wheelgen-step: start 1 test x\none\ntwo\nthree\nwheelgen-step: end 2 1 1 s\n";
	static const char errs2[] = "3: a.c:3:1: error: unknown type 'x'\n7: FAILED: a.o\n";
	char dir[] = "/tmp/wgunitXXXXXX", path[64], errs[64], *want, *golden;
	struct sb lines = SB_INIT;
	struct timeval old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/x.build.log", dir);
	snprintf(errs, sizeof(errs), "%s/x.build.errors", dir);
	CHECK(writeifchanged(path, log1, strlen(log1)) >= 0, "a log written");
	CHECK(firsterrors(path, 5, &lines) == 0, "the log read");
	CHECKSTR(lines.buf, "+ gcc -c a.c\na.c:3:1: error: unknown type 'x'\n", "no errors file: the log's last lines");
	/* the errors file the step wrote: its lines as they are, at most max */
	CHECK(writeifchanged(errs, errs2, strlen(errs2)) >= 0, "errors written");
	sbreset(&lines);
	CHECK(firsterrors(path, 5, &lines) == 0, "the log read");
	CHECKSTR(lines.buf, errs2, "the step's errors");
	sbreset(&lines);
	CHECK(firsterrors(path, 1, &lines) == 0, "the log read");
	CHECKSTR(lines.buf, "3: a.c:3:1: error: unknown type 'x'\n", "at most max of them");
	/* an errors file older than the log is an earlier run's */
	CHECK(utimes(errs, old) == 0, "errors made old");
	sbreset(&lines);
	CHECK(firsterrors(path, 2, &lines) == 0, "the log read");
	CHECKSTR(lines.buf, "+ gcc -c a.c\na.c:3:1: error: unknown type 'x'\n", "an old errors file: the log's last lines");
	CHECK(writeifchanged(errs, "", 0) >= 0, "an empty errors file");
	CHECK(writeifchanged(path, log2, strlen(log2)) >= 0, "a log without errors written");
	sbreset(&lines);
	CHECK(firsterrors(path, 2, &lines) == 0, "the log read");
	CHECKSTR(lines.buf, "two\nthree\n", "without errors: its last lines");
	snprintf(path, sizeof(path), "%s/none.test.log", dir);
	CHECK(firsterrors(path, 2, &lines) == -1, "no log: -1");
	/* what the rule of templates/step-lib.sh finds in the shared log (tests/t0460 holds the rule
	   to tests/golden/first-errors.expect) is what the summary shows (run from the top of the tree) */
	want = readfile("tests/golden/first-errors.expect", NULL);
	golden = readfile("tests/golden/first-errors.log", NULL);
	CHECK(want && golden, "tests/golden/first-errors.* read");
	if (want && golden) {
		snprintf(path, sizeof(path), "%s/g.build.log", dir);
		snprintf(errs, sizeof(errs), "%s/g.build.errors", dir);
		CHECK(writeifchanged(path, golden, strlen(golden)) >= 0 && writeifchanged(errs, want, strlen(want)) >= 0,
		      "the golden log and its errors written");
		sbreset(&lines);
		CHECK(firsterrors(path, 10, &lines) == 0, "the golden log read");
		CHECKSTR(lines.buf, want, "tests/golden/first-errors.expect: the lines step-lib.sh's rule found");
	}
	free(want);
	free(golden);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0, "cleanup");
	sbfree(&lines);
}
