/* git: sources through libgit2: mirrors, pinned checkouts, submodules, the lock file (see git.h). */
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
#include "git.h"

#define MAXDEPTH 8

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

/* libgit2's last error as text */
static const char *
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

static int
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

/* open the mirror of url, fetching first if fetch is set or it does not exist; with need, not
   when the mirror holds that object by the time the lock is ours (a checkout beside this one
   fetched it while this one waited) */
static int
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

/* the commit that refs/tags/<tag> names (peeling annotated tags) */
static int
resolvetag(git_repository *repo, const char *tag, git_oid *oid)
{
	struct sb spec = SB_INIT;
	git_object *obj = NULL;
	int rc;

	sbaddf(&spec, "refs/tags/%s^{commit}", tag);
	rc = git_revparse_single(&obj, repo, spec.buf);
	if (rc == 0) {
		git_oid_cpy(oid, git_object_id(obj));
		git_object_free(obj);
	}
	sbfree(&spec);
	return rc;
}

/* an error for a missing tag that names the nearest existing ones */
static void
missingtag(git_repository *repo, const struct srcspec *s)
{
	git_strarray tags = { 0 };
	struct sb near = SB_INIT;
	size_t i, d, shown = 0;

	if (git_tag_list(&tags, repo) == 0) {
		for (d = 0; d <= 3 && shown < 5; d++) {
			for (i = 0; i < tags.count && shown < 5; i++) {
				if (editdistance(tags.strings[i], s->ref, 3) == d) {
					sbaddf(&near, "%s%s", shown ? ", " : "", tags.strings[i]);
					shown++;
				}
			}
		}
	}
	error("%s %s: tag '%s' not found in %s%s%s", s->package, s->version, s->ref, s->url,
	      shown ? "; nearest tags: " : (tags.count ? "" : " (it has no tags)"), near.buf);
	git_strarray_dispose(&tags);
	sbfree(&near);
}

struct gitlink {
	char *path;
	git_oid oid;
};

struct linklist {
	struct gitlink *v;
	size_t n, cap;
};

static int
onentry(const char *root, const git_tree_entry *e, void *payload)
{
	struct linklist *l = payload;

	if (git_tree_entry_filemode(e) != GIT_FILEMODE_COMMIT)
		return 0;
	GROW(l->v, l->cap, l->n + 1);
	l->v[l->n].path = xmalloc(strlen(root) + strlen(git_tree_entry_name(e)) + 1);
	strcpy(l->v[l->n].path, root);
	strcat(l->v[l->n].path, git_tree_entry_name(e));
	git_oid_cpy(&l->v[l->n].oid, git_tree_entry_id(e));
	l->n++;
	return 0;
}

/* writes the files of a tree into a directory (what a checkout writes, without filters) */
struct writer {
	git_repository *repo;
	const char *dir;
	int failed;   /* errno of the first failure */
	struct sb why; /* what failed, for the message */
};

static int
onwrite(const char *root, const git_tree_entry *e, void *payload)
{
	struct writer *w = payload;
	struct sb path = SB_INIT;
	git_blob *blob = NULL;
	git_filemode_t mode = git_tree_entry_filemode(e);
	const char *name = git_tree_entry_name(e);
	int fd = -1, rc = 0;

	if (!strcmp(name, ".git") || strchr(name, '/') || !strcmp(name, "..")) {
		w->failed = EINVAL;   /* never write outside the tree, nor a .git */
		return -1;
	}
	sbaddf(&path, "%s/%s%s", w->dir, root, name);
	switch (mode) {
	case GIT_FILEMODE_TREE:
	case GIT_FILEMODE_COMMIT:   /* a submodule: filled in later from its own mirror */
		if (mkdir(path.buf, 0777) < 0 && errno != EEXIST)
			rc = -1;
		break;
	case GIT_FILEMODE_LINK:
	case GIT_FILEMODE_BLOB:
	case GIT_FILEMODE_BLOB_EXECUTABLE:
		if (git_blob_lookup(&blob, w->repo, git_tree_entry_id(e)) != 0) {
			char hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
			sbaddf(&w->why, "the mirror lacks object %s (%s%s): it is incomplete, or its remote lost the object",
			       hex, root, name);
			w->failed = EIO;
			rc = -1;
			break;
		}
		if (mode == GIT_FILEMODE_LINK) {
			char *target = xstrndup(git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));

			rc = symlink(target, path.buf);
			free(target);
		} else {
			const char *data = git_blob_rawcontent(blob);
			size_t len = (size_t)git_blob_rawsize(blob), off = 0;
			ssize_t n;

			fd = open(path.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode == GIT_FILEMODE_BLOB ? 0666 : 0777);
			if (fd < 0) {
				rc = -1;
				break;
			}
			while (off < len && (n = write(fd, data + off, len - off)) > 0)
				off += (size_t)n;
			if (off < len || close(fd) < 0)
				rc = -1;
			fd = -1;
		}
		break;
	default:
		break;
	}
	if (rc < 0 && !w->failed)
		w->failed = errno ? errno : EIO;
	if (fd >= 0)
		close(fd);
	git_blob_free(blob);
	sbfree(&path);
	return rc < 0 ? -1 : 0;
}

