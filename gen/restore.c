/* restore: cells taken from the store instead of built (see restore.h). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "coremeta.h"
#include "esc.h"
#include "files.h"
#include "layout.h"
#include "leftout.h"
#include "listing.h"
#include "manifest.h"
#include "remotewheel.h"
#include "restore.h"
#include "wheelfile.h"

/* the manifest of cl as the view read it, into tmpfile: storeget's answer */
static int
viewget(struct storeview *v, const struct cell *cl, const char *tmpfile, struct sb *why)
{
	const char *text;
	size_t len;
	int r = storeviewmanifest(v, cl->id, &text, &len, why);

	if (r == 0 && writeifchanged(tmpfile, text, len) < 0) {
		sbaddf(why, "cannot write '%s'", tmpfile);
		r = -1;
	}
	return r;
}

enum storestate
storelookup(struct keyctx *k, const struct store *s, struct storeview *v, const struct cell *cl, const char *tmpfile,
	    int check, char key[65], struct sb *why)
{
	struct sb name = SB_INIT, err = SB_INIT;
	enum storestate st;
	struct wheelinfo m;
	int r;

	key[0] = '\0';
	r = cellkey(k, cl, NULL, key, NULL);
	if (r < 0) {
		sbadd(why, "its key could not be computed");
		key[0] = '\0';
		return KEYERROR;
	}
	if (r == 1)
		key[0] = '\0';
	if (s->kind == STORE_NONE) {
		sbadd(why, "no store");
		return NOTSTORED;
	}
	sbaddf(&name, "%s.manifest", cl->id);
	r = v ? viewget(v, cl, tmpfile, &err) : storeget(s, name.buf, tmpfile, MANIFEST_MAX, &err);
	if (r < 0) {
		sbaddf(why, "the store could not be read: %s", err.buf);
		st = STOREDOWN;
	} else if (r == 1) {
		sbaddf(why, "the store has no %s", name.buf);
		st = NOTSTORED;
	} else if (manifestparse(tmpfile, &m, &err) < 0) {
		sbaddf(why, "store entry %s%s is no manifest wheelgen can use (%s)", storename(s), name.buf, err.buf);
		st = BADENTRY;
	} else {
		char other[65];

		if (!m.key || !ishex64(m.key)) {
			sbaddf(why, "store entry %s%s has no key (published before cells had keys)", storename(s), name.buf);
			st = BADENTRY;
		} else if (!key[0] && cl->pkg->src == SRC_GIT && m.commit &&
			   cellkey(k, cl, m.commit, other, NULL) == 0 && !strcmp(other, m.key)) {
			/* no lock entry: the stored build of this config at the commit its tag had then */
			strcpy(key, other);
			st = STORED;
		} else if (!key[0]) {
			sbadd(why, "its source commit is unknown (no lock entry, no checkout)");
			st = UNKNOWNKEY;
		} else if (strcmp(key, m.key)) {
			sbaddf(why, "%s%s was built from other inputs (key %.12s, this cell's is %.12s)", storename(s),
			       name.buf, m.key, key);
			st = OTHERKEY;
		} else {
			st = STORED;
		}
		sbreset(&err);
		if (st == STORED && entrydamage(cl, &m, &err)) {
			sbaddf(why, "store entry %s%s contradicts its cell: %s", storename(s), name.buf, err.buf);
			st = WHEELBAD;
		}
		if (st == STORED && check) {
			sbreset(&err);
			r = v ? storeviewwheel(v, &m, &err) : wheeldamage(s, &m, &err);
			if (r < 0) {
				sbaddf(why, "the store could not be read: %s", err.buf);
				st = STOREDOWN;
			} else if (r > 0) {
				sbaddf(why, "store entry %s%s: %s", storename(s), name.buf, err.buf);
				st = WHEELBAD;
			}
		}
		manifestfree(&m);
	}
	sbfree(&name);
	sbfree(&err);
	return st;
}

/* remove DIR's wheels and .metadata files other than keep's */
static void
dropothers(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct sb meta = SB_INIT, p = SB_INIT;
	size_t n;

	if (!d)
		return;
	sbaddf(&meta, "%s.metadata", keep);
	while ((e = readdir(d))) {
		n = strlen(e->d_name);
		if (!strcmp(e->d_name, keep) || !strcmp(e->d_name, meta.buf))
			continue;
		if ((n > 4 && !strcmp(e->d_name + n - 4, ".whl")) || (n > 13 && !strcmp(e->d_name + n - 13, ".whl.metadata"))) {
			sbreset(&p);
			sbaddf(&p, "%s/%s", dir, e->d_name);
			unlink(p.buf);
		}
	}
	closedir(d);
	sbfree(&meta);
	sbfree(&p);
}

