/* util: memory, growable strings, an arena, files written atomically (see util.h). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

const char *argv0 = "wheelgen";
char sb_empty[1];

static void
vmsg(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	flockfile(stderr); /* one line, even from several threads (the index's page writers) */
	fprintf(stderr, "%s: %s: ", argv0, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("fatal", fmt, ap);
	va_end(ap);
	exit(1);
}

int
error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", fmt, ap);
	va_end(ap);
	return -1;
}

void
warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning", fmt, ap);
	va_end(ap);
}

void
bug(const char *file, int line, const char *msg)
{
	fprintf(stderr, "%s: BUG: %s:%d: %s\n", argv0, file, line, msg);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		fatal("out of memory");
	return p;
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

void
growarray(void **p, size_t *cap, size_t n, size_t elem)
{
	size_t c = *cap ? *cap : 8;

	if (n <= *cap)
		return;
	while (c < n)
		c *= 2;
	if (c > SIZE_MAX / elem)
		fatal("out of memory");
	*p = xrealloc(*p, c * elem);
	*cap = c;
}

void
sbgrow(struct sb *s, size_t n)
{
	size_t c;

	if (s->len + n + 1 <= s->cap)
		return;
	c = s->cap ? s->cap : 64;
	while (c < s->len + n + 1)
		c *= 2;
	if (s->cap == 0) {
		s->buf = xmalloc(c);
		s->buf[0] = '\0';
	} else {
		s->buf = xrealloc(s->buf, c);
	}
	s->cap = c;
}

void
sbaddn(struct sb *s, const char *p, size_t n)
{
	if (n == 0)
		return;
	sbgrow(s, n);
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
}

void
sbadd(struct sb *s, const char *p)
{
	sbaddn(s, p, strlen(p));
}

void
sbaddc(struct sb *s, char c)
{
	sbgrow(s, 1);
	s->buf[s->len++] = c;
	s->buf[s->len] = '\0';
}

void
sbvaddf(struct sb *s, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		BUG("vsnprintf failed");
	sbgrow(s, (size_t)n);
	vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
	s->len += (size_t)n;
}

void
sbaddf(struct sb *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbvaddf(s, fmt, ap);
	va_end(ap);
}

void
sbreset(struct sb *s)
{
	s->len = 0;
	if (s->cap)
		s->buf[0] = '\0'; /* never written while it is the shared empty string */
}

void
sbfree(struct sb *s)
{
	if (s->cap)
		free(s->buf);
	s->buf = sb_empty;
	s->len = s->cap = 0;
}

char *
sbdetach(struct sb *s)
{
	char *p = s->cap ? s->buf : xstrdup("");

	s->buf = sb_empty;
	s->len = s->cap = 0;
	return p;
}

struct arenablock {
	struct arenablock *next;
	size_t used, size;
};

/* the usable bytes start after the header, rounded up to 16 */
#define BLOCKDATA(b) ((unsigned char *)(b) + ((sizeof(struct arenablock) + 15) & ~(size_t)15))

void *
aalloc(struct arena *a, size_t n)
{
	struct arenablock *b = a->head;
	size_t size;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!b || b->size - b->used < n) {
		size = n > 65536 ? n : 65536;
		b = xmalloc(((sizeof(*b) + 15) & ~(size_t)15) + size);
		b->used = 0;
		b->size = size;
		b->next = a->head;
		a->head = b;
	}
	p = BLOCKDATA(b) + b->used;
	b->used += n;
	memset(p, 0, n);
	return p;
}

char *
astrndup(struct arena *a, const char *s, size_t n)
{
	char *p = aalloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
astrdup(struct arena *a, const char *s)
{
	return astrndup(a, s, strlen(s));
}

char *
aprintf(struct arena *a, const char *fmt, ...)
{
	struct sb s = SB_INIT;
	va_list ap;
	char *p;

	va_start(ap, fmt);
	sbvaddf(&s, fmt, ap);
	va_end(ap);
	p = astrndup(a, s.buf, s.len);
	sbfree(&s);
	return p;
}

void
afree(struct arena *a)
{
	struct arenablock *b, *next;

	for (b = a->head; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
}

char *
readfile(const char *path, size_t *lenp)
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
	sbaddf(&tmp, "%s.tmp.%ld", path, (long)getpid());
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

size_t
utf8invalid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, k, need;
	unsigned int cp, min;

	while (i < len) {
		unsigned char c = s[i];

		if (c == 0)
			return i;
		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xE0) == 0xC0) {
			need = 1; cp = c & 0x1F; min = 0x80;
		} else if ((c & 0xF0) == 0xE0) {
			need = 2; cp = c & 0x0F; min = 0x800;
		} else if ((c & 0xF8) == 0xF0) {
			need = 3; cp = c & 0x07; min = 0x10000;
		} else {
			return i;
		}
		for (k = 1; k <= need; k++) {
			if (i + k >= len || (s[i + k] & 0xC0) != 0x80)
				return i;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		i += need + 1;
	}
	return len;
}

char *
nextline(char **p)
{
	char *line = *p, *nl;

	if (!*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = line + strlen(line);
	}
	return line;
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
setadd(struct sb *set, const char *name)
{
	struct sb key = SB_INIT;
	int added;

	if (set->len == 0)
		sbaddc(set, '\n');
	sbaddf(&key, "\n%s\n", name);
	added = strstr(set->buf, key.buf) == NULL;
	if (added)
		sbaddn(set, key.buf + 1, key.len - 1);
	sbfree(&key);
	return added;
}

int
startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

size_t
editdistance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), i, j, best;
	size_t *row, prev, cur;

	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	row = xmalloc((lb + 1) * sizeof(*row));
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			cur = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (cur + 1 < row[j])
				row[j] = cur + 1;
			prev = cur;
			if (row[j] < best)
				best = row[j];
		}
		if (best > limit) {
			free(row);
			return limit + 1;
		}
	}
	best = row[lb];
	free(row);
	return best > limit ? limit + 1 : best;
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

void
sweepdead(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct sb p = SB_INIT;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (deadpid(e->d_name, prefix)) {
			sbreset(&p);
			sbaddf(&p, "%s/%s", dir, e->d_name);
			rmtree(p.buf);
		}
	}
	closedir(d);
	sbfree(&p);
}

const char *
orempty(const char *s)
{
	return s ? s : "";
}

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

void
sortlist(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}
