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
	argv[k++] = "--proto";
	argv[k++] = "=http,https";
	argv[k++] = "--proto-redir";
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
	if (x->hdr[0]) {
		argv[k++] = "-H";
		argv[k++] = x->hdr;
	}
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
	argv[k++] = "%{stderr}\n" MARK "%{http_code} %{exitcode}|%{content_type}|%header{content-range}"
		    "|%header{content-length}|%{redirect_url}|%{errormsg}\n";
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
	if ((g->dest && (x->dest = open(g->dest, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0) || pipe(p) < 0) {
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
	if (n && x->dest >= 0 && !x->werr && write(x->dest, buf, n) != (ssize_t)n)
		x->werr = errno ? errno : EIO;
	x->g->got += n;
	return x->g->over ? 0 : r;
}

/* the answer from curl's write-out line in x->err; why when the transfer failed */
static void
xferfinish(struct xfer *x, int status, const struct httplimits *lim)
{
	struct httpget *g = x->g;
	char *text = readfilemax(x->err, NULL, 1 << 20), *mark = NULL, *p, *f[6];
	size_t k;

	for (p = text; p && (p = strstr(p, MARK)); p++)
		mark = p;
	g->curlexit = -1;
	if (mark) {
		char *end = strchr(mark, '\n');

		if (end)
			*end = '\0';
		f[0] = mark + strlen(MARK);
		for (k = 1; k < 6; k++) {
			f[k] = f[k - 1] ? strchr(f[k - 1], '|') : NULL;
			if (f[k])
				*f[k]++ = '\0';
		}
		if (sscanf(f[0], "%ld %ld", &g->status, &g->curlexit) != 2)
			g->curlexit = -1;
		snprintf(g->ctype, sizeof(g->ctype), "%s", f[1] ? f[1] : "");
		snprintf(g->crange, sizeof(g->crange), "%s", f[2] ? f[2] : "");
		if (f[3] && *f[3])
			g->length = strtoll(f[3], NULL, 10);
		if (f[4] && *f[4])
			sbadd(&g->location, f[4]);
		snprintf(g->curlmsg, sizeof(g->curlmsg), "%s", f[5] ? f[5] : "");
		if (g->curlexit == 63)
			g->over = 1;
		if (g->curlexit != 0 && !g->over)
			sbaddf(&g->why, "%s", g->curlmsg[0] ? g->curlmsg : "curl failed");
		if (g->curlexit == 28)
			sbaddf(&g->why, " (the limits: %ld s in all, %ld s under 1 KiB/s)", lim->timeout, lim->stall);
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
	g->curlmsg[0] = g->ctype[0] = g->crange[0] = '\0';
	g->stop = HTTP_STOP_NONE;
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
	else if (!httpurlok(to) || !(httpsamehost(to, g->url) ||
				     (g->how.redirect == HTTP_SAMEHOST_HTTPS && startswith(to, "https://"))))
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
	for (i = 0; i < n; i++) {
		answerreset(&g[i]);
		sbreset(&g[i].at);
		sbadd(&g[i].at, g[i].url);
		if (!g[i].max)
			g[i].max = HTTP_MAX;
	}
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

void
httpgetfree(struct httpget *g)
{
	sbfree(&g->why);
	sbfree(&g->at);
	sbfree(&g->location);
}