/*
 * Copy cl's stored entry (its manifest already at tmpman) into dir: the wheel and .metadata
 * (unless manifestsonly), each checked against the manifest's sha256 and size, the wheel
 * against the cell (its name, tags, .dist-info and modules: wheelfile.c), then the manifest with
 * origin=store. Manifests only: the wheel is checked where the store allows without a download
 * (there, its size; a directory store's also its sha256 and its contents). 0; 1 with why (the
 * entry is damaged: nothing copied); -1 with why (a fault: the store could not be read, or dir
 * not written).
 */
/* where copyentry (and prefetch) download a wheel (or, meta, its .metadata) in dir, appended to t */
static void
pulltemp(struct sb *t, const char *dir, const char *filename, int meta)
{
	sbaddf(t, "%s/.%s%s.store", dir, filename, meta ? ".metadata" : "");
}

/* fetchverified, unless dest holds those bytes already (prefetch brought them); a dest that does
   not (a download cut short) is fetched again */
static int
getverified(const struct store *s, const char *name, const char *dest, const char *sha, long long size, struct sb *why)
{
	struct sb w = SB_INIT;
	int ok = access(dest, F_OK) == 0 && fileverified(s, name, dest, sha, size, &w) == 0;

	sbfree(&w);
	return ok ? 0 : fetchverified(s, name, dest, sha, size, why);
}

/* does dir hold m's wheel (and .metadata) as a pull put it there: its manifest of the same
   wheel and key, the files of their sizes? (what the pull checked then: no download again) */
static int
pulledalready(const struct wheelinfo *m, const char *dir)
{
	struct sb p = SB_INIT, why = SB_INIT;
	struct wheelinfo old;
	struct stat st;
	int ok = 0;

	sbaddf(&p, "%s/manifest", dir);
	if (access(p.buf, F_OK) == 0 && manifestparse(p.buf, &old, &why) == 0) {
		sbreset(&p);
		sbaddf(&p, "%s/%s", dir, m->filename);
		ok = !strcmp(old.sha256, m->sha256) && !strcmp(old.filename, m->filename) &&
		     !strcmp(orempty(old.key), orempty(m->key)) && stat(p.buf, &st) == 0 && st.st_size == m->size;
		sbaddf(&p, ".metadata");
		if (ok && m->metasha && *m->metasha)
			ok = old.metasha && !strcmp(old.metasha, m->metasha) && stat(p.buf, &st) == 0;
		manifestfree(&old);
	}
	sbfree(&p);
	sbfree(&why);
	return ok;
}

static int
copyentry(const struct store *s, struct storeview *v, const struct cell *cl, const char *tmpman, const char *dir,
	  int manifestsonly, struct sb *why)
{
	struct sb wtmp = SB_INIT, mtmp = SB_INIT, wdst = SB_INIT, mdst = SB_INIT, meta = SB_INIT, man = SB_INIT;
	struct wheelinfo m;
	struct wheelwant want;
	int rc = 1;

	if (manifestparse(tmpman, &m, why) < 0)
		return 1;
	if (!plainwheel(m.filename) || strcmp(orempty(m.cell), cl->id)) {
		sbaddf(why, "%s%s.manifest is not a manifest of cell %s (cell '%s', filename '%s')", storename(s), cl->id,
		       cl->id, orempty(m.cell), m.filename);
		goto out;
	}
	pulltemp(&wtmp, dir, m.filename, 0);
	sbaddf(&wdst, "%s/%s", dir, m.filename);
	sbaddf(&meta, "%s.metadata", entrywheel(&m));
	pulltemp(&mtmp, dir, m.filename, 1);
	sbaddf(&mdst, "%s/%s.metadata", dir, m.filename);
	cellwant(&want, cl, &m);
	if (manifestsonly) {
		int r = v ? storeviewwheel(v, &m, why) : wheeldamage(s, &m, why);

		if (r != 0) {
			rc = r;
			goto out;
		}
		if (s->kind == STORE_DIR && !(v && storeviewchecked(v, &m))) {
			/* (a directory store's wheel is at hand: the whole check, as a restore does) */
			struct sb path = SB_INIT;

			sbaddf(&path, "%s%s", s->where, entrywheel(&m));
			r = wheelcheck(path.buf, m.filename, &want, why);
			sbfree(&path);
			if (r == 0 && v)
				storeviewsetchecked(v, &m);
			if (r < 0) {
				struct sb w = SB_INIT;

				sbaddf(&w, "%s%s is not a wheel of %s: %s", storename(s), entrywheel(&m), cl->id, why->buf);
				sbreset(why);
				sbadd(why, w.buf);
				sbfree(&w);
				goto out;
			}
		}
	} else if (pulledalready(&m, dir)) {
		/* (pulled by an earlier run, and checked then: the store's copy is the scrub's) */
	} else {
		if ((rc = getverified(s, entrywheel(&m), wtmp.buf, m.sha256, m.size, why)) != 0)
			goto out;
		rc = 1;
		if (wheelcheck(wtmp.buf, m.filename, &want, why) < 0) {
			struct sb w = SB_INIT;

			sbaddf(&w, "%s%s is not a wheel of %s: %s", storename(s), entrywheel(&m), cl->id, why->buf);
			sbreset(why);
			sbadd(why, w.buf);
			sbfree(&w);
			unlink(wtmp.buf);
			goto out;
		}
		if (m.metasha && *m.metasha && (rc = getverified(s, meta.buf, mtmp.buf, m.metasha, 0, why)) != 0) {
			unlink(wtmp.buf);
			goto out;
		}
		if (m.mtime > 0) {
			/* the upload time is the wheel's mtime, so that the index's pages come out the same */
			struct timespec ts[2];

			ts[0].tv_sec = ts[1].tv_sec = (time_t)m.mtime;
			ts[0].tv_nsec = ts[1].tv_nsec = 0;
			utimensat(AT_FDCWD, wtmp.buf, ts, 0);
		}
		if (rename(wtmp.buf, wdst.buf) < 0 || (m.metasha && *m.metasha && rename(mtmp.buf, mdst.buf) < 0)) {
			sbaddf(why, "cannot move the wheel into '%s': %s", dir, strerror(errno));
			rc = -1;
			unlink(wtmp.buf);
			unlink(mtmp.buf);
			goto out;
		}
		dropothers(dir, m.filename);
	}
	sbaddf(&man, "%s/manifest", dir);
	if ((rc = manifestcopy(tmpman, man.buf, "store")) < 0)
		sbaddf(why, "cannot write '%s'", man.buf);
out:
	manifestfree(&m);
	sbfree(&wtmp);
	sbfree(&mtmp);
	sbfree(&wdst);
	sbfree(&mdst);
	sbfree(&meta);
	sbfree(&man);
	return rc;
}

