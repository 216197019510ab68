/* mirror: git sources through libgit2: one bare mirror per repository, fetched under a lock (see mirror.h). */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "mirror.h"

void
gitinit(void)
{
	const char *file = getenv("SSL_CERT_FILE"), *dir = getenv("SSL_CERT_DIR");

	git_libgit2_init();
	/* what gets checked out must not depend on the user's ~/.gitconfig or /etc/gitconfig */
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, "");
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, "");
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM, "");
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_PROGRAMDATA, "");
	if (file || dir)
		git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS, file, dir);
}

void
gitshutdown(void)
{
	git_libgit2_shutdown();
}

const char *
giterr(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown libgit2 error";
}

/* append s to out keeping [A-Za-z0-9._-], others as '_'; refuses '..' components */
static int
cleanpart(struct sb *out, const char *s, size_t n)
{
	size_t i;

	if ((n == 2 && !memcmp(s, "..", 2)) || (n == 1 && s[0] == '.'))
		return -1;
	for (i = 0; i < n; i++) {
		char c = s[i];

		sbaddc(out, (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
				    c == '.' || c == '_' || c == '-' ? c : '_');
	}
	return 0;
}

int
mirrorpathwhy(struct sb *s, const char *builddir, const char *url, const char **why)
{
	const char *host, *hostend, *path, *p, *q, *scheme = strstr(url, "://");
	size_t len;
	char cwd[4096];
	struct sb abspath = SB_INIT;

	/* a newline would end the key=value line of the checkout spec it is written to */
	for (p = url; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			*why = "it has a control character (a newline, CR, tab or the like)";
			return -1;
		}
	}
	if (scheme && !strncmp(url, "file://", 7)) {
		host = "file";
		hostend = host + 4;
		path = url + 7;
	} else if (scheme) {
		host = scheme + 3;
		p = strchr(host, '@');
		q = strchr(host, '/');
		if (p && (!q || p < q))
			host = p + 1;
		hostend = strchr(host, '/');
		if (!hostend) {
			*why = "cannot tell host and path from it";
			return -1;
		}
		path = hostend;
	} else if ((p = strchr(url, ':')) && (!(q = strchr(url, '/')) || p < q)) {
		host = url;               /* scp-like user@host:path */
		if ((q = strchr(url, '@')) && q < p)
			host = q + 1;
		hostend = p;
		path = p + 1;
	} else {
		host = "file";
		hostend = host + 4;
		if (url[0] != '/') {
			if (!getcwd(cwd, sizeof(cwd))) {
				*why = "cannot get the current directory";
				return -1;
			}
			sbaddf(&abspath, "%s/%s", cwd, url);
			url = abspath.buf;
		}
		path = url;
	}
	sbaddf(s, "%s/git/", builddir);
	if (cleanpart(s, host, (size_t)(hostend - host)) < 0)
		goto bad;
	/* path components, without empty ones and without a trailing .git */
	for (p = path; *p; p = q) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		q = p + strcspn(p, "/");
		len = (size_t)(q - p);
		if (!*q && len > 4 && !strncmp(q - 4, ".git", 4))
			len -= 4;
		sbaddc(s, '/');
		if (cleanpart(s, p, len) < 0)
			goto bad;
	}
	sbadd(s, ".git");
	sbfree(&abspath);
	return 0;
bad:
	*why = "it has a '.' or '..' path component";
	sbfree(&abspath);
	return -1;
}

int
mirrorpath(struct sb *s, const char *builddir, const char *url)
{
	const char *why;

	return mirrorpathwhy(s, builddir, url, &why) < 0 ? error("url '%s': %s", url, why) : 0;
}

char *
resolveurl(const char *parent, const char *url)
{
	struct sb base = SB_INIT;
	const char *rest = url, *root;
	char *slash;

	if (strncmp(url, "./", 2) && strncmp(url, "../", 3))
		return xstrdup(url);
	sbadd(&base, parent);
	while (base.len && base.buf[base.len - 1] == '/')
		base.buf[--base.len] = '\0';
	/* never climb above scheme://host */
	root = strstr(base.buf, "://");
	root = root ? root + 3 : base.buf;
	for (;;) {
		if (!strncmp(rest, "./", 2)) {
			rest += 2;
		} else if (!strncmp(rest, "../", 3)) {
			rest += 3;
			slash = strrchr(base.buf, '/');
			if (slash && slash >= root) {
				*slash = '\0';
				base.len = (size_t)(slash - base.buf);
			} else if ((slash = strrchr(base.buf, ':')) && slash > root) {
				*slash = '\0';   /* scp-like host:repo */
				base.len = (size_t)(slash - base.buf);
			}
		} else {
			break;
		}
	}
	sbaddf(&base, "/%s", rest);
	return sbdetach(&base);
}

