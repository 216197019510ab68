/*
 * coremeta: a distribution's core metadata (a wheel's METADATA, an index's PEP 658 .metadata file)
 * read without trusting it: its Name, Version and Requires-Dist; PEP 508 environment markers
 * evaluated for a platform (what is not known, such as the Python version, stays unknown); and
 * the CUDA version a torch wheel's requirements pin (nvidia-cuda-runtime-cu12==12.8.*, then
 * cuda-toolkit==13.x). Bounded and fuzzed (tests/fuzz/fuzz-json.c).
 */
#ifndef WG_COREMETA_H
#define WG_COREMETA_H

#include "util.h"

/* the fields wheelgen reads; malloc'd */
struct coremeta {
	char *name, *version;     /* Name, Version */
	char **requires;          /* every Requires-Dist, as written */
	size_t nrequires;
};

/* the most bytes of core metadata wheelgen reads (torch's: 38 KB) */
#define COREMETA_MAX (1 << 20)

/* the header fields of text (len bytes, up to the first empty line); 0, or -1 with why (not
   UTF-8, no Name or Version) */
int coremetaparse(const char *text, size_t len, struct coremeta *m, struct sb *why);
void coremetafree(struct coremeta *m);

/* the platform a marker is evaluated for; NULL fields are unknown */
struct markerenv {
	const char *platform_machine;    /* "x86_64", "aarch64" */
	const char *platform_system;     /* "Linux" */
	const char *sys_platform;        /* "linux" */
	const char *os_name;             /* "posix" */
	const char *implementation_name; /* "cpython" */
	const char *platform_python_implementation; /* "CPython" */
	const char *extra;               /* "" for a plain install */
};

/* the usual Linux CPython environment for machine (extra "", the Pythons unknown) */
void markerlinux(struct markerenv *env, const char *machine);

enum { MARKER_FALSE = 0, MARKER_TRUE = 1, MARKER_UNKNOWN = 2, MARKER_BAD = -1 };
/* evaluate a PEP 508 marker: MARKER_TRUE, MARKER_FALSE, MARKER_UNKNOWN (it depends on what env
   does not know), or MARKER_BAD when it does not parse */
int markereval(const char *marker, const struct markerenv *env);

/*
 * The CUDA (MAJOR.MINOR) that m's requirements install on machine: a cuda-toolkit pin (torch 2.11
 * on), else an nvidia-cuda-runtime[-cuNN] pin, among the requirements whose markers are not false
 * there. Into cuda ("" for none: a CPU-only wheel there); 0, or -1 with why for a marker that
 * does not parse.
 */
int torchcuda(const struct coremeta *m, const char *machine, char cuda[16], struct sb *why);

#endif
