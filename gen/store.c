/* store: where published cells live, read back (see store.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "esc.h"
#include "files.h"
#include "http.h"
#include "json.h"
#include "key.h"
#include "claim.h"
#include "sha256.h"
#include "store.h"

/* where the store's run state is, and whether this process runs under a live ninja run */
static void
storerun(struct store *s, const char *builddir)
{
	struct sha256 h;
	struct sb p = SB_INIT;
	char hex[65], *text;
	long pid;

	if (!builddir || s->kind == STORE_NONE || !claimowner(builddir, &pid))
		return;
	sbaddf(&p, "%s/.lock", builddir);
	text = readfilemax(p.buf, NULL, 256);
	sbfree(&p);
	if (!text)
		return;
	text[strcspn(text, "\n")] = '\0';
	sha256init(&h);
	sha256add(&h, s->where, strlen(s->where));
	sha256hex(&h, hex);
	sbaddf(&p, "%s/store-down/%.16s", builddir, hex);
	s->down = sbdetach(&p);
	s->run = text;
}

void
storeopen(const struct config *c, const char *builddir, struct store *s)
{
	const char *env = getenv("WHEELGEN_STORE");

	memset(s, 0, sizeof(*s));
	s->timeout = c->timeout > 0 ? c->timeout : STORE_TIMEOUT;
	s->stall = c->stall > 0 ? c->stall : STORE_STALL;
	if (env && *env) {
		if (!strcmp(env, "none"))
			return;
		s->from = "WHEELGEN_STORE";
		s->kind = startswith(env, "http://") || startswith(env, "https://") ? STORE_HTTP : STORE_DIR;
		s->where = xstrdup(env);
	} else if (c->publishdir) {
		s->from = "publish.dir";
		s->kind = STORE_DIR;
		s->where = xstrdup(c->publishdir);
	} else if (c->publishhttp) {
		s->from = "publish.http";
		s->kind = STORE_HTTP;
		s->where = xstrdup(c->publishhttp);
	} else if (c->ghrepo) {
		struct sb u = SB_INIT;
		const char *server = getenv("GITHUB_SERVER_URL"), *api = getenv("GITHUB_API_URL");

		/* (as GitHub Actions sets them: GitHub Enterprise Server, or a stand-in) */
		if (!server || !*server)
			server = "https://github.com";
		if (!api || !*api)
			api = "https://api.github.com";
		sbadd(&u, server);
		while (u.len && u.buf[u.len - 1] == '/')
			u.buf[--u.len] = '\0';
		sbaddf(&u, "/%s/releases/download/", c->ghrepo);
		s->from = "publish.github";
		s->kind = STORE_HTTP;
		s->where = sbdetach(&u);
		sbadd(&u, api);
		while (u.len && u.buf[u.len - 1] == '/')
			u.buf[--u.len] = '\0';
		s->api = sbdetach(&u);
		s->repo = c->ghrepo;
		s->release = c->ghtag;
	}
	/* the store's files are where + name */
	if (s->kind != STORE_NONE && s->where[strlen(s->where) - 1] != '/') {
		struct sb u = SB_INIT;

		sbaddf(&u, "%s/", s->where);
		free(s->where);
		s->where = sbdetach(&u);
	}
	storerun(s, builddir);
}

void
storefree(struct store *s)
{
	free(s->where);
	free(s->api);
	free(s->down);
	free(s->run);
	memset(s, 0, sizeof(*s));
}

const char *
storename(const struct store *s)
{
	return s->where ? s->where : "(no store)";
}

/* is s[0..n) a segment of a cell id that storerelease leaves out: cu<digits>, torch<digits and dots> */
static int
axisseg(const char *s, size_t n)
{
	size_t k;

	if (n > 2 && !strncmp(s, "cu", 2))
		k = 2;
	else if (n > 5 && !strncmp(s, "torch", 5))
		k = 5;
	else
		return 0;
	for (; k < n; k++) {
		if (!((s[k] >= '0' && s[k] <= '9') || (k > 2 && s[k] == '.')))
			return 0;
	}
	return 1;
}