struct findsub {
	const char *path;
	char *name;
};

static int
onpath(const git_config_entry *e, void *payload)
{
	struct findsub *f = payload;
	size_t len = strlen(e->name);

	/* submodule.<name>.path */
	if (!strcmp(e->value, f->path) && len > 15) {
		f->name = xstrndup(e->name + 10, len - 15);
		return 1;
	}
	return 0;
}

/* the url .gitmodules gives for the submodule at path, or NULL */
static char *
submoduleurl(const char *gitmodules, const char *path)
{
	git_config *cfg = NULL;
	git_config_entry *e = NULL;
	struct findsub f = { path, NULL };
	struct sb key = SB_INIT;
	char *url = NULL;

	if (git_config_open_ondisk(&cfg, gitmodules) != 0)
		return NULL;
	git_config_foreach_match(cfg, "^submodule\\..*\\.path$", onpath, &f);
	if (f.name) {
		sbaddf(&key, "submodule.%s.url", f.name);
		if (git_config_get_entry(&e, cfg, key.buf) == 0) {
			url = xstrdup(e->value);
			git_config_entry_free(e);
		}
	}
	free(f.name);
	sbfree(&key);
	git_config_free(cfg);
	return url;
}

/* is w one of the blank-separated words of list (NULL: none)? */
static int
inwords(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while (p && *p) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, w, n) && (p[n] == ' ' || !p[n]))
			return 1;
		p += strcspn(p, " ");
	}
	return 0;
}

/* write the tree of commit oid of repo (url) into dir, then its submodules; record commits in rec */
static int
checkoutinto(const char *builddir, const struct srcspec *s, git_repository *repo, const char *url,
	     const git_oid *oid, const char *dir, const char *rel, struct sb *rec, struct fetchstats *st, int depth)
{
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	struct linklist links = { 0 };
	struct sb gm = SB_INIT, sub = SB_INIT, subrel = SB_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	size_t i;
	int rc = -1;

	git_oid_tostr(hex, sizeof(hex), oid);
	sbaddf(rec, "%s %s %s\n", hex, rel, url);
	if (depth > MAXDEPTH)
		return error("%s %s: submodules nest deeper than %d levels at '%s'", s->package, s->version, MAXDEPTH, rel);
	if (git_commit_lookup(&commit, repo, oid) != 0 || git_commit_tree(&tree, commit) != 0) {
		error("%s %s: commit %s not found in the mirror of %s: %s", s->package, s->version, hex, url, giterr());
		goto out;
	}
	if (mkdirs(dir) < 0)
		goto out;
	/* libgit2's checkout refuses trees with submodules when there is no work tree: write the tree ourselves */
	{
		struct writer w = { repo, dir, 0, SB_INIT };

		if (git_tree_walk(tree, GIT_TREEWALK_PRE, onwrite, &w) != 0 || w.failed) {
			error("%s %s: cannot check out %s of %s into '%s': %s", s->package, s->version, hex, url, dir,
			      w.why.len ? w.why.buf : w.failed ? strerror(w.failed) : giterr());
			sbfree(&w.why);
			goto out;
		}
		sbfree(&w.why);
	}
	git_tree_walk(tree, GIT_TREEWALK_PRE, onentry, &links);
	sbaddf(&gm, "%s/.gitmodules", dir);
	for (i = 0; i < links.n; i++) {
		git_repository *subrepo = NULL;
		char *raw, *suburl;
		int r;

		/* skip_submodules: left empty, as git leaves a submodule it does not update */
		sbreset(&subrel);
		if (!strcmp(rel, "."))
			sbadd(&subrel, links.v[i].path);
		else
			sbaddf(&subrel, "%s/%s", rel, links.v[i].path);
		if (inwords(s->skip, subrel.buf)) {
			sbreset(&sub);
			sbaddf(&sub, "%s/%s", dir, links.v[i].path);
			if (mkdirs(sub.buf) < 0)
				goto out;
			git_oid_tostr(hex, sizeof(hex), &links.v[i].oid);
			sbaddf(rec, "skipped %s %s\n", hex, subrel.buf);
			continue;
		}
		raw = submoduleurl(gm.buf, links.v[i].path);
		if (!raw) {
			error("%s %s: submodule '%s%s' has no url in .gitmodules", s->package, s->version,
			      !strcmp(rel, ".") ? "" : rel, links.v[i].path);
			goto out;
		}
		suburl = resolveurl(url, raw);
		free(raw);
		git_oid_tostr(hex, sizeof(hex), &links.v[i].oid);
		/* fetch only if the mirror lacks the commit */
		r = openmirror(builddir, suburl, 0, &links.v[i].oid, st, &subrepo);
		if (r == 0 && !hasobject(subrepo, &links.v[i].oid)) {
			git_repository_free(subrepo);
			r = openmirror(builddir, suburl, 1, &links.v[i].oid, st, &subrepo);
		}
		if (r != 0) {
			error("%s %s: cannot fetch submodule '%s' from %s", s->package, s->version, links.v[i].path, suburl);
			free(suburl);
			goto out;
		}
		sbreset(&sub);
		sbaddf(&sub, "%s/%s", dir, links.v[i].path);
		sbreset(&subrel);
		if (!strcmp(rel, "."))
			sbadd(&subrel, links.v[i].path);
		else
			sbaddf(&subrel, "%s/%s", rel, links.v[i].path);
		r = checkoutinto(builddir, s, subrepo, suburl, &links.v[i].oid, sub.buf, subrel.buf, rec, st, depth + 1);
		git_repository_free(subrepo);
		free(suburl);
		if (r != 0)
			goto out;
	}
	rc = 0;
out:
	for (i = 0; i < links.n; i++)
		free(links.v[i].path);
	free(links.v);
	git_tree_free(tree);
	git_commit_free(commit);
	sbfree(&gm);
	sbfree(&sub);
	sbfree(&subrel);
	return rc;
}

