/* libFuzzer target: a wheel from a store, as restore reads it: its zip's central directory,
   local headers and deflated members (wheelfile.c), never trusted; and a wheel's file name. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"
#include "wheelfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct wheelwant want = { "x", NULL, "3.12", "x86_64", NULL };
	struct wheelname name;
	struct sb why = SB_INIT, out = SB_INIT;
	struct zipfile z;
	char fname[128];
	size_t i, n;
	FILE *f;
	int fd;

	if (!path[0])
		snprintf(path, sizeof(path), "/dev/shm/wgfuzz-wheel-%ld", (long)getpid());
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	wheelcheck(path, "x-1.0-cp312-cp312-linux_x86_64.whl", &want, &why);
	sbreset(&why);
	if ((fd = open(path, O_RDONLY)) >= 0 && zipopenfd(fd, &z, &why) == 0) {
		for (i = 0; i < z.n && i < 64; i++) {
			sbreset(&out);
			zipread(&z, &z.e[i], 4096, &out, &why);
		}
		zipclose(&z);
	}
	/* the first bytes as a wheel's file name */
	n = size < sizeof(fname) - 1 ? size : sizeof(fname) - 1;
	memcpy(fname, data, n);
	fname[n] = '\0';
	if (wheelnameparse(fname, &name, &why) == 0)
		wheelnamefree(&name);
	elfmachine(data, size);
	sbfree(&why);
	sbfree(&out);
	return 0;
}