void
storerelease(const char *prefix, const char *cell, struct sb *tag)
{
	const char *p, *py = NULL, *seg;

	/* the last -py<digits> segment: what comes before it is <package>-<version> (a version
	   never holds '-', a package name never ends a segment before its version) */
	for (p = cell; (p = strstr(p, "-py")); p++) {
		size_t n = strspn(p + 3, "0123456789");

		if (n && (p[3 + n] == '-' || !p[3 + n]))
			py = p;
	}
	sbaddf(tag, "%s-", prefix);
	if (!py) {
		sbadd(tag, cell);
		return;
	}
	sbaddn(tag, cell, (size_t)(py - cell));
	for (seg = py + 1;;) {
		size_t n = strcspn(seg, "-");

		if (!axisseg(seg, n)) {
			sbaddc(tag, '-');
			sbaddn(tag, seg, n);
		}
		if (!seg[n])
			break;
		seg += n + 1;
	}
}

void
storeurl(struct sb *u, const struct store *s, const char *name)
{
	sbadd(u, s->where);
	if (s->release && !strchr(name, '/')) {
		if (endswith(name, ".manifest")) {
			struct sb cell = SB_INIT;

			sbaddn(&cell, name, strlen(name) - 9);
			storerelease(s->release, cell.buf, u);
			sbfree(&cell);
		} else {
			/* a wheel its manifest names flat: published before releases were per cell */
			sbadd(u, s->release);
		}
		sbaddc(u, '/');
	}
	escurlpath(u, name);
}

/* 1 (the earlier message into why) when this run gave up on the store before */
int
storegivenup(const struct store *s, struct sb *why)
{
	char *text, *nl;
	int r = 0;

	if (!s->down || !s->run || !(text = readfilemax(s->down, NULL, 65536)))
		return 0;
	nl = strchr(text, '\n');
	if (nl && (size_t)(nl - text) == strlen(s->run) && !strncmp(text, s->run, strlen(s->run))) {
		nl[1 + strcspn(nl + 1, "\n")] = '\0';
		sbaddf(why, "%s (given up on earlier in this run: not tried again)", nl + 1);
		r = 1;
	}
	free(text);
	return r;
}

/* record that this run gives up on the store, with msg (best effort: the mark only saves time) */
static void
giveup(const struct store *s, const char *msg)
{
	struct sb tmp = SB_INIT, dir = SB_INIT;
	FILE *f;

	if (!s->down || !s->run)
		return;
	sbaddn(&dir, s->down, (size_t)(strrchr(s->down, '/') - s->down));
	sbaddf(&tmp, "%s.tmp.%ld", s->down, (long)getpid());
	if (mkdirs(dir.buf) == 0 && (f = fopen(tmp.buf, "w"))) {
		if (fprintf(f, "%s\n%s\n", s->run, msg) < 0 || fclose(f) != 0 || rename(tmp.buf, s->down) < 0)
			unlink(tmp.buf);
	}
	sbfree(&tmp);
	sbfree(&dir);
}

/* the variable the store's token is in (for messages: its name, never its value), and the
   token, NULL when it is not set */
static const char *
tokenof(const struct store *s, const char **var)
{
	const char *t;

	if (!s->release) {
		*var = "WG_HTTP_TOKEN";
		t = getenv("WG_HTTP_TOKEN");
	} else if ((t = getenv("GH_TOKEN")) && *t) {
		*var = "GH_TOKEN";
	} else {
		*var = "GH_TOKEN/GITHUB_TOKEN";
		if ((t = getenv("GITHUB_TOKEN")) && *t)
			*var = "GITHUB_TOKEN";
	}
	return t && *t ? t : NULL;
}

