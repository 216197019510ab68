/* libFuzzer target: a wheel manifest as wheelgen index reads one (from another job's artifact
   or a store), its fields checked before they become paths; what it says then written into
   wheels.json (wheelsjson.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "index.h"
#include "pep.h"
#include "util.h"
#include "wheelsjson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct wheelinfo w;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/wgfuzz-manifest-%ld", (long)getpid());
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	if (manifestread(path, &w) == 0) {
		struct indexopts o = { 0 };
		struct sb j = SB_INIT;

		wheelsjson(&j, &w, 1, "files/", &o);
		sbfree(&j);
		manifestfree(&w);
	}
	return 0;
}
