/* http: the one HTTP client, curl without a shell, several requests at once (see http.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "http.h"

extern char **environ;

/* what curl tells us after each transfer, on its standard error (after its own messages) */
#define MARK "wg-http: "
#define WRITEOUT "%{stderr}\n" MARK "%{http_code} %{exitcode} %{size_download}|%{content_type}|" \
	"%header{content-range}|%header{content-length}|%header{date}|%{redirect_url}|%{errormsg}\n"

/* a transfer under way */
struct xfer {
	struct httpget *g;
	pid_t pid;
	int out;          /* the body's pipe, -1 when closed */
	int dest;         /* dest, -1 when closed or none */
	char err[64];     /* the file of curl's standard error: its messages and the write-out */
	char hdr[4097];   /* "@FILE", FILE the private header file (curl -H @FILE), "" when none */
	char accept[300], range[96];
	time_t start;
	int hops;         /* redirects followed by hand */
	int werr;         /* errno of a failed write to dest, 0 if none */
};

int
httpurlok(const char *url)
{
	const char *p, *host;

	if (startswith(url, "https://"))
		host = url + 8;
	else if (startswith(url, "http://"))
		host = url + 7;
	else
		return 0;
	if (!*host || *host == '/' || *host == ':')
		return 0;
	for (p = url; *p; p++) {
		if (*p <= ' ' || *p >= 127 || strchr("\"'\\<>`{}|^", *p))
			return 0;
	}
	return 1;
}

/* the scheme, host and port of url: its length */
static size_t
hostpart(const char *url)
{
	const char *p = strstr(url, "://");

	if (!p)
		return 0;
	p += 3;
	return (size_t)(p - url) + strcspn(p, "/?#");
}

int
httpsamehost(const char *a, const char *b)
{
	size_t n = hostpart(a);

	return n && n == hostpart(b) && !strncasecmp(a, b, n);
}

