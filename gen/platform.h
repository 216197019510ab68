/*
 * platform: the platforms cells are built for, one table: a platform is one more axis of the
 * matrix, like Python or CUDA. win_amd64 is the third: cross-built with mingw-w64 and tested
 * under wine (templates/windows.sh). x86_64 comes first: the default, and the one whose cells keep the names and
 * keys they had before the axis existed. The machines' other names live here too: their ELF
 * numbers (and the names of a few machines no cell is built for, for messages), the floor of
 * their manylinux tags and their cross compilers' prefix; the steps get a cell's from its spec
 * (spec.c) and the ELF table from wheelgen-step.
 */
#ifndef WG_PLATFORM_H
#define WG_PLATFORM_H

#include <stddef.h>

#include "util.h"

/* the most platforms the table may hold (arrays indexed by a platform's place in it) */
#define PLATFORM_MAX 4

struct platform {
	const char *name;      /* as configs say it: "x86_64", "aarch64", "win_amd64" */
	const char *suffix;    /* appended to a cell's id: "" for x86_64, "-aarch64" */
	const char *machine;   /* uname -m, a wheel's platform tag's end (win_amd64: the whole tag) */
	const char *deb;       /* Debian's name of the architecture (an arm64 rootfs for aarch64);
				  NULL: no Debian root file system (win_amd64: a Windows CPython) */
	const char *runner;    /* the GitHub Actions runner that builds it natively */
	const char *cross;     /* the cross compilers' prefix on another machine, NULL: none */
	unsigned elf;          /* its ELF e_machine (EM_X86_64, EM_AARCH64); 0: its binaries are no ELF */
	const char *manylinux; /* the glibc floor its manylinux tags claim at least ("2_28": the floor of
				  PyPI's aarch64 torch and CUDA wheels, and what pip --platform and uv ask
				  for), NULL: the one auditwheel finds */
	const char *crossscript; /* the steps' helper (templates/) that cross-builds its cells on another
				    machine and tests them under emulation: its spec's WG_CROSS_SCRIPT */
	const char *image;     /* the docker/podman backends' default image of a CUDA cell */
	const char *cpuimage;  /* ... and of a cell without CUDA */
	const char *nolane;    /* why its CUDA and torch cells are built by no lane yet, NULL: they are */
};

/* every platform, the default first; NULL-terminated names for "did you mean" */
extern const struct platform platforms[];
extern const size_t nplatforms;
extern const char *const platformnames[];

/* the platform called name, or NULL */
const struct platform *platformfind(const char *name);
/* the platform another name means (Debian's arm64 is aarch64), or NULL */
const char *platformalias(const char *name);
/* the default platform (x86_64) */
const struct platform *platformdefault(void);
/* the platform a wheel platform tag (linux_aarch64, manylinux_2_28_x86_64, win_amd64) is for, or NULL */
const struct platform *platformoftag(const char *tag, size_t len);
/* the names of the platforms in a sentence: "x86_64, aarch64" and the last after and (" and ", ", ") */
void platformlist(struct sb *s, const char *and);

/* the i-th ELF machine the table knows (from 0: the platforms' first) and its number in *em; NULL
   past the last */
const char *elfnameat(size_t i, unsigned *em);
/* the machine of an ELF file's head (its first n bytes): a platform's machine, or one of a few
   others ("i386", "arm", "riscv", "ppc64"), "another machine" for one the table lacks, NULL for
   what is not an ELF file's head */
const char *elfmachine(const unsigned char *head, size_t n);

#endif
