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

#include "esc.h"
#include "files.h"
#include "layout.h"
#include "manifest.h"
#include "restore.h"
#include "wheelfile.h"
#include "sha256.h"

/* a wheel's file name as the store may hold it: a plain file name, not hidden, ending in .whl */
static int
goodwheel(const char *f)
{
	size_t n = strlen(f);

	return plainname(f) && f[0] != '.' && n > 4 && !strcmp(f + n - 4, ".whl");
}

/* the name of the stored wheel of manifest m: its blob, or (published flat) its file name */
static const char *
wheelfile(const struct wheelinfo *m)
{
	return m->stored ? m->stored : m->filename;
}

/*
 * Does the store hold the wheel m names, as m says: there, of its size, and of its sha256 where
 * the store can tell without a download (a directory store hashes it)? 0, 1 with why (it does
 * not), -1 with why (the store could not be read)
 */
static int
checkstored(const struct store *s, const struct wheelinfo *m, struct sb *why)
{
	const char *name = wheelfile(m);
	long long size;
	char hex[65];
	int r = storestat(s, name, &size, why);

	if (r < 0)
		return -1;
	if (r == 1) {
		sbaddf(why, "its wheel %s%s is missing", storename(s), name);
		return 1;
	}
	if (m->size > 0 && size >= 0 && size != m->size) {
		sbaddf(why, "its wheel %s%s has %lld bytes, its manifest says %lld", storename(s), name, size, m->size);
		return 1;
	}
	if (storehash(s, name, hex) == 0 && strcmp(hex, m->sha256)) {
		sbaddf(why, "its wheel %s%s has sha256 %.12s..., its manifest says %.12s...", storename(s), name, hex, m->sha256);
		return 1;
	}
	return 0;
}