int
httpheaderfile(const char *token, char *path, size_t size)
{
	const char *p;
	int fd, e;

	for (p = token; p && *p; p++) {
		if ((unsigned char)*p <= ' ' || *p == 127)
			break;
	}
	if (!token || !*token || *p) {
		errno = EINVAL;
		return -1;
	}
	if ((size_t)snprintf(path, size, "%s/wghdr.XXXXXX", tmpdir()) >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* (mkstemp makes it 0600; fchmod says so whatever the umask did) */
	if ((fd = mkstemp(path)) < 0)
		return -1;
	if (fchmod(fd, 0600) < 0 || dprintf(fd, "Authorization: Bearer %s\n", token) < 0) {
		e = errno;
		close(fd);
		unlink(path);
		errno = e;
		return -1;
	}
	if (close(fd) < 0) {
		e = errno;
		unlink(path);
		errno = e;
		return -1;
	}
	return 0;
}

static void
cloexec(int fd)
{
	fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

/* the arguments every transfer has, from argv[k]: http(s) alone, the time limits (nums: the
   seconds in all, then under 1 KiB/s), ~/.netrc where asked, the token's header file (hdr:
   "@FILE" or ""); the new k */
static int
limitargs(const char **argv, int k, char nums[][32], const struct httpget *g, const char *hdr)
{
	argv[k++] = "--proto";
	argv[k++] = "=http,https";
	argv[k++] = "--connect-timeout";
	argv[k++] = "10";
	argv[k++] = "--max-time";
	argv[k++] = nums[0];
	argv[k++] = "--speed-limit";
	argv[k++] = "1024";
	argv[k++] = "--speed-time";
	argv[k++] = nums[1];
	if (g->how.netrc)
		argv[k++] = "--netrc-optional";
	if (hdr[0]) {
		argv[k++] = "-H";
		argv[k++] = hdr;
	}
	return k;
}

/* curl's arguments for x into argv (room for 48) */
static void
curlargs(struct xfer *x, const struct httplimits *lim, const char **argv, char nums[3][32])
{
	static const char *const names[] = { "GET", "HEAD", "PUT", "DELETE" };
	struct httpget *g = x->g;
	int k = 0;

	snprintf(nums[0], 32, "%ld", lim->timeout);
	snprintf(nums[1], 32, "%ld", lim->stall);
	snprintf(nums[2], 32, "%zu", g->max);
	argv[k++] = "curl";
	argv[k++] = "-q";                       /* no ~/.curlrc */
	argv[k++] = "-sS";
	if (g->how.redirect == HTTP_FOLLOW && (g->method == HTTP_GET || g->method == HTTP_HEAD)) {
		/* (curl sends the header file's Authorization to url's host only: no --location-trusted) */
		argv[k++] = "-L";
		argv[k++] = "--max-redirs";
		argv[k++] = "5";
	}
	argv[k++] = "--proto-redir";
	argv[k++] = "=http,https";
	k = limitargs(argv, k, nums, g, x->hdr);
	switch (g->method) {
	case HTTP_GET:
		/* (refused at once when the answer announces its length; else cut off by the reader) */
		argv[k++] = "--max-filesize";
		argv[k++] = nums[2];
		break;
	case HTTP_HEAD:
		argv[k++] = "-I";
		break;
	case HTTP_PUT:
		argv[k++] = "-T";
		argv[k++] = g->upload ? g->upload : "/dev/null";
		break;
	case HTTP_DELETE:
		argv[k++] = "-X";
		argv[k++] = names[g->method];
		break;
	}
	if (g->accept) {
		snprintf(x->accept, sizeof(x->accept), "Accept: %s", g->accept);
		argv[k++] = "-H";
		argv[k++] = x->accept;
	}
	if (g->range) {
		snprintf(x->range, sizeof(x->range), "%s", g->range);
		argv[k++] = "-r";
		argv[k++] = x->range;
	}
	if (g->compressed)
		argv[k++] = "--compressed";
	argv[k++] = "-w";
	argv[k++] = WRITEOUT;
	argv[k++] = "--url";
	argv[k++] = g->at.buf;
	argv[k] = NULL;
}

/* close and remove what xferstart made for x */
static void
xferclean(struct xfer *x)
{
	if (x->dest >= 0)
		close(x->dest), x->dest = -1;
	if (x->hdr[0])
		unlink(x->hdr + 1), x->hdr[0] = '\0';
	if (x->err[0])
		unlink(x->err), x->err[0] = '\0';
}

/* start curl for x on x->g->at; -1 (errno set) when it cannot be started */
static int
xferstart(struct xfer *x, const struct httplimits *lim)
{
	struct httpget *g = x->g;
	const char *argv[48];
	char nums[3][32];
	posix_spawn_file_actions_t fa;
	int p[2] = { -1, -1 }, errfd, rc;

	x->out = x->dest = -1;
	x->werr = 0;
	x->hdr[0] = '\0';
	g->got = 0;
	/* the token to url's host only: a redirect elsewhere goes without it */
	if (g->how.token && httpsamehost(g->at.buf, g->url)) {
		if (httpheaderfile(g->how.token, x->hdr + 1, sizeof(x->hdr) - 1) < 0)
			return -1;
		x->hdr[0] = '@';
	}
	snprintf(x->err, sizeof(x->err), "%s/wghttp.XXXXXX", tmpdir());
	if ((errfd = mkstemp(x->err)) < 0) {
		rc = errno;
		x->err[0] = '\0';
		xferclean(x);
		errno = rc;
		return -1;
	}
	if (g->into)
		sbreset(g->into);
	if ((g->dest && !g->into && (x->dest = open(g->dest, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) || pipe(p) < 0) {
		rc = errno;
		close(errfd);
		xferclean(x);
		errno = rc;
		return -1;
	}
	cloexec(errfd);
	if (x->dest >= 0)
		cloexec(x->dest);
	cloexec(p[0]);
	cloexec(p[1]);
	curlargs(x, lim, argv, nums);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_adddup2(&fa, errfd, 2);
	rc = posix_spawnp(&x->pid, "curl", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	close(errfd);
	if (rc != 0) {
		close(p[0]);
		xferclean(x);
		errno = rc;
		return -1;
	}
	x->out = p[0];
	x->start = time(NULL);
	return 0;
}

/* move what the pipe holds into dest; 0 at the end of the body */
static ssize_t
xferread(struct xfer *x)
{
	char buf[65536];
	ssize_t r = read(x->out, buf, sizeof(buf));
	size_t n;

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (r <= 0)
		return 0;
	n = (size_t)r;
	if (x->g->got + n > x->g->max) {
		/* more than announced, or announced nothing: cut off at the bound */
		n = x->g->max - x->g->got;
		x->g->over = 1;
	}
	if (n && x->g->into)
		sbaddn(x->g->into, buf, n);
	else if (n && x->dest >= 0 && !x->werr && write(x->dest, buf, n) != (ssize_t)n)
		x->werr = errno ? errno : EIO;
	x->g->got += n;
	return x->g->over ? 0 : r;
}

/* the answer of one transfer from its write-out line (MARK ..., no newline), into g; the body's
   size into *size */
static void
markparse(char *mark, struct httpget *g, unsigned long long *size, const struct httplimits *lim)
{
	char *f[7];
	size_t k;

	f[0] = mark + strlen(MARK);
	for (k = 1; k < 7; k++) {
		f[k] = f[k - 1] ? strchr(f[k - 1], '|') : NULL;
		if (f[k])
			*f[k]++ = '\0';
	}
	*size = 0;
	if (sscanf(f[0], "%ld %ld %llu", &g->status, &g->curlexit, size) != 3)
		g->curlexit = -1;
	snprintf(g->ctype, sizeof(g->ctype), "%s", f[1] ? f[1] : "");
	snprintf(g->crange, sizeof(g->crange), "%s", f[2] ? f[2] : "");
	if (f[3] && *f[3])
		g->length = strtoll(f[3], NULL, 10);
	snprintf(g->date, sizeof(g->date), "%s", f[4] ? f[4] : "");
	if (f[5] && *f[5])
		sbadd(&g->location, f[5]);
	snprintf(g->curlmsg, sizeof(g->curlmsg), "%s", f[6] ? f[6] : "");
	if (g->curlexit == 63)
		g->over = 1;
	if (g->curlexit != 0 && !g->over)
		sbaddf(&g->why, "%s", g->curlmsg[0] ? g->curlmsg : "curl failed");
	if (g->curlexit == 28)
		sbaddf(&g->why, " (the limits: %ld s in all, %ld s under 1 KiB/s)", lim->timeout, lim->stall);
}

/* the answer from curl's write-out line in x->err; why when the transfer failed */
static void
xferfinish(struct xfer *x, int status, const struct httplimits *lim)
{
	struct httpget *g = x->g;
	char *text = readfilemax(x->err, NULL, 1 << 20), *mark = NULL, *p;

	for (p = text; p && (p = strstr(p, MARK)); p++)
		mark = p;
	g->curlexit = -1;
	if (mark) {
		char *end = strchr(mark, '\n');
		unsigned long long size;

		if (end)
			*end = '\0';
		markparse(mark, g, &size, lim);
	} else if (!g->over) {
		sbaddf(&g->why, "curl gave no answer (%s)",
		       WIFSIGNALED(status) ? "it was killed" : "exit status unknown: is curl installed?");
	}
	if (g->over) {
		sbreset(&g->why);
		sbaddf(&g->why, "the answer is larger than %zu bytes", g->max);
	} else if (x->werr) {
		sbreset(&g->why);
		sbaddf(&g->why, "cannot write '%s': %s", g->dest, strerror(x->werr));
	}
	if (g->why.len && g->status < 100)
		g->status = 0;
	free(text);
}

static void
xferend(struct xfer *x, const struct httplimits *lim)
{
	int status = 0;

	if (x->out >= 0)
		close(x->out), x->out = -1;
	if (x->g->over)
		kill(x->pid, SIGTERM);
	while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (x->dest >= 0 && close(x->dest) < 0 && !x->werr)
		x->werr = errno;
	x->dest = -1;
	xferfinish(x, status, lim);
	xferclean(x);
}

/* the answer before a request: none */
static void
answerreset(struct httpget *g)
{
	sbreset(&g->why);
	sbreset(&g->location);
	g->status = 0;
	g->got = 0;
	g->over = 0;
	g->length = -1;
	g->curlexit = -1;
	g->curlmsg[0] = g->ctype[0] = g->crange[0] = g->date[0] = '\0';
	g->stop = HTTP_STOP_NONE;
}

/* a request before it is made: no answer, at its URL, bounded */
static void
requestreset(struct httpget *g)
{
	answerreset(g);
	sbreset(&g->at);
	sbadd(&g->at, g->url);
	if (!g->max)
		g->max = HTTP_MAX;
}

/* may a request of g's be redirected to to, by g's rule (xferhop's, for one hop)? */
static int
hopok(const struct httpget *g, const char *to)
{
	if (!httpurlok(to))
		return 0;
	if (g->how.redirect == HTTP_FOLLOW)
		return 1;
	return httpsamehost(to, g->url) || (g->how.redirect == HTTP_SAMEHOST_HTTPS && startswith(to, "https://"));
}

/*
 * After x's answer: 1 when it is a redirect to follow by hand (x->g->at set to where it points),
 * else 0 (stop says why one is not followed)
 */
static int
xferhop(struct xfer *x)
{
	struct httpget *g = x->g;
	const char *to = g->location.buf;

	if (g->why.len || g->status < 300 || g->status >= 400 || !g->location.len)
		return 0;
	if (g->method != HTTP_GET && g->method != HTTP_HEAD)
		g->stop = HTTP_STOP_METHOD;
	else if (g->how.redirect == HTTP_FOLLOW)
		return 0;  /* (curl's -L stopped: not a redirect it follows) */
	else if (!hopok(g, to))
		g->stop = HTTP_STOP_HOST;
	else if (x->hops >= HTTP_HOPS)
		g->stop = HTTP_STOP_HOPS;
	if (g->stop != HTTP_STOP_NONE)
		return 0;
	x->hops++;
	sbreset(&g->at);
	sbadd(&g->at, to);
	answerreset(g);
	return 1;
}

/* start x on its request; 0, -1 (x->g->why) for a request not made, -2 when curl cannot be run */
static int
xferbegin(struct xfer *x, const struct httplimits *lim)
{
	int e;

	if (!httpurlok(x->g->at.buf)) {
		sbaddf(&x->g->why, "not an http:// or https:// URL wheelgen fetches");
		return -1;
	}
	if (xferstart(x, lim) == 0)
		return 0;
	e = errno;
	if (e == EINVAL && x->g->how.token) {
		sbadd(&x->g->why, "the token is empty or holds a blank or a control character: not sent");
		return -1;
	}
	sbaddf(&x->g->why, "cannot run curl: %s", strerror(e));
	if (e == ENOENT)
		sbadd(&x->g->why, " (is curl installed?)");
	return -2;
}

int
httpfetch(struct httpget *g, size_t n, const struct httplimits *lim)
{
	static const struct httplimits def = { HTTP_TIMEOUT, HTTP_STALL, HTTP_PARALLEL };
	struct xfer *x;
	struct pollfd *pf;
	size_t next = 0, active = 0, i, k;
	int rc = 0;

	if (!lim)
		lim = &def;
	x = xcalloc(lim->parallel ? lim->parallel : 1, sizeof(*x));
	pf = xcalloc(lim->parallel ? lim->parallel : 1, sizeof(*pf));
	for (i = 0; i < n; i++)
		requestreset(&g[i]);
	while (next < n || active) {
		while (active < (lim->parallel ? lim->parallel : 1) && next < n) {
			struct xfer *s = &x[active];
			int b;

			memset(s, 0, sizeof(*s));
			s->g = &g[next++];
			if ((b = xferbegin(s, lim)) < 0) {
				if (b == -2)
					rc = -1;
				continue;
			}
			active++;
		}
		if (!active)
			break;
		for (i = 0; i < active; i++) {
			pf[i].fd = x[i].out;
			pf[i].events = POLLIN;
			pf[i].revents = 0;
		}
		if (poll(pf, active, 1000) < 0 && errno != EINTR)
			fatal("poll: %s", strerror(errno));
		for (i = active; i-- > 0;) {
			int done = 0;

			if (pf[i].revents & (POLLIN | POLLHUP | POLLERR))
				done = xferread(&x[i]) == 0;
			/* curl keeps its own limits; this is for a curl that does not */
			if (!done && time(NULL) - x[i].start > lim->timeout + 30) {
				kill(x[i].pid, SIGKILL);
				done = 1;
			}
			if (!done)
				continue;
			xferend(&x[i], lim);
			if (xferhop(&x[i]) && xferbegin(&x[i], lim) == 0)
				continue;
			for (k = i + 1; k < active; k++)
				x[k - 1] = x[k];
			active--;
		}
	}
	free(x);
	free(pf);
	return rc;
}

/* a batch: requests made one after another by one curl process */
struct batch {
	struct httpget **g;   /* its requests, in order */
	size_t n;
	size_t marked;        /* how many have their write-out line */
	size_t split;         /* how many have their body */
	unsigned long long *size; /* each one's body size, from its write-out line */
	pid_t pid;
	int out, err;         /* the bodies' pipe, the messages' pipe (-1: closed) */
	struct sb body;       /* bytes of bodies not yet handed out */
	struct sb msg;        /* curl's standard error not yet read as lines */
	size_t cap;           /* the most body bytes the batch may send */
	char hdr[4097];       /* "@FILE" (the token's header file) or "" */
	char nums[3][32];
	const char **argv;
	time_t last;          /* when the last transfer ended (or the batch started) */
	int fault;            /* a transfer got no answer: the rest are not made */
	struct sb faultwhy;
};

/* is curl's exit status e a transfer that got no answer (a timeout, a connection refused,
   reset or cut: the server, not the request), which ends the batch? */
static int
nofanswer(long e)
{
	return e != 0 && e != 63 && e != 23;
}

/* hand out the bodies whose size the write-out lines said, as far as the bytes have come */
static void
batchsplit(struct batch *b, int eof)
{
	while (b->split < b->marked) {
		struct httpget *g = b->g[b->split];
		unsigned long long n = b->size[b->split];

		if (n > b->body.len && !eof)
			return;
		if (n > b->body.len) {
			if (!g->why.len)
				sbadd(&g->why, "the answer was cut short");
			n = b->body.len;
		}
		g->got = (size_t)n;
		if (n > g->max) {
			g->over = 1;
			sbreset(&g->why);
			sbaddf(&g->why, "the answer is larger than %zu bytes", g->max);
		} else if (g->into) {
			sbaddn(g->into, b->body.buf, (size_t)n);
		} else if (g->dest && writeifchanged(g->dest, b->body.buf, (size_t)n) < 0) {
			sbaddf(&g->why, "cannot write '%s'", g->dest);
		}
		memmove(b->body.buf, b->body.buf + n, b->body.len - (size_t)n);
		b->body.len -= (size_t)n;
		b->body.buf[b->body.len] = '\0';
		b->split++;
	}
}

/* the write-out lines that came on curl's standard error */
static void
batchlines(struct batch *b, const struct httplimits *lim)
{
	char *nl;

	while ((nl = memchr(b->msg.buf, '\n', b->msg.len))) {
		size_t len = (size_t)(nl - b->msg.buf) + 1;

		*nl = '\0';
		if (startswith(b->msg.buf, MARK) && b->marked < b->n && !b->fault) {
			struct httpget *g = b->g[b->marked];

			markparse(b->msg.buf, g, &b->size[b->marked], lim);
			if (g->why.len && g->status < 100)
				g->status = 0;
			b->marked++;
			b->last = time(NULL);
			if (nofanswer(g->curlexit)) {
				b->fault = 1;
				sbaddf(&b->faultwhy, "%s", g->why.buf);
				kill(b->pid, SIGTERM);
			}
		}
		memmove(b->msg.buf, b->msg.buf + len, b->msg.len - len);
		b->msg.len -= len;
		b->msg.buf[b->msg.len] = '\0';
	}
}

/* the arguments of one transfer of the batch, appended to b->argv from k; the new k */
static size_t
batchargs(struct batch *b, size_t k, const struct httpget *g, int first)
{
	const char **a = b->argv;

	if (!first)
		a[k++] = "--next";
	a[k++] = "-sS";
	a[k++] = "-N";
	k = (size_t)limitargs(a, (int)k, b->nums, g, b->hdr);
	if (g->range) {
		a[k++] = "-r";
		a[k++] = g->range;
	}
	a[k++] = "-w";
	a[k++] = WRITEOUT;
	a[k++] = "--url";
	a[k++] = g->url;
	return k;
}

/* start b's curl; -1 (errno) when it cannot be started */
static int
batchstart(struct batch *b, const struct httplimits *lim)
{
	posix_spawn_file_actions_t fa;
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, rc;
	size_t i, k = 0;

	b->out = b->err = -1;
	if (b->g[0]->how.token) {
		if (httpheaderfile(b->g[0]->how.token, b->hdr + 1, sizeof(b->hdr) - 1) < 0)
			return -1;
		b->hdr[0] = '@';
	}
	snprintf(b->nums[0], 32, "%ld", lim->timeout);
	snprintf(b->nums[1], 32, "%ld", lim->stall);
	b->argv = xcalloc(26 * b->n + 4, sizeof(*b->argv));
	b->argv[k++] = "curl";
	b->argv[k++] = "-q";
	for (i = 0; i < b->n; i++)
		k = batchargs(b, k, b->g[i], i == 0);
	b->argv[k] = NULL;
	if (pipe(po) < 0 || pipe(pe) < 0) {
		rc = errno;
		if (po[0] >= 0)
			close(po[0]), close(po[1]);
		errno = rc;
		return -1;
	}
	cloexec(po[0]);
	cloexec(po[1]);
	cloexec(pe[0]);
	cloexec(pe[1]);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, po[1], 1);
	posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
	rc = posix_spawnp(&b->pid, "curl", &fa, NULL, (char *const *)b->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(po[1]);
	close(pe[1]);
	if (rc != 0) {
		close(po[0]);
		close(pe[0]);
		errno = rc;
		return -1;
	}
	b->out = po[0];
	b->err = pe[0];
	b->last = time(NULL);
	return 0;
}

/* read what fd holds into s (at most cap bytes in s); 0 at its end or past cap */
static int
batchread(int fd, struct sb *s, size_t cap, int *over)
{
	char buf[65536];
	ssize_t r = read(fd, buf, sizeof(buf));

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (r <= 0)
		return 0;
	if (s->len + (size_t)r > cap) {
		*over = 1;
		return 0;
	}
	sbaddn(s, buf, (size_t)r);
	return 1;
}

/* b's curl ended (or was killed): every request gets its answer or why not */
static void
batchend(struct batch *b, const struct httplimits *lim)
{
	int status = 0;
	size_t i;

	if (b->out >= 0)
		close(b->out), b->out = -1;
	if (b->err >= 0)
		close(b->err), b->err = -1;
	kill(b->pid, SIGTERM);
	while (waitpid(b->pid, &status, 0) < 0 && errno == EINTR)
		;
	sbadd(&b->msg, "\n");
	batchlines(b, lim);
	batchsplit(b, 1);
	for (i = b->marked; i < b->n; i++) {
		struct httpget *g = b->g[i];

		g->status = 0;
		if (b->fault)
			sbaddf(&g->why, "not asked: an earlier request to the same server got no answer (%s)", b->faultwhy.buf);
		else
			sbaddf(&g->why, "curl gave no answer (%s)", WIFSIGNALED(status) ? "it was killed" : "it stopped early");
	}
	if (b->hdr[0])
		unlink(b->hdr + 1), b->hdr[0] = '\0';
	free(b->argv);
	free(b->size);
	free(b->g);
	sbfree(&b->body);
	sbfree(&b->msg);
	sbfree(&b->faultwhy);
}

/* may request a go into the batch of request b (the same server, the same credentials)? */
static int
samebatch(const struct httpget *a, const struct httpget *b)
{
	return httpsamehost(a->url, b->url) && a->how.netrc == b->how.netrc &&
	       (a->how.token ? b->how.token && !strcmp(a->how.token, b->how.token) : !b->how.token);
}

/* the next batch into x: the requests from next on to g[next]'s server, in order, HTTP_BATCH at
   most; started. 1 started, 0 none left there, -1 when curl could not be started */
static int
batchnext(struct batch *x, struct httpget *g, size_t n, char *taken, size_t next, const struct httplimits *lim)
{
	size_t j;
	int e;

	*x = (struct batch){ .body = SB_INIT, .msg = SB_INIT, .faultwhy = SB_INIT };
	x->g = xcalloc(HTTP_BATCH, sizeof(*x->g));
	for (j = next; j < n && x->n < HTTP_BATCH; j++) {
		if (taken[j] || !samebatch(&g[next], &g[j]))
			continue;
		taken[j] = 1;
		if (!httpurlok(g[j].url)) {
			sbaddf(&g[j].why, "not an http:// or https:// URL wheelgen fetches");
			continue;
		}
		x->g[x->n++] = &g[j];
		x->cap += g[j].max + 1;
	}
	if (!x->n) {
		free(x->g);
		return 0;
	}
	x->size = xcalloc(x->n, sizeof(*x->size));
	if (batchstart(x, lim) == 0)
		return 1;
	e = errno;
	for (j = 0; j < x->n; j++)
		sbaddf(&x->g[j]->why, "cannot run curl: %s", strerror(e));
	free(x->argv);
	free(x->size);
	free(x->g);
	return -1;
}

/* read what x's pipes hold (pf: its two poll entries); 1 when its curl is done */
static int
batchpoll(struct batch *x, const struct pollfd *pf, const struct httplimits *lim)
{
	int over = 0;

	if (x->out >= 0 && (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) && !batchread(x->out, &x->body, x->cap, &over)) {
		close(x->out);
		x->out = -1;
	}
	if (x->err >= 0 && (pf[1].revents & (POLLIN | POLLHUP | POLLERR)) && !batchread(x->err, &x->msg, 1 << 20, &over)) {
		close(x->err);
		x->err = -1;
	}
	if (over) {
		/* more than every body together may be: the answer under way is too large, and the
		   batch ends here */
		if (x->marked < x->n) {
			struct httpget *o = x->g[x->marked++];

			o->over = 1;
			o->status = 0;
			sbaddf(&o->why, "the answer is larger than %zu bytes", o->max);
			x->size[x->marked - 1] = 0;
		}
		x->fault = 1;
		sbadd(&x->faultwhy, "the answer before it was larger than allowed");
		kill(x->pid, SIGKILL);
	}
	batchlines(x, lim);
	batchsplit(x, 0);
	/* curl keeps its own limits; this is for a curl that does not */
	if (x->out >= 0 && time(NULL) - x->last > lim->timeout + 30)
		kill(x->pid, SIGKILL);
	return x->out < 0 && x->err < 0;
}

int
httpbatch(struct httpget *g, size_t n, const struct httplimits *lim)
{
	static const struct httplimits def = { HTTP_TIMEOUT, HTTP_STALL, HTTP_PARALLEL };
	size_t par, i, k, next = 0, active = 0;
	struct batch *b;
	struct pollfd *pf;
	char *taken = xcalloc(n + 1, 1);
	int rc = 0;

	if (!lim)
		lim = &def;
	par = lim->parallel ? lim->parallel : 1;
	b = xcalloc(par, sizeof(*b));
	pf = xcalloc(2 * par, sizeof(*pf));
	for (i = 0; i < n; i++)
		requestreset(&g[i]);
	while (next < n || active) {
		while (active < par && next < n) {
			int r;

			if (taken[next]) {
				next++;
				continue;
			}
			if ((r = batchnext(&b[active], g, n, taken, next, lim)) < 0)
				rc = -1;
			active += r > 0;
		}
		if (!active)
			break;
		for (i = 0; i < active; i++) {
			pf[2 * i] = (struct pollfd){ b[i].out, POLLIN, 0 };
			pf[2 * i + 1] = (struct pollfd){ b[i].err, POLLIN, 0 };
		}
		if (poll(pf, 2 * active, 1000) < 0 && errno != EINTR)
			fatal("poll: %s", strerror(errno));
		for (i = active; i-- > 0;) {
			if (!batchpoll(&b[i], &pf[2 * i], lim))
				continue;
			batchend(&b[i], lim);
			for (k = i + 1; k < active; k++)
				b[k - 1] = b[k];
			active--;
		}
	}
	free(b);
	free(pf);
	free(taken);
	return rc;
}

/* is g's answer a redirect that g's rule lets be followed? */
static int
redirectok(const struct httpget *g)
{
	return !g->why.len && g->status >= 300 && g->status < 400 && g->location.len &&
	       hopok(g, g->location.buf);
}

size_t
httpbatchfollow(struct httpget *g, size_t n, const struct httplimits *lim)
{
	struct httpget *h = xcalloc(n + 1, sizeof(*h));
	size_t *of = xcalloc(n + 1, sizeof(*of)), i, k = 0, made = n;

	httpbatch(g, n, lim);
	for (i = 0; i < n; i++) {
		if (!redirectok(&g[i]))
			continue;
		h[k] = g[i];
		h[k].why = (struct sb)SB_INIT;
		h[k].at = (struct sb)SB_INIT;
		h[k].location = (struct sb)SB_INIT;
		h[k].url = xstrdup(g[i].location.buf);
		/* (the token goes to the request's own host alone) */
		if (!httpsamehost(h[k].url, g[i].url))
			h[k].how.token = NULL;
		of[k++] = i;
	}
	if (k)
		httpbatch(h, k, lim);
	for (i = 0; i < k; i++) {
		struct httpget *x = &g[of[i]];
		const char *url = x->url;

		free((char *)h[i].url);
		httpgetfree(x);
		*x = h[i];
		x->url = url;
	}
	made += k;
	/* a redirect further on: followed alone, by hand */
	for (i = 0; i < n; i++) {
		if (redirectok(&g[i])) {
			httpfetch(&g[i], 1, lim);
			made++;
		}
	}
	free(h);
	free(of);
	return made;
}

void
httpgetfree(struct httpget *g)
{
	sbfree(&g->why);
	sbfree(&g->at);
	sbfree(&g->location);
}