/* git check-ref-format's rules for refs/tags/<tag> (no libgit2 call: check runs without its init) */
int
lockprune(const char *builddir, const char *lock, const char *keep)
{
	struct sb lck = SB_INIT, file = SB_INIT, key = SB_INIT;
	char *buf, *next, *line;
	int fd, rc = 0, removed = 0;

	if (!*lock)
		return 0;
	sbaddf(&lck, "%s/lock.lck", builddir);
	if ((fd = lockfile(lck.buf)) < 0) {
		sbfree(&lck);
		return -1;
	}
	if (!(buf = readfile(lock, NULL))) {
		close(fd);
		sbfree(&lck);
		return errno == ENOENT ? 0 : error("cannot read lock file '%s': %s", lock, strerror(errno));
	}
	next = buf;
	while ((line = nextline(&next))) {
		char pkg[256], ver[256];

		if (*line && *line != '#' && sscanf(line, "%255s %255s", pkg, ver) == 2) {
			sbreset(&key);
			sbaddf(&key, "\n%s %s\n", pkg, ver);
			if (!strstr(keep, key.buf)) {
				report("lock: removed '%s %s' from %s: no configured version uses it", pkg, ver, lock);
				removed++;
				continue;
			}
		}
		sbaddf(&file, "%s\n", line);
	}
	if (removed && writeifchanged(lock, file.buf, file.len) < 0)
		rc = -1;
	close(fd);
	free(buf);
	sbfree(&lck);
	sbfree(&file);
	sbfree(&key);
	return rc;
}

const char *
tagwhy(const char *tag)
{
	const char *p, *comp = tag;

	if (!*tag)
		return "it is empty";
	for (p = tag; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return "it has a control character (a newline, CR, tab or the like)";
		if (strchr(" ~^:?*[\\", *p))
			return "git tag names cannot contain spaces, '~', '^', ':', '?', '*', '[' or '\\'";
		if ((p[0] == '.' && p[1] == '.') || (p[0] == '@' && p[1] == '{'))
			return "git tag names cannot contain '..' or '@{'";
		if (*p == '/' || !p[1]) {
			const char *end = *p == '/' ? p : p + 1;

			if (end == comp)
				return "git tag names cannot have empty path components ('//', or '/' at either end)";
			if (*comp == '.')
				return "no component of a git tag name can begin with '.'";
			if (end - comp >= 5 && !strncmp(end - 5, ".lock", 5))
				return "no component of a git tag name can end with '.lock'";
			if (*p == '/' && !p[1])
				return "git tag names cannot have empty path components ('//', or '/' at either end)";
			comp = p + 1;
		}
	}
	if (p[-1] == '.')
		return "git tag names cannot end with '.'";
	if (!strcmp(tag, "@") || *tag == '-')
		return "git tag names cannot be '@' or begin with '-'";
	return NULL;
}

