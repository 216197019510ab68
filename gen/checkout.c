/* checkout: a git source's pinned checkout with its submodules, and the source spec that asks for it (see checkout.h). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkout.h"
#include "files.h"
#include "gitlock.h"
#include "mirror.h"

#define MAXDEPTH 8

struct gitlink {
	char *path;
	git_oid oid;
};

struct linklist {
	struct gitlink *v;
	size_t n, cap;
};

/* writes the files of a tree into a directory (what a checkout writes, without filters) */
struct writer {
	git_repository *repo;
	const char *dir;
	int failed;   /* errno of the first failure */
	struct sb why; /* what failed, for the message */
};

struct findsub {
	const char *path;
	char *name;
};

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

/* the keys of a source spec, in the order they are written */
static const char *const speckeys[] = { "package", "version", "url", "ref", "dest", "stamp", "lock", "skip", NULL };

void
srcspecwrite(struct sb *out, const struct srcspec *s)
{
	const char *v[] = { s->package, s->version, s->url, s->ref, s->dest, s->stamp, s->lock, s->skip };
	size_t i;

	for (i = 0; speckeys[i]; i++) {
		if (v[i])
			sbaddf(out, "%s=%s\n", speckeys[i], v[i]);
	}
}

int
srcspecread(const char *path, struct srcspec *s)
{
	char *v[sizeof(speckeys) / sizeof(speckeys[0])] = { NULL };
	const char *why;

	memset(s, 0, sizeof(*s));
	if (readkeys(path, speckeys, v) < 0)
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

/* the lock file's entry for s against hex (the tag's commit) */
static int
checklock(const char *builddir, const struct srcspec *s, const char *hex)
{
	struct sb what = SB_INIT;
	int rc;

	sbaddf(&what, "tag '%s' of %s", s->ref, s->url);
	rc = lockcheck(builddir, s->lock, s->package, s->version, hex, s->updatelock, what.buf);
	sbfree(&what);
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
	if (checklock(builddir, s, hex) < 0)
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
	rc = checklock(builddir, s, hexout);
out:
	if (repo)
		git_repository_free(repo);
	return rc;
}

/* git check-ref-format's rules for refs/tags/<tag> (no libgit2 call: check runs without its init) */
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
stampread(const char *stamp, char hex[65])
{
	char *buf = readfile(stamp, NULL);
	size_t n;

	if (!buf)
		return 1;
	n = strcspn(buf, " \n");
	if (n == 0 || n > 64) {
		free(buf);
		return 1;
	}
	memcpy(hex, buf, n);
	hex[n] = '\0';
	free(buf);
	return 0;
}
