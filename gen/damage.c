/* damage: what is wrong with a store's entry, and taking it out (see damage.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "damage.h"
#include "files.h"
#include "listing.h"
#include "platform.h"
#include "sha256.h"
#include "wheelfile.h"

int
plainwheel(const char *f)
{
	size_t n = strlen(f);

	return plainname(f) && f[0] != '.' && n > 4 && !strcmp(f + n - 4, ".whl");
}

const char *
entrywheel(const struct wheelinfo *m)
{
	return m->stored ? m->stored : m->filename;
}

void
wheelmismatch(const struct store *s, const struct wheelinfo *m, enum mismatch what, unsigned long long size,
	      const char *hash, struct sb *why)
{
	const char *name = entrywheel(m);

	switch (what) {
	case MISMATCH_MISSING:
		sbaddf(why, "its wheel %s%s is missing", storename(s), name);
		break;
	case MISMATCH_SIZE:
		sbaddf(why, "its wheel %s%s has %llu bytes, its manifest says %lld", storename(s), name, size, m->size);
		break;
	case MISMATCH_SHA256:
		sbaddf(why, "its wheel %s%s has sha256 %.12s..., its manifest says %.12s...", storename(s), name, hash,
		       m->sha256);
		break;
	case MISMATCH_NOMETADATA:
		sbaddf(why, "its wheel's %s%s.metadata is missing", storename(s), name);
		break;
	}
}

void
cellwant(struct wheelwant *want, const struct cell *cl, const struct wheelinfo *m)
{
	want->package = cl->pkg->norm;
	want->version = m->wheelversion;
	want->python = cl->python;
	want->machine = cl->platform->machine;
	want->tags = m->tags;
}

int
wheeldamage(const struct store *s, const struct wheelinfo *m, struct sb *why)
{
	const char *name = entrywheel(m);
	long long size;
	char hex[65];
	int r = storestat(s, name, &size, why);

	if (r < 0)
		return -1;
	if (r == 1) {
		wheelmismatch(s, m, MISMATCH_MISSING, 0, NULL, why);
		return 1;
	}
	if (m->size > 0 && size >= 0 && size != m->size) {
		wheelmismatch(s, m, MISMATCH_SIZE, (unsigned long long)size, NULL, why);
		return 1;
	}
	if (storehash(s, name, hex) == 0 && strcmp(hex, m->sha256)) {
		wheelmismatch(s, m, MISMATCH_SHA256, 0, hex, why);
		return 1;
	}
	if (m->metasha && *m->metasha) {
		/* (the index serves it beside the wheel: PEP 658) */
		struct sb meta = SB_INIT;

		sbaddf(&meta, "%s.metadata", name);
		r = storestat(s, meta.buf, &size, why);
		if (r == 1)
			wheelmismatch(s, m, MISMATCH_NOMETADATA, 0, NULL, why);
		sbfree(&meta);
		if (r != 0)
			return r;
	}
	return 0;
}

/* does m's test record (tested=) name another wheel than its sha256=? 1 with why */
static int
untested(const struct wheelinfo *m, struct sb *why)
{
	if (m->tested && !strcmp(m->tested, m->sha256))
		return 0;
	sbaddf(why, "its tested= (%.12s) is not its wheel's sha256 (%.12s...): no test passed for this wheel",
	       m->tested && *m->tested ? m->tested : "none", m->sha256);
	return 1;
}

int
entrydamage(const struct cell *cl, const struct wheelinfo *m, struct sb *why)
{
	struct wheelwant want;
	struct sb w = SB_INIT;
	int rc = 1;

	if (strcmp(orempty(m->cell), cl->id))
		sbaddf(why, "its cell= is '%s'", orempty(m->cell));
	else if (m->version && *m->version && strcmp(m->version, cl->version))
		sbaddf(why, "its version= is %s", m->version);
	else if (m->python && *m->python && strcmp(m->python, cl->python))
		sbaddf(why, "its python= is %s", m->python);
	else if (m->platform && *m->platform && strcmp(m->platform, cl->platform->machine))
		sbaddf(why, "its platform= is %s", m->platform);
	else if (!plainwheel(m->filename))
		sbaddf(why, "its filename= '%s' is not a wheel's", m->filename);
	else if (untested(m, why))
		;
	else {
		cellwant(&want, cl, m);
		if (wheelnamecheck(m->filename, &want, &w) == 0)
			rc = 0;
		else
			sbaddf(why, "its wheel %s: %s", m->filename, w.buf);
	}
	sbfree(&w);
	return rc;
}

int
fetchverified(const struct store *s, const char *name, const char *dest, const char *sha, long long size,
	     struct sb *why)
{
	int r = storeget(s, name, dest, 0, why);

	if (r != 0) {
		if (r == 1)
			sbaddf(why, "%s%s is missing", storename(s), name);
		return r;
	}
	return fileverified(s, name, dest, sha, size, why);
}

