/* unit tests of simpleapi: URLs resolved as RFC 3986 says; pages in both forms; hostile names refused */
#include <string.h>

#include "simpleapi.h"
#include "util.h"
#include "unit.h"

/* simpleapi.c: URLs resolved as RFC 3986 says; pages in both forms; hostile names refused */
void
testsimpleapi(void)
{
	static const struct {
		const char *ref, *want;
	} refs[] = {
		{ "https://files.example/p/t-1.whl#sha256=ab", "https://files.example/p/t-1.whl" },
		{ "../../packages/a/t-1.whl", "https://pypi.example/packages/a/t-1.whl" },
		{ "/whl/cu128/t-1%2Bcu128.whl", "https://pypi.example/whl/cu128/t-1%2Bcu128.whl" },
		{ "//other.example/x/./y/../t.whl", "https://other.example/x/t.whl" },
		{ "t-1.whl", "https://pypi.example/simple/torch/t-1.whl" },
		{ "../../../../../t.whl", "https://pypi.example/t.whl" },
	};
	struct indexpage pg;
	struct sb u = SB_INIT, why = SB_INIT;
	const char *json = "{\"meta\": {\"api-version\": \"1.1\"}, \"name\": \"torch\", \"files\": ["
			   "{\"filename\": \"torch-2.9.1-cp312-cp312-manylinux_2_28_x86_64.whl\", \"url\": \"../../f/t.whl\","
			   " \"hashes\": {\"sha256\": \"" "AB" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd" "\"},"
			   " \"core-metadata\": {\"sha256\": \"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\"},"
			   " \"yanked\": \"broken\"}]}";
	const char *html = "<html><body><a href=\"/whl/cu128/torch-2.9.1%2Bcu128-cp312-cp312-linux_x86_64.whl#sha256="
			   "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\" data-dist-info-metadata=\"true\""
			   " data-requires-python=\"&gt;=3.9\">torch-2.9.1+cu128-cp312-cp312-linux_x86_64.whl</a><br/>"
			   "<A HREF='x.whl'> x &amp; y.whl </A></body></html>";
	size_t i;

	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		sbreset(&u);
		urlresolve("https://pypi.example/simple/torch/", refs[i].ref, &u);
		CHECKSTR(u.buf, refs[i].want, refs[i].ref);
	}
	CHECK(indexpageparse("https://pypi.example/simple/torch/", json, strlen(json), "application/vnd.pypi.simple.v1+json",
			     &pg, &why) == 0 && pg.n == 1 && pg.json, "a PEP 691 page");
	if (pg.n == 1) {
		CHECKSTR(pg.files[0].url, "https://pypi.example/f/t.whl", "its url, resolved");
		CHECK(pg.files[0].sha256 && startswith(pg.files[0].sha256, "ab01") && pg.files[0].metadata &&
		      pg.files[0].metasha256 && pg.files[0].yanked,
		      "a hash in lower case; core-metadata with its hash; yanked with a reason");
	}
	indexpagefree(&pg);
	CHECK(indexpageparse("https://pypi.example/simple/torch/", html, strlen(html), "", &pg, &why) == 0 && pg.n == 2 &&
	      !pg.json, "a PEP 503 page (the text decides)");
	if (pg.n == 2) {
		CHECKSTR(pg.files[0].filename, "torch-2.9.1+cu128-cp312-cp312-linux_x86_64.whl", "the anchor's text");
		CHECKSTR(pg.files[0].requirespython, ">=3.9", "an attribute's entity");
		CHECKSTR(pg.files[1].filename, "x & y.whl", "an upper-case anchor, blanks trimmed");
		CHECK(pg.files[0].sha256 && pg.files[0].metadata, "the fragment's hash; data-dist-info-metadata");
	}
	indexpagefree(&pg);
	{
		static const char *const hostile[] = {
			"{\"meta\": {\"api-version\": \"1.0\"}, \"files\": [{\"filename\": \"../x.whl\", \"url\": \"x\"}]}",
			"{\"meta\": {\"api-version\": \"1.0\"}, \"files\": [{\"filename\": \"a/b.whl\", \"url\": \"x\"}]}",
			"{\"meta\": {\"api-version\": \"1.0\"}, \"files\": [{\"filename\": \"x.whl\", \"url\": \"file:///etc/passwd\"}]}",
			"{\"meta\": {\"api-version\": \"1.0\"}, \"files\": [{\"filename\": \"x.whl\", \"url\": \"a b\"}]}",
			"{\"meta\": {\"api-version\": \"2.0\"}, \"files\": []}",
			"{\"meta\": {\"api-version\": \"1.0\"}, \"files\": {}}",
			"<a href=\"x\">..</a>",
			"plain text",
		};

		for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
			sbreset(&why);
			CHECK(indexpageparse("https://p.example/simple/torch/", hostile[i], strlen(hostile[i]), "", &pg, &why) < 0 &&
			      why.len, hostile[i]);
		}
	}
	sbreset(&u);
	quotenet(&u, "a\x01\xff'");
	CHECKSTR(u.buf, "'a\\x01\\xff''", "a name from the network, quoted");
	sbfree(&u);
	sbfree(&why);
}
