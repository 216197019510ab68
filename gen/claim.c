/*
 * One ninja at a time per build directory. Every edge that changes shared state (fetch,
 * checkout, wheel, test, index, publish, regeneration) starts with `wheelgen claim`: the first
 * edge of a ninja run writes that ninja's pid and start time to BUILDDIR/.lock, and an edge of
 * another ninja stops at once while the owner lives. Edges of one run never wait for each
 * other (they share the owner), and a run killed with -9 leaves a lock that the next run takes
 * over (its owner is gone: the pid is not running, or runs something that started later).
 *
 * Killing ninja does not kill its steps: ninja starts each in a process group of its own. An
 * edge's shell therefore opens BUILDDIR/.lock.run and keeps it open while its step runs, and
 * claim takes a shared lock on that descriptor (a lock of the open file, which the shell holds):
 * a run that takes over from a dead owner first takes the exclusive lock, i.e. waits until the
 * steps the dead run left behind have ended, so they cannot write under the new run's feet.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "claim.h"
#include "files.h"
#include "util.h"

#define MAXUP 64

struct proc {
	long pid;
	unsigned long long start; /* clock ticks after boot (/proc/PID/stat field 22) */
};

/* pid's parent, start time and command name; -1 if it does not run (or /proc cannot tell) */
static int
procinfo(long pid, long *ppid, unsigned long long *start, char *comm, size_t n)
{
	char path[64], *buf, *lp, *rp, *p;
	int field;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(buf = readfile(path, NULL)))
		return -1;
	/* "pid (comm) state ppid ...": comm may hold ')' and blanks, so take the last ')' */
	lp = strchr(buf, '(');
	rp = strrchr(buf, ')');
	if (!lp || !rp || rp < lp) {
		free(buf);
		return -1;
	}
	if (comm) {
		size_t len = (size_t)(rp - lp - 1);

		if (len >= n)
			len = n - 1;
		memcpy(comm, lp + 1, len);
		comm[len] = '\0';
	}
	p = rp + 1;
	for (field = 3; field <= 22 && p; field++) {
		while (*p == ' ')
			p++;
		if (field == 4)
			*ppid = strtol(p, NULL, 10);
		if (field == 22)
			*start = strtoull(p, NULL, 10);
		p = strchr(p, ' ');
	}
	free(buf);
	return field > 22 ? 0 : -1;
}

static int
isninja(const char *comm)
{
	return !strncmp(comm, "ninja", 5) || !strcmp(comm, "samu");
}

/* the owner BUILDDIR/.lock records; 1 when that process still runs (same pid, same start) */
static int
readowner(const char *builddir, struct proc *owner)
{
	struct sb path = SB_INIT;
	unsigned long long start;
	long ppid;
	char *text;
	int alive = 0;

	owner->pid = 0;
	owner->start = 0;
	sbaddf(&path, "%s/.lock", builddir);
	if ((text = readfile(path.buf, NULL)) != NULL) {
		if (sscanf(text, "%ld %llu", &owner->pid, &owner->start) == 2 && owner->pid > 1 &&
		    procinfo(owner->pid, &ppid, &start, NULL, 0) == 0 && start == owner->start)
			alive = 1;
		free(text);
	}
	sbfree(&path);
	return alive;
}

int
claimowner(const char *builddir, long *pid)
{
	struct proc owner;
	int alive = readowner(builddir, &owner);

	*pid = owner.pid;
	return alive;
}

/* wait until no step of an earlier run holds BUILDDIR/.lock.run */
static int
drainsteps(const char *builddir, long owner)
{
	struct sb run = SB_INIT;
	int fd, rc = 0;

	sbaddf(&run, "%s/.lock.run", builddir);
	if ((fd = open(run.buf, O_RDWR | O_CREAT | O_CLOEXEC, 0666)) < 0) {
		rc = error("cannot open '%s': %s", run.buf, strerror(errno));
	} else if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (owner > 0)
			notice("waiting for the steps that a stopped ninja (pid %ld) left running in %s to end",
				owner, builddir);
		else
			notice("waiting for the steps of a stopped ninja still running in %s to end", builddir);
		while (flock(fd, LOCK_EX) < 0) {
			if (errno != EINTR) {
				rc = error("cannot lock '%s': %s", run.buf, strerror(errno));
				break;
			}
		}
	}
	if (fd >= 0)
		close(fd);
	sbfree(&run);
	return rc;
}

int
claimbuilddir(const char *builddir, int stepfd)
{
	struct proc up[MAXUP], owner = { 0, 0 }, *ninja = NULL;
	struct sb lck = SB_INIT, path = SB_INIT, text = SB_INIT;
	char comm[64];
	long pid = (long)getppid(), ppid;
	unsigned long long start;
	size_t n = 0, i;
	int fd, rc = 0;

	/* this process's ancestors, up to the first ninja */
	while (pid > 1 && n < MAXUP && procinfo(pid, &ppid, &start, comm, sizeof(comm)) == 0) {
		up[n].pid = pid;
		up[n].start = start;
		n++;
		if (isninja(comm)) {
			ninja = &up[n - 1];
			break;
		}
		pid = ppid;
	}
	sbaddf(&lck, "%s/.lock.lck", builddir);
	sbaddf(&path, "%s/.lock", builddir);
	if ((fd = lockfile(lck.buf)) < 0) {
		rc = -1;
		goto out;
	}
	if (readowner(builddir, &owner)) {
		/* the owner is this run's ninja, or a ninja this one runs under */
		for (i = 0; i < n; i++) {
			if (up[i].pid == owner.pid && up[i].start == owner.start)
				goto unlock;
		}
		rc = error("another ninja is running in %s (pid %ld): wait for it to finish, or stop it "
			   "(two runs in one build directory would overwrite each other's venvs and manifests)",
			   builddir, owner.pid);
		goto unlock;
	}
	if (ninja) {
		if (stepfd >= 0 && drainsteps(builddir, owner.pid) < 0) {
			rc = -1;
			goto unlock;
		}
		sbaddf(&text, "%ld %llu\n", ninja->pid, ninja->start);
		/* (a temporary renamed into place, removed when it cannot be: a full disk) */
		if (writeifchanged(path.buf, text.buf, text.len) < 0)
			rc = -1;
	}
unlock:
	/* this step's shell holds stepfd while the step runs: a shared lock that a later owner's
	   drainsteps waits for (taken under the mutex, after any takeover) */
	if (rc == 0 && stepfd >= 0) {
		while (flock(stepfd, LOCK_SH) < 0) {
			if (errno != EINTR) {
				rc = error("cannot lock the descriptor %d (%s/.lock.run): %s", stepfd, builddir, strerror(errno));
				break;
			}
		}
	}
	close(fd);
out:
	sbfree(&lck);
	sbfree(&path);
	sbfree(&text);
	return rc;
}