int
fileverified(const struct store *s, const char *name, const char *dest, const char *sha, long long size,
	     struct sb *why)
{
	char got[65];
	struct stat st;

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

int
storetakeout(const struct store *s, const char *cell, const char *sha256, const char *why)
{
	struct sb name = SB_INIT, tmp = SB_INIT, err = SB_INIT, from = SB_INIT, to = SB_INIT;
	struct wheelinfo m;
	int rc = -1, r;

	sbaddf(&name, "%s.manifest", cell);
	sbaddf(&tmp, "%s/wgtakeout.%ld", tmpdir(), (long)getpid());
	if (s->release) {
		warn("the damaged entry %s%s stays in the store (a GitHub release: wheelgen cannot remove its assets; "
		     "publish the cell again): %s", storename(s), name.buf, why);
		goto out;
	}
	/* (still the damaged entry? a publisher may have replaced it since) */
	r = storeget(s, name.buf, tmp.buf, MANIFEST_MAX, &err);
	if (r == 1) {
		rc = 0;
		goto out;
	}
	if (r < 0) {
		warn("the damaged entry %s%s stays in the store: %s: %s", storename(s), name.buf, err.buf, why);
		goto out;
	}
	if (manifestparse(tmp.buf, &m, &err) == 0) {
		r = sha256 && strcmp(m.sha256, sha256) ? 1 : 0;
		manifestfree(&m);
		if (r) {
			rc = 0;
			goto out;
		}
	}
	sbreset(&err);
	if (s->kind == STORE_DIR) {
		sbaddf(&from, "%s%s", s->where, name.buf);
		sbaddf(&to, "%s.damaged", from.buf);
		if (rename(from.buf, to.buf) == 0)
			rc = 0;
		else
			sbaddf(&err, "cannot rename '%s': %s", from.buf, strerror(errno));
	} else {
		rc = storedel(s, name.buf, &err);
	}
	if (rc == 0)
		report("took the damaged entry %s%s out of the store%s (the next plan builds %s again): %s", storename(s),
		       name.buf, s->kind == STORE_DIR ? " (now .manifest.damaged)" : "", cell, why);
	else
		warn("the damaged entry %s%s stays in the store: %s (wheelgen store verify --repair takes it out, "
		     "with write access): %s", storename(s), name.buf, err.buf, why);
out:
	unlink(tmp.buf);
	sbfree(&name);
	sbfree(&tmp);
	sbfree(&err);
	sbfree(&from);
	sbfree(&to);
	return rc;
}

void
takeoutentry(const struct store *s, const struct cell *cl, const char *tmpman, const char *why)
{
	struct wheelinfo m;
	struct sb err = SB_INIT;

	if (manifestparse(tmpman, &m, &err) == 0) {
		storetakeout(s, cl->id, m.sha256, why);
		manifestfree(&m);
	} else {
		storetakeout(s, cl->id, NULL, why);
	}
	sbfree(&err);
}

/* verify one entry (its manifest fetched to tmpman); 0 whole, 1 damaged (why), -1 a fault (why) */
static int
verifyentry(const struct store *s, const char *entry, const char *tmpman, const char *tmpwheel, struct wheelinfo *m,
	    struct sb *why)
{
	struct sb meta = SB_INIT, cell = SB_INIT;
	struct wheelwant want;
	int r;