int
restorewheel(struct keyctx *k, const struct store *s, const struct cell *cl, const char *builddir)
{
	struct sb dir = SB_INIT, tmp = SB_INIT, keyfile = SB_INIT, why = SB_INIT, line = SB_INIT;
	enum storestate st;
	char key[65];
	int rc = 1;

	bdpath(&dir, builddir, BD_WHEELDIR, cl->id);
	sbaddf(&tmp, "%s/.store-manifest", dir.buf);
	bdpath(&keyfile, builddir, BD_KEY, cl->id);
	if (mkdirs(dir.buf) < 0) {
		rc = -1;
		goto out;
	}
	/* (the wheel is checked as it is copied: no separate look at it first) */
	st = storelookup(k, s, NULL, cl, tmp.buf, 0, key, &why);
	/* the key the build writes into its manifest (none when unknown) */
	if (key[0]) {
		sbaddf(&line, "%s\n", key);
		if (writeifchanged(keyfile.buf, line.buf, line.len) < 0) {
			rc = -1;
			goto out;
		}
	} else {
		unlink(keyfile.buf);
	}
	switch (st) {
	case STORED:
		rc = copyentry(s, NULL, cl, tmp.buf, dir.buf, 0, &why);
		if (rc == 1) {
			warn("store entry of %s: %s; building it", cl->id, why.buf);
			takeoutentry(s, cl, tmp.buf, why.buf);
		} else if (rc < 0) {
			warn("%s; building %s", why.buf, cl->id);
			rc = 1;
		}
		if (rc == 0)
			report("restored %s from the store %s (key %.12s)", cl->id, storename(s), key);
		break;
	case WHEELBAD:
		warn("%s; building %s", why.buf, cl->id);
		takeoutentry(s, cl, tmp.buf, why.buf);
		break;
	case STOREDOWN:
	case BADENTRY:
		warn("%s; building %s", why.buf, cl->id);
		break;
	case OTHERKEY:
	case NOTSTORED:
	case UNKNOWNKEY:
	case KEYERROR:
		if (s->kind != STORE_NONE)
			report("building %s: %s", cl->id, why.buf);
		break;
	}
	/* the depfile, restored or built: the build step writes none (key.h: depfilewrite) */
	if (rc >= 0) {
		struct sb target = SB_INIT, depfile = SB_INIT;

		bdpath(&target, builddir, BD_MANIFEST, cl->id);
		bdpath(&depfile, builddir, BD_DEPFILE, cl->id);
		if (depfilewrite(cl, target.buf, depfile.buf) < 0)
			rc = -1;
		sbfree(&target);
		sbfree(&depfile);
	}
out:
	unlink(tmp.buf);
	sbfree(&dir);
	sbfree(&tmp);
	sbfree(&keyfile);
	sbfree(&why);
	sbfree(&line);
	return rc;
}

