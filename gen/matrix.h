/* matrix: the cells (package x version x python x cuda [x torch]) a config asks for, and which this host can build. */
#ifndef WG_MATRIX_H
#define WG_MATRIX_H

#include "config.h"
#include "platform.h"

/* one wheel build */
struct cell {
	const struct package *pkg;
	const char *version, *python, *cuda, *torch; /* cuda/torch NULL when the package has no such axis */
	const struct platform *platform;  /* what it is built for (x86_64 unless the config says) */
	const struct strlist *archs;      /* its CUDA architectures (cuda_archs for its platform and CUDA) */
	const char *id;          /* <name>-<version>-py<XY>[-cu<XYZ>][-torch<X.Y>][-<platform>] */
	const char *family;      /* its family, the cells that differ from it only in their Python: the id
				    less -py<XY> (docs/manual.md, "Families") */
	const char *local;       /* expanded local_version, NULL if none */
	const char *torchindex;  /* index URL torch comes from; NULL: PyPI (or no torch axis) */
	const char *pyexe;       /* host interpreter for python, NULL if none (cross: this machine's, which runs the build) */
	const char *sysroot;     /* cross: the target's root file system (its Python, headers, sysconfig), else NULL */
	const char *qemu;        /* cross: the user-mode emulator that runs the target's Python in tests, else NULL */
	const char *cudahome;    /* host toolkit for cuda, NULL if none or not needed */
	const char *whynot;      /* why this host cannot build it; NULL = it can */
	int nolane;              /* 1: no lane builds it yet (whynot says why): out of every plan */
	long max_jobs;           /* MAX_JOBS for its build: the most that fit in memory (fitmemory) */
	const char *widthwhy;    /* how max_jobs was derived from the memory builds may use, or NULL */
	long nvcc_threads;       /* NVCC_THREADS for its build */
	const char *ccache;      /* ccache for its compilers, NULL for none */
	const char *uv;          /* uv to install packages with (much faster than pip), NULL: pip */
	const char *image;       /* container backends: the image it builds in, NULL on the host */
	const char *testimage;   /* container backends: the image it is tested in, its platform's without
				    CUDA (cpu_image: no toolkit, as a user has none); NULL on the host */
	double memory_gb;        /* what its build claims: memory_per_job_gb x MAX_JOBS x NVCC_THREADS */
	const char *builtby;     /* abi3: the cell whose wheel this one tests (the lowest Python of its
				    version/CUDA/torch); NULL: it builds its own */
};

/* a cell that was dropped, and why (for --verbose) */
struct dropped {
	const char *id;
	const char *why;
};

/* an arm64 (or other) root file system configure set up for cross builds: its Python */
struct hostsysroot {
	const char *platform, *python, *suite, *dir;
};

/* what configure found on this host (out/host.txt) */
struct host {
	const char *machine;           /* this host's platform (uname -m); "x86_64" when the file does not say */
	struct hostsysroot *sysroots;  /* cross builds: a root file system per target platform and Python */
	size_t nsysroots;
	const char **crossplat, **qemu; /* cross builds: the platforms this host cross-builds for, and their emulators */
	size_t ncross;
	const char **pyver, **pyexe;   /* Python versions and their interpreters */
	size_t npy;
	const char **cudaver, **cudahome;
	size_t ncuda;
	int known;                     /* 0 when no host file was given: every cell counts as buildable */
	double memory_gb;              /* memory builds may use (0: unknown) */
	long cpus;                     /* processors (0: unknown) */
	long max_jobs, nvcc_threads;   /* configure's overrides of every package's values (0: none) */
	const char *ccache;            /* ccache to wrap compilers with, NULL for none */
	const char *uv;                /* uv for installing into venvs, NULL: use pip */
	int container;                 /* 1: backend docker or podman (steps run in an image) */
};

/* all cells of a config */
struct matrix {
	struct cell *cells;
	size_t n;
	struct dropped *dropped;
	size_t ndropped;
};

/*
 * Read a host file of lines "python VERSION PATH", "cuda VERSION PATH", "memory_gb N", "cpus N",
 * "max_jobs N", "nvcc_threads N", "ccache PATH", "uv PATH", "machine PLATFORM", "cross PLATFORM
 * QEMU" and "sysroot PLATFORM PYTHON SUITE DIR" (others ignored). Returns -1 with a message if
 * it cannot be read.
 */
int hostload(struct arena *a, const char *path, struct host *h);

/*
 * Expand c into cells, in config order. Excludes that match nothing, includes
 * that add nothing or name impossible cells, packages left with no cell and an
 * empty matrix are reported to d. h (may be NULL) decides which cells are buildable.
 */
void matrixexpand(struct arena *a, const struct config *c, const struct host *h, struct matrix *m, struct diags *d);

/* the id of the cell that builds cl's wheel: its own, or the one it shares a wheel with (abi3,
   torch_abi: stable) */
const char *cellbuild(const struct cell *cl);

/* the parts cl's compile is split into: its package's shards (1: one piece) */
long cellparts(const struct cell *cl);

/* a profile that selects no cell of m is an error at its name */
void profilescheck(const struct config *c, const struct matrix *m, struct diags *d);

/* 1 if cell belongs to profile p */
int profilehas(const struct profile *p, const struct cell *cell);

#endif