void
storehow(const struct store *s, const char *url, struct httphow *how)
{
	const char *var;

	memset(how, 0, sizeof(*how));
	how->netrc = 1;
	how->redirect = s->release ? HTTP_SAMEHOST_HTTPS : HTTP_SAMEHOST;
	if (s->kind == STORE_HTTP && (httpsamehost(url, s->where) || (s->api && httpsamehost(url, s->api))))
		how->token = tokenof(s, &var);
}

static const char *const methods[] = { "GET", "HEAD", "PUT", "DELETE" };

/* (store.h) */
int
storerequest(const struct store *s, struct httpget *g, struct sb *why)
{
	struct httplimits lim = { s->timeout, s->stall, 1 };
	const char *m = methods[g->method], *at;

	if (storegivenup(s, why))
		return -1;
	storehow(s, g->url, &g->how);
	httpfetch(g, 1, &lim);
	at = g->at.len ? g->at.buf : g->url;
	if (g->over) {
		sbaddf(why, "%s %s: larger than %zu bytes", m, at, g->max);
	} else if (g->why.len) {
		if (g->curlexit > 0)
			sbaddf(why, "%s %s: curl: (%ld) %s", m, at, g->curlexit, g->curlmsg[0] ? g->curlmsg : g->why.buf);
		else
			sbaddf(why, "%s %s: %s", m, at, g->why.buf);
		if (g->curlexit == 28) {
			sbaddf(why, " (the store's limits: publish.timeout %ld s, publish.stall_timeout %ld s)", s->timeout,
			       s->stall);
			giveup(s, why->buf);
		}
	} else if (g->stop == HTTP_STOP_METHOD) {
		sbaddf(why, "%s %s: the store answered HTTP %ld, a redirect to %s: a %s is not redirected", m, at, g->status,
		       g->location.buf, m);
	} else if (g->stop == HTTP_STOP_HOST) {
		sbaddf(why, "%s %s: redirected to %s, outside the store's host: not followed", m, at, g->location.buf);
	} else if (g->stop == HTTP_STOP_HOPS) {
		sbaddf(why, "%s %s: more than %d redirects", m, g->url, HTTP_HOPS);
	} else {
		return 0;
	}
	return -1;
}

void
storebadstatus(const struct store *s, struct sb *why, const struct httpget *g)
{
	const char *var, *tok = tokenof(s, &var);

	sbaddf(why, "%s %s: HTTP status %ld", methods[g->method], g->url, g->status);
	if (g->status == 401 || g->status == 403) {
		if (tok)
			sbaddf(why, " (the store refused the token in %s: is it right, and may it read the store?)", var);
		else
			sbaddf(why, " (the store refused a request without a token: set %s, or a ~/.netrc entry)", var);
	}
}

int
storeget(const struct store *s, const char *name, const char *dest, size_t max, struct sb *why)
{
	struct sb src = SB_INIT, tmp = SB_INIT;
	int rc = -1;

	if (!storefile(name)) {
		sbaddf(why, "'%s' is not a file name", name);
		return -1;
	}
	sbaddf(&tmp, "%s.tmp.%ld", dest, (long)getpid());
	if (s->kind == STORE_DIR) {
		char *data;
		size_t len;
		FILE *f;

		sbaddf(&src, "%s%s", s->where, name);
		if (!(data = readfilemax(src.buf, &len, max))) {
			if (errno == ENOENT) {
				struct stat st;

				rc = 1;
				if (stat(s->where, &st) < 0) {
					sbaddf(why, "the store directory '%s' is missing", s->where);
					rc = -1;
				}
			} else if (errno == EFBIG) {
				sbaddf(why, "'%s' is larger than %zu bytes", src.buf, max);
			} else {
				sbaddf(why, "cannot read '%s': %s", src.buf, strerror(errno));
			}
			goto out;
		}
		f = fopen(tmp.buf, "wb");
		if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0 || rename(tmp.buf, dest) < 0) {
			sbaddf(why, "cannot write '%s': %s", dest, strerror(errno));
			if (f)
				unlink(tmp.buf);
		} else {
			rc = 0;
		}
		free(data);
	} else if (s->kind == STORE_HTTP) {
		struct httpget g = { 0 };

		storeurl(&src, s, name);
		g.url = src.buf;
		g.dest = tmp.buf;
		g.max = max ? max : STORE_FILE_MAX;
		if (storerequest(s, &g, why) < 0) {
		} else if (g.status == 200) {
			if (rename(tmp.buf, dest) < 0)
				sbaddf(why, "cannot write '%s': %s", dest, strerror(errno));
			else
				rc = 0;
		} else if (g.status == 404 || g.status == 410) {
			rc = 1;
		} else {
			storebadstatus(s, why, &g);
		}
		if (rc != 0)
			unlink(tmp.buf);
		httpgetfree(&g);
	} else {
		sbadd(why, "no store");
	}