enum storestate
storelookup(struct keyctx *k, const struct store *s, const struct cell *cl, const char *tmpfile, int check,
	    char key[65], struct sb *why)
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
	r = storeget(s, name.buf, tmpfile, MANIFEST_MAX, &err);
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
		if (st == STORED && check) {
			sbreset(&err);
			r = checkstored(s, &m, &err);
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

/* fetch the store's name into dest and check its sha256 (and size, when size is not NULL); 0, or
   1 with why (nothing left at dest) */
static int
fetchchecked(const struct store *s, const char *name, const char *dest, const char *sha, long long size,
	     struct sb *why)
{
	char got[65];
	struct stat st;
	int r = storeget(s, name, dest, 0, why);

	if (r != 0) {
		if (r == 1)
			sbaddf(why, "%s%s is missing", storename(s), name);
		return 1;
	}
	if (sha256file(dest, got) < 0 || strcmp(got, sha)) {
		sbaddf(why, "%s%s has sha256 %s, its manifest says %s", storename(s), name, got, sha);
		unlink(dest);
		return 1;
	}
	if (size > 0 && (stat(dest, &st) < 0 || st.st_size != size)) {
		sbaddf(why, "%s%s has another size than its manifest says (%lld)", storename(s), name, size);
		unlink(dest);
		return 1;
	}
	return 0;
}

/* BUILDDIR/wheels/<cell>/manifest.d as the build writes it: a path source's files, else none */
static int
writedepfile(const struct cell *cl, const char *builddir, const char *dir)
{
	struct sb d = SB_INIT, files = SB_INIT, target = SB_INIT, path = SB_INIT;
	int rc = 0;

	sbaddf(&target, "%s/wheels/%s/manifest", builddir, cl->id);
	if (escdep(&d, target.buf) < 0)
		rc = error("cannot name '%s' in a depfile", target.buf);
	sbaddc(&d, ':');
	if (rc == 0 && cl->pkg->src == SRC_PATH) {
		char *line, *next;

		if (treefiles(cl->pkg->path, &files) < 0)
			rc = -1;
		next = files.buf;
		while (rc == 0 && files.len && (line = nextline(&next))) {
			sbreset(&path);
			sbaddf(&path, "%s/%s", cl->pkg->path, line);
			sbaddc(&d, ' ');
			if (escdep(&d, path.buf) < 0)
				rc = error("source path '%s' cannot be named in a depfile", path.buf);
		}
	}
	sbaddc(&d, '\n');
	sbreset(&path);
	sbaddf(&path, "%s/manifest.d", dir);
	if (rc == 0 && writeifchanged(path.buf, d.buf, d.len) < 0)
		rc = -1;
	sbfree(&d);
	sbfree(&files);
	sbfree(&target);
	sbfree(&path);
	return rc;
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
 * origin=store. 0; 1 with why (the entry is not what it says: nothing copied); -1 on a local
 * error (a message printed).
 */
static int
copyentry(const struct store *s, const struct cell *cl, const char *tmpman, const char *dir, int manifestsonly,
	  struct sb *why)
{
	struct sb wtmp = SB_INIT, mtmp = SB_INIT, wdst = SB_INIT, mdst = SB_INIT, meta = SB_INIT, man = SB_INIT;
	struct wheelinfo m;
	struct wheelwant want;
	int rc = 1;

	if (manifestparse(tmpman, &m, why) < 0)
		return 1;
	if (!goodwheel(m.filename) || strcmp(orempty(m.cell), cl->id)) {
		sbaddf(why, "%s%s.manifest is not a manifest of cell %s (cell '%s', filename '%s')", storename(s), cl->id,
		       cl->id, orempty(m.cell), m.filename);
		goto out;
	}
	sbaddf(&wtmp, "%s/.%s.store", dir, m.filename);
	sbaddf(&wdst, "%s/%s", dir, m.filename);
	sbaddf(&meta, "%s.metadata", wheelfile(&m));
	sbaddf(&mtmp, "%s/.%s.metadata.store", dir, m.filename);
	sbaddf(&mdst, "%s/%s.metadata", dir, m.filename);
	if (manifestsonly) {
		int r = checkstored(s, &m, why);

		if (r != 0) {
			rc = r < 0 ? 1 : r;
			goto out;
		}
	} else {
		if (fetchchecked(s, wheelfile(&m), wtmp.buf, m.sha256, m.size, why))
			goto out;
		want.package = cl->pkg->norm;
		want.version = m.wheelversion;
		want.python = cl->python;
		want.machine = cl->platform->machine;
		want.tags = m.tags;
		if (wheelcheck(wtmp.buf, m.filename, &want, why) < 0) {
			struct sb w = SB_INIT;

			sbaddf(&w, "%s%s is not a wheel of %s: %s", storename(s), wheelfile(&m), cl->id, why->buf);
			sbreset(why);
			sbadd(why, w.buf);
			sbfree(&w);
			unlink(wtmp.buf);
			goto out;
		}
		if (m.metasha && *m.metasha && fetchchecked(s, meta.buf, mtmp.buf, m.metasha, 0, why)) {
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
			rc = error("cannot move the wheel into '%s': %s", dir, strerror(errno));
			unlink(wtmp.buf);
			unlink(mtmp.buf);
			goto out;
		}
		dropothers(dir, m.filename);
	}
	sbaddf(&man, "%s/manifest", dir);
	rc = manifestcopy(tmpman, man.buf, "store");
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
	st = storelookup(k, s, cl, tmp.buf, 0, key, &why);
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
		rc = copyentry(s, cl, tmp.buf, dir.buf, 0, &why);
		if (rc == 1)
			warn("store entry of %s: %s; building it", cl->id, why.buf);
		if (rc == 0)
			rc = writedepfile(cl, builddir, dir.buf);
		if (rc == 0)
			report("restored %s from the store %s (key %.12s)", cl->id, storename(s), key);
		break;
	case STOREDOWN:
	case BADENTRY:
	case WHEELBAD:
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

int
pullstore(struct keyctx *k, const struct store *s, const struct matrix *m, const char *builddir, int manifestsonly)
{
	struct sb top = SB_INIT, dir = SB_INIT, tmp = SB_INIT, why = SB_INIT, keep = SB_INIT;
	size_t i, nstored = 0, nlocal = 0, nmissing = 0, nother = 0, nbad = 0;
	int rc = 0, down = 0;
	DIR *d;
	struct dirent *e;

	bdpath(&top, builddir, BD_STOREDIR, "");
	if (mkdirs(top.buf) < 0) {
		rc = -1;
		goto out;
	}
	sbaddf(&tmp, "%s/.manifest.tmp", top.buf);
	for (i = 0; i < m->n && rc == 0; i++) {
		const struct cell *cl = &m->cells[i];
		struct stat st;
		char key[65];

		sbreset(&dir);
		bdpath(&dir, builddir, BD_MANIFEST, cl->id);
		if (stat(dir.buf, &st) == 0) {
			nlocal++;
			continue;
		}
		if (down) {
			nmissing++;
			continue;
		}
		sbreset(&why);
		/* (copyentry checks the wheel, downloading it or not) */
		switch (storelookup(k, s, cl, tmp.buf, 0, key, &why)) {
		case STORED:
			sbreset(&dir);
			bdpath(&dir, builddir, BD_STOREDIR, cl->id);
			if (mkdirs(dir.buf) < 0) {
				rc = -1;
				break;
			}
			sbreset(&why);
			rc = copyentry(s, cl, tmp.buf, dir.buf, manifestsonly, &why);
			if (rc == 0) {
				nstored++;
				setadd(&keep, cl->id);
			} else if (rc == 1) {
				rc = 0;
				nbad++;
				notice("merge-index: left out %s: %s", cl->id, why.buf);
			}
			break;
		case STOREDOWN:
			warn("%s: the index holds only the cells built here", why.buf);
			down = 1;
			nmissing++;
			break;
		case BADENTRY:
		case WHEELBAD:
			nbad++;
			notice("merge-index: left out %s: %s", cl->id, why.buf);
			break;
		case OTHERKEY:
			nother++;
			break;
		default:
			nmissing++;
		}
	}
	unlink(tmp.buf);
	/* cells no longer stored (or built here now) leave the pulled tree */
	if (rc == 0 && (d = opendir(top.buf))) {
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.' || !setadd(&keep, e->d_name))
				continue;
			sbreset(&dir);
			sbaddf(&dir, "%s/%s", top.buf, e->d_name);
			rmtree(dir.buf);
		}
		closedir(d);
	}
	report("store %s: %zu cell%s of the config restored%s, %zu built here, %zu not in the store, %zu built from "
	       "other inputs (an earlier config), %zu left out: a damaged entry (listed above; a plan builds them again)",
	       storename(s), nstored, nstored == 1 ? "" : "s", manifestsonly ? " (manifests only: the pages link the store)" : "",
	       nlocal, nmissing, nother, nbad);
out:
	sbfree(&top);
	sbfree(&dir);
	sbfree(&tmp);
	sbfree(&why);
	sbfree(&keep);
	return rc;
}

int
unusedstore(struct keyctx *k, const struct store *s, const struct matrix *m, const char *builddir, int del)
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
		if (storelookup(k, s, &m->cells[i], tmp.buf, 0, key, &why) != STORED)
			continue;
		sbreset(&meta);
		sbaddf(&meta, "%s.manifest", m->cells[i].id);
		setadd(&used, meta.buf);
		sbreset(&why);
		if (manifestparse(tmp.buf, &mf, &why) == 0) {
			setadd(&used, wheelfile(&mf));
			sbreset(&meta);
			sbaddf(&meta, "%s.metadata", wheelfile(&mf));
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
		files[1] = !bad && goodwheel(mf.filename) ? wheelfile(&mf) : NULL;
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
	sbfree(&names);
	sbfree(&why);
	sbfree(&tmp);
	sbfree(&used);
	sbfree(&meta);
	return rc;
}
