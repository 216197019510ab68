/* store: where published cells live, read back (see store.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "esc.h"
#include "files.h"
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

static int
endswith(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* the URL of the store's file name (GitHub: a cell's manifest is in its cell's release) */
static void
fileurl(struct sb *u, const struct store *s, const char *name)
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
static int
givenup(const struct store *s, struct sb *why)
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

/* 1 when a and b have one scheme, host and port */
static int
samehost(const char *a, const char *b)
{
	size_t n = hostpart(a);

	return n && n == hostpart(b) && !strncasecmp(a, b, n);
}

/*
 * One request, no redirect followed: curl for method on url (args, already shell-quoted, before
 * the URL) under the store's time limits, hdr (or NULL) its header file, the body into dest cut
 * off after max + 1 bytes, or nowhere (dest NULL). The status into *code (0: no answer), the
 * Content-Length into *len, the Location of a redirect into loc, curl's messages into msg;
 * curl's error number ("curl: (28) ..." when it timed out, (63) when the length announced is
 * over max), else 0.
 */
static int
curlonce(const struct store *s, const char *url, const char *args, const char *hdr, const char *dest, size_t max,
	 long *code, long long *len, struct sb *loc, struct sb *msg)
{
	struct sb cmd = SB_INIT;
	char buf[4096], *last, *bar;
	FILE *f;
	size_t n;

	*code = 0;
	*len = -1;
	/* (--speed-limit/--speed-time: a store that accepts the connection and never answers, or
	   stops in the middle, is given up after the stall limit, not after hours) */
	sbaddf(&cmd, "{ curl -q -sS --proto =http,https --netrc-optional --connect-timeout 10 --max-time %ld"
		     " --speed-limit 1024 --speed-time %ld"
		     " -w '%%{stderr}\\n%%{http_code} %%header{content-length}|%%{redirect_url}\\n'",
		s->timeout, s->stall);
	if (hdr) {
		sbadd(&cmd, " -H @");
		escshell(&cmd, hdr);
	}
	sbaddf(&cmd, " %s ", args);
	if (dest) {
		/* (head ends the transfer: curl stops at its next write, the length announced or not) */
		sbaddf(&cmd, "-o - ");
		escshell(&cmd, url);
		sbaddf(&cmd, " | head -c %zu >", max + 1);
		escshell(&cmd, dest);
	} else {
		sbadd(&cmd, "-o /dev/null ");
		escshell(&cmd, url);
	}
	sbadd(&cmd, "; } 2>&1");
	fflush(NULL);
	if (!(f = popen(cmd.buf, "r"))) {
		sbaddf(msg, "cannot run curl: %s", strerror(errno));
		sbfree(&cmd);
		return 0;
	}
	/* (bounded: -w's line and curl's own messages; the body goes to a file or nowhere) */
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (msg->len < 65536)
			sbaddn(msg, buf, n);
	}
	if (pclose(f) == -1 || !msg->len)
		sbadd(msg, "curl failed (is curl installed?)");
	sbfree(&cmd);
	while (msg->len && msg->buf[msg->len - 1] == '\n')
		msg->buf[--msg->len] = '\0';
	last = strrchr(msg->buf, '\n');
	if (sscanf(last ? last + 1 : msg->buf, "%ld %lld", code, len) < 2)
		*len = -1;
	if ((bar = strchr(last ? last + 1 : msg->buf, '|')))
		sbadd(loc, bar + 1);
	if (last) {
		*last = '\0';
		msg->len = (size_t)(last - msg->buf);
		while (msg->len && (msg->buf[msg->len - 1] == '\n' || msg->buf[msg->len - 1] == '\r'))
			msg->buf[--msg->len] = '\0';
	} else if (*code) {
		sbreset(msg);
	}
	/* curl's own message: "curl: (7) Failed to connect to ...", "(28) Operation timed out after
	   60001 milliseconds ..."; (23): head took all it may (not an error here) */
	return (last = strstr(msg->buf, "curl: (")) ? atoi(last + 7) : 0;
}

