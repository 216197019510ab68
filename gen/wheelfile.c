/* wheelfile: what a wheel file says of itself, read without trusting it (see wheelfile.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "pep.h"
#include "pytag.h"
#include "wheelfile.h"

/* --- the file name ------------------------------------------------------------------------ */

int
wheelnameparse(const char *filename, struct wheelname *w, struct sb *why)
{
	char *base, *part[6];
	size_t n = strlen(filename), k = 0;
	char *p;

	memset(w, 0, sizeof(*w));
	if (n < 5 || strcmp(filename + n - 4, ".whl") || strchr(filename, '/')) {
		sbaddf(why, "'%s' is not a wheel's file name", filename);
		return -1;
	}
	base = xstrndup(filename, n - 4);
	for (p = base; k < 6;) {
		part[k++] = p;
		if (!(p = strchr(p, '-')))
			break;
		*p++ = '\0';
	}
	if ((k != 5 && k != 6) || p) {
		sbaddf(why, "'%s' is not name-version[-build]-python-abi-platform.whl", filename);
		free(base);
		return -1;
	}
	for (n = 0; n < k; n++) {
		if (!*part[n]) {
			sbaddf(why, "'%s' has an empty part", filename);
			free(base);
			return -1;
		}
	}
	w->dist = xstrdup(part[0]);
	w->version = xstrdup(part[1]);
	w->build = xstrdup(k == 6 ? part[2] : "");
	w->py = xstrdup(part[k - 3]);
	w->abi = xstrdup(part[k - 2]);
	w->plat = xstrdup(part[k - 1]);
	free(base);
	return 0;
}

void
wheelnamefree(struct wheelname *w)
{
	free(w->dist);
	free(w->version);
	free(w->build);
	free(w->py);
	free(w->abi);
	free(w->plat);
	memset(w, 0, sizeof(*w));
}

/* --- the zip ------------------------------------------------------------------------------ */

static unsigned
le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static unsigned long
le32(const unsigned char *p)
{
	return (unsigned long)le16(p) | (unsigned long)le16(p + 2) << 16;
}

static unsigned long long
le64(const unsigned char *p)
{
	return (unsigned long long)le32(p) | (unsigned long long)le32(p + 4) << 32;
}

