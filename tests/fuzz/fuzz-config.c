/* libFuzzer target: a config through the loader, the checks, the matrix and the cell specs
   (what wheelgen check and gen do before writing anything). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "diag.h"
#include "graph.h"
#include "matrix.h"
#include "pep.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct arena a = { 0 };
	struct diags d = { 0 };
	struct host h = { 0 };
	struct matrix m = { 0 };
	struct config *c;
	FILE *f;
	size_t i;

	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/wgfuzz-config-%ld.yml", (long)getpid());
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	c = configload(&a, path, &d);
	if (c && d.errors == 0)
		matrixexpand(&a, c, &h, &m, &d);
	for (i = 0; c && d.errors == 0 && i < m.n && i < 64; i++) {
		struct sb s = SB_INIT;

		cellspec(&s, &m.cells[i], "/src", 0);
		cellspec(&s, &m.cells[i], "/src", 1);
		celltestspec(&s, &m.cells[i], 0);
		sbfree(&s);
	}
	if ((f = fopen("/dev/null", "w"))) {
		diagprint(&d, f);
		fclose(f);
	}
	diagfree(&d);
	free(m.cells);
	free(m.dropped);
	afree(&a);
	return 0;
}