/*
 * Make the request method on url (curlonce), with the token header, when WG_HTTP_TOKEN is set,
 * from a private file (sent to the store's host only). Redirects: followed within the store's
 * host (a GitHub store's to any https host), else an error naming where they went; a method
 * other than GET and HEAD is never redirected. What went wrong into why, naming the method and
 * the URL. -1 when no answer came (curl could not be run, the connection failed or timed out; a
 * timeout gives the store up for the run; a store given up on fails at once), else 0.
 */
static int
curl(const struct store *s, const char *method, const char *url, const char *args, const char *dest, size_t max,
     long *code, long long *len, struct sb *why)
{
	struct sb msg = SB_INIT, at = SB_INIT, loc = SB_INIT;
	char hdr[4096];
	const char *tok = getenv("WG_HTTP_TOKEN");
	int fd = -1, rc = -1, hops;

	*code = 0;
	*len = -1;
	snprintf(hdr, sizeof(hdr), "%s/wgstore.XXXXXX", tmpdir());
	if (givenup(s, why))
		return -1;
	if (tok && *tok) {
		if ((fd = mkstemp(hdr)) < 0 || dprintf(fd, "Authorization: Bearer %s\n", tok) < 0) {
			sbaddf(why, "cannot write a private header file: %s", strerror(errno));
			if (fd >= 0)
				close(fd), unlink(hdr);
			return -1;
		}
		close(fd);
	}
	sbadd(&at, url);
	for (hops = 0;; hops++) {
		int t;

		sbreset(&msg);
		sbreset(&loc);
		t = curlonce(s, at.buf, args, fd >= 0 && samehost(at.buf, s->where) ? hdr : NULL, dest, max, code, len, &loc,
			     &msg);
		if (t == 63) {
			sbaddf(why, "%s %s: larger than %zu bytes", method, at.buf, max);
			*code = 0;
			break;
		}
		if (*code == 0 || t == 28) {
			sbaddf(why, "%s %s: %s", method, at.buf, msg.buf);
			if (t == 28) {
				sbaddf(why, " (the store's limits: publish.timeout %ld s, publish.stall_timeout %ld s)",
				       s->timeout, s->stall);
				giveup(s, why->buf);
			}
			*code = 0;
			break;
		}
		if (*code < 300 || *code >= 400 || !loc.len) {
			rc = 0;
			break;
		}
		if (strcmp(method, "GET") && strcmp(method, "HEAD")) {
			sbaddf(why, "%s %s: the store answered HTTP %ld, a redirect to %s: a %s is not redirected", method,
			       at.buf, *code, loc.buf, method);
			break;
		}
		if (!samehost(loc.buf, s->where) && !(s->release && startswith(loc.buf, "https://"))) {
			sbaddf(why, "%s %s: redirected to %s, outside the store's host: not followed", method, at.buf,
			       loc.buf);
			break;
		}
		if (hops >= 5) {
			sbaddf(why, "%s %s: more than 5 redirects", method, url);
			break;
		}
		sbreset(&at);
		sbadd(&at, loc.buf);
	}
	if (fd >= 0)
		unlink(hdr);
	sbfree(&msg);
	sbfree(&at);
	sbfree(&loc);
	return rc;
}

/* an answer the caller did not expect: "METHOD URL: HTTP status N", for 401 and 403 with what
   to do about the token (its variable, never its value) */
static void
badstatus(struct sb *why, const char *method, const char *url, long code)
{
	const char *tok = getenv("WG_HTTP_TOKEN");

	sbaddf(why, "%s %s: HTTP status %ld", method, url, code);
	if (code == 401 || code == 403)
		sbaddf(why, " (the store refused %s)", tok && *tok ? "the token in WG_HTTP_TOKEN: is it right, and may it read the store?"
								 : "a request without a token: set WG_HTTP_TOKEN, or a ~/.netrc entry");
}