int
restoretest(const char *builddir, const char *cell)
{
	struct sb path = SB_INIT, stamp = SB_INIT, text = SB_INIT;
	const char *retest = getenv("WHEELGEN_RETEST");
	struct wheelinfo m;
	int rc = 1;

	bdpath(&path, builddir, BD_MANIFEST, cell);
	if (manifestparse(path.buf, &m, &stamp) < 0) {
		sbfree(&path);
		sbfree(&stamp);
		return 1;
	}
	if (!strcmp(orempty(m.origin), "store") && !strcmp(orempty(m.tested), m.sha256) && !(retest && !strcmp(retest, "1"))) {
		bdpath(&stamp, builddir, BD_TESTOK, cell);
		sbaddf(&text, "%s\ngpu=%s\n", m.sha256, m.gpu && *m.gpu ? m.gpu : "none");
		if (writeifchanged(stamp.buf, text.buf, text.len) >= 0) {
			report("test %s: passed before it was published (restored from the store; "
			       "WHEELGEN_RETEST=1 tests it again)", cell);
			rc = 0;
		}
	}
	manifestfree(&m);
	sbfree(&path);
	sbfree(&stamp);
	sbfree(&text);
	return rc;
}

/* a damaged entry that merge-index leaves out: said (and a row of left), its pulled copy removed,
   taken out of the store */
static void
leaveout(const struct store *s, const struct cell *cl, const char *pulled, const char *sha, const char *why,
	 struct sb *left)
{
	notice("merge-index: left out %s: %s", cl->id, why);
	leftoutcell(left, cl->id, why);
	if (pulled)
		rmtree(pulled);
	storetakeout(s, cl->id, sha, why);
}

/* the bytes of the wheel's tail read to check a stored wheel by range requests */
#define CHECK_TAIL 16384
/* a wheel up to this size is read whole, hashed and checked as a directory store's is */
#define CHECK_WHOLE (16 << 20)

/* what is wrong with the wheel of cell cl (manifest mf) that rw read (kept whole at keep,
   where it was read whole), into bad; nothing when it is whole */
static void
remotebad(const struct store *s, const struct remotewheel *rw, const struct wheelinfo *mf, const struct cell *cl,
	  const char *keep, struct sb *bad)
{
	struct wheelwant want;
	struct sb w = SB_INIT;

	if (rw->why.len) {
		sbaddf(bad, "its wheel %s%s: %s", storename(s), entrywheel(mf), rw->why.buf);
	} else if (mf->size > 0 && rw->size != (unsigned long long)mf->size) {
		wheelmismatch(s, mf, MISMATCH_SIZE, rw->size, NULL, bad);
	} else if (rw->sha256[0] && strcmp(rw->sha256, mf->sha256)) {
		wheelmismatch(s, mf, MISMATCH_SHA256, 0, rw->sha256, bad);
	} else if (!wheeltagsok(rw->meta.buf, mf->filename)) {
		sbaddf(bad, "its wheel %s%s: its .dist-info/WHEEL does not list the tags of its name", storename(s),
		       entrywheel(mf));
	} else if (rw->kept) {
		cellwant(&want, cl, mf);
		if (wheelcheck(keep, mf->filename, &want, &w) < 0)
			sbaddf(bad, "%s%s is not a wheel of %s: %s", storename(s), entrywheel(mf), cl->id, w.buf);
	}
	sbfree(&w);
}

/*
 * Manifests only, an HTTP store: check the wheels of the pulled cells (ids, one per line) by
 * range reads. A wheel of up to CHECK_WHOLE bytes is read whole (a range of all of it), hashed
 * against its manifest's sha256 and checked as a restore checks it (wheelfile.c), as a
 * directory store's is; a larger one by its last CHECK_TAIL bytes and what they point to: the
 * size its manifest says, one .dist-info named as the file name says, whose WHEEL lists the
 * name's tags (what lies between is the scrub's: wheelgen store verify). A wheel that passed is
 * not read again while the store's listing shows it unchanged (storeview.h). A damaged one is
 * left out (*nbad). 0, or -1 with why (no answer, a refusal: a fault)
 */
