/* libFuzzer target: a package index's answer as torch-table reads it: the JSON reader (json.c,
   with its default limits and small ones), and the project page reader on the same bytes as PEP
   691 JSON and as PEP 503 HTML (simpleapi.c), every file it keeps a plain name and an http(s) URL. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "files.h"
#include "http.h"
#include "json.h"
#include "simpleapi.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const ctypes[] = { "application/vnd.pypi.simple.v1+json", "text/html", "" };
	struct jsonlimits small = { 4, 64 };
	struct arena a = { 0 };
	struct sb why = SB_INIT;
	struct indexpage pg;
	char *text = xstrndup((const char *)data, size); /* (the pages torch-table reads end in a NUL too) */
	size_t i, k;

	jsonparse(&a, (const char *)data, size, NULL, &why);
	sbreset(&why);
	jsonparse(&a, (const char *)data, size, &small, &why);
	for (k = 0; k < 3; k++) {
		sbreset(&why);
		if (indexpageparse("https://pypi.example/simple/torch/", text, size, ctypes[k], &pg, &why) < 0)
			continue;
		for (i = 0; i < pg.n; i++) {
			if (!plainname(pg.files[i].filename) || !httpurlok(pg.files[i].url))
				abort(); /* a file the reader should have refused */
		}
		indexpagefree(&pg);
	}
	sbfree(&why);
	afree(&a);
	free(text);
	return 0;
}