int
srcspecread(const char *path, struct srcspec *s)
{
	static const char *const keys[] = { "package", "version", "url", "ref", "dest", "stamp", "lock", "skip", NULL };
	char *v[9] = { NULL };
	const char *why;

	memset(s, 0, sizeof(*s));
	if (readkeys(path, keys, v) < 0)
		return error("cannot read source spec '%s': %s", path, strerror(errno));
	s->package = v[0];
	s->version = v[1];
	s->url = v[2];
	s->ref = v[3];
	s->dest = v[4];
	s->stamp = v[5];
	s->lock = v[6];
	s->skip = v[7];
	if (!s->package || !s->version || !s->url || !s->ref || !s->dest || !s->stamp || !s->lock) {
		srcspecfree(s);
		return error("source spec '%s' is incomplete", path);
	}
	if ((why = tagwhy(s->ref)) != NULL) {
		error("source spec '%s': tag '%s': %s", path, s->ref, why);
		srcspecfree(s);
		return -1;
	}
	return 0;
}

void
srcspecfree(struct srcspec *s)
{
	free(s->package);
	free(s->version);
	free(s->url);
	free(s->ref);
	free(s->dest);
	free(s->stamp);
	free(s->lock);
	free(s->skip);
	memset(s, 0, sizeof(*s));
}

/*
 * The lock file: "package version commit" lines, sorted, after a comment.
 * Check the entry for (package, version) against hex and add it if missing;
 * a different entry is an error unless update is set. Runs under a lock.
 */
static int
lockcheck(const char *builddir, const struct srcspec *s, const char *hex)
{
	struct sb out = SB_INIT, key = SB_INIT, lck = SB_INIT;
	char *buf, *next, *line, **lines = NULL;
	size_t n = 0, cap = 0, i, j;
	int fd, rc = 0, found = 0, replaced = 0;

	if (!*s->lock)
		return 0;
	sbaddf(&lck, "%s/lock.lck", builddir);
	if ((fd = lockfile(lck.buf)) < 0) {
		sbfree(&lck);
		return -1;
	}
	sbaddf(&key, "%s %s ", s->package, s->version);
	buf = readfile(s->lock, NULL);
	if (!buf && errno != ENOENT) {
		rc = error("cannot read lock file '%s': %s", s->lock, strerror(errno));
		goto out;
	}
	next = buf ? buf : sb_empty;
	while ((line = nextline(&next))) {
		if (!*line || *line == '#')
			continue;
		if (startswith(line, key.buf)) {
			found = 1;
			if (strcmp(line + key.len, hex)) {
				if (!s->updatelock) {
					rc = error("%s %s: tag '%s' of %s now points at %s, but %s locks it at %s; "
						   "if the move is intended, run 'wheelgen lock --update'",
						   s->package, s->version, s->ref, s->url, hex, s->lock, line + key.len);
					goto out;
				}
				replaced = 1;
				continue;   /* replaced below */
			}
		}
		GROW(lines, cap, n + 1);
		lines[n++] = line;
	}
	/* (with --update, an entry that did not move stays as it is: once) */
	if (found && !replaced)
		goto out;
	sbaddf(&out, "%s%s", key.buf, hex);
	GROW(lines, cap, n + 1);
	lines[n++] = out.buf;
	/* keep it sorted so that diffs stay small */
	for (i = 1; i < n; i++) {
		for (j = i; j > 0 && strcmp(lines[j - 1], lines[j]) > 0; j--) {
			char *t = lines[j];

			lines[j] = lines[j - 1];
			lines[j - 1] = t;
		}
	}
	{
		struct sb file = SB_INIT;

		sbadd(&file, "# wheelgen lock file: the commit each (package, version) was built from.\n"
			     "# Written by wheelgen; commit it. 'wheelgen lock --update' accepts moved tags.\n");
		for (i = 0; i < n; i++)
			sbaddf(&file, "%s\n", lines[i]);
		if (writeifchanged(s->lock, file.buf, file.len) < 0)
			rc = -1;
		sbfree(&file);
	}
out:
	close(fd);
	free(lines);
	free(buf);
	sbfree(&out);
	sbfree(&key);
	sbfree(&lck);
	return rc;
}