static int
checkremote(const struct store *s, struct storeview *v, const struct matrix *m, const char *builddir, const char *ids,
	    size_t *nbad, size_t *nstored, struct sb *left, struct sb *why)
{
	struct remotewheel *rw;
	struct wheelinfo *mf;
	const struct cell **cl;
	struct sb tmpdir = SB_INIT, path = SB_INIT, *url, *keep;
	char *list = xstrdup(ids), *next = list, *id;
	size_t n = 0, cap = 0, i, j;
	int rc = 0, noranges = 0;

	for (id = list; *id; id++)
		cap += *id == '\n';
	rw = xcalloc(cap + 1, sizeof(*rw));
	mf = xcalloc(cap + 1, sizeof(*mf));
	cl = xcalloc(cap + 1, sizeof(*cl));
	url = xcalloc(cap + 1, sizeof(*url));
	keep = xcalloc(cap + 1, sizeof(*keep));
	bdpath(&tmpdir, builddir, BD_STOREDIR, ".check");
	while (*ids && (id = nextline(&next))) {
		for (j = 0; j < m->n && strcmp(m->cells[j].id, id); j++)
			;
		sbreset(&path);
		bdpath(&path, builddir, BD_STOREDIR, id);
		sbadd(&path, "/manifest");
		if (j == m->n || manifestparse(path.buf, &mf[n], why) < 0) {
			sbreset(why);
			continue;
		}
		if (storeviewchecked(v, &mf[n])) {
			manifestfree(&mf[n]);
			continue;
		}
		cl[n] = &m->cells[j];
		sbadd(&url[n], s->where);
		escurlpath(&url[n], entrywheel(&mf[n]));
		rw[n].url = url[n].buf;
		storehow(s, rw[n].url, &rw[n].how);
		rw[n].filename = mf[n].filename;
		rw[n].member = "WHEEL";
		rw[n].exact = 1;
		rw[n].tail = CHECK_TAIL;
		if (mf[n].size > 0 && mf[n].size <= CHECK_WHOLE) {
			rw[n].tail = (size_t)mf[n].size;
			sbaddf(&keep[n], "%s/whole%zu.whl", tmpdir.buf, n);
			rw[n].keep = keep[n].buf;
		}
		n++;
	}
	if (n && mkdirs(tmpdir.buf) < 0) {
		sbaddf(why, "cannot make '%s': %s", tmpdir.buf, strerror(errno));
		rc = -1;
	} else if (n) {
		struct httplimits lim = { s->timeout, s->stall, HTTP_PARALLEL };

		remotewheelmeta(rw, n, tmpdir.buf, &lim);
	}
	for (i = 0; i < n && rc == 0; i++) {
		struct sb bad = SB_INIT;

		noranges |= rw[i].noranges;
		if (rw[i].why.len && rw[i].fault) {
			sbaddf(why, "%s: %s", rw[i].url, rw[i].why.buf);
			rc = -1;
		} else if (!(rw[i].why.len && rw[i].noranges)) {
			remotebad(s, &rw[i], &mf[i], cl[i], keep[i].buf, &bad);
		}
		if (bad.len) {
			sbreset(&path);
			bdpath(&path, builddir, BD_STOREDIR, cl[i]->id);
			leaveout(s, cl[i], path.buf, mf[i].sha256, bad.buf, left);
			(*nbad)++;
			(*nstored)--;
		} else if (!rw[i].why.len) {
			storeviewsetchecked(v, &mf[i]);
		}
		sbfree(&bad);
	}
	if (n)
		rmtree(tmpdir.buf);
	if (noranges)
		warn("the store %s does not answer range requests: the wheels the index links are checked by their size "
		     "alone, or whole where they are small enough to read whole", storename(s));
	for (i = 0; i < n; i++) {
		remotewheelfree(&rw[i]);
		manifestfree(&mf[i]);
		sbfree(&url[i]);
		sbfree(&keep[i]);
	}
	free(rw);
	free(mf);
	free(cl);
	free(url);
	free(keep);
	free(list);
	sbfree(&tmpdir);
	sbfree(&path);
	return rc;
}

/* cells no longer stored (or built here now) leave the pulled tree top: each but keep's */
static void
prunepulled(const char *top, struct sb *keep)
{
	struct sb dir = SB_INIT;
	struct dirent *e;
	DIR *d;

	if (!(d = opendir(top)))
		return;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !setadd(keep, e->d_name))
			continue;
		sbreset(&dir);
		sbaddf(&dir, "%s/%s", top, e->d_name);
		rmtree(dir.buf);
	}
	closedir(d);
	sbfree(&dir);
}

/* what store --pull did: said, and written for the summary with the cells it left out (leftout.h) */
static int
pulldone(const char *builddir, const struct pullcounts *pc, struct sb *left)
{
	leftoutstore(left, pc);
	if (leftoutwrite(builddir, BD_PULLNOTE, left) < 0)
		return -1;
	report("store %s: %zu cell%s of the config restored%s, %zu built here, %zu not in the store, %zu built from "
	       "other inputs (an earlier config), %zu left out: a damaged entry (listed above; taken out of the store, "
	       "so that the next plan builds them again)",
	       pc->store, pc->restored, pc->restored == 1 ? "" : "s",
	       pc->manifestsonly ? " (manifests only: the pages link the store)" : "", pc->local, pc->missing, pc->other,
	       pc->damaged);
	return 0;
}