	/* <cell>.manifest, or a damaged one taken out: <cell>.manifest.damaged */
	sbaddn(&cell, entry, strstr(entry, ".manifest") ? (size_t)(strstr(entry, ".manifest") - entry) : strlen(entry));
	if ((r = storeget(s, entry, tmpman, MANIFEST_MAX, why)) != 0) {
		if (r == 1)
			sbadd(why, "removed while it was read");
		goto out;
	}
	if (manifestparse(tmpman, m, why) < 0) {
		r = 1;
		goto out;
	}
	r = 1;
	if (strcmp(orempty(m->cell), cell.buf)) {
		sbaddf(why, "its cell= is '%s'", orempty(m->cell));
		goto out;
	}
	if (untested(m, why))
		goto out;
	if ((r = fetchverified(s, entrywheel(m), tmpwheel, m->sha256, m->size, why)) != 0)
		goto out;
	if (m->python && *m->python && plainwheel(m->filename)) {
		/* (the wheel is at hand: is it what its manifest says, as a restore checks it?) */
		want.package = m->package;
		want.version = m->wheelversion;
		want.python = m->python;
		want.machine = m->platform && *m->platform ? m->platform : platformdefault()->machine;
		want.tags = m->tags;
		if (wheelcheck(tmpwheel, m->filename, &want, why) < 0) {
			r = 1;
			goto out;
		}
	}
	unlink(tmpwheel);
	sbaddf(&meta, "%s.metadata", entrywheel(m));
	if (m->metasha && *m->metasha)
		r = fetchverified(s, meta.buf, tmpwheel, m->metasha, 0, why);
out:
	unlink(tmpwheel);
	unlink(tmpman);
	sbfree(&meta);
	sbfree(&cell);
	return r;
}

/*
 * A directory store's entries taken out as damaged (<cell>.manifest.damaged) that are whole: a
 * valid entry a check wrongly called damaged (wheelgen before pytag.c called every Python 3.6
 * to 3.9 cell so). Each is said ("<entry>\twhole: taken out wrongly"); with repair, renamed back
 * where the cell has no entry since. 0, or -1 (a message) when the store could not be read.
 */
static int
verifytakenout(const struct store *s, const char *tmpman, const char *tmpwheel, int repair)
{
	struct sb names = SB_INIT, why = SB_INIT, from = SB_INIT, to = SB_INIT;
	char *next, *name;
	size_t nback = 0, nwhole = 0;
	int rc = 0;

	if (storelist(s, ".manifest.damaged", &names, &why) < 0)
		return error("cannot list the store %s: %s", storename(s), why.buf);
	next = names.buf;
	while (rc == 0 && names.len && (name = nextline(&next))) {
		struct wheelinfo m;
		struct stat st;
		int r;

		memset(&m, 0, sizeof(m));
		sbreset(&why);
		r = verifyentry(s, name, tmpman, tmpwheel, &m, &why);
		manifestfree(&m);
		if (r < 0) {
			rc = error("cannot verify the store %s: %s", storename(s), why.buf);
			break;
		}
		if (r == 1)
			continue; /* damaged indeed: it stays out */
		nwhole++;
		sbreset(&from);
		sbreset(&to);
		sbaddf(&from, "%s%s", s->where, name);
		sbaddn(&to, from.buf, from.len - strlen(".damaged"));
		if (!repair) {
			printf("%s\twhole: taken out wrongly (--repair puts it back)\n", name);
		} else if (lstat(to.buf, &st) == 0) {
			printf("%s\twhole: taken out wrongly, but the cell has an entry since\n", name);
		} else if (link(from.buf, to.buf) == 0) {
			/* (link: a publisher's entry made meanwhile is never replaced) */
			unlink(from.buf);
			printf("%s\twhole: put back\n", name);
			nback++;
		} else {
			rc = error("cannot put '%s' back: %s", from.buf, strerror(errno));
		}
	}
	if (rc == 0 && nwhole)
		notice("store %s: %zu entr%s taken out as damaged %s whole%s", storename(s), nwhole, nwhole == 1 ? "y" : "ies",
		       nwhole == 1 ? "is" : "are", repair ? "" : " (wheelgen store verify --repair puts them back)");
	sbfree(&names);
	sbfree(&why);
	sbfree(&from);
	sbfree(&to);
	return rc;
}

int
verifystore(const struct store *s, const char *builddir, int repair)
{
	struct sb names = SB_INIT, why = SB_INIT, tmpman = SB_INIT, tmpwheel = SB_INIT;
	char *next, *name;
	size_t n = 0, nbad = 0, nout = 0;
	int rc = 0;

	if (storelist(s, ".manifest", &names, &why) < 0)
		return error("cannot list the store %s: %s", storename(s), why.buf);
	sbaddf(&tmpman, "%s/.verify.manifest", builddir);
	sbaddf(&tmpwheel, "%s/.verify.wheel", builddir);
	next = names.buf;
	while (rc == 0 && names.len && (name = nextline(&next))) {
		struct wheelinfo m;
		int r;

		memset(&m, 0, sizeof(m));
		sbreset(&why);
		n++;
		r = verifyentry(s, name, tmpman.buf, tmpwheel.buf, &m, &why);
		if (r < 0) {
			rc = error("cannot verify the store %s: %s", storename(s), why.buf);
		} else if (r == 0) {
			printf("%s\tok\n", name);
		} else {
			printf("%s\tdamaged: %s\n", name, why.buf);
			nbad++;
			name[strlen(name) - strlen(".manifest")] = '\0';
			if (repair && storetakeout(s, name, m.sha256, why.buf) == 0)
				nout++;
		}
		manifestfree(&m);
	}
	if (rc == 0)
		notice("store %s: %zu entr%s verified, %zu damaged%s", storename(s), n, n == 1 ? "y" : "ies", nbad,
		       repair ? (nout == nbad ? " (taken out: the next plan builds them again)" : " (some stay: see above)") : "");
	if (rc == 0 && s->kind == STORE_DIR)
		rc = verifytakenout(s, tmpman.buf, tmpwheel.buf, repair);
	sbfree(&names);
	sbfree(&why);
	sbfree(&tmpman);
	sbfree(&tmpwheel);
	return rc < 0 ? -1 : nbad > nout ? 1 : 0;
}

