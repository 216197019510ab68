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
#include "restore.h"
#include "sha256.h"

/* the manifest fields restoring reads */
enum { M_CELL, M_KEY, M_FILENAME, M_SHA256, M_SIZE, M_METASHA, M_UPLOAD, M_COMMIT, M_TESTED, M_GPU, M_ORIGIN, M_N };
static const char *const mkeys[] = {
	"cell", "key", "filename", "sha256", "size", "metadata_sha256", "upload_time", "commit", "tested", "gpu", "origin", NULL,
};

struct mf {
	char *v[M_N];
};

static int
mfread(const char *path, struct mf *m)
{
	memset(m, 0, sizeof(*m));
	return readkeys(path, mkeys, m->v);
}

static void
mffree(struct mf *m)
{
	size_t i;

	for (i = 0; i < M_N; i++)
		free(m->v[i]);
	memset(m, 0, sizeof(*m));
}

static const char *
mfget(const struct mf *m, int i)
{
	return m->v[i] ? m->v[i] : "";
}

/* a wheel's file name as the store may hold it: a plain file name, not hidden, ending in .whl */
static int
goodwheel(const char *f)
{
	size_t n = strlen(f);

	return plainname(f) && f[0] != '.' && n > 4 && !strcmp(f + n - 4, ".whl");
}

enum storestate
storelookup(struct keyctx *k, const struct store *s, const struct cell *cl, const char *tmpfile, char key[65],
	    struct sb *why)
{
	struct sb name = SB_INIT, err = SB_INIT;
	enum storestate st;
	struct mf m;
	int r;

	key[0] = '\0';
	r = cellkey(k, cl, NULL, key, NULL);
	if (r < 0) {
		sbadd(why, "its key could not be computed");
		key[0] = '\0';
		return UNKNOWNKEY;
	}
	if (r == 1)
		key[0] = '\0';
	if (s->kind == STORE_NONE) {
		sbadd(why, "no store");
		return NOTSTORED;
	}
	sbaddf(&name, "%s.manifest", cl->id);
	r = storeget(s, name.buf, tmpfile, &err);
	if (r < 0) {
		sbaddf(why, "the store could not be read: %s", err.buf);
		st = STOREDOWN;
	} else if (r == 1) {
		sbaddf(why, "the store has no %s", name.buf);
		st = NOTSTORED;
	} else if (mfread(tmpfile, &m) < 0) {
		sbaddf(why, "cannot read %s: %s", tmpfile, strerror(errno));
		st = STOREDOWN;
	} else {
		char other[65];

		if (!m.v[M_KEY] || !ishex64(m.v[M_KEY])) {
			sbaddf(why, "store entry %s%s has no key (published before cells had keys)", storename(s), name.buf);
			st = BADENTRY;
		} else if (!key[0] && cl->pkg->src == SRC_GIT && m.v[M_COMMIT] &&
			   cellkey(k, cl, m.v[M_COMMIT], other, NULL) == 0 && !strcmp(other, m.v[M_KEY])) {
			/* no lock entry: the stored build of this config at the commit its tag had then */
			strcpy(key, other);
			st = STORED;
		} else if (!key[0]) {
			sbadd(why, "its source commit is unknown (no lock entry, no checkout)");
			st = UNKNOWNKEY;
		} else if (strcmp(key, m.v[M_KEY])) {
			sbaddf(why, "%s%s was built from other inputs (key %.12s, this cell's is %.12s)", storename(s),
			       name.buf, m.v[M_KEY], key);
			st = OTHERKEY;
		} else {
			st = STORED;
		}
		mffree(&m);
	}
	sbfree(&name);
	sbfree(&err);
	return st;
}

/* fetch the store's name into dest and check its sha256 (and size, when size is not NULL); 0, or
   1 with why (nothing left at dest) */
static int
fetchchecked(const struct store *s, const char *name, const char *dest, const char *sha, const char *size,
	     struct sb *why)
{
	char got[65];
	struct stat st;
	int r = storeget(s, name, dest, why);

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
	if (size && *size && (stat(dest, &st) < 0 || st.st_size != strtoll(size, NULL, 10))) {
		sbaddf(why, "%s%s has another size than its manifest says (%s)", storename(s), name, size);
		unlink(dest);
		return 1;
	}
	return 0;
}

