/* gitlock: the lock file (config/packages.lock), the commit of every git package version (see gitlock.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "gitlock.h"

/* locktake: the lock file's writers take BUILDDIR/lock.lck in turn; its descriptor, or -1 */
static int
locktake(const char *builddir)
{
	struct sb lck = SB_INIT;
	int fd;

	sbaddf(&lck, "%s/lock.lck", builddir);
	fd = lockfile(lck.buf);
	sbfree(&lck);
	return fd;
}

int
lockprune(const char *builddir, const char *lock, const char *keep)
{
	struct sb file = SB_INIT, key = SB_INIT;
	char *buf, *next, *line;
	int fd, rc = 0, removed = 0;

	if (!*lock)
		return 0;
	if ((fd = locktake(builddir)) < 0)
		return -1;
	if (!(buf = readfile(lock, NULL))) {
		close(fd);
		return errno == ENOENT ? 0 : error("cannot read lock file '%s': %s", lock, strerror(errno));
	}
	next = buf;
	while ((line = nextline(&next))) {
		char pkg[256], ver[256];

		if (*line && *line != '#' && sscanf(line, "%255s %255s", pkg, ver) == 2) {
			sbreset(&key);
			sbaddf(&key, "\n%s %s\n", pkg, ver);
			if (!strstr(keep, key.buf)) {
				report("lock: removed '%s %s' from %s: no configured version uses it", pkg, ver, lock);
				removed++;
				continue;
			}
		}
		sbaddf(&file, "%s\n", line);
	}
	if (removed && writeifchanged(lock, file.buf, file.len) < 0)
		rc = -1;
	close(fd);
	free(buf);
	sbfree(&file);
	sbfree(&key);
	return rc;
}

int
lockcheck(const char *builddir, const char *lock, const char *package, const char *version, const char *hex,
	  int update, const char *what)
{
	struct sb out = SB_INIT, key = SB_INIT;
	char *buf, *next, *line, **lines = NULL;
	size_t n = 0, cap = 0, i, j;
	int fd, rc = 0, found = 0, replaced = 0;

	if (!*lock)
		return 0;
	if ((fd = locktake(builddir)) < 0)
		return -1;
	sbaddf(&key, "%s %s ", package, version);
	buf = readfile(lock, NULL);
	if (!buf && errno != ENOENT) {
		rc = error("cannot read lock file '%s': %s", lock, strerror(errno));
		goto out;
	}
	next = buf ? buf : sb_empty;
	while ((line = nextline(&next))) {
		if (!*line || *line == '#')
			continue;
		if (startswith(line, key.buf)) {
			found = 1;
			if (strcmp(line + key.len, hex)) {
				if (!update) {
					rc = error("%s %s: %s now points at %s, but %s locks it at %s; "
						   "if the move is intended, run 'wheelgen lock --update'",
						   package, version, what, hex, lock, line + key.len);
					goto out;
				}
				replaced = 1;
				continue;   /* replaced below */
			}
		}
		GROW(lines, cap, n + 1);
		lines[n++] = line;
	}
	/* (with --update, an entry that did not move stays as it is: once) */
	if (found && !replaced)
		goto out;
	sbaddf(&out, "%s%s", key.buf, hex);
	GROW(lines, cap, n + 1);
	lines[n++] = out.buf;
	/* keep it sorted so that diffs stay small */
	for (i = 1; i < n; i++) {
		for (j = i; j > 0 && strcmp(lines[j - 1], lines[j]) > 0; j--) {
			char *t = lines[j];

			lines[j] = lines[j - 1];
			lines[j - 1] = t;
		}
	}
	{
		struct sb file = SB_INIT;

		sbadd(&file, "# wheelgen lock file: the commit each (package, version) was built from.\n"
			     "# Written by wheelgen; commit it. 'wheelgen lock --update' accepts moved tags.\n");
		for (i = 0; i < n; i++)
			sbaddf(&file, "%s\n", lines[i]);
		if (writeifchanged(lock, file.buf, file.len) < 0)
			rc = -1;
		sbfree(&file);
	}
out:
	close(fd);
	free(lines);
	free(buf);
	sbfree(&out);
	sbfree(&key);
	return rc;
}

int
lockread(const char *lock, const char *package, const char *version, char hex[65])
{
	struct sb key = SB_INIT;
	char *buf, *next, *line;
	int rc = 1;

	if (!lock || !*lock || !(buf = readfile(lock, NULL)))
		return 1;
	sbaddf(&key, "%s %s ", package, version);
	next = buf;
	while ((line = nextline(&next))) {
		if (startswith(line, key.buf) && strlen(line + key.len) < 65) {
			strcpy(hex, line + key.len);
			rc = 0;
		}
	}
	free(buf);
	sbfree(&key);
	return rc;
}