int
storeget(const struct store *s, const char *name, const char *dest, size_t max, struct sb *why)
{
	struct sb src = SB_INIT, tmp = SB_INIT, args = SB_INIT;
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
		long code;
		long long len;
		struct stat st;

		if (!max)
			max = STORE_FILE_MAX;
		fileurl(&src, s, name);
		sbaddf(&args, "--max-filesize %zu", max);
		if (curl(s, "GET", src.buf, args.buf, tmp.buf, max, &code, &len, why) < 0) {
		} else if (code == 200 && max && (stat(tmp.buf, &st) < 0 || (size_t)st.st_size > max)) {
			sbaddf(why, "GET %s: larger than %zu bytes", src.buf, max);
		} else if (code == 200) {
			if (rename(tmp.buf, dest) < 0)
				sbaddf(why, "cannot write '%s': %s", dest, strerror(errno));
			else
				rc = 0;
		} else if (code == 404 || code == 410) {
			rc = 1;
		} else {
			badstatus(why, "GET", src.buf, code);
		}
		if (rc != 0)
			unlink(tmp.buf);
	} else {
		sbadd(why, "no store");
	}
out:
	sbfree(&src);
	sbfree(&tmp);
	sbfree(&args);
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
		long code;

		fileurl(&src, s, name);
		if (curl(s, "HEAD", src.buf, "-I", NULL, 0, &code, size, why) < 0) {
		} else if (code == 200) {
			rc = 0;
		} else if (code == 404 || code == 410) {
			rc = 1;
		} else {
			badstatus(why, "HEAD", src.buf, code);
		}
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

/* the hrefs of an HTML listing that end in suffix (percent-decoded, no path) */
static void
hrefs(const char *page, const char *suffix, struct sb *names)
{
	const char *p = page, *q;

	while ((p = strstr(p, "href=\""))) {
		struct sb n = SB_INIT;

		p += 6;
		for (q = p; *q && *q != '"'; q++) {
			if (*q == '%' && q[1] && q[2]) {
				char h[3] = { q[1], q[2], 0 };

				sbaddc(&n, (char)strtol(h, NULL, 16));
				q += 2;
			} else {
				sbaddc(&n, *q);
			}
		}
		if (plainname(n.buf) && endswith(n.buf, suffix))
			sbaddf(names, "%s\n", n.buf);
		sbfree(&n);
		p = q;
	}
}

/* GitHub lists a page at most this long */
#define GH_PAGE 100

/* GET the JSON list at url (a page of the API) into *v (in a); -1 with why */
static int
ghpage(const struct store *s, struct arena *a, const char *url, const char *tmp, const struct json **v, struct sb *why)
{
	long code;
	long long len;
	size_t n;
	char *text;

	if (curl(s, "GET", url, "-H 'Accept: application/vnd.github+json'", tmp, STORE_LISTING_MAX, &code, &len, why) < 0)
		return -1;
	if (code != 200) {
		badstatus(why, "GET", url, code);
		return -1;
	}
	if (!(text = readfilemax(tmp, &n, STORE_LISTING_MAX))) {
		sbaddf(why, "GET %s: larger than %d bytes", url, STORE_LISTING_MAX);
		return -1;
	}
	*v = jsonparse(a, text, n, NULL, why);
	free(text);
	if (!*v || (*v)->kind != JSON_ARRAY) {
		if (*v)
			sbaddf(why, "GET %s: not a list but %s", url, jsonkindname(*v));
		return -1;
	}
	return 0;
}