/* the first line of a file, or "" */
static char *
firstline(const char *path)
{
	char *buf = readfile(path, NULL), *nl;

	if (!buf)
		return xstrdup("");
	if ((nl = strchr(buf, '\n')))
		*nl = '\0';
	return buf;
}

/* does the checkout record rec have a line "skipped <commit> <path>" for the n bytes of path? */
static int
skippedin(const char *rec, const char *path, size_t n)
{
	const char *l = rec, *e, *sp;

	for (; l && *l; l = *e ? e + 1 : e) {
		e = l + strcspn(l, "\n");
		if (!strncmp(l, "skipped ", 8) && (sp = memchr(l + 8, ' ', (size_t)(e - l - 8))) != NULL &&
		    (size_t)(e - sp - 1) == n && !strncmp(sp + 1, path, n))
			return 1;
	}
	return 0;
}

int
gitcheckout(const char *builddir, const struct srcspec *s, struct fetchstats *st)
{
	git_repository *repo = NULL;
	git_oid oid;
	const char *p;
	size_t n;
	char hex[GIT_OID_HEXSZ + 1], *old = NULL;
	struct sb rec = SB_INIT, tmp = SB_INIT, trash = SB_INIT;
	struct stat sst;
	int rc = -1;

	if (openmirror(builddir, s->url, 0, NULL, st, &repo) != 0)
		goto out;
	if (resolvetag(repo, s->ref, &oid) != 0) {
		/* maybe a tag pushed since the last fetch */
		git_repository_free(repo);
		if (openmirror(builddir, s->url, 1, NULL, st, &repo) != 0)
			goto out;
		if (resolvetag(repo, s->ref, &oid) != 0) {
			missingtag(repo, s);
			goto out;
		}
	}
	git_oid_tostr(hex, sizeof(hex), &oid);
	if (lockcheck(builddir, s, hex) < 0)
		goto out;
	/* already checked out at this commit: nothing to do (the stamp stays as it is) */
	old = firstline(s->stamp);
	if (startswith(old, hex) && stat(s->dest, &sst) == 0 && S_ISDIR(sst.st_mode)) {
		rc = 0;
		goto out;
	}
	sbaddf(&tmp, "%s.tmp.%ld", s->dest, (long)getpid());
	sbaddf(&trash, "%s.old.%ld", s->dest, (long)getpid());
	rmtree(tmp.buf);
	if (checkoutinto(builddir, s, repo, s->url, &oid, tmp.buf, ".", &rec, st, 0) != 0) {
		rmtree(tmp.buf);
		goto out;
	}
	/* a skip_submodules path that names no submodule is most likely a typo */
	for (p = s->skip; p && *p; p += n) {
		while (*p == ' ')
			p++;
		n = strcspn(p, " ");
		if (n && !skippedin(rec.buf, p, n))
			warn("%s %s: skip_submodules names '%.*s', which is no submodule of the checkout", s->package,
			     s->version, (int)n, p);
	}
	if ((rename(s->dest, trash.buf) < 0 && errno != ENOENT) || rename(tmp.buf, s->dest) < 0) {
		error("cannot move '%s' into place: %s", s->dest, strerror(errno));
		rmtree(tmp.buf);
		goto out;
	}
	rmtree(trash.buf);
	if (writeifchanged(s->stamp, rec.buf, rec.len) < 0)
		goto out;
	rc = 0;
out:
	if (repo)
		git_repository_free(repo);
	free(old);
	sbfree(&rec);
	sbfree(&tmp);
	sbfree(&trash);
	return rc;
}

int
gitlock(const char *builddir, const struct srcspec *s, struct fetchstats *st, char *hexout)
{
	git_repository *repo = NULL;
	git_oid oid;
	int rc = -1;

	if (openmirror(builddir, s->url, 1, NULL, st, &repo) != 0)
		goto out;
	if (resolvetag(repo, s->ref, &oid) != 0) {
		missingtag(repo, s);
		goto out;
	}
	git_oid_tostr(hexout, GIT_OID_HEXSZ + 1, &oid);
	rc = lockcheck(builddir, s, hexout);
out:
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