/* exactly n bytes at off, or -1 */
static int
readat(int fd, unsigned char *buf, size_t n, unsigned long long off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, buf + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* the end of the central directory: its entries, size and offset (zip64 too); -1 with why */
static int
findcd(struct zipfile *z, unsigned long long *count, unsigned long long *cdsize, unsigned long long *cdoff,
       struct sb *why)
{
	unsigned char *tail;
	size_t n = z->size < 65557 ? (size_t)z->size : 65557, i;
	int rc = -1;

	if (n < 22) {
		sbadd(why, "it is too short to be a zip");
		return -1;
	}
	tail = xmalloc(n);
	if (readat(z->fd, tail, n, z->size - n) < 0) {
		sbadd(why, "it cannot be read");
		goto out;
	}
	for (i = n - 22 + 1; i-- > 0;) {
		if (le32(tail + i) == 0x06054b50UL)
			break;
	}
	if (i == (size_t)-1) {
		sbadd(why, "it is not a zip (no end of central directory)");
		goto out;
	}
	*count = le16(tail + i + 10);
	*cdsize = le32(tail + i + 12);
	*cdoff = le32(tail + i + 16);
	if (*count == 0xFFFF || *cdsize == 0xFFFFFFFFUL || *cdoff == 0xFFFFFFFFUL) {
		unsigned char loc[20], rec[56];

		/* zip64: the locator right before, pointing at the zip64 end record */
		if (i < 20 || le32(tail + i - 20) != 0x07064b50UL) {
			sbadd(why, "its zip64 end of central directory is missing");
			goto out;
		}
		memcpy(loc, tail + i - 20, 20);
		if (readat(z->fd, rec, sizeof(rec), le64(loc + 8)) < 0 || le32(rec) != 0x06064b50UL) {
			sbadd(why, "its zip64 end of central directory is broken");
			goto out;
		}
		*count = le64(rec + 32);
		*cdsize = le64(rec + 40);
		*cdoff = le64(rec + 48);
	}
	if (*cdoff > z->size || *cdsize > z->size - *cdoff || *count > ZIP_MAX_ENTRIES || *count > *cdsize / 46) {
		sbadd(why, "its central directory lies outside the file or is too large");
		goto out;
	}
	rc = 0;
out:
	free(tail);
	return rc;
}

/* a zip64 extra field's sizes and offset, for the fields that are 0xFFFFFFFF */
static void
zip64extra(const unsigned char *x, size_t n, struct zipentry *e, int needu, int needc, int needo)
{
	while (n >= 4) {
		unsigned id = le16(x), len = le16(x + 2);
		const unsigned char *v = x + 4;
		size_t left = len;

		if (len > n - 4)
			return;
		if (id == 1) {
			if (needu && left >= 8)
				e->usize = le64(v), v += 8, left -= 8;
			if (needc && left >= 8)
				e->csize = le64(v), v += 8, left -= 8;
			if (needo && left >= 8)
				e->offset = le64(v);
			return;
		}
		x += 4 + len;
		n -= 4 + len;
	}
}

int
zipcentral(int fd, unsigned long long size, unsigned long long *cdoff, unsigned long long *cdsize, struct sb *why)
{
	struct zipfile z;
	unsigned long long count;

	memset(&z, 0, sizeof(z));
	z.fd = fd;
	z.size = size;
	return findcd(&z, &count, cdsize, cdoff, why);
}

int
zipopenfd(int fd, struct zipfile *z, struct sb *why)
{
	unsigned long long count, cdsize, cdoff, i;
	unsigned char *cd = NULL, *p, *end;
	struct stat st;
	size_t cap = 0;

	memset(z, 0, sizeof(*z));
	z->fd = fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		sbadd(why, "it is not a file");
		goto fail;
	}
	z->size = (unsigned long long)st.st_size;
	if (findcd(z, &count, &cdsize, &cdoff, why) < 0)
		goto fail;
	cd = xmalloc(cdsize ? (size_t)cdsize : 1);
	if (readat(fd, cd, (size_t)cdsize, cdoff) < 0) {
		sbadd(why, "its central directory cannot be read");
		goto fail;
	}
	p = cd;
	end = cd + cdsize;
	for (i = 0; i < count; i++) {
		struct zipentry *e;
		size_t nl, xl, cl;

		if ((size_t)(end - p) < 46 || le32(p) != 0x02014b50UL) {
			sbaddf(why, "its central directory entry %llu is broken", i + 1);
			goto fail;
		}
		nl = le16(p + 28);
		xl = le16(p + 30);
		cl = le16(p + 32);
		if ((size_t)(end - p) - 46 < nl + xl + cl || nl == 0) {
			sbaddf(why, "its central directory entry %llu runs past its end", i + 1);
			goto fail;
		}
		GROW(z->e, cap, z->n + 1);
		e = &z->e[z->n++];
		memset(e, 0, sizeof(*e));
		e->name = xstrndup((const char *)p + 46, nl);
		e->method = (int)le16(p + 10);
		e->csize = le32(p + 20);
		e->usize = le32(p + 24);
		e->offset = le32(p + 42);
		zip64extra(p + 46 + nl, xl, e, e->usize == 0xFFFFFFFFUL, e->csize == 0xFFFFFFFFUL, e->offset == 0xFFFFFFFFUL);
		if (strlen(e->name) != nl) {
			sbaddf(why, "member %llu has a NUL in its name", i + 1);
			goto fail;
		}
		if (e->offset > z->size || e->csize > z->size - e->offset) {
			sbaddf(why, "member '%s' lies outside the file", e->name);
			goto fail;
		}
		p += 46 + nl + xl + cl;
	}
	free(cd);
	return 0;
fail:
	free(cd);
	zipclose(z);
	return -1;
}

