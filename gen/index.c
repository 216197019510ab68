/* index: the pages of the index (see index.h): the simple/ trees, written by threads, and the
   landing page, from the plan of indexplan.c; then indexprune.c removes what is gone. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "esc.h"
#include "files.h"
#include "index.h"
#include "layout.h"
#include "indexplan.h"
#include "indexprune.h"
#include "landing.h"
#include "pages.h"
#include "pep.h"
#include "util.h"
#include "wheelsjson.h"

/* files/<name> as a hard link to <dir>/<name> (a copy across file systems), replacing what is
   there by a rename, never by an unlink first: a page that lists name always finds a file */
static int
linkfile(const char *index, const char *srcdir, const char *name)
{
	struct sb src = SB_INIT, dst = SB_INIT, dir = SB_INIT, tmp = SB_INIT;
	struct stat a, b;
	int rc = 0;

	sbaddf(&src, "%s/%s", srcdir, name);
	sbaddf(&dir, "%s/files", index);
	sbaddf(&dst, "%s/%s", dir.buf, name);
	/* (as writeifchanged names its temporaries: a killed writer's are swept, files.h) */
	sbaddf(&tmp, "%s.tmp.%ld", dst.buf, (long)getpid());
	if (stat(src.buf, &a) < 0) {
		rc = error("'%s' named by its manifest is missing: %s", src.buf, strerror(errno));
		goto out;
	}
	if (stat(dst.buf, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
		goto out;
	if (mkdirs(dir.buf) < 0) {
		rc = -1;
		goto out;
	}
	unlink(tmp.buf);
	if (link(src.buf, tmp.buf) == 0) {
		if (rename(tmp.buf, dst.buf) < 0) {
			rc = error("cannot rename '%s' to '%s': %s", tmp.buf, dst.buf, strerror(errno));
			unlink(tmp.buf);
		}
	} else {
		char *data;
		size_t len;

		if (!(data = readfile(src.buf, &len))) {
			rc = error("cannot read '%s': %s", src.buf, strerror(errno));
			goto out;
		}
		rc = writeifchanged(dst.buf, data, len) < 0 ? -1 : 0;
		free(data);
	}
out:
	sbfree(&src);
	sbfree(&dst);
	sbfree(&dir);
	sbfree(&tmp);
	return rc;
}

/* the wheel and its .metadata into files/; its mtime and variant into w */
static int
linkwheel(const char *index, struct wheelinfo *w, int link)
{
	struct sb path = SB_INIT, meta = SB_INIT;
	struct stat st;
	int rc = link ? linkfile(index, w->dir, w->filename) : 0;

	sbaddf(&path, "%s/%s", w->dir, w->filename);
	/* a manifest with upload_time needs no wheel beside it when the pages link elsewhere */
	if (rc == 0 && w->mtime && !link)
		;
	else if (rc == 0 && stat(path.buf, &st) == 0)
		w->mtime = w->mtime ? w->mtime : (long long)st.st_mtime;
	else if (rc == 0 && !link)
		rc = error("'%s' named by its manifest is missing: %s", path.buf, strerror(errno));
	sbaddf(&meta, "%s.metadata", w->filename);
	if (rc == 0 && link && w->metasha && *w->metasha && linkfile(index, w->dir, meta.buf) < 0)
		rc = -1;
	sbfree(&path);
	sbfree(&meta);
	return rc;
}

static void
pagehead(struct sb *s, const char *title, const struct indexopts *o)
{
	sbaddf(s, "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"pypi:repository-version\" content=\"%s\">\n<title>", indexapiversion(o));
	eschtml(s, title);
	sbadd(s, "</title>\n</head>\n<body>\n");
}

/* the pages of one project in one tree: the wheels w[i..j) of variant v */
struct projpages {
	size_t i, j;
};

/* what the writers of project pages share; next and rc under lock */
struct pagework {
	const char *top, *v, *files;
	const struct wheelinfo *w;
	const struct indexopts *o;
	int fresh;
	int simplefd;  /* fresh: <top>/simple, opened once (shorter path walks for 23k files) */
	const char *simple; /* its name, for messages */
	const struct projpages *p;
	size_t np;
	pthread_mutex_t lock;
	size_t next;   /* the first project no writer has taken yet */
	int rc;        /* -1 once any writer failed */
};

/* what one writer reuses from page to page */
struct pagebufs {
	struct sb page, json, vers, path, ver, t, needle;
	struct timecache tc;
};

/* <top>/simple/<project>/index.{html,json} for the wheels w[pp->i..pp->j) in the tree of v */
/* one file's link on a project page (PEP 503, 592, 658/714) */
static void
htmlfile(struct sb *page, const struct wheelinfo *x, const char *files, const char *when, const char *yank)
{
	/* the METADATA file's hash, in HTML under PEP 714's name and the older one (pip before
	   23.3 reads only that); in JSON under core-metadata alone: pip 22.3 to 23.1 crash on a
	   JSON "dist-info-metadata" (the bug PEP 714 renamed it for) */
	static const char *const metakeys[] = { "core-metadata", "dist-info-metadata" };
	int hasrp = x->requirespy && *x->requirespy, hasmeta = x->metasha && *x->metasha, m;

	/* HTML (PEP 503, 592, 658/714) */
	sbaddf(page, "<a href=\"%s", files);
	escurlpath(page, x->stored ? x->stored : x->filename);
	if (x->sha256) {
		sbadd(page, "#sha256=");
		eschtml(page, x->sha256);
	}
	sbaddc(page, '"');
	if (hasrp) {
		sbadd(page, " data-requires-python=\"");
		eschtml(page, x->requirespy);
		sbaddc(page, '"');
	}
	for (m = 0; hasmeta && m < 2; m++) {
		sbaddf(page, " data-%s=\"sha256=", metakeys[m]);
		eschtml(page, x->metasha);
		sbaddc(page, '"');
	}
	if (x->sha256)
		sbaddf(page, " data-size=\"%lld\" data-upload-time=\"%s\"", x->size, when);
	if (yank) {
		sbadd(page, " data-yanked=\"");
		eschtml(page, yank);
		sbaddc(page, '"');
	}
	sbaddc(page, '>');
	eschtml(page, x->filename);
	sbadd(page, "</a><br>\n");
}

/* one file's object in a project's JSON (PEP 691, 700) */
static void
jsonfile(struct sb *json, const struct wheelinfo *x, const char *files, const char *when, const char *yank, int first)
{
	int hasrp = x->requirespy && *x->requirespy, hasmeta = x->metasha && *x->metasha;

	/* JSON (PEP 691, 700) */
	sbadd(json, first ? "{\"filename\": " : ", {\"filename\": ");
	escjson(json, x->filename);
	sbadd(json, ", \"url\": \"");
	sbadd(json, files);
	escurlpath(json, x->stored ? x->stored : x->filename);
	sbadd(json, "\", \"hashes\": {");
	if (x->sha256) {
		sbadd(json, "\"sha256\": ");
		escjson(json, x->sha256);
	}
	sbaddc(json, '}');
	if (hasrp) { /* PEP 691: the key is left out when there is none */
		sbadd(json, ", \"requires-python\": ");
		escjson(json, x->requirespy);
	}
	if (hasmeta) {
		sbadd(json, ", \"core-metadata\": {\"sha256\": ");
		escjson(json, x->metasha);
		sbaddc(json, '}');
	} else
		sbadd(json, ", \"core-metadata\": false");
	if (x->sha256)
		sbaddf(json, ", \"size\": %lld, \"upload-time\": \"%s\"", x->size, when);
	if (!yank) {
		sbadd(json, ", \"yanked\": false}");
	} else if (!*yank) {
		sbadd(json, ", \"yanked\": true}");
	} else {
		sbadd(json, ", \"yanked\": ");
		escjson(json, yank);
		sbaddc(json, '}');
	}
}

static int
writeproject(const struct pagework *pw, const struct projpages *pp, struct pagebufs *b)
{
	struct sb *page = &b->page, *json = &b->json, *vers = &b->vers, *path = &b->path, *ver = &b->ver,
		  *t = &b->t, *needle = &b->needle;
	const struct wheelinfo *w = pw->w;
	const char *v = pw->v, *files = pw->files;
	size_t i = pp->i, k, nfiles = 0, nvers = 0;
	const char *last = NULL; /* the file name of the last wheel listed: the same wheel comes once */
	int local;

	sbreset(page);
	sbreset(json);
	sbreset(vers);
	sbreset(path);

	pagehead(page, w[i].package, pw->o);
	sbadd(page, "<h1>Links for ");
	eschtml(page, w[i].package);
	sbadd(page, "</h1>\n");
	sbaddf(json, "{\"meta\": {\"api-version\": \"%s\"}, \"name\": ", indexapiversion(pw->o));
	escjson(json, w[i].package);
	sbadd(json, ", \"files\": [");
	for (k = i; k < pp->j; k++) {
		const struct wheelinfo *x = &w[k];
		const char *yank;

		if (!intree(x, v) || (last && !strcmp(x->filename, last)))
			continue;
		last = x->filename;
		yank = yankof(pw->o, x);
		sbreset(t);
		isotime(t, x->mtime, &b->tc);
		htmlfile(page, x, files, t->buf, yank);
		jsonfile(json, x, files, t->buf, yank, nfiles++ == 0);
		/* versions (PEP 700): each once */
		sbreset(ver);
		wheelversion(ver, x->filename);
		if (ver->len && pepversion(ver->buf, &local)) {
			sbreset(needle);
			escjson(needle, ver->buf);
			if (!strstr(vers->buf ? vers->buf : "", needle->buf)) {
				sbadd(vers, nvers++ ? ", " : "");
				sbadd(vers, needle->buf);
			}
		}
	}
	sbadd(page, "</body>\n</html>\n");
	sbaddf(json, "], \"versions\": [%s]}\n", vers->buf ? vers->buf : "");
	if (pw->fresh) {
		/* <project>/index.{html,json}, relative to simple/ */
		sbadd(path, w[i].package);
		if (mkdirat(pw->simplefd, path->buf, 0777) < 0 && errno != EEXIST)
			return error("cannot create directory '%s/%s': %s", pw->simple, path->buf, strerror(errno));
		sbadd(path, "/index.html");
		if (createpage(pw->simplefd, pw->simple, path->buf, page) < 0)
			return -1;
		memcpy(path->buf + path->len - 4, "json", 4);
		return createpage(pw->simplefd, pw->simple, path->buf, json) < 0 ? -1 : 0;
	}
	sbaddf(path, "%s/simple/%s/index.html", pw->top, w[i].package);
	if (writepage(path->buf, page, 0) < 0)
		return -1;
	sbreset(path);
	sbaddf(path, "%s/simple/%s/index.json", pw->top, w[i].package);
	return writepage(path->buf, json, 0) < 0 ? -1 : 0;
}

/* a writer: takes projects in runs of 32 until none is left or one failed */
static void *
pageworker(void *arg)
{
	struct pagework *pw = arg;
	struct pagebufs b = { SB_INIT, SB_INIT, SB_INIT, SB_INIT, SB_INIT, SB_INIT, SB_INIT, { -1, "" } };

	for (;;) {
		size_t a, e, k;
		int rc = 0;

		pthread_mutex_lock(&pw->lock);
		a = pw->next;
		e = pw->rc < 0 || a >= pw->np ? a : a + 32 < pw->np ? a + 32 : pw->np;
		pw->next = e;
		pthread_mutex_unlock(&pw->lock);
		if (a == e)
			break;
		for (k = a; k < e && rc == 0; k++)
			rc = writeproject(pw, &pw->p[k], &b);
		if (rc < 0) {
			pthread_mutex_lock(&pw->lock);
			pw->rc = -1;
			pthread_mutex_unlock(&pw->lock);
		}
	}
	sbfree(&b.page);
	sbfree(&b.json);
	sbfree(&b.vers);
	sbfree(&b.path);
	sbfree(&b.ver);
	sbfree(&b.t);
	sbfree(&b.needle);
	return NULL;
}

/* how many threads write project pages: WHEELGEN_INDEX_THREADS, else the processors (at most 8);
   one for a small index, where starting threads costs more than it saves */
static size_t
pagethreads(size_t nproj)
{
	const char *e = getenv("WHEELGEN_INDEX_THREADS");
	long n;

	if (e && *e)
		n = strtol(e, NULL, 10);
	else if (nproj < 256)
		n = 1;
	else if ((n = sysconf(_SC_NPROCESSORS_ONLN)) > 8)
		n = 8;
	return n < 1 ? 1 : n > 64 ? 64 : (size_t)n;
}

/*
 * One simple/ tree: <top>/simple/index.{html,json} and <top>/simple/<project>/index.{html,json}
 * for the wheels of variant v (NULL: all). files is the way from a project page to files/.
 * The project pages are independent: several threads write them (pagethreads).
 */
/* write the project pages of pw on pagethreads() threads, this one among them */
static void
runpages(struct pagework *pw)
{
	size_t k, nt = pagethreads(pw->np), started;
	pthread_t *tid = xcalloc(nt, sizeof(*tid));

	pthread_mutex_init(&pw->lock, NULL);
	for (started = 0; started + 1 < nt; started++) {
		if (pthread_create(&tid[started], NULL, pageworker, pw) != 0)
			break; /* the threads started, and this one, do the rest */
	}
	pageworker(pw);
	for (k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
	pthread_mutex_destroy(&pw->lock);
	free(tid);
}

static int
writetree(const char *top, const struct wheelinfo *w, size_t nw, const char *v, const char *files,
	  const struct indexopts *o, int fresh)
{
	struct sb root = SB_INIT, rootj = SB_INIT, path = SB_INIT;
	const char **projs = xcalloc(nw ? nw : 1, sizeof(*projs));
	struct projpages *pp = xcalloc(nw ? nw : 1, sizeof(*pp));
	struct pagework pw;
	size_t i, j, k, nproj = 0;
	int rc = 0;

	if (fresh) {
		sbaddf(&path, "%s/simple", top);
		if (mkdirs(path.buf) < 0)
			goto fail;
	}
	pagehead(&root, "Simple index", o);
	sbaddf(&rootj, "{\"meta\": {\"api-version\": \"%s\"}, \"projects\": [", indexapiversion(o));
	for (i = 0; i < nw; i = j) {
		size_t nfiles = 0;

		for (j = i; j < nw && !strcmp(w[j].package, w[i].package); j++)
			;
		for (k = i; k < j; k++)
			nfiles += intree(&w[k], v);
		if (!nfiles)
			continue;
		sbadd(&root, "<a href=\"");
		eschref(&root, w[i].package);
		sbadd(&root, "/\">");
		eschtml(&root, w[i].package);
		sbadd(&root, "</a><br>\n");
		sbadd(&rootj, nproj ? ", {\"name\": " : "{\"name\": ");
		escjson(&rootj, w[i].package);
		sbaddc(&rootj, '}');
		projs[nproj] = w[i].package;
		pp[nproj].i = i;
		pp[nproj++].j = j;
	}

	memset(&pw, 0, sizeof(pw));
	pw.top = top;
	pw.v = v;
	pw.files = files;
	pw.w = w;
	pw.o = o;
	pw.fresh = fresh;
	pw.simplefd = -1;
	if (fresh) {
		sbreset(&path);
		sbaddf(&path, "%s/simple", top);
		pw.simple = path.buf;
		if ((pw.simplefd = open(path.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
			error("cannot open '%s': %s", path.buf, strerror(errno));
			goto fail;
		}
	}
	pw.p = pp;
	pw.np = nproj;
	runpages(&pw);
	if (pw.simplefd >= 0)
		close(pw.simplefd);
	if (pw.rc < 0)
		goto fail;

	sbadd(&root, "</body>\n</html>\n");
	sbadd(&rootj, "]}\n");
	sbreset(&path);
	sbaddf(&path, "%s/simple/index.html", top);
	if (writepage(path.buf, &root, fresh) < 0)
		goto fail;
	sbreset(&path);
	sbaddf(&path, "%s/simple/index.json", top);
	if (writepage(path.buf, &rootj, fresh) < 0)
		goto fail;
	if (fresh)
		goto out;
	/* projects are sorted already (the wheels are) */
	sbreset(&path);
	sbaddf(&path, "%s/simple", top);
	if (prunepages(path.buf, projs, nproj) < 0)
		goto fail;
	goto out;
fail:
	rc = -1;
out:
	sbfree(&root);
	sbfree(&rootj);
	sbfree(&path);
	free(projs);
	free(pp);
	return rc;
}

/* landing() in a thread of its own, beside the writers of the simple/ trees */
struct landingjob {
	struct sb *s;
	const struct wheelinfo *w;
	size_t nw;
	const char *files;
	const struct indexopts *o;
};

static void *
landingworker(void *arg)
{
	struct landingjob *j = arg;

	landing(j->s, j->w, j->nw, j->files, j->o);
	return NULL;
}

/* where pages link the wheels: the base URL, or files/ beside simple/ (from the top pages and
   from a variant's) */
static void
filesurl(const struct indexopts *o, struct sb *files, struct sb *vfiles)
{
	if (o->baseurl) {
		sbadd(files, o->baseurl);
		if (files->buf[files->len - 1] != '/')
			sbaddc(files, '/');
		sbadd(vfiles, files->buf);
	} else {
		sbadd(files, "files/");
		sbadd(vfiles, "../../../files/");
	}
}

/*
 * Every simple/ tree under index (the combined one, one per variant, the variants tree) and,
 * in a thread beside them, the landing page into page (a row per wheel)
 */
static int
writepages(const char *index, const struct wheelinfo *w, size_t nw, const char **variants, size_t nv,
	   const struct sb *files, const struct sb *vfiles, struct sb *page, const struct indexopts *o, int fresh)
{
	struct sb top = SB_INIT;
	struct landingjob lj;
	pthread_t ltid;
	size_t k;
	int rc, landingthread = 0;

	lj.s = page;
	lj.w = w;
	lj.nw = nw;
	lj.files = files->buf;
	lj.o = o;
	if (pagethreads(nw) > 1 && pthread_create(&ltid, NULL, landingworker, &lj) == 0)
		landingthread = 1;
	else
		landing(page, w, nw, files->buf, o);
	rc = writetree(index, w, nw, NULL, o->baseurl ? files->buf : "../../files/", o, fresh);
	for (k = 0; k <= nv && rc == 0; k++) {
		/* (after the variants' trees, the PEP 825 variants tree when asked for) */
		const char *v = k < nv ? variants[k] : o->variants && !o->fromlist ? variantstree : NULL;

		if (!v)
			break;
		sbreset(&top);
		sbaddf(&top, "%s/%s", index, v);
		rc = writetree(top.buf, w, nw, v, vfiles->buf, o, fresh);
	}
	if (landingthread)
		pthread_join(ltid, NULL);
	sbfree(&top);
	return rc;
}

static int writeindexlocked(const char *builddir, char **manifests, size_t n, const struct indexopts *o);

int
writeindex(const char *builddir, char **manifests, size_t n, const struct indexopts *o)
{
	struct sb lock = SB_INIT;
	int fd, rc;

	/* one writer at a time per build directory (ninja's index and a merge-index, say) */
	bdpath(&lock, builddir, BD_INDEXLOCK, NULL);
	if (mkdirs(builddir) < 0 || (fd = lockfile(lock.buf)) < 0) {
		sbfree(&lock);
		return -1;
	}
	/* what writers that died left: index.tmp.<pid> of a pid that is gone */
	sweepdead(builddir, "index.tmp.");
	rc = writeindexlocked(builddir, manifests, n, o);
	close(fd);
	sbfree(&lock);
	return rc;
}

static int
writeindexlocked(const char *builddir, char **manifests, size_t n, const struct indexopts *o)
{
	struct wheelinfo *w = xcalloc(n ? n : 1, sizeof(*w));
	const char **variants = xcalloc(n + 2, sizeof(*variants)); /* (and the variants tree) */
	struct sb top = SB_INIT, page = SB_INIT, files = SB_INIT, vfiles = SB_INIT, index = SB_INIT, final = SB_INIT;
	size_t i, nw = 0, nv = 0;
	struct stat st;
	int rc = 0, fresh;

	/* No index yet: build the whole tree in index.tmp.<pid> and rename it into place at the
	   end (no page-by-page comparisons and renames, and readers see all of it or nothing).
	   Otherwise update index/ in place, each file only if it changed. */
	bdpath(&final, builddir, BD_INDEXDIR, NULL);
	fresh = stat(final.buf, &st) < 0 && errno == ENOENT;
	if (fresh)
		sbaddf(&index, "%s.tmp.%ld", final.buf, (long)getpid());
	else
		sbadd(&index, final.buf);

	filesurl(o, &files, &vfiles);
	nw = readwheels(builddir, manifests, n, o, w, &rc);
	if (rc < 0)
		goto out;
	qsort(w, nw, sizeof(*w), cmpwheel);
	if ((nw = onefile(w, nw)) == (size_t)-1) {
		nw = 0;
		rc = -1;
		goto out;
	}

	if (fresh && mkdirs(index.buf) < 0)
		goto fail;
	for (i = 0; i < nw && !o->fromlist; i++) {
		if (linkwheel(index.buf, &w[i], !o->baseurl) < 0)
			rc = -1;
	}
	if (rc < 0)
		goto fail;
	if (o->variants && !o->fromlist) {
		size_t nx = variantfiles(index.buf, &w, nw, fresh);

		if (nx == (size_t)-1)
			goto fail;
		if (nx != nw) {
			nw = nx;
			qsort(w, nw, sizeof(*w), cmpwheel);
		}
	}
	nv = variantsof(w, nw, variants);
	if (writepages(index.buf, w, nw, variants, nv, &files, &vfiles, &page, o, fresh) < 0)
		goto fail;
	sbreset(&top);
	sbaddf(&top, "%s/index.html", index.buf);
	if (writepage(top.buf, &page, fresh) < 0)
		goto fail;
	/* beside it what the finder and the page's selector read, and the finder (wheelsjson.h) */
	if (!o->fromlist && writewheelsjson(index.buf, w, nw, files.buf, o, fresh) < 0)
		goto fail;
	if (fresh) {
		if (rename(index.buf, final.buf) < 0) {
			error("cannot rename '%s' to '%s': %s", index.buf, final.buf, strerror(errno));
			goto fail;
		}
		goto out;
	}
	if (o->variants && !o->fromlist)
		variants[nv++] = variantstree;
	if (pruneindex(index.buf, w, nw, variants, nv, o) < 0)
		goto fail;
	sweeptemps(index.buf);
	goto out;
fail:
	rc = -1;
	if (fresh)
		rmtree(index.buf); /* half a tree helps nobody: the next run starts again */
out:
	for (i = 0; i < nw; i++)
		manifestfree(&w[i]);
	free(w);
	free(variants);
	sbfree(&top);
	sbfree(&page);
	sbfree(&files);
	sbfree(&vfiles);
	sbfree(&index);
	sbfree(&final);
	return rc;
}
