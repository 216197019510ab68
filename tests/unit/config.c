/* unit tests of config: its errors, each with its place and message */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matrix.h"
#include "util.h"
#include "unit.h"

/* the config text has an error whose message holds want */
static void
expecterr(const char *text, const char *want, const char *desc)
{
	struct arena a = { 0 };
	struct matrix m;
	char *got = unitconfig(text, &a, NULL, &m);
	int ok = strstr(got, want) != NULL;

	unitcheck(ok, desc, __FILE__, __LINE__);
	if (!ok)
		printf("  want (substring): %s\n  got: %s\n", want, got);
	free(got);
	free(m.cells);
	free(m.dropped);
	afree(&a);
}

void
testconfig(void)
{
	char big[8192];
	size_t i, n;

	expecterr("", "cfg:1:1: error: the file is empty", "empty file");
	expecterr("# only a comment\n", "the file is empty", "comment-only file");
	expecterr("packages: [\n", "YAML syntax error", "syntax error");
	expecterr("packages:\n  a: {versions: ['1.0']}\n\xff\n", "cfg:3:1: error: the file is not valid UTF-8", "not UTF-8");
	expecterr("packages:\n  a: {versions: ['1.0'], python: ['3.12']}\n  a: {versions: ['2.0']}\n",
		  "cfg:3:3: error: duplicate key 'a'", "duplicate key");
	expecterr("x: &a [*a]\n", "anchors (&a) are not supported", "recursive anchor rejected");
	/* billion laughs: must be rejected quickly, never expanded */
	n = (size_t)snprintf(big, sizeof(big), "a: &a [x, x, x, x, x, x, x, x, x]\n");
	for (i = 1; i < 9; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n",
				      (int)('a' + i), (int)('a' + i), (int)('a' + i - 1), (int)('a' + i - 1), (int)('a' + i - 1),
				      (int)('a' + i - 1), (int)('a' + i - 1), (int)('a' + i - 1), (int)('a' + i - 1),
				      (int)('a' + i - 1), (int)('a' + i - 1));
	expecterr(big, "aliases (*a) are not supported", "billion laughs rejected");
	expecterr("packages:\n  a:\n    versoins: ['1']\n", "unknown key 'versoins' in package 'a'; did you mean 'versions'?",
		  "unknown key with suggestion");
	expecterr("defaults: {python: ['3.12']}\npackages:\n  a: {versions: '1.0', python: {x: 1}}\n",
		  "cfg:3:32: error: 'python' must be a list of strings, not a mapping", "wrong type");
	expecterr("defaults: {python: [3.1]}\npackages:\n  a: {versions: ['1.0']}\n", "did you mean '3.10'?",
		  "3.1 suggests 3.10");
	expecterr("defaults: {python: ['3.12']}\npackages:\n  a: {versions: ['1.0'], exclude: [{python: '3.99'}]}\n",
		  "cfg:3:45: error: unknown Python version '3.99'", "exclude value outside the known set");
	expecterr("defaults: {python: ['3.12', '3.13']}\npackages:\n  a: {versions: ['1.0'], python: ['3.12'], exclude: [{python: '3.13'}]}\n",
		  "this exclude matches no cell", "exclude matching nothing");
	expecterr("defaults: {python: ['3.12']}\npackages:\n  a: {versions: ['1.0'], exclude: [{python: '3.12'}]}\n",
		  "package 'a' has no cells", "empty matrix");
	expecterr("defaults: {python: ['3.12']}\npackages:\n  a: {versions: ['1.0']}\nprofiles: {p: {packages: [b]}}\n",
		  "profile 'p' names unknown package 'b'", "profile with unknown package");
	expecterr("packages:\n  a: {versions: ['1.0'], python: ['3.12'], torch: ['2.8']}\n",
		  "the top-level 'torch:' table is empty", "torch without a table");
	expecterr("packages:\n  a: {versions: ['1.0'], python: ['3.12'], local_version: 'cu{cuda}'}\n",
		  "local_version uses {cuda} but package 'a' has no CUDA versions", "local label placeholders");
}