void
zipclose(struct zipfile *z)
{
	size_t i;

	for (i = 0; i < z->n; i++)
		free(z->e[i].name);
	free(z->e);
	if (z->fd >= 0)
		close(z->fd);
	memset(z, 0, sizeof(*z));
	z->fd = -1;
}

int
zipread(const struct zipfile *z, const struct zipentry *e, size_t max, struct sb *out, struct sb *why)
{
	unsigned char lh[30], in[16384], buf[16384];
	unsigned long long off, left;
	z_stream zs;
	size_t want = max;
	int rc = -1, zr = Z_OK;

	if (readat(z->fd, lh, sizeof(lh), e->offset) < 0 || le32(lh) != 0x04034b50UL) {
		sbaddf(why, "member '%s': its local header is broken", e->name);
		return -1;
	}
	off = e->offset + 30 + le16(lh + 26) + le16(lh + 28);
	if (off > z->size || e->csize > z->size - off) {
		sbaddf(why, "member '%s' lies outside the file", e->name);
		return -1;
	}
	left = e->csize;
	if (e->method == 0) {
		size_t n = left < want ? (size_t)left : want;

		sbgrow(out, n);
		if (readat(z->fd, (unsigned char *)out->buf + out->len, n, off) < 0) {
			sbaddf(why, "member '%s' cannot be read", e->name);
			return -1;
		}
		out->len += n;
		out->buf[out->len] = '\0';
		return 0;
	}
	if (e->method != 8) {
		sbaddf(why, "member '%s' is compressed with method %d (a wheel uses 0 or 8)", e->name, e->method);
		return -1;
	}
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, -MAX_WBITS) != Z_OK) {
		sbadd(why, "zlib cannot start");
		return -1;
	}
	while (want > 0 && zr != Z_STREAM_END) {
		if (zs.avail_in == 0) {
			size_t n = left < sizeof(in) ? (size_t)left : sizeof(in);

			if (n == 0 || readat(z->fd, in, n, off) < 0) {
				sbaddf(why, "member '%s' ends early", e->name);
				goto out;
			}
			off += n;
			left -= n;
			zs.next_in = in;
			zs.avail_in = (uInt)n;
		}
		zs.next_out = buf;
		zs.avail_out = (uInt)(want < sizeof(buf) ? want : sizeof(buf));
		zr = inflate(&zs, Z_NO_FLUSH);
		if (zr != Z_OK && zr != Z_STREAM_END) {
			sbaddf(why, "member '%s' does not inflate (%s)", e->name, zs.msg ? zs.msg : "zlib error");
			goto out;
		}
		{
			size_t got = (size_t)(zs.next_out - buf);

			sbaddn(out, (const char *)buf, got);
			want -= got;
		}
	}
	rc = 0;
out:
	inflateEnd(&zs);
	return rc;
}

/* --- the checks --------------------------------------------------------------------------- */

/* does each tag of the compressed set hold for pred? */
static int
alltags(const char *set, int (*pred)(const char *, size_t, const struct wheelwant *), const struct wheelwant *w)
{
	for (;;) {
		size_t k = strcspn(set, ".");

		if (!k || !pred(set, k, w))
			return 0;
		if (!set[k])
			return 1;
		set += k + 1;
	}
}

/* a platform tag this machine's Linux installs: linux_M, manylinuxX_M, manylinux_A_B_M, musllinux_A_B_M, any;
   or win_amd64 itself */
static int
platok(const char *t, size_t n, const struct wheelwant *w)
{
	size_t m = strlen(w->machine);

	if (n == 3 && !strncmp(t, "any", 3))
		return 1;
	/* win_amd64: the whole tag */
	if (!strncmp(w->machine, "win_", 4))
		return n == m && !strncmp(t, w->machine, m);
	if (n < m + 2 || t[n - m - 1] != '_' || strncmp(t + n - m, w->machine, m))
		return 0;
	return !strncmp(t, "linux_", 6) || !strncmp(t, "manylinux", 9) || !strncmp(t, "musllinux_", 10);
}