struct progress {
	const char *url;
	int tty;
	struct sb said;   /* what the remote printed (its sideband), for the error message */
	int asked;        /* times the remote asked for credentials */
};

/* url for messages: credentials (https://user:token@host/...) shown as *** */
static void
urlshow(struct sb *s, const char *url)
{
	const char *auth = strstr(url, "://"), *end, *at;

	if (auth) {
		auth += 3;
		end = auth + strcspn(auth, "/");
		at = memchr(auth, '@', (size_t)(end - auth));
		if (at) {
			sbaddf(s, "%.*s***%s", (int)(auth - url), url, at);
			return;
		}
	}
	sbadd(s, url);
}

/* the remote's own messages ("remote: aborting due to possible repository corruption ...") */
static int
onsideband(const char *text, int len, void *payload)
{
	struct progress *p = payload;

	if (p->said.len < 4096)
		sbaddn(&p->said, text, (size_t)len);
	return 0;
}

/* after a failed fetch: the remote's last message that is not a progress counter, added to
   libgit2's message (whose class is kept: it tells the caller corruption from the network) */
static void
saidlast(struct sb *said)
{
	const git_error *e = git_error_last();
	int klass = e ? e->klass : GIT_ERROR_NET;
	char *why = xstrdup(e && e->message ? e->message : "unknown error"), *p, *q, *last = NULL;

	/* whole lines only (a line cut off by the failure is a counter's) */
	for (p = said->buf; (q = p + strcspn(p, "\r\n")) && *q; p = q + 1) {
		*q = '\0';
		if (*p && !strchr(p, '%') && strncmp(p, "Total ", 6) && strncmp(p, "Enumerating objects", 19) &&
		    strncmp(p, "Counting objects", 16) && strncmp(p, "Compressing objects", 19))
			last = p;
	}
	if (last) {
		/* into libgit2's message, which the caller's error prints: one line with both */
		struct sb both = SB_INIT;

		sbaddf(&both, "%s (the remote said: %s)", why, last);
		free(why);
		why = sbdetach(&both);
	}
	git_error_set_str(klass, why);
	free(why);
}

/*
 * Credentials for a remote that asks: WHEELGEN_GIT_TOKEN (with WHEELGEN_GIT_USER, default
 * x-access-token, the user GitHub and GitLab take with a token), from the environment only:
 * a config file is no place for a password (check refuses one in a URL). Asked once per fetch.
 */
static int credasked; /* a remote asked for credentials that the environment did not hold */

static int
oncred(git_credential **out, const char *url, const char *user, unsigned int types, void *payload)
{
	struct progress *p = payload;
	const char *tok = getenv("WHEELGEN_GIT_TOKEN"), *u = getenv("WHEELGEN_GIT_USER");

	(void)url;
	if (!tok || !*tok)
		credasked = 1;
	if (!tok || !*tok || p->asked++ || !(types & GIT_CREDENTIAL_USERPASS_PLAINTEXT))
		return GIT_PASSTHROUGH;
	return git_credential_userpass_plaintext_new(out, u && *u ? u : user && *user ? user : "x-access-token", tok);
}

static int
onprogress(const git_indexer_progress *st, void *payload)
{
	struct progress *p = payload;

	if (p->tty)
		fprintf(stderr, "\rfetching %s: %u/%u objects, %.1f MiB", p->url, st->received_objects,
			st->total_objects, (double)st->received_bytes / 1048576.0);
	return 0;
}


/* did a fetch fail because the mirror itself is broken (its objects, refs or repository),
   rather than the remote, the network or anything else? Only then is it cloned again. */
static int
iscorrupt(int klass)
{
	return klass == GIT_ERROR_ODB || klass == GIT_ERROR_OBJECT || klass == GIT_ERROR_REPOSITORY ||
	       klass == GIT_ERROR_ZLIB || klass == GIT_ERROR_REFERENCE || klass == GIT_ERROR_INDEX;
}

/*
 * The URL to fetch url from: WHEELGEN_GIT_REWRITE holds FROM=TO pairs separated by blanks
 * (a local mirror or cache for a CI runner, like git's url.<TO>.insteadOf FROM); the longest
 * FROM that starts url is replaced by its TO. Mirrors, locks and manifests keep the URL of
 * the config. The result is url itself or lives in buf.
 */
