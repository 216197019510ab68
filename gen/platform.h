/*
 * platform: the platforms cells are built for, one table: a platform is one more axis of the
 * matrix, like Python or CUDA. A third one (win_amd64) would be a new row here and new steps,
 * not a rewrite. x86_64 comes first: the default, and the one whose cells keep the names and
 * keys they had before the axis existed.
 */
#ifndef WG_PLATFORM_H
#define WG_PLATFORM_H

#include <stddef.h>

/* the most platforms the table may hold (arrays indexed by a platform's place in it) */
#define PLATFORM_MAX 4

struct platform {
	const char *name;      /* as configs say it: "x86_64", "aarch64" */
	const char *suffix;    /* appended to a cell's id: "" for x86_64, "-aarch64" */
	const char *machine;   /* uname -m, a wheel's platform tag's end, an ELF file's machine */
	const char *deb;       /* Debian's name of the architecture (an arm64 rootfs for aarch64) */
	const char *runner;    /* the GitHub Actions runner that builds it natively */
	const char *cross;     /* the cross compilers' prefix on another machine, NULL: none */
	const char *image;     /* the docker/podman backends' default image of a CUDA cell */
	const char *cpuimage;  /* ... and of a cell without CUDA */
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
/* the platform a wheel platform tag (linux_aarch64, manylinux_2_28_x86_64) is for, or NULL */
const struct platform *platformoftag(const char *tag, size_t len);

#endif