out:
	sbfree(&src);
	sbfree(&tmp);
	return rc;
}

int
storestat(const struct store *s, const char *name, long long *size, struct sb *why)
{
	struct sb src = SB_INIT;
	int rc = -1;

	*size = -1;
	if (!storefile(name)) {
		sbaddf(why, "'%s' is not a file name", name);
		return -1;
	}
	if (s->kind == STORE_DIR) {
		struct stat st;

		sbaddf(&src, "%s%s", s->where, name);
		if (stat(src.buf, &st) == 0) {
			rc = S_ISREG(st.st_mode) ? 0 : 1;
			*size = (long long)st.st_size;
		} else if (errno == ENOENT || errno == ENOTDIR) {
			rc = 1;
		} else {
			sbaddf(why, "cannot read '%s': %s", src.buf, strerror(errno));
		}
	} else if (s->kind == STORE_HTTP) {
		struct httpget g = { 0 };

		storeurl(&src, s, name);
		g.method = HTTP_HEAD;
		g.url = src.buf;
		if (storerequest(s, &g, why) < 0) {
		} else if (g.status == 200) {
			rc = 0;
			*size = g.length;
		} else if (g.status == 404 || g.status == 410) {
			rc = 1;
		} else {
			storebadstatus(s, why, &g);
		}
		httpgetfree(&g);
	} else {
		sbadd(why, "no store");
	}
	sbfree(&src);
	return rc;
}

int
storehash(const struct store *s, const char *name, char hex[65])
{
	struct sb path = SB_INIT;
	int rc = 1;

	hex[0] = '\0';
	if (s->kind == STORE_DIR && storefile(name)) {
		sbaddf(&path, "%s%s", s->where, name);
		rc = sha256file(path.buf, hex) < 0 ? 1 : 0;
	}
	sbfree(&path);
	return rc;
}

int
storedel(const struct store *s, const char *name, struct sb *why)
{
	struct sb path = SB_INIT;
	int rc = -1;

	if (!storefile(name)) {
		sbaddf(why, "'%s' is not a file name", name);
		return -1;
	}
	if (s->kind == STORE_DIR) {
		sbaddf(&path, "%s%s", s->where, name);
		if (unlink(path.buf) == 0 || errno == ENOENT) {
			rc = 0;
			/* an emptied blobs/<sha256>/ goes too */
			if (strchr(name, '/')) {
				*strrchr(path.buf, '/') = '\0';
				rmdir(path.buf);
			}
		} else {
			sbaddf(why, "cannot remove '%s': %s", path.buf, strerror(errno));
		}
	} else if (s->kind == STORE_HTTP && s->release) {
		sbaddf(why, "a GitHub store's assets are removed through the API: gh release delete-asset");
	} else if (s->kind == STORE_HTTP) {
		struct httpget g = { 0 };

		storeurl(&path, s, name);
		g.method = HTTP_DELETE;
		g.url = path.buf;
		if (storerequest(s, &g, why) == 0) {
			if ((g.status >= 200 && g.status < 300) || g.status == 404)
				rc = 0;
			else
				storebadstatus(s, why, &g);
		}
		httpgetfree(&g);
	}
	sbfree(&path);
	return rc;
}