static const char *
rewriteurl(const char *url, struct sb *buf)
{
	const char *env = getenv("WHEELGEN_GIT_REWRITE"), *p = env, *best = NULL, *bestto = NULL;
	size_t bestlen = 0, bestto_len = 0;

	while (p && *p) {
		size_t len = strcspn(p, " \t\n"), flen;
		const char *eq = memchr(p, '=', len);

		if (eq && (flen = (size_t)(eq - p)) > bestlen && !strncmp(url, p, flen)) {
			best = p;
			bestlen = flen;
			bestto = eq + 1;
			bestto_len = len - flen - 1;
		}
		p += len;
		p += strspn(p, " \t\n");
	}
	if (!best)
		return url;
	sbreset(buf);
	sbaddn(buf, bestto, bestto_len);
	sbadd(buf, url + bestlen);
	return buf->buf;
}

/*
 * "cannot fetch URL (from REWRITTEN): libgit2's message", with where credentials go when the
 * remote asked for some; credentials in either URL masked
 */
static void
fetcherr(const char *url)
{
	struct sb shown = SB_INIT, rw = SB_INIT, from = SB_INIT;
	const char *real = rewriteurl(url, &rw);

	urlshow(&shown, url);
	if (strcmp(real, url)) {
		sbadd(&from, " (from ");
		urlshow(&from, real);
		sbadd(&from, ", WHEELGEN_GIT_REWRITE)");
	}
	if (credasked)
		error("cannot fetch '%s'%s: %s (the server asks for credentials: give a token in WHEELGEN_GIT_TOKEN, "
		      "and the user name in WHEELGEN_GIT_USER if it is not x-access-token)", shown.buf, from.buf ? from.buf : "",
		      giterr());
	else
		error("cannot fetch '%s'%s: %s", shown.buf, from.buf ? from.buf : "", giterr());
	sbfree(&shown);
	sbfree(&rw);
	sbfree(&from);
}


/* fetch heads and tags of url into the repository at dir */
static int
fetchinto(git_repository *repo, const char *url, struct fetchstats *st)
{
	static char heads[] = "+refs/heads/*:refs/heads/*", tags[] = "+refs/tags/*:refs/tags/*";
	char *specs[] = { heads, tags };
	git_strarray refspecs = { specs, 2 };
	git_fetch_options opts;
	struct progress pr = { url, isatty(2), SB_INIT, 0 };
	const git_indexer_progress *stats;
	git_remote *remote = NULL;
	struct sb rw = SB_INIT;
	int rc;

	/* (the _INIT macros trip -Wmissing-field-initializers) */
	git_fetch_options_init(&opts, GIT_FETCH_OPTIONS_VERSION);
	opts.callbacks.transfer_progress = onprogress;
	opts.callbacks.sideband_progress = onsideband;
	opts.callbacks.credentials = oncred;
	opts.callbacks.payload = &pr;
	opts.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;
	opts.prune = GIT_FETCH_PRUNE;
	opts.proxy_opts.type = GIT_PROXY_AUTO;
	rc = git_remote_create_anonymous(&remote, repo, rewriteurl(url, &rw));
	sbfree(&rw);
	if (rc == 0)
		rc = git_remote_fetch(remote, &refspecs, &opts, NULL);
	if (pr.tty)
		fputc('\n', stderr);
	if (remote) {
		stats = git_remote_stats(remote);
		st->bytes += stats->received_bytes;
		st->objects += stats->received_objects;
		if (stats->received_bytes) {
			size_t n = strlen(st->from);
			struct sb shown = SB_INIT;

			urlshow(&shown, url);
			snprintf(st->from + n, sizeof(st->from) - n, "%s%s", n ? " " : "", shown.buf);
			sbfree(&shown);
		}
		git_remote_free(remote);
	}
	if (rc != 0 && pr.said.len)
		saidlast(&pr.said);
	sbfree(&pr.said);
	return rc;
}

static int
onref(git_reference *ref, void *payload)
{
	struct sb *s = payload;
	char hex[GIT_OID_HEXSZ + 1] = "";
	const git_oid *oid = git_reference_target(ref);

	if (oid)
		git_oid_tostr(hex, sizeof(hex), oid);
	sbaddf(s, "%s %s\n", hex, git_reference_name(ref));
	git_reference_free(ref);
	return 0;
}