/* can the cell's Python install a wheel of python tag py and abi tag abi? (pytag.h's rule) */
static int
pyok(const struct wheelname *x, const struct wheelwant *w, struct sb *why)
{
	struct pyver v;

	if (pyverparse(w->python, &v) == 0 && pytagsok(&v, x->py, x->abi))
		return 1;
	sbaddf(why, "its tags %s-%s are not for Python %s", x->py, x->abi, w->python);
	return 0;
}

/* the .dist-info directory of z (exactly one, at the top), into dir; -1 with why */
static int
distinfo(const struct zipfile *z, struct sb *dir, struct sb *why)
{
	size_t i;

	for (i = 0; i < z->n; i++) {
		const char *name = z->e[i].name, *slash = strchr(name, '/');
		size_t k = slash ? (size_t)(slash - name) : 0;

		if (k < 11 || strncmp(name + k - 10, ".dist-info", 10))
			continue;
		if (!dir->len) {
			sbaddn(dir, name, k);
		} else if (dir->len != k || strncmp(dir->buf, name, k)) {
			sbaddf(why, "it has two .dist-info directories: %s and %.*s", dir->buf, (int)k, name);
			return -1;
		}
	}
	if (!dir->len) {
		sbadd(why, "it has no .dist-info directory");
		return -1;
	}
	return 0;
}

/* the member named name, or NULL */
static const struct zipentry *
member(const struct zipfile *z, const char *dir, const char *file)
{
	size_t i, n = strlen(dir);

	for (i = 0; i < z->n; i++) {
		if (!strncmp(z->e[i].name, dir, n) && z->e[i].name[n] == '/' && !strcmp(z->e[i].name + n + 1, file))
			return &z->e[i];
	}
	return NULL;
}

/* does WHEEL's text list "Tag: py-abi-plat" for every tag of the name's sets? */
static int
wheeltags(const char *text, const struct wheelname *x)
{
	const char *p, *q, *r;

	for (p = x->py; *p; p += strcspn(p, ".") + (p[strcspn(p, ".")] == '.')) {
		for (q = x->abi; *q; q += strcspn(q, ".") + (q[strcspn(q, ".")] == '.')) {
			for (r = x->plat; *r; r += strcspn(r, ".") + (r[strcspn(r, ".")] == '.')) {
				struct sb line = SB_INIT;
				int found;

				sbaddf(&line, "Tag: %.*s-%.*s-%.*s", (int)strcspn(p, "."), p, (int)strcspn(q, "."), q,
				       (int)strcspn(r, "."), r);
				found = strstr(text, line.buf) != NULL;
				sbfree(&line);
				if (!found)
					return 0;
			}
		}
	}
	return 1;
}

/* each compiled module of z: built for the cell's Python (its suffix) and machine (its ELF head) */
static int
modulesok(const struct zipfile *z, const struct wheelwant *w, struct sb *why)
{
	size_t i;
	struct pyver v;
	char soabi[16] = "";

	if (pyverparse(w->python, &v) == 0)
		pytagsoabi(&v, soabi);
	for (i = 0; i < z->n; i++) {
		const char *name = z->e[i].name, *tag;
		size_t n = strlen(name);
		struct sb head = SB_INIT;
		const char *m;

		if (n < 4 || (strcmp(name + n - 3, ".so") && !strstr(name, ".so.")))
			continue;
		if ((tag = strstr(name, ".cpython-"))) {
			size_t k = strlen(soabi);

			/* .cpython-<soabi>-<platform>.so, or .cpython-<soabi>.so */
			if (!k || strncmp(tag + 9, soabi, k) || (tag[9 + k] != '-' && tag[9 + k] != '.')) {
				sbaddf(why, "its module %s is built for another Python than %s", name, w->python);
				return -1;
			}
		}
		if (zipread(z, &z->e[i], 64, &head, why) < 0) {
			sbfree(&head);
			return -1;
		}
		m = elfmachine((const unsigned char *)head.buf, head.len);
		sbfree(&head);
		if (m && strcmp(m, w->machine)) {
			sbaddf(why, "its library %s is built for %s, not %s", name, m, w->machine);
			return -1;
		}
	}
	return 0;
}