/* what store --pull counts, and the cells it pulled */
struct pull {
	struct sb keep;         /* the pulled cells, a set (setadd) */
	struct sb pulled;       /* the same, one a line */
	struct sb left;         /* the rows of what it left out (leftout.h) */
	size_t nstored, nlocal, nmissing, nother, nbad;
};

/* take cl (not built here) from the store into BUILDDIR/store/<cell>, or leave it out; 0, or -1
   (an error printed) when the store could not be read or BUILDDIR written */
static int
pullcell(struct keyctx *k, const struct store *s, struct storeview *v, const struct cell *cl, const char *builddir,
	 const char *tmp, int manifestsonly, struct pull *p)
{
	struct sb dir = SB_INIT, why = SB_INIT;
	enum storestate st;
	char key[65];
	int r, rc = 0;

	/* (copyentry checks the wheel, downloading it or not) */
	switch ((st = storelookup(k, s, v, cl, tmp, 0, key, &why))) {
	case STORED:
		bdpath(&dir, builddir, BD_STOREDIR, cl->id);
		if (mkdirs(dir.buf) < 0) {
			rc = -1;
			break;
		}
		sbreset(&why);
		r = copyentry(s, v, cl, tmp, dir.buf, manifestsonly, &why);
		if (r == 0) {
			p->nstored++;
			setadd(&p->keep, cl->id);
			sbaddf(&p->pulled, "%s\n", cl->id);
		} else if (r == 1) {
			p->nbad++;
			rmtree(dir.buf);
			notice("merge-index: left out %s: %s", cl->id, why.buf);
			leftoutcell(&p->left, cl->id, why.buf);
			takeoutentry(s, cl, tmp, why.buf);
		} else {
			rc = error("merge-index: cannot take %s from the store %s: %s (no index written: it would lack "
				   "stored cells)", cl->id, storename(s), why.buf);
		}
		break;
	case STOREDOWN:
		rc = error("merge-index: %s (no index written: it would lack stored cells)", why.buf);
		break;
	case KEYERROR:
		rc = -1;
		break;
	case WHEELBAD:
	case BADENTRY:
		/* (an entry without a key is old, not damaged: it stays) */
		p->nbad++;
		notice("merge-index: left out %s: %s", cl->id, why.buf);
		leftoutcell(&p->left, cl->id, why.buf);
		if (st == WHEELBAD)
			takeoutentry(s, cl, tmp, why.buf);
		break;
	case OTHERKEY:
		p->nother++;
		break;
	default:
		p->nmissing++;
	}
	sbfree(&dir);
	sbfree(&why);
	return rc;
}

/* the largest file prefetch brings: a larger one is fetched alone, straight into its file */
#define PREFETCH_MAX (64 << 20)

/*
 * An HTTP store: download the wheels and .metadata files of the cells ids[0..n) whose manifest
 * (in the view) has the cell's key and whose pull directory does not hold them yet, into the
 * temporaries copyentry checks, many requests to a curl process. What does not come (a fault,
 * a redirect, a file larger than PREFETCH_MAX) copyentry fetches itself, and judges.
 */
static void
prefetch(struct keyctx *k, const struct store *s, struct storeview *v, const struct matrix *m, const char *here,
	 const char *builddir)
{
	struct httpget *g = xcalloc(2 * m->n + 1, sizeof(*g));
	struct sb *urls = xcalloc(2 * m->n + 1, sizeof(*urls)), *dests = xcalloc(2 * m->n + 1, sizeof(*dests));
	struct httplimits lim = { s->timeout, s->stall, HTTP_PARALLEL };
	struct sb dir = SB_INIT, why = SB_INIT, meta = SB_INIT;
	size_t i, n = 0;

	for (i = 0; i < m->n; i++) {
		struct wheelinfo w;
		const char *text;
		size_t len;
		char key[65];

		if (here[i] || storeviewmanifest(v, m->cells[i].id, &text, &len, &why) != 0 ||
		    manifestparsetext(text, len, m->cells[i].id, &w, &why) < 0) {
			sbreset(&why);
			continue;
		}
		sbreset(&dir);
		bdpath(&dir, builddir, BD_STOREDIR, m->cells[i].id);
		if (w.key && w.size > 0 && w.size <= PREFETCH_MAX && plainwheel(w.filename) &&
		    cellkey(k, &m->cells[i], NULL, key, NULL) == 0 && !strcmp(key, w.key) && !pulledalready(&w, dir.buf) &&
		    mkdirs(dir.buf) == 0) {
			sbreset(&meta);
			sbaddf(&meta, "%s.metadata", entrywheel(&w));
			storeurl(&urls[n], s, entrywheel(&w));
			pulltemp(&dests[n], dir.buf, w.filename, 0);
			g[n].max = (size_t)w.size;
			n++;
			if (w.metasha && *w.metasha) {
				storeurl(&urls[n], s, meta.buf);
				pulltemp(&dests[n], dir.buf, w.filename, 1);
				g[n].max = COREMETA_MAX;
				n++;
			}
		}
		manifestfree(&w);
	}
	for (i = 0; i < n; i++) {
		g[i].url = urls[i].buf;
		g[i].dest = dests[i].buf;
		storehow(s, g[i].url, &g[i].how);
	}
	if (n && !storegivenup(s, &why))
		httpbatch(g, n, &lim);
	for (i = 0; i < n; i++) {
		if (g[i].why.len || g[i].status != 200)
			unlink(dests[i].buf);
		httpgetfree(&g[i]);
		sbfree(&urls[i]);
		sbfree(&dests[i]);
	}
	v->requests += n;
	free(g);
	free(urls);
	free(dests);
	sbfree(&dir);
	sbfree(&why);
	sbfree(&meta);
}