static int
cmpline(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* mirror.fetched: the mirror's refs, sorted, rewritten only when they change (what ninja watches) */
static int
writerefs(git_repository *repo, const char *mirror)
{
	struct sb refs = SB_INIT, out = SB_INIT, path = SB_INIT;
	char **lines = NULL, *next, *line;
	size_t n = 0, cap = 0, i;
	int rc;

	git_reference_foreach(repo, onref, &refs);
	next = refs.buf;
	while ((line = nextline(&next))) {
		GROW(lines, cap, n + 1);
		lines[n++] = line;
	}
	sortlist(lines, n, sizeof(*lines), cmpline);
	for (i = 0; i < n; i++)
		sbaddf(&out, "%s\n", lines[i]);
	sbaddf(&path, "%s.fetched", mirror);
	rc = writeifchanged(path.buf, out.buf, out.len);
	free(lines);
	sbfree(&refs);
	sbfree(&out);
	sbfree(&path);
	return rc < 0 ? -1 : 0;
}

/*
 * What a fetch killed with -9 left beside the mirror: <mirror>.tmp.<pid> (a clone that never
 * finished) goes; <mirror>.old.<pid> (the mirror set aside for a re-clone) comes back when
 * there is no mirror, else goes.
 */
static void
sweepmirror(const char *mirror)
{
	struct sb dir = SB_INIT, pre = SB_INIT, p = SB_INIT;
	const char *slash = strrchr(mirror, '/'), *base = slash ? slash + 1 : mirror;
	DIR *d;
	struct dirent *e;

	sbaddf(&dir, "%.*s", slash ? (int)(slash - mirror) : 1, slash ? mirror : ".");
	sbaddf(&pre, "%s.tmp.", base);
	sweepdead(dir.buf, pre.buf);
	sbreset(&pre);
	sbaddf(&pre, "%s.old.", base);
	if ((d = opendir(dir.buf)) != NULL) {
		while ((e = readdir(d))) {
			if (!deadpid(e->d_name, pre.buf))
				continue;
			sbreset(&p);
			sbaddf(&p, "%s/%s", dir.buf, e->d_name);
			if (access(mirror, F_OK) != 0 && rename(p.buf, mirror) == 0)
				warn("mirror '%s' was set aside by a fetch that died; restored", mirror);
			else
				rmtree(p.buf);
		}
		closedir(d);
	}
	sbfree(&dir);
	sbfree(&pre);
	sbfree(&p);
}

/* open (or create, or re-create when corrupt) the mirror of url and fetch into it */
static int
fetchlocked(const char *mirror, const char *url, struct fetchstats *st, git_repository **out)
{
	struct sb tmp = SB_INIT, aside = SB_INIT;
	git_repository *repo = NULL;
	int attempt, rc = -1;
	const git_error *e;

	for (attempt = 0; attempt < 2; attempt++) {
		if (git_repository_open_bare(&repo, mirror) == 0) {
			if (fetchinto(repo, url, st) == 0) {
				rc = 0;
				break;
			}
			e = git_error_last();
			if (!e || !iscorrupt(e->klass)) {
				/* the remote or the network: the mirror stays as it is */
				fetcherr(url);
				break;
			}
			warn("mirror '%s' looks corrupt (%s); cloning it again", mirror, giterr());
			git_repository_free(repo);
			repo = NULL;
		} else if (access(mirror, F_OK) == 0) {
			warn("mirror '%s' cannot be opened (%s); cloning it again", mirror, giterr());
		}
		/* (re-)create in a temporary, renamed into place only once the fetch worked; the old
		   mirror is set aside meanwhile and comes back if the new clone fails */
		sbreset(&aside);
		sbaddf(&aside, "%s.old.%ld", mirror, (long)getpid());
		rmtree(aside.buf);
		if (rename(mirror, aside.buf) < 0 && errno != ENOENT) {
			error("cannot move '%s' aside: %s", mirror, strerror(errno));
			break;
		}
		sbreset(&tmp);
		sbaddf(&tmp, "%s.tmp.%ld", mirror, (long)getpid());
		rmtree(tmp.buf);
		if (git_repository_init(&repo, tmp.buf, 1) != 0) {
			error("cannot create mirror '%s': %s", tmp.buf, giterr());
			break;
		}
		st->created = 1;
		if (fetchinto(repo, url, st) != 0) {
			fetcherr(url);
			git_repository_free(repo);
			repo = NULL;
			rmtree(tmp.buf);
			if (rename(aside.buf, mirror) < 0 && errno != ENOENT)
				error("cannot move '%s' back to '%s': %s", aside.buf, mirror, strerror(errno));
			break;
		}
		git_repository_free(repo);
		repo = NULL;
		if (rename(tmp.buf, mirror) < 0) {
			error("cannot rename '%s' to '%s': %s", tmp.buf, mirror, strerror(errno));
			rmtree(tmp.buf);
			rename(aside.buf, mirror);
			break;
		}
		rmtree(aside.buf);
		if (git_repository_open_bare(&repo, mirror) == 0)
			rc = 0;
		else
			error("cannot open the new mirror '%s': %s", mirror, giterr());
		break;
	}
	sbfree(&tmp);
	sbfree(&aside);
	if (rc == 0 && writerefs(repo, mirror) < 0)
		rc = -1;
	if (rc == 0 && out)
		*out = repo;
	else if (repo)
		git_repository_free(repo);
	return rc;
}

int
hasobject(git_repository *repo, const git_oid *oid)
{
	git_odb *odb = NULL;
	int has = 0;

	if (git_repository_odb(&odb, repo) == 0) {
		has = git_odb_exists(odb, oid);
		git_odb_free(odb);
	}
	return has;
}

int
openmirror(const char *builddir, const char *url, int fetch, const git_oid *need, struct fetchstats *st,
	   git_repository **repo)
{
	struct sb mirror = SB_INIT, lock = SB_INIT, dir = SB_INIT;
	const char *slash;
	int fd, rc = -1;

	*repo = NULL;
	if (mirrorpath(&mirror, builddir, url) < 0)
		goto out;
	if (!fetch && git_repository_open_bare(repo, mirror.buf) == 0) {
		rc = 0;
		goto out;
	}
	slash = strrchr(mirror.buf, '/');
	sbaddn(&dir, mirror.buf, (size_t)(slash - mirror.buf));
	if (mkdirs(dir.buf) < 0)
		goto out;
	sbaddf(&lock, "%s.lock", mirror.buf);
	if ((fd = lockfile(lock.buf)) < 0)
		goto out;
	sweepmirror(mirror.buf);
	if (need && git_repository_open_bare(repo, mirror.buf) == 0) {
		if (hasobject(*repo, need)) {
			rc = 0;
		} else {
			git_repository_free(*repo);
			*repo = NULL;
		}
	}
	if (rc != 0)
		rc = fetchlocked(mirror.buf, url, st, repo);
	close(fd);
out:
	sbfree(&mirror);
	sbfree(&lock);
	sbfree(&dir);
	return rc;
}

int
gitfetch(const char *builddir, const char *url, struct fetchstats *st)
{
	git_repository *repo;
	int rc = openmirror(builddir, url, 1, NULL, st, &repo);

	if (repo)
		git_repository_free(repo);
	return rc;
}

int
gitlstags(const char *url, char ***tags, size_t *n)
{
	git_remote *remote = NULL;
	git_remote_callbacks cb;
	git_proxy_options proxy;
	struct progress pr = { url, 0, SB_INIT, 0 };
	const git_remote_head **heads;
	size_t nheads, i, cap = 0;
	struct sb rw = SB_INIT;
	int rc = -1;

	*tags = NULL;
	*n = 0;
	git_remote_init_callbacks(&cb, GIT_REMOTE_CALLBACKS_VERSION);
	cb.credentials = oncred;
	cb.payload = &pr;
	git_proxy_options_init(&proxy, GIT_PROXY_OPTIONS_VERSION);
	proxy.type = GIT_PROXY_AUTO;
	if (git_remote_create_detached(&remote, rewriteurl(url, &rw)) != 0 ||
	    git_remote_connect(remote, GIT_DIRECTION_FETCH, &cb, &proxy, NULL) != 0 ||
	    git_remote_ls(&heads, &nheads, remote) != 0) {
		error("cannot list the tags of '%s': %s", url, giterr());
		goto out;
	}
	for (i = 0; i < nheads; i++) {
		const char *name = heads[i]->name;
		size_t len = strlen(name);

		if (!startswith(name, "refs/tags/") || (len > 3 && !strcmp(name + len - 3, "^{}")))
			continue;
		GROW(*tags, cap, *n + 1);
		(*tags)[(*n)++] = xstrdup(name + strlen("refs/tags/"));
	}
	rc = 0;
out:
	if (remote) {
		git_remote_disconnect(remote);
		git_remote_free(remote);
	}
	sbfree(&rw);
	return rc;
}
