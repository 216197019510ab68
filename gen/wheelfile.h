/*
 * wheelfile: what a wheel file says of itself, read without trusting it: the parts of its name
 * (PEP 427), the members of its zip (the central directory), the head of a member (inflated with
 * zlib), its .dist-info's WHEEL tags, its compiled modules' Pythons and machines. Every read is
 * bounded; a malformed file is a reason, never a crash (tests/fuzz/fuzz-wheel.c). Used where a
 * wheel comes from elsewhere: the store (restore, merge-index).
 */
#ifndef WG_WHEELFILE_H
#define WG_WHEELFILE_H

/* (a compiled module's machine: platform.h's elfmachine, which reads its ELF head) */
#include "platform.h"
#include "util.h"

/* the parts of a wheel's file name, each a malloc'd string */
struct wheelname {
	char *dist, *version, *build;   /* build: "" when there is none */
	char *py, *abi, *plat;          /* the compressed tag set: "cp311", "cp311", "manylinux_2_17_x86_64.manylinux2014_x86_64" */
};

/* split a wheel file name; -1 (why set) when it is not one */
int wheelnameparse(const char *filename, struct wheelname *w, struct sb *why);
void wheelnamefree(struct wheelname *w);

/* one member of a zip */
struct zipentry {
	char *name;
	int method;                       /* 0 stored, 8 deflated */
	unsigned long long csize, usize;  /* compressed and uncompressed sizes */
	unsigned long long offset;        /* its local header */
	unsigned char head[64];           /* its first bytes, when zipopen was asked for them */
	size_t nhead;
};

/* a zip file opened for reading */
struct zipfile {
	int fd;
	unsigned long long size;
	struct zipentry *e;
	size_t n;
};

/* the most members a wheel's zip may list */
#define ZIP_MAX_ENTRIES 1000000

/* read the central directory of the zip at fd, which z owns from now on (zipclose closes it;
   on failure it is closed already); -1 with why */
int zipopenfd(int fd, struct zipfile *z, struct sb *why);
void zipclose(struct zipfile *z);
/* where the central directory of the zip of size bytes at fd lies, read from the end of
   central directory record (and zip64's) alone: the file may be a sparse copy holding only its
   last 64 KiB (remotewheel.c fetches the rest by range); 0, or -1 with why */
int zipcentral(int fd, unsigned long long size, unsigned long long *cdoff, unsigned long long *cdsize, struct sb *why);
/* up to max bytes of member e, inflated, appended to out; -1 with why */
int zipread(const struct zipfile *z, const struct zipentry *e, size_t max, struct sb *out, struct sb *why);

/* what a wheel must be to stand for a cell */
struct wheelwant {
	const char *package;      /* the project, PEP 503 normalized */
	const char *version;      /* the wheel's version (with its local label), NULL: not checked */
	const char *python;       /* the cell's Python: "3.11", "3.14t" */
	const char *machine;      /* "x86_64", "aarch64" */
	const char *tags;         /* the manifest's tags= (py-abi-plat), NULL: not checked */
};

/*
 * Does the wheel at path (named filename) stand for w? Its name's project, version and tags; a
 * tag set that this cell's Python and machine can install (cpXY-cpXY, an abi3 wheel of an older
 * Python, or py3-none); one .dist-info named <dist>-<version> with METADATA, WHEEL and RECORD,
 * whose WHEEL lists the name's tags; and every compiled module built for that Python (its
 * cpython-XY suffix) and machine (its ELF header). 0, or -1 with why.
 */
int wheelcheck(const char *path, const char *filename, const struct wheelwant *w, struct sb *why);
/* the checks of wheelcheck that its file name alone allows (project, version, tags, Python,
   machine): for a manifest's filename=, without the wheel. 0, or -1 with why */
int wheelnamecheck(const char *filename, const struct wheelwant *w, struct sb *why);
/* does the text of a wheel's WHEEL file list "Tag: py-abi-plat" for every tag of filename's? */
int wheeltagsok(const char *text, const char *filename);

#endif