int
pullstore(struct keyctx *k, const struct store *s, const struct matrix *m, const char *builddir, int manifestsonly)
{
	struct sb top = SB_INIT, dir = SB_INIT, tmp = SB_INIT, why = SB_INIT;
	struct pull p = { SB_INIT, SB_INIT, SB_INIT, 0, 0, 0, 0, 0 };
	size_t i, nids = 0;
	struct storeview view, *v = &view;
	const char **ids = xcalloc(m->n + 1, sizeof(*ids));
	char *here = xcalloc(m->n + 1, 1);
	int rc = 0;

	leftoutclear(builddir, BD_PULLNOTE);
	memset(&view, 0, sizeof(view));
	bdpath(&top, builddir, BD_STOREDIR, "");
	if (mkdirs(top.buf) < 0) {
		rc = -1;
		goto out;
	}
	sbaddf(&tmp, "%s/.manifest.tmp", top.buf);
	/* the cells built here are indexed from their own manifests; the others' read at once */
	for (i = 0; i < m->n; i++) {
		sbreset(&dir);
		bdpath(&dir, builddir, BD_MANIFEST, m->cells[i].id);
		here[i] = access(dir.buf, F_OK) == 0;
		if (!here[i])
			ids[nids++] = m->cells[i].id;
	}
	if (storeviewopen(v, s, builddir, &why) < 0 || storeviewread(v, ids, nids, &why) < 0 ||
	    (manifestsonly && storeviewwheels(v, &why) < 0)) {
		rc = error("merge-index: the store %s could not be read: %s (no index written: it would lack stored cells)",
			   storename(s), why.buf);
		goto out;
	}
	if (!manifestsonly && s->kind == STORE_HTTP)
		prefetch(k, s, v, m, here, builddir);
	for (i = 0; i < m->n && rc == 0; i++) {
		if (here[i])
			p.nlocal++;
		else
			rc = pullcell(k, s, v, &m->cells[i], builddir, tmp.buf, manifestsonly, &p);
	}
	unlink(tmp.buf);
	sbreset(&why);
	if (rc == 0 && manifestsonly && s->kind == STORE_HTTP &&
	    checkremote(s, v, m, builddir, p.pulled.buf, &p.nbad, &p.nstored, &p.left, &why) < 0)
		rc = error("merge-index: cannot check the wheels of the store %s: %s (no index written: it would lack "
			   "stored cells)", storename(s), why.buf);
	if (rc == 0)
		prunepulled(top.buf, &p.keep);
	if (rc == 0) {
		struct pullcounts pc = { (char *)storename(s), p.nstored, p.nlocal, p.nmissing, p.nother, p.nbad,
					 manifestsonly };

		rc = pulldone(builddir, &pc, &p.left);
	}
out:
	if (view.s && storeviewclose(v) < 0)
		rc = -1;
	free(ids);
	free(here);
	sbfree(&top);
	sbfree(&dir);
	sbfree(&tmp);
	sbfree(&why);
	sbfree(&p.keep);
	sbfree(&p.pulled);
	sbfree(&p.left);
	return rc;
}

