/* remotewheel: a remote wheel's METADATA by range requests (see remotewheel.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coremeta.h"
#include "files.h"
#include "pep.h"
#include "remotewheel.h"
#include "sha256.h"
#include "wheelfile.h"

/* one wheel's state between the rounds */
struct rstate {
	char zip[512];                  /* the sparse copy */
	char part[512];                 /* the piece of the round */
	unsigned long long total;       /* the wheel's size */
	unsigned long long have;        /* the copy holds [have, total) */
	int whole;                      /* one answer held all of it */
	unsigned long long from, to;    /* the piece the next round asks for (to exclusive); from == to: none */
	char range[64];
};

/* "bytes A-B/T" into *a, *b, *t */
static int
parsecrange(const char *s, unsigned long long *a, unsigned long long *b, unsigned long long *t)
{
	char tail;

	return sscanf(s, "bytes %llu-%llu/%llu%c", a, b, t, &tail) == 3 && *a <= *b && *b < *t;
}

/* copy the piece just fetched (at offset from, its Content-Range checked) into the sparse copy */
static int
putpiece(struct remotewheel *w, struct rstate *s, const struct httpget *g)
{
	unsigned long long a, b, t;
	char *data;
	size_t len;
	int fd, rc = -1;

	w->requests++;
	w->bytes += g->got;
	if (g->why.len) {
		sbaddf(&w->why, "GET bytes %s: %s", g->range, g->why.buf);
		w->fault = 1;
		return -1;
	}
	if (g->stop != HTTP_STOP_NONE) {
		/* (says nothing of the wheel: the server's rule, not its bytes) */
		sbaddf(&w->why, "GET bytes %s: HTTP %ld, a redirect to %s: not followed", g->range, g->status,
		       g->location.buf);
		w->fault = 1;
		return -1;
	}
	if (g->status == 200 && g->got > 0 && (g->length < 0 || (unsigned long long)g->length == g->got)) {
		/* no ranges here, but the whole wheel within the bound: as good as a range of all of it */
		a = 0;
		b = g->got - 1;
		t = g->got;
		w->noranges = 1;
	} else if (g->status != 206 || !parsecrange(g->crange, &a, &b, &t)) {
		sbaddf(&w->why, "GET bytes %s: HTTP %ld%s", g->range, g->status,
		       g->status == 200 ? " (the server does not answer range requests)" : "");
		w->noranges = g->status == 200;
		w->fault = g->status == 0 || g->status == 401 || g->status == 403 || g->status == 429 || g->status >= 500;
		return -1;
	}
	if (t > REMOTE_WHEEL_MAX || b - a + 1 != g->got || (s->total && t != s->total)) {
		sbaddf(&w->why, "GET bytes %s: a Content-Range (%s) that does not fit the answer", g->range, g->crange);
		return -1;
	}
	if (!(data = readfile(g->dest, &len))) {
		sbaddf(&w->why, "cannot read '%s': %s", g->dest, strerror(errno));
		return -1;
	}
	if ((fd = open(s->zip, O_WRONLY | O_CREAT, 0600)) < 0 || (!s->total && ftruncate(fd, (off_t)t) < 0) ||
	    pwrite(fd, data, len, (off_t)a) != (ssize_t)len) {
		sbaddf(&w->why, "cannot write '%s': %s", s->zip, strerror(errno));
	} else {
		rc = 0;
		s->total = w->size = t;
		if (a < s->have || !s->have)
			s->have = a;
		if (a == 0 && b + 1 == t)
			s->whole = 1;
	}
	if (fd >= 0)
		close(fd);
	free(data);
	unlink(g->dest);
	return rc;
}

/* fetch the pieces the wheels' states ask for, one round */
static void
fetchround(struct remotewheel *w, struct rstate *s, size_t n, const struct httplimits *lim)
{
	struct httpget *g = xcalloc(n ? n : 1, sizeof(*g));
	size_t *idx = xcalloc(n ? n : 1, sizeof(*idx)), i, k = 0;

	for (i = 0; i < n; i++) {
		if (w[i].why.len || s[i].from == s[i].to)
			continue;
		if (s[i].to == (unsigned long long)-1)
			snprintf(s[i].range, sizeof(s[i].range), "-%llu", s[i].from);
		else
			snprintf(s[i].range, sizeof(s[i].range), "%llu-%llu", s[i].from, s[i].to - 1);
		g[k].url = w[i].url;
		g[k].how = w[i].how;
		g[k].range = s[i].range;
		g[k].dest = s[i].part;
		g[k].max = s[i].to == (unsigned long long)-1 ? (size_t)s[i].from : (size_t)(s[i].to - s[i].from);
		idx[k++] = i;
	}
	/* many to a curl process, redirects followed by the rule of their how */
	if (k)
		httpbatchfollow(g, k, lim);
	for (i = 0; i < k; i++) {
		putpiece(&w[idx[i]], &s[idx[i]], &g[i]);
		s[idx[i]].from = s[idx[i]].to = 0;
		unlink(s[idx[i]].part);
		httpgetfree(&g[i]);
	}
	free(g);
	free(idx);
}

