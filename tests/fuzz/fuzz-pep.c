/* libFuzzer target: the PEP 440/503/508 parsers on the lines of the input, and the version
   order on every pair of lines that are versions (antisymmetric, as sorting needs). */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pep.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = xstrndup((const char *)data, size), *next = buf, *line, *v[16];
	size_t n = 0, i, k;
	int local;

	while ((line = nextline(&next))) {
		char *norm = xmalloc(strlen(line) + 1);

		pepname(line);
		pepnormalize(line, norm);
		peplocal(line);
		if (pepversion(line, &local)) {
			peppre(line);
			if (n < 16)
				v[n++] = line;
		}
		free(norm);
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < n; k++) {
			int a = pepcmp(v[i], v[k]), b = pepcmp(v[k], v[i]);

			if ((a < 0) != (b > 0) || (a == 0) != (b == 0))
				abort(); /* not an order */
		}
	}
	free(buf);
	return 0;
}
