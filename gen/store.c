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
#include "store.h"

void
storeopen(const struct config *c, struct store *s)
{
	const char *env = getenv("WHEELGEN_STORE");

	memset(s, 0, sizeof(*s));
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

/*
 * Run curl with args (already shell-quoted, after the common options) and the token header,
 * when WG_HTTP_TOKEN is set, from a private file. The HTTP status into *code (0: none), what
 * curl printed on errors into why. -1 when curl could not be run.
 */
static int
curl(const char *args, long *code, struct sb *why)
{
	struct sb cmd = SB_INIT, out = SB_INIT;
	char hdr[] = "/tmp/wgstore.XXXXXX", buf[4096], *last;
	const char *tok = getenv("WG_HTTP_TOKEN");
	FILE *f;
	size_t n;
	int fd = -1, st;

	*code = 0;
	sbadd(&cmd, "curl -sS -L --netrc-optional --connect-timeout 10 --retry 2 -w '\\n%{http_code}'");
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
	sbaddf(&cmd, " %s 2>&1", args);
	fflush(NULL);
	if (!(f = popen(cmd.buf, "r"))) {
		sbaddf(why, "cannot run curl: %s", strerror(errno));
		st = -1;
	} else {
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			sbaddn(&out, buf, n);
		st = pclose(f);
		while (out.len && out.buf[out.len - 1] == '\n')
			out.buf[--out.len] = '\0';
		last = strrchr(out.buf, '\n');
		*code = strtol(last ? last + 1 : out.buf, NULL, 10);
		if (last) {
			*last = '\0';
			out.len = (size_t)(last - out.buf);
			while (out.len && out.buf[out.len - 1] == '\n')
				out.buf[--out.len] = '\0';
		} else {
			sbreset(&out);
		}
		if (*code == 0 && st != 0) {
			/* curl's own message: "curl: (7) Failed to connect to ..." */
			sbadd(why, out.len ? out.buf : "curl failed");
			if (st == -1 || (WIFEXITED(st) && WEXITSTATUS(st) == 127))
				sbadd(why, " (is curl installed?)");
		}
		st = 0;
	}
	if (fd >= 0)
		unlink(hdr);
	sbfree(&cmd);
	sbfree(&out);
	return st;
}

int
storeget(const struct store *s, const char *name, const char *dest, struct sb *why)
{
	struct sb src = SB_INIT, tmp = SB_INIT, args = SB_INIT;
	int rc = -1;

	if (!plainname(name)) {
		sbaddf(why, "'%s' is not a file name", name);
		return -1;
	}
	sbaddf(&tmp, "%s.tmp.%ld", dest, (long)getpid());
	if (s->kind == STORE_DIR) {
		char *data;
		size_t len;
		FILE *f;

		sbaddf(&src, "%s%s", s->where, name);
		if (!(data = readfile(src.buf, &len))) {
			if (errno == ENOENT) {
				struct stat st;

				rc = 1;
				if (stat(s->where, &st) < 0) {
					sbaddf(why, "the store directory '%s' is missing", s->where);
					rc = -1;
				}
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

		sbadd(&src, s->where);
		eschref(&src, name);
		sbadd(&args, "-o ");
		escshell(&args, tmp.buf);
		sbaddc(&args, ' ');
		escshell(&args, src.buf);
		if (curl(args.buf, &code, why) < 0) {
		} else if (code == 200) {
			if (rename(tmp.buf, dest) < 0)
				sbaddf(why, "cannot write '%s': %s", dest, strerror(errno));
			else
				rc = 0;
		} else if (code == 404 || code == 410) {
			rc = 1;
		} else if (code) {
			sbaddf(why, "GET %s: HTTP status %ld", src.buf, code);
		} else {
			/* why has curl's message; say which URL */
			struct sb w = SB_INIT;

			sbaddf(&w, "GET %s: %s", src.buf, why->buf);
			sbreset(why);
			sbadd(why, w.buf);
			sbfree(&w);
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
		char *page;
		int fd = mkstemp(tmp), rc = -1;

		if (fd < 0) {
			sbaddf(why, "cannot make a temporary file: %s", strerror(errno));
			return -1;
		}
		close(fd);
		sbadd(&args, "-o ");
		escshell(&args, tmp);
		sbaddc(&args, ' ');
		escshell(&args, s->where);
		if (curl(args.buf, &code, why) == 0) {
			if (code != 200) {
				if (!why->len)
					sbaddf(why, "GET %s: HTTP status %ld (the store's listing: a directory index, e.g. nginx autoindex)", s->where, code);
			} else if ((page = readfile(tmp, NULL))) {
				hrefs(page, suffix, names);
				free(page);
				rc = 0;
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
	struct sb path = SB_INIT, args = SB_INIT;
	int rc = -1;

	if (!plainname(name)) {
		sbaddf(why, "'%s' is not a file name", name);
		return -1;
	}
	if (s->kind == STORE_DIR) {
		sbaddf(&path, "%s%s", s->where, name);
		if (unlink(path.buf) == 0 || errno == ENOENT)
			rc = 0;
		else
			sbaddf(why, "cannot remove '%s': %s", path.buf, strerror(errno));
	} else if (s->kind == STORE_HTTP) {
		long code;

		sbadd(&path, s->where);
		eschref(&path, name);
		sbadd(&args, "-X DELETE -o /dev/null ");
		escshell(&args, path.buf);
		if (curl(args.buf, &code, why) == 0) {
			if (code >= 200 && code < 300)
				rc = 0;
			else if (!why->len)
				sbaddf(why, "DELETE %s: HTTP status %ld", path.buf, code);
		}
	}
	sbfree(&path);
	sbfree(&args);
	return rc;
}
