/* store: where published cells live, read back (see store.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "esc.h"
#include "files.h"
#include "key.h"
#include "sha256.h"
#include "store.h"

void
storeopen(const struct config *c, struct store *s)
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

		sbaddf(&u, "https://github.com/%s/releases/download/%s/", c->ghrepo, c->ghtag);
		s->from = "publish.github";
		s->kind = STORE_HTTP;
		s->where = sbdetach(&u);
	}
	/* the store's files are where + name */
	if (s->kind != STORE_NONE && s->where[strlen(s->where) - 1] != '/') {
		struct sb u = SB_INIT;

		sbaddf(&u, "%s/", s->where);
		free(s->where);
		s->where = sbdetach(&u);
	}
}

void
storefree(struct store *s)
{
	free(s->where);
	memset(s, 0, sizeof(*s));
}

const char *
storename(const struct store *s)
{
	return s->where ? s->where : "(no store)";
}

int
storefile(const char *name)
{
	const char *slash;

	if (plainname(name))
		return 1;
	/* blobs/<sha256>/<file name>: a wheel and its .metadata stored by their content */
	if (strncmp(name, "blobs/", 6) || strlen(name) < 6 + 64 + 2 || name[6 + 64] != '/')
		return 0;
	slash = name + 6 + 64;
	{
		char hex[65];

		memcpy(hex, name + 6, 64);
		hex[64] = '\0';
		if (!ishex64(hex))
			return 0;
	}
	return plainname(slash + 1) && slash[1] != '.';
}

/* the URL of the store's file name */
static void
fileurl(struct sb *u, const struct store *s, const char *name)
{
	sbadd(u, s->where);
	escurlpath(u, name);
}

/*
 * Run curl for method on url with args (already shell-quoted, before the URL), under the store's
 * time limits, with the token header, when WG_HTTP_TOKEN is set, from a private file. The HTTP
 * status into *code (0: none), the Content-Length of the (last) answer into *len (-1: none);
 * what went wrong into why, naming the method and the URL. -1 when no answer came (curl could
 * not be run, the connection failed or timed out), else 0.
 */
static int
curl(const struct store *s, const char *method, const char *url, const char *args, long *code, long long *len,
     struct sb *why)
{
	struct sb cmd = SB_INIT, out = SB_INIT;
	char hdr[] = "/tmp/wgstore.XXXXXX", buf[4096], *last;
	const char *tok = getenv("WG_HTTP_TOKEN");
	FILE *f;
	size_t n;
	int fd = -1, st, rc = 0;

	*code = 0;
	*len = -1;
	/* (--speed-limit/--speed-time: a store that accepts the connection and never answers, or
	   stops in the middle, is given up after the stall limit, not after hours) */
	sbaddf(&cmd, "curl -sS -L --netrc-optional --connect-timeout 10 --max-time %ld --speed-limit 1024 --speed-time %ld"
		     " -w '\\n%%{http_code} %%header{content-length}'", s->timeout, s->stall);
	if (tok && *tok) {
		if ((fd = mkstemp(hdr)) < 0 || dprintf(fd, "Authorization: Bearer %s\n", tok) < 0) {
			sbaddf(why, "cannot write a private header file: %s", strerror(errno));
			if (fd >= 0)
				close(fd), unlink(hdr);
			sbfree(&cmd);
			return -1;
		}
		close(fd);
		sbadd(&cmd, " -H @");
		escshell(&cmd, hdr);
	}
	sbaddf(&cmd, " %s ", args);
	escshell(&cmd, url);
	sbadd(&cmd, " 2>&1");
	fflush(NULL);
	if (!(f = popen(cmd.buf, "r"))) {
		sbaddf(why, "cannot run curl: %s", strerror(errno));
		rc = -1;
		goto out;
	}
	/* (bounded: -w's line and curl's own messages; the body goes to a file or nowhere) */
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (out.len < 65536)
			sbaddn(&out, buf, n);
	}
	st = pclose(f);
	while (out.len && out.buf[out.len - 1] == '\n')
		out.buf[--out.len] = '\0';
	last = strrchr(out.buf, '\n');
	if (sscanf(last ? last + 1 : out.buf, "%ld %lld", code, len) < 2)
		*len = -1;
	if (last) {
		*last = '\0';
		out.len = (size_t)(last - out.buf);
		while (out.len && (out.buf[out.len - 1] == '\n' || out.buf[out.len - 1] == '\r'))
			out.buf[--out.len] = '\0';
	} else {
		sbreset(&out);
	}
	if (*code == 0 || (WIFEXITED(st) && WEXITSTATUS(st) == 28)) {
		/* curl's own message: "curl: (7) Failed to connect to ...", "(28) Operation timed
		   out after 60001 milliseconds ..." */
		sbaddf(why, "%s %s: %s", method, url, out.len ? out.buf : "curl failed");
		if (st == -1 || (WIFEXITED(st) && WEXITSTATUS(st) == 127))
			sbadd(why, " (is curl installed?)");
		if (WIFEXITED(st) && WEXITSTATUS(st) == 28)
			sbaddf(why, " (the store's limits: publish.timeout %ld s, publish.stall_timeout %ld s)", s->timeout,
			       s->stall);
		rc = -1;
		*code = 0;
	}
out:
	if (fd >= 0)
		unlink(hdr);
	sbfree(&cmd);
	sbfree(&out);
	return rc;
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

		fileurl(&src, s, name);
		sbadd(&args, "-o ");
		escshell(&args, tmp.buf);
		if (max)
			sbaddf(&args, " --max-filesize %zu", max);
		if (curl(s, "GET", src.buf, args.buf, &code, &len, why) < 0) {
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
			sbaddf(why, "GET %s: HTTP status %ld", src.buf, code);
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
		if (curl(s, "HEAD", src.buf, "-I -o /dev/null", &code, size, why) < 0) {
		} else if (code == 200) {
			rc = 0;
		} else if (code == 404 || code == 410) {
			rc = 1;
		} else {
			sbaddf(why, "HEAD %s: HTTP status %ld", src.buf, code);
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

static int
endswith(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
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
		char tmp[] = "/tmp/wglist.XXXXXX";
		struct sb args = SB_INIT;
		long code;
		long long len;
		char *page;
		int fd = mkstemp(tmp), rc = -1;

		if (fd < 0) {
			sbaddf(why, "cannot make a temporary file: %s", strerror(errno));
			return -1;
		}
		close(fd);
		sbadd(&args, "-o ");
		escshell(&args, tmp);
		sbaddf(&args, " --max-filesize %d", STORE_LISTING_MAX);
		if (curl(s, "GET", s->where, args.buf, &code, &len, why) == 0) {
			if (code != 200) {
				sbaddf(why, "GET %s: HTTP status %ld (the store's listing: a directory index, e.g. nginx autoindex)", s->where, code);
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
	} else if (s->kind == STORE_HTTP) {
		long code;
		long long len;

		fileurl(&path, s, name);
		if (curl(s, "DELETE", path.buf, "-X DELETE -o /dev/null", &code, &len, why) == 0) {
			if ((code >= 200 && code < 300) || code == 404)
				rc = 0;
			else
				sbaddf(why, "DELETE %s: HTTP status %ld", path.buf, code);
		}
	}
	sbfree(&path);
	return rc;
}
