/* unit tests of util: edit distance, strings, arenas */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "unit.h"

void
testutil(void)
{
	struct arena a = { 0 };
	struct sb s = SB_INIT;
	size_t len, i;
	char *p;

	CHECK(editdistance("versoins", "versions", 2) == 2, "transposition costs 2");
	CHECK(editdistance("python", "python", 2) == 0, "equal strings");
	CHECK(editdistance("abc", "xyzabc", 2) == 3, "distance capped at limit+1");
	for (i = 0; i < 1000; i++)
		sbaddf(&s, "%zu,", i);
	CHECK(s.len == strlen(s.buf) && startswith(s.buf, "0,1,2,") && s.buf[s.len - 1] == ',', "sb grows");
	p = sbdetach(&s);
	CHECK(s.len == 0 && s.buf[0] == '\0', "sb reset after detach");
	free(p);
	for (i = 0, len = 0; i < 10000; i++)
		len += ((uintptr_t)aalloc(&a, i % 37 + 1) & 15) != 0;
	CHECK(len == 0, "arena allocations are 16-byte aligned");
	afree(&a);
}