/* the stored manifest's text with origin=store */
static int
writemanifest(const char *from, const char *to)
{
	struct sb out = SB_INIT;
	char *buf = readfile(from, NULL), *next, *line;
	int rc;

	if (!buf)
		return error("cannot read '%s': %s", from, strerror(errno));
	next = buf;
	while ((line = nextline(&next))) {
		if (!startswith(line, "origin="))
			sbaddf(&out, "%s\n", line);
	}
	sbadd(&out, "origin=store\n");
	rc = writeifchanged(to, out.buf, out.len) < 0 ? -1 : 0;
	free(buf);
	sbfree(&out);
	return rc;
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
 * (unless manifestsonly), then the manifest with origin=store. 0, or 1 with a warning
 * printed (the cell is built), or -1 on a local error.
 */
static int
copyentry(const struct store *s, const struct cell *cl, const char *tmpman, const char *dir, int manifestsonly)
{
	struct sb why = SB_INIT, wtmp = SB_INIT, mtmp = SB_INIT, wdst = SB_INIT, mdst = SB_INIT, meta = SB_INIT, man = SB_INIT;
	const char *fn;
	struct mf m;
	int rc = 1;

	if (mfread(tmpman, &m) < 0) {
		sbfree(&why);
		return error("cannot read '%s': %s", tmpman, strerror(errno));
	}
	fn = mfget(&m, M_FILENAME);
	if (!goodwheel(fn) || !m.v[M_SHA256] || !ishex64(m.v[M_SHA256]) || strcmp(mfget(&m, M_CELL), cl->id)) {
		warn("store entry %s%s.manifest is not a manifest of cell %s (filename '%s'); building it", storename(s),
		     cl->id, cl->id, fn);
		goto out;
	}
	sbaddf(&wtmp, "%s/.%s.store", dir, fn);
	sbaddf(&wdst, "%s/%s", dir, fn);
	sbaddf(&meta, "%s.metadata", fn);
	sbaddf(&mtmp, "%s/.%s.metadata.store", dir, fn);
	sbaddf(&mdst, "%s/%s.metadata", dir, fn);
	if (!manifestsonly) {
		if (fetchchecked(s, fn, wtmp.buf, m.v[M_SHA256], mfget(&m, M_SIZE), &why)) {
			warn("store entry of %s: %s; building it", cl->id, why.buf);
			goto out;
		}
		if (m.v[M_METASHA] && *m.v[M_METASHA] && fetchchecked(s, meta.buf, mtmp.buf, m.v[M_METASHA], NULL, &why)) {
			warn("store entry of %s: %s; building it", cl->id, why.buf);
			unlink(wtmp.buf);
			goto out;
		}
		if (m.v[M_UPLOAD] && *m.v[M_UPLOAD]) {
			/* the upload time is the wheel's mtime, so that the index's pages come out the same */
			struct timespec ts[2];

			ts[0].tv_sec = ts[1].tv_sec = (time_t)strtoll(m.v[M_UPLOAD], NULL, 10);
			ts[0].tv_nsec = ts[1].tv_nsec = 0;
			utimensat(AT_FDCWD, wtmp.buf, ts, 0);
		}
		if (rename(wtmp.buf, wdst.buf) < 0 || (m.v[M_METASHA] && *m.v[M_METASHA] && rename(mtmp.buf, mdst.buf) < 0)) {
			rc = error("cannot move the wheel into '%s': %s", dir, strerror(errno));
			unlink(wtmp.buf);
			unlink(mtmp.buf);
			goto out;
		}
		dropothers(dir, fn);
	}
	sbaddf(&man, "%s/manifest", dir);
	rc = writemanifest(tmpman, man.buf) < 0 ? -1 : 0;
out:
	mffree(&m);
	sbfree(&why);
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

	sbaddf(&dir, "%s/wheels/%s", builddir, cl->id);
	sbaddf(&tmp, "%s/.store-manifest", dir.buf);
	sbaddf(&keyfile, "%s/cells/%s/key", builddir, cl->id);
	if (mkdirs(dir.buf) < 0) {
		rc = -1;
		goto out;
	}
	st = storelookup(k, s, cl, tmp.buf, key, &why);
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
		rc = copyentry(s, cl, tmp.buf, dir.buf, 0);
		if (rc == 0)
			rc = writedepfile(cl, builddir, dir.buf);
		if (rc == 0)
			report("restored %s from the store %s (key %.12s)", cl->id, storename(s), key);
		break;
	case STOREDOWN:
	case BADENTRY:
		warn("%s; building %s", why.buf, cl->id);
		break;
	case OTHERKEY:
	case NOTSTORED:
	case UNKNOWNKEY:
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
	struct mf m;
	int rc = 1;

	sbaddf(&path, "%s/wheels/%s/manifest", builddir, cell);
	if (mfread(path.buf, &m) < 0) {
		sbfree(&path);
		return 1;
	}
	if (!strcmp(mfget(&m, M_ORIGIN), "store") && m.v[M_SHA256] && *m.v[M_SHA256] &&
	    !strcmp(mfget(&m, M_TESTED), m.v[M_SHA256]) && !(retest && !strcmp(retest, "1"))) {
		sbaddf(&stamp, "%s/tests/%s.ok", builddir, cell);
		sbaddf(&text, "%s\ngpu=%s\n", m.v[M_SHA256], *mfget(&m, M_GPU) ? mfget(&m, M_GPU) : "none");
		if (writeifchanged(stamp.buf, text.buf, text.len) >= 0) {
			report("test %s: passed before it was published (restored from the store; "
			       "WHEELGEN_RETEST=1 tests it again)", cell);
			rc = 0;
		}
	}
	mffree(&m);
	sbfree(&path);
	sbfree(&stamp);
	sbfree(&text);
	return rc;
}

int
pullstore(struct keyctx *k, const struct store *s, const struct matrix *m, const char *builddir, int manifestsonly)
{
	struct sb top = SB_INIT, dir = SB_INIT, tmp = SB_INIT, why = SB_INIT, keep = SB_INIT;
	size_t i, nstored = 0, nlocal = 0, nmissing = 0, nother = 0;
	int rc = 0, down = 0;
	DIR *d;
	struct dirent *e;

	sbaddf(&top, "%s/store", builddir);
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
		sbaddf(&dir, "%s/wheels/%s/manifest", builddir, cl->id);
		if (stat(dir.buf, &st) == 0) {
			nlocal++;
			continue;
		}
		if (down) {
			nmissing++;
			continue;
		}
		sbreset(&why);
		switch (storelookup(k, s, cl, tmp.buf, key, &why)) {
		case STORED:
			sbreset(&dir);
			sbaddf(&dir, "%s/%s", top.buf, cl->id);
			if (mkdirs(dir.buf) < 0) {
				rc = -1;
				break;
			}
			rc = copyentry(s, cl, tmp.buf, dir.buf, manifestsonly);
			if (rc == 0) {
				nstored++;
				setadd(&keep, cl->id);
			} else if (rc == 1) {
				rc = 0;
				nother++;
			}
			break;
		case STOREDOWN:
			warn("%s: the index holds only the cells built here", why.buf);
			down = 1;
			nmissing++;
			break;
		case OTHERKEY:
		case BADENTRY:
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
	report("store %s: %zu cell%s of the config restored%s, %zu built here, %zu not in the store, %zu built from other inputs",
	       storename(s), nstored, nstored == 1 ? "" : "s", manifestsonly ? " (manifests only: the pages link the store)" : "",
	       nlocal, nmissing, nother);
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
		struct mf mf;

		sbreset(&why);
		if (storelookup(k, s, &m->cells[i], tmp.buf, key, &why) != STORED)
			continue;
		sbreset(&meta);
		sbaddf(&meta, "%s.manifest", m->cells[i].id);
		setadd(&used, meta.buf);
		if (mfread(tmp.buf, &mf) == 0 && mf.v[M_FILENAME]) {
			setadd(&used, mf.v[M_FILENAME]);
			sbreset(&meta);
			sbaddf(&meta, "%s.metadata", mf.v[M_FILENAME]);
			setadd(&used, meta.buf);
		}
		mffree(&mf);
	}
	next = names.buf;
	while (names.len && (name = nextline(&next))) {
		struct mf mf;
		const char *files[3];
		size_t f;

		if (!setadd(&used, name))
			continue; /* a used entry (setadd added nothing) */
		n++;
		memset(&mf, 0, sizeof(mf));
		sbreset(&why);
		if (storeget(s, name, tmp.buf, &why) == 0)
			mfread(tmp.buf, &mf);
		printf("%s\t%s\n", name, mf.v[M_KEY] ? "no cell of the config has its key" : "no key");
		if (!del) {
			mffree(&mf);
			continue;
		}
		files[0] = name;
		files[1] = goodwheel(mfget(&mf, M_FILENAME)) ? mf.v[M_FILENAME] : NULL;
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
		mffree(&mf);
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
