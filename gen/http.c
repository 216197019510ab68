/* http: bounded GETs through curl, several at once (see http.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	int dest;         /* dest, -1 when closed */
	char err[64];     /* the file of curl's standard error: its messages and the write-out */
	char accept[300], range[96];
	time_t start;
	int over;         /* 1: cut off at max */
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

static void
cloexec(int fd)
{
	fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

/* curl's arguments for x into argv (room for 40) */
static void
curlargs(struct xfer *x, const struct httplimits *lim, const char **argv, char nums[3][32])
{
	struct httpget *g = x->g;
	int k = 0;

	snprintf(nums[0], 32, "%ld", lim->timeout);
	snprintf(nums[1], 32, "%ld", lim->stall);
	snprintf(nums[2], 32, "%zu", g->max);
	argv[k++] = "curl";
	argv[k++] = "-q";                       /* no ~/.curlrc */
	argv[k++] = "-sS";
	argv[k++] = "-L";
	argv[k++] = "--max-redirs";
	argv[k++] = "5";
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
	/* (refused at once when the answer announces its length; else cut off by the reader) */
	argv[k++] = "--max-filesize";
	argv[k++] = nums[2];
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
	argv[k++] = "%{stderr}\n" MARK "%{http_code} %{exitcode}|%{content_type}|%header{content-range}|%{errormsg}\n";
	argv[k++] = "--url";
	argv[k++] = g->url;
	argv[k] = NULL;
}

/* start curl for x; -1 (errno set) when it cannot be started */
static int
xferstart(struct xfer *x, const struct httplimits *lim)
{
	const char *argv[40];
	char nums[3][32];
	posix_spawn_file_actions_t fa;
	int p[2], errfd, rc;

	x->out = x->dest = -1;
	snprintf(x->err, sizeof(x->err), "%s/wghttp.XXXXXX", tmpdir());
	if ((errfd = mkstemp(x->err)) < 0)
		return -1;
	if ((x->dest = open(x->g->dest, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0 || pipe(p) < 0) {
		rc = errno;
		close(errfd);
		unlink(x->err);
		if (x->dest >= 0)
			close(x->dest), x->dest = -1;
		errno = rc;
		return -1;
	}
	cloexec(errfd);
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
		close(x->dest);
		x->dest = -1;
		unlink(x->err);
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
		x->over = 1;
	}
	if (n && !x->werr && write(x->dest, buf, n) != (ssize_t)n)
		x->werr = errno ? errno : EIO;
	x->g->got += n;
	return x->over ? 0 : r;
}

/* the answer from curl's write-out line in x->err; why when the transfer failed */
static void
xferfinish(struct xfer *x, int status, const struct httplimits *lim)
{
	struct httpget *g = x->g;
	char *text = readfilemax(x->err, NULL, 1 << 20), *mark = NULL, *p, *f[4];
	long exitcode = -1;
	size_t k;

	for (p = text; p && (p = strstr(p, MARK)); p++)
		mark = p;
	if (mark) {
		char *end = strchr(mark, '\n');

		if (end)
			*end = '\0';
		f[0] = mark + strlen(MARK);
		for (k = 1; k < 4; k++) {
			f[k] = f[k - 1] ? strchr(f[k - 1], '|') : NULL;
			if (f[k])
				*f[k]++ = '\0';
		}
		if (sscanf(f[0], "%ld %ld", &g->status, &exitcode) != 2)
			exitcode = -1;
		snprintf(g->ctype, sizeof(g->ctype), "%s", f[1] ? f[1] : "");
		snprintf(g->crange, sizeof(g->crange), "%s", f[2] ? f[2] : "");
		if (exitcode == 63)
			x->over = 1;
		if (exitcode != 0 && !x->over)
			sbaddf(&g->why, "%s", f[3] && *f[3] ? f[3] : "curl failed");
		if (exitcode == 28)
			sbaddf(&g->why, " (the limits: %ld s in all, %ld s under 1 KiB/s)", lim->timeout, lim->stall);
	} else if (!x->over) {
		sbaddf(&g->why, "curl gave no answer (%s)",
		       WIFSIGNALED(status) ? "it was killed" : "exit status unknown: is curl installed?");
	}
	if (x->over) {
		sbreset(&g->why);
		sbaddf(&g->why, "the answer is larger than %zu bytes", g->max);
	} else if (x->werr) {
		sbreset(&g->why);
		sbaddf(&g->why, "cannot write '%s': %s", g->dest, strerror(x->werr));
	}
	if (g->why.len && g->status < 100)
		g->status = 0;
	free(text);
	unlink(x->err);
}

static void
xferend(struct xfer *x, const struct httplimits *lim)
{
	int status = 0;

	if (x->out >= 0)
		close(x->out), x->out = -1;
	if (x->over)
		kill(x->pid, SIGTERM);
	while (waitpid(x->pid, &status, 0) < 0 && errno == EINTR)
		;
	if (x->dest >= 0 && close(x->dest) < 0 && !x->werr)
		x->werr = errno;
	x->dest = -1;
	xferfinish(x, status, lim);
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
		sbreset(&g[i].why);
		g[i].status = 0;
		g[i].got = 0;
		g[i].ctype[0] = g[i].crange[0] = '\0';
		if (!g[i].max)
			g[i].max = HTTP_MAX;
	}
	while (next < n || active) {
		while (active < (lim->parallel ? lim->parallel : 1) && next < n) {
			struct xfer *s = &x[active];

			memset(s, 0, sizeof(*s));
			s->g = &g[next++];
			if (!httpurlok(s->g->url)) {
				sbaddf(&s->g->why, "not an http:// or https:// URL wheelgen fetches");
				continue;
			}
			if (xferstart(s, lim) < 0) {
				sbaddf(&s->g->why, "cannot run curl: %s", strerror(errno));
				if (errno == ENOENT)
					sbadd(&s->g->why, " (is curl installed?)");
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
}