/* storelist of a GitHub store: the assets of every release of the store's, every page */
static int
ghlist(const struct store *s, const char *tmp, const char *suffix, struct sb *names, struct sb *why)
{
	struct arena a = { 0 };
	struct sb url = SB_INIT, rels = SB_INIT, prefix = SB_INIT, rel = SB_INIT;
	const struct json *v;
	char *next, *line;
	size_t i, page;
	int rc = 0;

	sbaddf(&prefix, "%s-", s->release);
	/* the releases: "id tag" lines */
	for (page = 1; rc == 0; page++) {
		sbreset(&url);
		sbaddf(&url, "%s/repos/%s/releases?per_page=%d&page=%zu", s->api, s->repo, GH_PAGE, page);
		if ((rc = ghpage(s, &a, url.buf, tmp, &v, why)) < 0)
			break;
		for (i = 0; i < v->n; i++) {
			const char *tag = jsonstr(jsonget(v->v[i], "tag_name"));
			long long id;

			if (tag && startswith(tag, prefix.buf) && storereleasename(tag, strlen(tag)) &&
			    jsonint(jsonget(v->v[i], "id"), &id) == 0)
				sbaddf(&rels, "%lld %s\n", id, tag);
		}
		if (v->n < GH_PAGE)
			break;
	}
	next = rels.buf;
	while (rc == 0 && rels.len && (line = nextline(&next))) {
		const char *tag = strchr(line, ' ') + 1;

		for (page = 1;; page++) {
			sbreset(&url);
			sbaddf(&url, "%s/repos/%s/releases/%.*s/assets?per_page=%d&page=%zu", s->api, s->repo,
			       (int)(tag - 1 - line), line, GH_PAGE, page);
			if ((rc = ghpage(s, &a, url.buf, tmp, &v, why)) < 0)
				break;
			for (i = 0; i < v->n; i++) {
				const char *name = jsonstr(jsonget(v->v[i], "name"));

				if (!name || !plainname(name) || !endswith(name, suffix))
					continue;
				/* a cell's manifest in the release of its cell: under the name readers use */
				sbreset(&rel);
				if (endswith(name, ".manifest")) {
					struct sb cell = SB_INIT;

					sbaddn(&cell, name, strlen(name) - 9);
					storerelease(s->release, cell.buf, &rel);
					sbfree(&cell);
				}
				if (rel.len && !strcmp(rel.buf, tag))
					sbaddf(names, "%s\n", name);
				else
					sbaddf(names, "%s/%s\n", tag, name);
			}
			if (v->n < GH_PAGE)
				break;
		}
	}
	afree(&a);
	sbfree(&url);
	sbfree(&rels);
	sbfree(&prefix);
	sbfree(&rel);
	return rc;
}

int
storelist(const struct store *s, const char *suffix, struct sb *names, struct sb *why)
{
	if (s->kind == STORE_DIR) {
		DIR *d = opendir(s->where);
		struct dirent *e;

		if (!d) {
			sbaddf(why, "cannot read the store directory '%s': %s", s->where, strerror(errno));
			return -1;
		}
		while ((e = readdir(d))) {
			if (endswith(e->d_name, suffix) && plainname(e->d_name) && !strstr(e->d_name, ".tmp."))
				sbaddf(names, "%s\n", e->d_name);
		}
		closedir(d);
		return 0;
	}
	if (s->kind == STORE_HTTP) {
		char tmp[4096];
		struct sb args = SB_INIT;
		long code;
		long long len;
		char *page;
		int fd, rc = -1;

		snprintf(tmp, sizeof(tmp), "%s/wglist.XXXXXX", tmpdir());
		fd = mkstemp(tmp);

		if (fd < 0) {
			sbaddf(why, "cannot make a temporary file: %s", strerror(errno));
			return -1;
		}
		close(fd);
		if (s->release) {
			rc = ghlist(s, tmp, suffix, names, why);
			unlink(tmp);
			return rc;
		}
		sbaddf(&args, "--max-filesize %d", STORE_LISTING_MAX);
		if (curl(s, "GET", s->where, args.buf, tmp, STORE_LISTING_MAX, &code, &len, why) == 0) {
			if (code != 200) {
				badstatus(why, "GET", s->where, code);
				sbadd(why, " (the store's listing: a directory index, e.g. nginx autoindex)");
			} else if ((page = readfilemax(tmp, NULL, STORE_LISTING_MAX))) {
				hrefs(page, suffix, names);
				free(page);
				rc = 0;
			} else {
				sbaddf(why, "GET %s: the listing is larger than %d bytes", s->where, STORE_LISTING_MAX);
			}
		}
		unlink(tmp);
		sbfree(&args);
		return rc;
	}
	sbadd(why, "no store");
	return -1;
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
		long code;
		long long len;

		fileurl(&path, s, name);
		if (curl(s, "DELETE", path.buf, "-X DELETE", NULL, 0, &code, &len, why) == 0) {
			if ((code >= 200 && code < 300) || code == 404)
				rc = 0;
			else
				badstatus(why, "DELETE", path.buf, code);
		}
	}
	sbfree(&path);
	return rc;
}
