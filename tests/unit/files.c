/* unit tests of files: a file written only when it changed, and read back */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "files.h"
#include "unit.h"

void
testfiles(void)
{
	char dir[] = "/tmp/wgunitXXXXXX", path[128], *data;
	struct stat st1, st2;
	size_t len;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/sub/dir/file", dir);
	CHECK(writeifchanged(path, "hello\n", 6) == 1, "new file written");
	CHECK(stat(path, &st1) == 0, "file exists");
	CHECK(writeifchanged(path, "hello\n", 6) == 0, "same content not rewritten");
	CHECK(stat(path, &st2) == 0 && st1.st_ino == st2.st_ino && st1.st_mtim.tv_nsec == st2.st_mtim.tv_nsec,
	      "same inode and mtime");
	CHECK(writeifchanged(path, "hello!\n", 7) == 1, "changed content rewritten");
	data = readfile(path, &len);
	CHECK(data && len == 7 && !memcmp(data, "hello!\n", 7), "new content read back");
	free(data);
	snprintf(path, sizeof(path), "%s/sub", dir);
	printf("(an error about '%s' follows: expected)\n", path);
	fflush(stdout);
	CHECK(writeifchanged(path, "x", 1) < 0, "cannot replace a directory");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0, "cleanup");
}