/* unusedstore's temporaries: those of dir ("" the top: names with .tmp. in them; tmp/: all) */
static int
unusedtemps(const struct store *s, const char *dir, int del, long grace, size_t *n)
{
	struct listing l;
	struct sb why = SB_INIT, name = SB_INIT;
	size_t i;
	int r = storelisting(s, dir, &l, &why), rc = 0;

	for (i = 0; r == 0 && i < l.n && rc == 0; i++) {
		const struct listent *e = &l.e[i];
		long long age = e->mtime > 0 && l.date > 0 ? (l.date - e->mtime) / 60 : -1;

		if (e->dir || (!*dir && !strstr(e->name, ".tmp.")))
			continue;
		sbreset(&name);
		sbaddf(&name, "%s%s", dir, e->name);
		(*n)++;
		if (age >= 0)
			printf("%s\ta publish's temporary, %lld minute%s old\n", name.buf, age, age == 1 ? "" : "s");
		else
			printf("%s\ta publish's temporary\n", name.buf);
		if (!del || age < grace)
			continue;
		sbreset(&why);
		if (storedel(s, name.buf, &why) < 0)
			rc = error("cannot remove %s from the store: %s", name.buf, why.buf);
		else
			report("removed %s%s", storename(s), name.buf);
	}
	listingfree(&l);
	sbfree(&why);
	sbfree(&name);
	return rc;
}

int
unusedstore(struct keyctx *k, const struct store *s, const struct matrix *m, const char *builddir, int del,
	    long grace)
{
	struct sb names = SB_INIT, why = SB_INIT, tmp = SB_INIT, used = SB_INIT, meta = SB_INIT;
	char *next, *name;
	size_t i, n = 0;
	int rc = 0;

	if (storelist(s, ".manifest", &names, &why) < 0)
		return error("cannot list the store %s: %s", storename(s), why.buf);
	sbaddf(&tmp, "%s/.unused.tmp", builddir);
	/* the entries the config keys, and the files they name */
	for (i = 0; i < m->n; i++) {
		char key[65];
		struct wheelinfo mf;

		sbreset(&why);
		if (storelookup(k, s, NULL, &m->cells[i], tmp.buf, 0, key, &why) != STORED)
			continue;
		sbreset(&meta);
		sbaddf(&meta, "%s.manifest", m->cells[i].id);
		setadd(&used, meta.buf);
		sbreset(&why);
		if (manifestparse(tmp.buf, &mf, &why) == 0) {
			setadd(&used, entrywheel(&mf));
			sbreset(&meta);
			sbaddf(&meta, "%s.metadata", entrywheel(&mf));
			setadd(&used, meta.buf);
			manifestfree(&mf);
		}
	}
	next = names.buf;
	while (names.len && (name = nextline(&next))) {
		struct wheelinfo mf;
		const char *files[3];
		size_t f;
		int bad = 1;

		if (!setadd(&used, name))
			continue; /* a used entry (setadd added nothing) */
		n++;
		memset(&mf, 0, sizeof(mf));
		sbreset(&why);
		if (storeget(s, name, tmp.buf, MANIFEST_MAX, &why) == 0)
			bad = manifestparse(tmp.buf, &mf, &why) < 0;
		printf("%s\t%s\n", name, bad ? "not a manifest wheelgen can use" : mf.key ? "no cell of the config has its key" : "no key");
		if (!del) {
			manifestfree(&mf);
			continue;
		}
		files[0] = name;
		files[1] = !bad && plainwheel(mf.filename) ? entrywheel(&mf) : NULL;
		sbreset(&meta);
		if (files[1])
			sbaddf(&meta, "%s.metadata", files[1]);
		files[2] = files[1] ? meta.buf : NULL;
		for (f = 0; f < 3; f++) {
			if (!files[f])
				continue;
			/* a file a kept entry names stays */
			if (f && !setadd(&used, files[f]))
				continue;
			sbreset(&why);
			if (storedel(s, files[f], &why) < 0) {
				rc = error("cannot remove %s from the store: %s", files[f], why.buf);
				break;
			}
			report("removed %s%s", storename(s), files[f]);
		}
		manifestfree(&mf);
	}
	unlink(tmp.buf);
	notice("%zu store entr%s no cell of the config keys%s", n, n == 1 ? "y" : "ies",
		del ? " (removed)" : "");
	if (rc == 0 && !s->release) {
		struct sb tmpdir = SB_INIT;
		size_t nt = 0;

		storetmpdir(&tmpdir);
		rc = unusedtemps(s, "", del, grace, &nt);
		if (rc == 0)
			rc = unusedtemps(s, tmpdir.buf, del, grace, &nt);
		if (nt)
			notice("%zu temporar%s of publishes that did not finish%s", nt, nt == 1 ? "y" : "ies",
			       del ? grace ? " (those older than --grace removed)" : " (removed)" : "");
		sbfree(&tmpdir);
	}
	sbfree(&names);
	sbfree(&why);
	sbfree(&tmp);
	sbfree(&used);
	sbfree(&meta);
	return rc;
}