/* the .dist-info/<w->member> member of z for the wheel, or NULL with why */
static const struct zipentry *
findmeta(const struct zipfile *z, const struct remotewheel *w, struct sb *why)
{
	struct wheelname wn;
	struct sb want = SB_INIT, file = SB_INIT;
	const struct zipentry *found = NULL;
	size_t i, nfound = 0;

	if (wheelnameparse(w->filename, &wn, why) < 0)
		return NULL;
	sbaddf(&file, "/%s", w->member ? w->member : "METADATA");
	sbaddf(&want, "%s-%s.dist-info%s", wn.dist, wn.version, file.buf);
	for (i = 0; i < z->n; i++) {
		const char *name = z->e[i].name, *slash = strchr(name, '/');

		if (!slash || strchr(slash + 1, '/') || strcmp(slash, file.buf) || (size_t)(slash - name) < 10 ||
		    strncmp(slash - 10, ".dist-info", 10))
			continue;
		if (!strcasecmp(name, want.buf) || !found)
			found = &z->e[i];
		nfound++;
	}
	if (!found) {
		sbaddf(why, "the wheel has no .dist-info%s", file.buf);
	} else if (w->exact && (nfound > 1 || strcmp(found->name, want.buf))) {
		sbaddf(why, "its .dist-info is not (only) %.*s, as its name says (%s)", (int)(want.len - file.len), want.buf,
		       found->name);
		found = NULL;
	} else if (nfound > 1 && strcasecmp(found->name, want.buf)) {
		sbaddf(why, "the wheel has %zu .dist-info directories, none named %s", nfound, want.buf);
		found = NULL;
	}
	sbfree(&file);
	sbfree(&want);
	wheelnamefree(&wn);
	return found;
}

/* after the tail: where the central directory lies, and the piece of it still missing */
static void
plancd(struct remotewheel *w, struct rstate *s)
{
	unsigned long long off, size;
	int fd;

	if (w->why.len)
		return;
	if ((fd = open(s->zip, O_RDONLY)) < 0) {
		sbaddf(&w->why, "cannot read '%s': %s", s->zip, strerror(errno));
		return;
	}
	if (zipcentral(fd, s->total, &off, &size, &w->why) == 0) {
		if (size > REMOTE_CD_MAX)
			sbaddf(&w->why, "its central directory is %llu bytes (at most %d)", size, REMOTE_CD_MAX);
		else if (off < s->have)
			s->from = off, s->to = s->have;
	}
	close(fd);
}

/* the sparse copy opened as a zip (z, for zipclose) and its METADATA member's entry in *e (NULL,
   with w->why, when it has none); -1 when it could not be opened */
static int
zipmeta(struct remotewheel *w, const struct rstate *s, struct zipfile *z, const struct zipentry **e)
{
	int fd;

	if (w->why.len)
		return -1;
	if ((fd = open(s->zip, O_RDONLY)) < 0 || zipopenfd(fd, z, &w->why) < 0) {
		if (fd < 0)
			sbaddf(&w->why, "cannot read '%s': %s", s->zip, strerror(errno));
		return -1;
	}
	*e = findmeta(z, w, &w->why);
	return 0;
}

/* after the central directory: the member's piece (its local header, name, extra and data) */
static void
planmember(struct remotewheel *w, struct rstate *s)
{
	struct zipfile z;
	const struct zipentry *e;

	if (zipmeta(w, s, &z, &e) < 0)
		return;
	if (e) {
		if (e->csize > COREMETA_MAX) {
			sbaddf(&w->why, "its METADATA is %llu bytes compressed (at most %d)", e->csize, COREMETA_MAX);
		} else {
			/* the local header's name and extra field are at most 2 x 64 KiB */
			s->from = e->offset;
			s->to = e->offset + 30 + 2 * 65535ULL + e->csize;
			if (s->to > s->total)
				s->to = s->total;
			if (s->from >= s->have)
				s->from = s->to = 0; /* the tail holds it */
		}
	}
	zipclose(&z);
}

/* read the member out of the sparse copy */
static void
readmember(struct remotewheel *w, struct rstate *s)
{
	struct zipfile z;
	const struct zipentry *e;

	if (zipmeta(w, s, &z, &e) < 0)
		return;
	if (e && zipread(&z, e, COREMETA_MAX + 1, &w->meta, &w->why) == 0 && w->meta.len > COREMETA_MAX)
		sbaddf(&w->why, "its METADATA is larger than %d bytes", COREMETA_MAX);
	zipclose(&z);
}

void
remotewheelmeta(struct remotewheel *w, size_t n, const char *tmpdir, const struct httplimits *lim)
{
	struct rstate *s = xcalloc(n ? n : 1, sizeof(*s));
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(s[i].zip, sizeof(s[i].zip), "%s/wheel%zu.zip", tmpdir, i);
		snprintf(s[i].part, sizeof(s[i].part), "%s/wheel%zu.part", tmpdir, i);
		unlink(s[i].zip);
		s[i].from = w[i].tail ? w[i].tail : REMOTE_TAIL;
		s[i].to = (unsigned long long)-1; /* the last REMOTE_TAIL bytes */
	}
	fetchround(w, s, n, lim);
	for (i = 0; i < n; i++)
		plancd(&w[i], &s[i]);
	fetchround(w, s, n, lim);
	for (i = 0; i < n; i++)
		planmember(&w[i], &s[i]);
	fetchround(w, s, n, lim);
	for (i = 0; i < n; i++) {
		readmember(&w[i], &s[i]);
		if (s[i].whole && sha256file(s[i].zip, w[i].sha256) < 0)
			w[i].sha256[0] = '\0';
		if (w[i].sha256[0] && w[i].keep && rename(s[i].zip, w[i].keep) == 0)
			w[i].kept = 1;
		else
			unlink(s[i].zip);
	}
	free(s);
}

void
remotewheelfree(struct remotewheel *w)
{
	sbfree(&w->meta);
	sbfree(&w->why);
}
