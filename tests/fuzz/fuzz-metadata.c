/* libFuzzer target: core metadata as torch-table reads it from an index's .metadata file or a
   wheel's METADATA (coremeta.c): the header fields, the Requires-Dist markers evaluated for both
   machines, a torch wheel's CUDA; and each line as a marker on its own. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "coremeta.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct coremeta m;
	struct markerenv env;
	struct sb why = SB_INIT;
	char cuda[16], *buf, *next, *line;

	if (coremetaparse((const char *)data, size, &m, &why) == 0) {
		torchcuda(&m, "x86_64", cuda, &why);
		torchcuda(&m, "aarch64", cuda, &why);
		if (strlen(cuda) > 5)
			abort(); /* MAJOR.MINOR of two digits each at most */
		coremetafree(&m);
	}
	markerlinux(&env, "x86_64");
	buf = xstrndup((const char *)data, size);
	next = buf;
	while ((line = nextline(&next)))
		markereval(line, &env);
	free(buf);
	sbfree(&why);
	return 0;
}
