/* unit tests of key: the one depfile writer */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "files.h"
#include "key.h"
#include "matrix.h"
#include "util.h"
#include "unit.h"

/* the one depfile writer (key.h): a path source's files, escaped as ninja's depfile parser reads
   them ('$' doubled, space and '#' escaped, ':' as it is); a git source names none; a file a
   depfile cannot name is an error */
void
testkey(void)
{
	char dir[] = "/tmp/wgunitXXXXXX", path[96], *got;
	struct package pkg;
	struct cell cl;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	memset(&pkg, 0, sizeof(pkg));
	memset(&cl, 0, sizeof(cl));
	cl.pkg = &pkg;
	pkg.src = SRC_PATH;
	pkg.path = dir;
	snprintf(path, sizeof(path), "%s/we$ird :dir", dir);
	CHECK(mkdir(path, 0777) == 0, "a directory with '$', space and ':'");
	snprintf(path, sizeof(path), "%s/we$ird :dir/a#b.c", dir);
	CHECK((f = fopen(path, "w")) && fclose(f) == 0, "a file in it");
	snprintf(path, sizeof(path), "%s/setup.py", dir);
	CHECK((f = fopen(path, "w")) && fclose(f) == 0, "setup.py");
	snprintf(path, sizeof(path), "%s/build", dir);
	CHECK(mkdir(path, 0777) == 0, "build/ (not a source)");
	snprintf(path, sizeof(path), "%s.d", dir);
	CHECK(depfilewrite(&cl, "out dir/wheels/x/manifest", path) == 0, "depfile written");
	got = readfile(path, NULL);
	{
		struct sb want = SB_INIT;

		sbaddf(&want, "out\\ dir/wheels/x/manifest: %s/setup.py %s/we$$ird\\ :dir/a\\#b.c\n", dir, dir);
		CHECKSTR(got ? got : "", want.buf, "the depfile: sorted, escaped, no build/");
		sbfree(&want);
	}
	free(got);
	pkg.src = SRC_GIT;
	CHECK(depfilewrite(&cl, "out/wheels/x/manifest", path) == 0, "a git cell's depfile");
	got = readfile(path, NULL);
	CHECKSTR(got ? got : "", "out/wheels/x/manifest:\n", "a git cell names no file");
	free(got);
	pkg.src = SRC_PATH;
	snprintf(path, sizeof(path), "%s/tab\there", dir);
	CHECK((f = fopen(path, "w")) && fclose(f) == 0, "a file with a tab");
	snprintf(path, sizeof(path), "%s.d", dir);
	CHECK(depfilewrite(&cl, "out/wheels/x/manifest", path) == -1, "a tab: -1");
	unlink(path);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0, "cleanup");
}
