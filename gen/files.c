/* files: reading, writing and removing files and directories; locks and the leftovers of killed writers (see files.h). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"

/* what a temporary's name holds between its file's name and its pid: writeifchanged writes
   <path>.tmp.<pid>, sweeptemps removes those of dead pids */
#define TEMPINFIX ".tmp."

char *
readfile(const char *path, size_t *lenp)
{
	return readfilemax(path, lenp, 0);
}

char *
readfilemax(const char *path, size_t *lenp, size_t max)
{
	struct sb s = SB_INIT;
	char tmp[65536];
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		n = read(fd, tmp, sizeof(tmp));
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			sbfree(&s);
			errno = e;
			return NULL;
		}
		sbaddn(&s, tmp, (size_t)n);
		if (max && s.len > max) {
			close(fd);
			sbfree(&s);
			errno = EFBIG;
			return NULL;
		}
	}
	close(fd);
	if (lenp)
		*lenp = s.len;
	return sbdetach(&s);
}

static int
rmone(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int
rmtree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, rmone, 16, FTW_DEPTH | FTW_PHYS);
}

int
mkdirs(const char *dir)
{
	char *parent, *slash;
	int rc;

	/* the common case first: only the last component is missing (one syscall) */
	if (mkdir(dir, 0777) == 0 || errno == EEXIST)
		return 0;
	if (errno != ENOENT || !(slash = strrchr(dir, '/')) || slash == dir)
		return error("cannot create directory '%s': %s", dir, strerror(errno));
	parent = xstrndup(dir, (size_t)(slash - dir));
	rc = mkdirs(parent);
	free(parent);
	if (rc < 0)
		return -1;
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return error("cannot create directory '%s': %s", dir, strerror(errno));
	return 0;
}

/* 1 if path holds exactly data, else 0 */
static int
samecontent(const char *path, const char *data, size_t len)
{
	char buf[65536];
	struct stat st;
	size_t off = 0;
	ssize_t n;
	int fd, same = 1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != len) {
		close(fd);
		return 0;
	}
	while (same) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			same = n == 0 && off == len;
			break;
		}
		if ((size_t)n > len - off || memcmp(buf, data + off, (size_t)n) != 0)
			same = 0;
		off += (size_t)n;
	}
	close(fd);
	return same;
}

int
writeifchanged(const char *path, const char *data, size_t len)
{
	struct sb tmp = SB_INIT;
	const char *slash;
	size_t off = 0;
	ssize_t n;
	int fd, e;

	if (samecontent(path, data, len))
		return 0;
	slash = strrchr(path, '/');
	if (slash && slash != path) {
		char *dir = xstrndup(path, (size_t)(slash - path));
		int r = mkdirs(dir);

		free(dir);
		if (r < 0)
			return -1;
	}
	sbaddf(&tmp, "%s" TEMPINFIX "%ld", path, (long)getpid());
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		error("cannot create '%s': %s", tmp.buf, strerror(errno));
		sbfree(&tmp);
		return -1;
	}
	while (off < len) {
		n = write(fd, data + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0) {
		fd = -1;
		goto fail;
	}
	if (rename(tmp.buf, path) < 0) {
		fd = -1;
		goto fail;
	}
	sbfree(&tmp);
	return 1;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp.buf);
	error("cannot write '%s': %s", path, strerror(e));
	sbfree(&tmp);
	return -1;
}

int
readkeys(const char *path, const char *const *keys, char **slots)
{
	char *buf, *next, *line, *eq;
	size_t i;

	if (!(buf = readfile(path, NULL)))
		return -1;
	next = buf;
	while ((line = nextline(&next))) {
		if (!(eq = strchr(line, '=')))
			continue;
		*eq = '\0';
		for (i = 0; keys[i]; i++) {
			if (!strcmp(line, keys[i])) {
				free(slots[i]);
				slots[i] = xstrdup(eq + 1);
			}
		}
	}
	free(buf);
	return 0;
}

int
lockfile(const char *path)
{
	struct flock fl;
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);

	if (fd < 0) {
		error("cannot open lock '%s': %s", path, strerror(errno));
		return -1;
	}
	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	while (fcntl(fd, F_SETLKW, &fl) < 0) {
		if (errno != EINTR) {
			error("cannot lock '%s': %s", path, strerror(errno));
			close(fd);
			return -1;
		}
	}
	return fd;
}

int
plainname(const char *s)
{
	const unsigned char *p;

	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '/' || *p == '\\' || *p < 0x20 || *p == 0x7f)
			return 0;
	}
	return 1;
}

int
deadpid(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(name, prefix, n) || !name[n])
		return 0;
	pid = strtol(name + n, &end, 10);
	if (*end || pid <= 0)
		return 0;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* the entries of dir that dead(name, prefix) calls a dead writer's, removed (rmtree) */
static void
sweep(const char *dir, const char *prefix, int (*dead)(const char *, const char *))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct sb p = SB_INIT;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (dead(e->d_name, prefix)) {
			sbreset(&p);
			sbaddf(&p, "%s/%s", dir, e->d_name);
			rmtree(p.buf);
		}
	}
	closedir(d);
	sbfree(&p);
}

void
sweepdead(const char *dir, const char *prefix)
{
	sweep(dir, prefix, deadpid);
}

/* is name <anything>.tmp.<pid> of a process that no longer runs? */
static int
deadtemp(const char *name, const char *tmp)
{
	const char *t = NULL, *q = name;

	while ((q = strstr(q, tmp))) /* the last one */
		t = q++;
	return t && deadpid(t, tmp);
}

void
sweeptemps(const char *dir)
{
	sweep(dir, TEMPINFIX, deadtemp);
}