/* the name-level checks of wheelcheck on x, parsed */
static int
namecheck(const struct wheelname *x, const struct wheelwant *w, struct sb *why)
{
	struct sb want = SB_INIT;
	char *norm = xmalloc(strlen(x->dist) + 1);
	int rc = -1;

	pepnormalize(x->dist, norm);
	if (strcmp(norm, w->package)) {
		sbaddf(why, "it is a wheel of %s, not %s", x->dist, w->package);
		goto out;
	}
	if (w->version && strcmp(x->version, w->version)) {
		/* (PEP 427 spells the version with '_' for '-' ) */
		sbaddf(why, "it is version %s, not %s", x->version, w->version);
		goto out;
	}
	if (w->tags) {
		sbaddf(&want, "%s-%s-%s", x->py, x->abi, x->plat);
		if (strcmp(want.buf, w->tags)) {
			sbaddf(why, "its name's tags are %s, its manifest says %s", want.buf, w->tags);
			goto out;
		}
	}
	if (!pyok(x, w, why))
		goto out;
	if (!alltags(x->plat, platok, w)) {
		sbaddf(why, "its platform %s is not %s%s", x->plat, strncmp(w->machine, "win_", 4) ? "Linux " : "", w->machine);
		goto out;
	}
	rc = 0;
out:
	free(norm);
	sbfree(&want);
	return rc;
}

int
wheelnamecheck(const char *filename, const struct wheelwant *w, struct sb *why)
{
	struct wheelname x;
	int rc;

	if (wheelnameparse(filename, &x, why) < 0)
		return -1;
	rc = namecheck(&x, w, why);
	wheelnamefree(&x);
	return rc;
}

int
wheeltagsok(const char *text, const char *filename)
{
	struct wheelname x;
	struct sb why = SB_INIT;
	int ok;

	if (wheelnameparse(filename, &x, &why) < 0) {
		sbfree(&why);
		return 0;
	}
	ok = wheeltags(text, &x);
	wheelnamefree(&x);
	return ok;
}

int
wheelcheck(const char *path, const char *filename, const struct wheelwant *w, struct sb *why)
{
	struct wheelname x;
	struct zipfile z;
	struct sb dir = SB_INIT, text = SB_INIT, want = SB_INIT;
	const struct zipentry *e;
	int fd, rc = -1;

	if (wheelnameparse(filename, &x, why) < 0)
		return -1;
	z.fd = -1;
	if (namecheck(&x, w, why) < 0)
		goto out;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		sbaddf(why, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	if (zipopenfd(fd, &z, why) < 0)
		goto out;
	if (distinfo(&z, &dir, why) < 0)
		goto out;
	sbreset(&want);
	sbaddf(&want, "%s-%s.dist-info", x.dist, x.version);
	if (strcmp(dir.buf, want.buf)) {
		sbaddf(why, "its .dist-info is %s, its name says %s", dir.buf, want.buf);
		goto out;
	}
	if (!member(&z, dir.buf, "METADATA") || !member(&z, dir.buf, "RECORD") || !(e = member(&z, dir.buf, "WHEEL"))) {
		sbaddf(why, "%s lacks METADATA, WHEEL or RECORD", dir.buf);
		goto out;
	}
	if (zipread(&z, e, 65536, &text, why) < 0)
		goto out;
	if (!wheeltags(text.buf, &x)) {
		sbaddf(why, "its %s/WHEEL does not list the tags of its name (%s-%s-%s)", dir.buf, x.py, x.abi, x.plat);
		goto out;
	}
	rc = modulesok(&z, w, why);
out:
	if (z.fd >= 0)
		zipclose(&z);
	wheelnamefree(&x);
	sbfree(&dir);
	sbfree(&text);
	sbfree(&want);
	return rc;
}
