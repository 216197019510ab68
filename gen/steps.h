/*
 * steps: the scripts (templates/) each step of a cell runs, per backend: one table, read by the
 * graph's edges (graph.c: ninja reruns a step when a script it runs changes) and by the keys
 * (key.c: the scripts of the build and the test decide the wheel). The two can never disagree.
 */
#ifndef WG_STEPS_H
#define WG_STEPS_H

#include <stddef.h>

/* the steps of a cell's graph, as a bit set */
enum step {
	STEP_BUILD = 1,     /* wheel/<cell>: build-<backend>.sh (keyed) */
	STEP_TEST = 2,      /* test/<cell>: test.sh (keyed) */
	STEP_SHARE = 4,     /* a wheel another cell builds, shared (abi3, torch_abi: stable) */
	STEP_VARIANT = 8,   /* the PEP 825 variant wheel of a tested CUDA cell */
	STEP_PUBLISH = 16,  /* publish/<cell>, publish-index */
};

/* the steps whose scripts go into a cell's key: what decides its wheel and its test */
#define STEPS_KEYED (STEP_BUILD | STEP_TEST)

/*
 * The next script, from *i on (start with 0), that a step in steps runs, on the host or
 * (container) in docker/podman, for a cell of the default platform (x86_64) or (foreign) of
 * another; NULL after the last. Names are relative to templates/, in the table's order (the
 * order of a key's "template" lines). A foreign cell's steps have their cross scripts whether
 * this host builds it natively or not: a cell's key is the same on every host.
 */
const char *stepscript(size_t *i, int steps, int container, int foreign);

#endif
