/* pages: how the index's pages reach the disk, and their upload times (see pages.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "pages.h"

void
isotime(struct sb *s, long long t, struct timecache *c)
{
	if (t != c->last || !c->buf[0]) {
		time_t tt = (time_t)t;
		struct tm tm;

		gmtime_r(&tt, &tm);
		strftime(c->buf, sizeof(c->buf), "%Y-%m-%dT%H:%M:%S.000000Z", &tm);
		c->last = t;
	}
	sbadd(s, c->buf);
}

/*
 * Create page rel (relative to the directory dirfd, named dir in messages; NULL when rel says
 * it all) in a fresh tree (nothing is there yet, and the whole tree is renamed into place at the
 * end): simply created, no comparison and no temporary. A cold build of a big index is mostly
 * file creation, and this halves its system calls.
 */
int
createpage(int dirfd, const char *dir, const char *rel, const struct sb *s)
{
	const char *d = dir ? dir : "", *sep = dir ? "/" : "";
	size_t off = 0;
	ssize_t n;
	int fd;

	if ((fd = openat(dirfd, rel, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0)
		return error("cannot create '%s%s%s': %s", d, sep, rel, strerror(errno));
	while (off < s->len) {
		if ((n = write(fd, s->buf + off, s->len - off)) < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			return error("cannot write '%s%s%s': %s", d, sep, rel, strerror(errno));
		}
		off += (size_t)n;
	}
	if (close(fd) < 0)
		return error("cannot write '%s%s%s': %s", d, sep, rel, strerror(errno));
	return 1;
}

/* write the page at path: created in a fresh tree, else through writeifchanged */
int
writepage(const char *path, const struct sb *s, int fresh)
{
	return fresh ? createpage(AT_FDCWD, NULL, path, s) : writeifchanged(path, s->buf, s->len);
}
