/* unit tests of the generator's modules; prints "N passed, N failed" and exits 1 on any failure */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "config.h"
#include "damage.h"
#include "key.h"
#include "layout.h"
#include "platform.h"
#include "coremeta.h"
#include "diag.h"
#include "esc.h"
#include "checkout.h"
#include "gitlock.h"
#include "http.h"
#include "store.h"
#include "summary.h"
#include "wheelfile.h"
#include "mirror.h"
#include "graph.h"
#include "json.h"
#include "manifest.h"
#include "wheelsjson.h"
#include "matrix.h"
#include "pep.h"
#include "sha256.h"
#include "shardplan.h"
#include "simpleapi.h"
#include "util.h"
#include "yamledit.h"
#include "ydoc.h"
#include "files.h"
#include "unit.h"

static int passed, failed;

void
unitcheck(int ok, const char *desc, const char *file, int line)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("FAIL %s:%d: %s\n", file, line, desc);
	}
}

void
unitcheckstr(const char *got, const char *want, const char *desc, const char *file, int line)
{
	int ok = got && strcmp(got, want) == 0;

	unitcheck(ok, desc, file, line);
	if (!ok)
		printf("  want: %s\n  got:  %s\n", want, got ? got : "(null)");
}

static void
checkstr(const char *got, const char *want, const char *desc)
{
	unitcheckstr(got, want, desc, __FILE__, __LINE__);
}

static void
testesc(void)
{
	struct sb s = SB_INIT;

	CHECK(escninjapath(&s, "a b:c$d") == 0, "ninja path with space colon dollar");
	checkstr(s.buf, "a$ b$:c$$d", "ninja path escaping");
	sbreset(&s);
	CHECK(escninjapath(&s, "a\nb") < 0 && s.len == 0, "ninja path rejects newline");
	CHECK(escninjapath(&s, "a|b") < 0 && s.len == 0, "ninja path rejects |");
	CHECK(escninjavalue(&s, "x $y: z") == 0, "ninja value");
	checkstr(s.buf, "x $$y: z", "ninja value keeps spaces and colons, doubles $");
	sbreset(&s);
	CHECK(escninjavalue(&s, "a\rb") < 0, "ninja value rejects CR");
	escshell(&s, "it's a $HOME `x` \"q\"");
	checkstr(s.buf, "'it'\\''s a $HOME `x` \"q\"'", "shell single quotes");
	sbreset(&s);
	escshell(&s, "");
	checkstr(s.buf, "''", "empty shell word");
	sbreset(&s);
	eschtml(&s, "<a href=\"x\">&'</a>");
	checkstr(s.buf, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;", "html escaping");
	sbreset(&s);
	escjson(&s, "q\"b\\n\n\x01\x7f<&");
	checkstr(s.buf, "\"q\\\"b\\\\n\\n\\u0001\\u007f<&\"", "json escaping");
	sbreset(&s);
	escmd(&s, "a_b *c* `d` [e](f) #1 | x~y \\ <b>&amp; $HOME: 'q' \"z\"\n\tend\x7f");
	checkstr(s.buf, "a\\_b \\*c\\* \\`d\\` \\[e\\](f) \\#1 \\| x\\~y \\\\ &lt;b&gt;&amp;amp; $HOME: 'q' \"z\"  end ",
		 "markdown escaping: one literal line, also in a table cell");
	sbreset(&s);
	escmd(&s, "");
	CHECK(s.len == 0, "markdown escaping of nothing");
	escmdcode(&s, "x = a\tb\r | `c` <d>\x1b[0m");
	checkstr(s.buf, "x = a?b? | `c` <d>?[0m", "a markdown code line: control characters as ?");
	sbfree(&s);
}

static void
testpep(void)
{
	char buf[64];
	int local;

	CHECK(pepname("flash-attn") && pepname("Flash_Attn.x") && pepname("a"), "valid names");
	CHECK(!pepname("-bad") && !pepname("bad-") && !pepname("a b") && !pepname(""), "invalid names");
	pepnormalize("Flash__Attn.-X", buf);
	checkstr(buf, "flash-attn-x", "PEP 503 normalization");
	CHECK(pepversion("2.8.3", &local) && !local, "plain version");
	CHECK(pepversion("1!2.0rc1.post2.dev3", &local) && !local, "epoch pre post dev");
	CHECK(pepversion("2.7.4.post1", &local), "post release");
	CHECK(pepversion("1.0+cu128", &local) && local, "local label detected");
	CHECK(!pepversion("banana", &local) && !pepversion("1.0 ", &local) && !pepversion("v1.0", &local) &&
	      !pepversion("", &local) && !pepversion("1..0", &local), "invalid versions");
	{
		/* each sorts before the next */
		static const char *const order[] = {
			"1.0.dev0", "1.0a1.dev2", "1.0a1", "1.0a2", "1.0b1", "1.0rc1", "1.0", "1.0.post1.dev0",
			"1.0.post1", "1.0.1", "1.1", "1.10", "2.0", "1!0.1", NULL,
		};
		size_t i, j, bad = 0;

		for (i = 0; order[i]; i++) {
			for (j = 0; order[j]; j++) {
				int c = pepcmp(order[i], order[j]);

				if ((i < j && c >= 0) || (i == j && c != 0) || (i > j && c <= 0))
					bad++;
			}
		}
		CHECK(bad == 0, "PEP 440 ordering of 14 versions");
		CHECK(pepcmp("1.0", "1.0.0") == 0 && pepcmp("1.0+cu128", "1.0") == 0, "trailing zeros and local labels");
		CHECK(peppre("2.0rc1") && peppre("2.0.dev3") && !peppre("2.0.post1") && !peppre("2.0"), "pre-releases");
	}
	CHECK(peplocal("cu130torch2.9") && !peplocal("cu13+0") && !peplocal(""), "local labels");
	/* release numbers past a long (a fuzzer's find: signed overflow) compare without overflow */
	CHECK(pepcmp("1222222222222222222222222222222.0", "1222222222222222222222222222222.0") == 0, "huge release numbers: equal");
	CHECK(pepcmp("1222222222222222222222222222222", "2") > 0, "a huge release number sorts after a small one");
}

static void
testutil(void)
{
	char dir[] = "/tmp/wgunitXXXXXX", path[128], *data;
	struct arena a = { 0 };
	struct stat st1, st2;
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

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/sub/dir/file", dir);
	CHECK(writeifchanged(path, "hello\n", 6) == 1, "new file written");
	CHECK(stat(path, &st1) == 0, "file exists");
	CHECK(writeifchanged(path, "hello\n", 6) == 0, "same content not rewritten");
	CHECK(stat(path, &st2) == 0 && st1.st_ino == st2.st_ino && st1.st_mtim.tv_nsec == st2.st_mtim.tv_nsec,
	      "same inode and mtime");
	CHECK(writeifchanged(path, "hello!\n", 7) == 1, "changed content rewritten");
	data = readfile(path, &len);
	CHECK(data && len == 7 && !memcmp(data, "hello!\n", 7), "new content read back");
	free(data);
	snprintf(path, sizeof(path), "%s/sub", dir);
	printf("(an error about '%s' follows: expected)\n", path);
	fflush(stdout);
	CHECK(writeifchanged(path, "x", 1) < 0, "cannot replace a directory");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0, "cleanup");
}

/* parse text as a config file; return the printed diagnostics */
static char *
diagsof(const char *text, struct arena *a, struct config **cp, struct matrix *m)
{
	char path[] = "/tmp/wgcfgXXXXXX";
	struct diags d = { 0 };
	struct config *c;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int fd;

	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		fatal("cannot write temp config");
	close(fd);
	c = configload(a, path, &d);
	memset(m, 0, sizeof(*m));
	if (c && d.errors == 0)
		matrixexpand(a, c, NULL, m, &d);
	f = open_memstream(&buf, &len);
	d.file = "cfg";
	diagprint(&d, f);
	fclose(f);
	diagfree(&d);
	unlink(path);
	if (cp)
		*cp = c;
	return buf;
}

static void
expecterr(const char *text, const char *want, const char *desc)
{
	struct arena a = { 0 };
	struct matrix m;
	char *got = diagsof(text, &a, NULL, &m);
	int ok = strstr(got, want) != NULL;

	unitcheck(ok, desc, __FILE__, __LINE__);
	if (!ok)
		printf("  want (substring): %s\n  got: %s\n", want, got);
	free(got);
	free(m.cells);
	free(m.dropped);
	afree(&a);
}

static const char torchcfg[] =
	"defaults: {python: ['3.11', '3.12', '3.13'], cuda: ['12.8', '13.0']}\n"
	"torch:\n"
	"  '2.8': {cuda: ['12.8'], python: ['3.11', '3.12', '3.13']}\n"
	"  '2.9': {cuda: ['12.8', '13.0'], python: ['3.12', '3.13']}\n"
	"packages:\n"
	"  Flash_Attn:\n"
	"    versions: [2.8.3]\n"
	"    torch: ['2.8', '2.9']\n"
	"    exclude: [{python: '3.13', cuda: '12.8'}]\n"
	"    include: [{python: '3.13', cuda: '12.8', torch: '2.9'}]\n"
	"    local_version: 'cu{cuda}torch{torch}'\n"
	"  cupy: {versions: ['13.6.0'], python: ['3.13'], cuda: ['13.0']}\n";

static void
testmatrix(void)
{
	struct arena a = { 0 };
	struct config *c;
	struct matrix m;
	char *got = diagsof(torchcfg, &a, &c, &m);
	size_t i;
	struct sb ids = SB_INIT;

	checkstr(got, "", "torch config has no errors");
	for (i = 0; i < m.n; i++)
		sbaddf(&ids, "%s%s", i ? " " : "", m.cells[i].id);
	/* 3 py x 2 cuda x 2 torch = 12; minus exclude (py313 cu128: torch2.8 and 2.9) = 10;
	 * minus torch table (2.8: cu130 x2 left; 2.9: py311 x2) = 6... the include puts py313-cu128-torch2.9 back */
	checkstr(ids.buf,
		 "flash-attn-2.8.3-py311-cu128-torch2.8 flash-attn-2.8.3-py312-cu128-torch2.8 "
		 "flash-attn-2.8.3-py312-cu128-torch2.9 flash-attn-2.8.3-py312-cu130-torch2.9 "
		 "flash-attn-2.8.3-py313-cu130-torch2.9 flash-attn-2.8.3-py313-cu128-torch2.9 cupy-13.6.0-py313-cu130",
		 "matrix cells and ids");
	CHECK(m.n == 7 && m.cells[0].local && !strcmp(m.cells[0].local, "cu128torch2.8"), "local label expanded");
	CHECK(m.ndropped == 7, "dropped cells counted (5 impossible + 2 excluded)");
	sbfree(&ids);
	free(got);
	free(m.cells);
	free(m.dropped);
	afree(&a);
}

/* the torch index per cell, and what the container backends put in a cell */
static void
testtorchcontainer(void)
{
	static const char cfg[] =
		"defaults: {python: ['3.7', '3.12', '3.13t'], cuda: ['12.8', '13.0']}\n"
		"torch:\n"
		"  '2.9': {cuda: ['12.8', '13.0'], python: ['3.7', '3.12', '3.13t'], pypi: '12.8'}\n"
		"packages:\n"
		"  fa: {versions: ['1.0'], torch: ['2.9'], local_version: 'cu{cuda_version}'}\n"
		"  cpu: {versions: ['1.0'], python: ['3.12'], cuda: []}\n";
	char path[] = "/tmp/wgcfgXXXXXX";
	struct arena a = { 0 };
	struct diags d = { 0 };
	struct host h;
	struct matrix m = { 0 };
	struct config *c;
	const struct cell *cl;
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, cfg, strlen(cfg)) != (ssize_t)strlen(cfg))
		fatal("cannot write temp config");
	close(fd);
	c = configload(&a, path, &d);
	memset(&h, 0, sizeof(h));
	h.known = 1;
	h.container = 1;
	h.ccache = "/usr/bin/ccache";
	h.uv = "/home/u/uv";
	if (c && d.errors == 0)
		matrixexpand(&a, c, &h, &m, &d);
	CHECK(d.errors == 0 && m.n == 7, "torch/container config: 6 fa cells and 1 cpu cell");
	if (m.n == 7) {
		cl = &m.cells[0]; /* fa-1.0-py37-cu128-torch2.9 */
		checkstr(cl->id, "fa-1.0-py37-cu128-torch2.9", "first cell");
		CHECK(cl->torchindex == NULL, "torch from PyPI where pypi: names the cell's CUDA");
		checkstr(cl->pyexe, "/opt/python/cp37-cp37m/bin/python", "container python 3.7 has the m ABI flag");
		checkstr(cl->cudahome, "/usr/local/cuda-12.8", "container toolkit path");
		checkstr(cl->image, "pytorch/manylinux2_28-builder:cuda12.8", "default image with {cuda_version}");
		checkstr(cl->local, "cu12.8", "local label with {cuda_version}");
		checkstr(cl->uv, "/wg/bin/uv", "container uv is the mounted one");
		checkstr(cl->ccache, "ccache", "container ccache is looked up in the image");
		CHECK(cl->whynot == NULL, "container cells are buildable whatever the host has");
		cl = &m.cells[1]; /* py37-cu130 */
		checkstr(cl->torchindex, "https://download.pytorch.org/whl/cu130", "torch_index default for other CUDA");
		cl = &m.cells[4];
		checkstr(cl->pyexe, "/opt/python/cp313-cp313t/bin/python", "free-threaded container python");
		cl = &m.cells[6];
		checkstr(cl->image, "quay.io/pypa/manylinux_2_28_x86_64", "cpu cells use cpu_image");
		CHECK(cl->cudahome == NULL && cl->torchindex == NULL, "cpu cell has no toolkit and no torch");
	}
	diagfree(&d);
	unlink(path);
	free(m.cells);
	free(m.dropped);
	afree(&a);
}

static void
testconfigerrors(void)
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

static void
testgiturls(void)
{
	struct sb s = SB_INIT;
	char *u;

	static const struct {
		const char *url, *want, *what;
	} mirrors[] = {
		{ "https://github.com/Dao-AILab/flash-attention.git", "out/git/github.com/Dao-AILab/flash-attention.git",
		  "mirror of an https url" },
		{ "git://127.0.0.1:9418/a/b/", "out/git/127.0.0.1_9418/a/b.git", "mirror keeps the port, drops the trailing slash" },
		{ "git@github.com:owner/repo.git", "out/git/github.com/owner/repo.git", "mirror of an scp-like url" },
		{ "file:///srv/git/x.git", "out/git/file/srv/git/x.git", "mirror of a file url" },
		{ "https://user:secret@example.com/a b.git", "out/git/example.com/a_b.git",
		  "no credentials and no spaces in the mirror path" },
	};
	size_t i;

	for (i = 0; i < sizeof(mirrors) / sizeof(mirrors[0]); i++) {
		sbreset(&s);
		CHECK(mirrorpath(&s, "out", mirrors[i].url) == 0, mirrors[i].what);
		checkstr(s.buf, mirrors[i].want, mirrors[i].what);
	}
	sbreset(&s);
	CHECK(mirrorpath(&s, "out", "https://example.com/../etc") < 0, "'..' refused");
	sbreset(&s);
	/* a relative path made absolute inside mirrorpath: its message names the url it built
	   (this read freed memory before: ASan's heap-use-after-free) */
	CHECK(mirrorpath(&s, "out", "a/../b") < 0, "'..' in a relative path refused");
	sbreset(&s);
	CHECK(mirrorpath(&s, "out", "https://example.com/a.git\nref=x") < 0, "a newline in a url refused");
	sbfree(&s);

	{
		/* tagwhy against git check-ref-format refs/tags/<tag> (git 2.39's answers), except that
		   '@' and a leading '-' are refused too */
		static const struct {
			const char *tag;
			int ok;
		} tags[] = {
			{ "v1.0", 1 }, { "a/b", 1 }, { "v2.3.2.post1", 1 }, { "release/v1.0-rc1", 1 }, { "x.lockx", 1 },
			{ "@x", 1 }, { "a@b", 1 }, { "v{1}", 1 }, { "a//b", 0 }, { "/a", 0 }, { "a/", 0 }, { ".a", 0 },
			{ "a/.b", 0 }, { "a.lock", 0 }, { "a.lock/b", 0 }, { "a b", 0 }, { "a@{b", 0 }, { "v1.0.", 0 },
			{ "a..b", 0 }, { "a~1", 0 }, { "a^", 0 }, { "a:b", 0 }, { "a?", 0 }, { "a*", 0 }, { "a[", 0 },
			{ "a\\b", 0 }, { "v1\nurl=x", 0 }, { "v1\r", 0 }, { "", 0 }, { "@", 0 }, { "-x", 0 },
		};

		for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
			char what[80];

			snprintf(what, sizeof(what), "tag '%.40s' %s", tags[i].tag, tags[i].ok ? "valid" : "refused");
			CHECK((tagwhy(tags[i].tag) == NULL) == tags[i].ok, what);
		}
	}

	{
		static const struct {
			const char *parent, *url, *want, *what;
		} rel[] = {
			{ "https://github.com/facebookresearch/xformers.git", "../../Dao-AILab/flash-attention.git",
			  "https://github.com/Dao-AILab/flash-attention.git", "relative submodule url, two levels up" },
			{ "git://h:1/top.git/", "./sub.git", "git://h:1/top.git/sub.git", "./ is below the parent" },
			{ "git://h:1/top.git", "https://other/x.git", "https://other/x.git", "absolute urls stay as they are" },
			{ "git@github.com:owner/top.git", "../mid.git", "git@github.com:owner/mid.git", "scp-like parent" },
		};

		for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			u = resolveurl(rel[i].parent, rel[i].url);
			checkstr(u, rel[i].want, rel[i].what);
			free(u);
		}
	}
}

/* the FIPS 180-4 example digests, fed whole and in uneven pieces */
static void
testsha256(void)
{
	static const struct {
		const char *in, *want;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	struct sha256 c;
	char hex[65], block[1000];
	size_t i, k, n;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha256init(&c);
		sha256add(&c, v[i].in, strlen(v[i].in));
		sha256hex(&c, hex);
		checkstr(hex, v[i].want, "sha256 of a FIPS example");
		sha256init(&c);
		for (k = 0, n = strlen(v[i].in); k < n; k += 7)
			sha256add(&c, v[i].in + k, n - k < 7 ? n - k : 7);
		sha256hex(&c, hex);
		checkstr(hex, v[i].want, "sha256 fed in 7-byte pieces");
	}
	/* a million 'a's: many blocks, and a length past 2^16 bits */
	memset(block, 'a', sizeof(block));
	sha256init(&c);
	for (i = 0; i < 1000; i++)
		sha256add(&c, block, sizeof(block));
	sha256hex(&c, hex);
	checkstr(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", "sha256 of a million a's");
	/* 55, 56 and 64 bytes: the padding's edges; sha256file agrees with sha256add */
	for (k = 0; k < 3; k++) {
		static const size_t lens[] = { 55, 56, 64 };
		FILE *f = fopen("/tmp/wg-unit-sha", "wb");
		char viafile[65];

		n = lens[k];
		sha256init(&c);
		sha256add(&c, block, n);
		sha256hex(&c, hex);
		CHECK(f && fwrite(block, 1, n, f) == n && fclose(f) == 0, "write a file to hash");
		CHECK(sha256file("/tmp/wg-unit-sha", viafile) == 0 && !strcmp(hex, viafile), "sha256file equals sha256add");
	}
	sha256init(&c);
	sha256add(&c, block, 56);
	sha256hex(&c, hex);
	checkstr(hex, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a", "sha256 of 56 a's (a second block of padding)");
	unlink("/tmp/wg-unit-sha");
}

/* the store's file names and a stored wheel's name (gen/store.c, gen/wheelfile.c) */
static void
teststore(void)
{
	static const char sha[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	struct wheelname w;
	struct sb why = SB_INIT, p = SB_INIT;

	CHECK(storefile("x-1.0-py312.manifest") && storefile("x-1.0-cp312-cp312-linux_x86_64.whl"), "plain store names");
	sbaddf(&p, "blobs/%s/x-1.0-cp312-cp312-linux_x86_64.whl", sha);
	CHECK(storefile(p.buf), "a blob's name");
	sbreset(&p);
	sbaddf(&p, "blobs/%s/../x.whl", sha);
	CHECK(!storefile(p.buf) && !storefile("blobs/0123/x.whl") && !storefile("../x.whl") && !storefile(".a/b.whl") &&
	      !storefile("a/b/c.whl") && !storefile("a b/c.whl") && !storefile("a/.b") && !storefile("/b.whl") &&
	      !storefile(""), "names that leave the store or are not its layout");
	CHECK(storefile("wheels-x-1.0-py312/x-1.0-cp312-cp312-linux_x86_64.whl") && storefile("w+1/x.manifest"),
	      "a GitHub release's asset: <release>/<name>");
	sbreset(&p);
	storerelease("wheels", "flash-attn-2.8.3-py312-cu129-torch2.8", &p);
	CHECK(!strcmp(p.buf, "wheels-flash-attn-2.8.3-py312"), "a cell's release leaves out CUDA and torch");
	sbreset(&p);
	storerelease("wheels", "cupy-13.6.0-py313-cu130-aarch64", &p);
	CHECK(!strcmp(p.buf, "wheels-cupy-13.6.0-py313-aarch64"), "a cell's release keeps its platform");
	sbreset(&p);
	storerelease("w", "my-py3-pkg-1.0-py310", &p);
	CHECK(!strcmp(p.buf, "w-my-py3-pkg-1.0-py310"), "a cell's release: the last -py<digits> is its Python");
	sbreset(&p);
	sbaddf(&p, "blobs/%.63sG/x.whl", sha);
	CHECK(!storefile(p.buf), "a blob's name with a non-hex digit");
	CHECK(wheelnameparse("flash_attn-2.8.3+cu130torch2.14-cp312-cp312-linux_x86_64.whl", &w, &why) == 0 &&
	      !strcmp(w.dist, "flash_attn") && !strcmp(w.version, "2.8.3+cu130torch2.14") && !*w.build &&
	      !strcmp(w.py, "cp312") && !strcmp(w.plat, "linux_x86_64"), "a wheel's name, split");
	wheelnamefree(&w);
	CHECK(wheelnameparse("x-1.0-1-py3-none-any.whl", &w, &why) == 0 && !strcmp(w.build, "1") && !strcmp(w.abi, "none"),
	      "a build tag");
	wheelnamefree(&w);
	CHECK(wheelnameparse("x-1.0-py3-none.whl", &w, &why) < 0 && wheelnameparse("x-1.0--py3-none-any.whl", &w, &why) < 0 &&
	      wheelnameparse("x.tar.gz", &w, &why) < 0 && wheelnameparse("a/x-1.0-py3-none-any.whl", &w, &why) < 0,
	      "not wheel names");
	{
		/* an abi3 wheel of an older CPython 3 fits a cell of a later one, not of an earlier one */
		struct wheelwant ww = {"x", NULL, "3.11", "x86_64", NULL};

		sbreset(&why);
		CHECK(wheelnamecheck("x-1.0-cp38-abi3-manylinux_2_28_x86_64.whl", &ww, &why) == 0, "cp38-abi3 for Python 3.11");
		CHECK(wheelnamecheck("x-1.0-cp311-abi3-linux_x86_64.whl", &ww, &why) == 0, "cp311-abi3 for Python 3.11");
		CHECK(wheelnamecheck("x-1.0-cp312-abi3-linux_x86_64.whl", &ww, &why) < 0 &&
		      strstr(why.buf, "are not for Python 3.11"), "cp312-abi3 is not for Python 3.11");
		sbreset(&why);
		CHECK(wheelnamecheck("x-1.0-cp3x-abi3-linux_x86_64.whl", &ww, &why) < 0, "cp3x is no CPython tag");
		ww.python = "3.9";
		sbreset(&why);
		CHECK(wheelnamecheck("x-1.0-cp38-abi3-linux_x86_64.whl", &ww, &why) == 0 &&
		      wheelnamecheck("x-1.0-cp310-abi3-linux_x86_64.whl", &ww, &why) < 0, "cp38-abi3 for 3.9, cp310-abi3 not");
		sbreset(&why);
	}
	CHECK(elfmachine((const unsigned char *)"\177ELF\002\001\001\0\0\0\0\0\0\0\0\0\003\0\267\0", 20) &&
	      !strcmp(elfmachine((const unsigned char *)"\177ELF\002\001\001\0\0\0\0\0\0\0\0\0\003\0\267\0", 20), "aarch64") &&
	      !strcmp(elfmachine((const unsigned char *)"\177ELF\002\001\001\0\0\0\0\0\0\0\0\0\003\0\076\0", 20), "x86_64") &&
	      !elfmachine((const unsigned char *)"#!/bin/sh\n", 10), "ELF machines");
	sbfree(&why);
	sbfree(&p);
}

/* json.c: what it takes and what it refuses, with the place */
static void
testjson(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "", "line 1, column 1: the text ends where a value should be" },
		{ "[1,]", "line 1, column 4: not a JSON value" },
		{ "{\"a\":1,\"a\":2}", "a duplicate key in an object: a" },
		{ "\"\\ud800\"", "a lone high surrogate" },
		{ "\"\\udc00\"", "a lone low surrogate" },
		{ "\"a\tb\"", "a control character in a string" },
		{ "[1] 2", "text after the JSON value" },
		{ "\"\xff\"", "bytes that are not UTF-8" },
		{ "01", "text after the JSON value" },
		{ "1.", "a number needs digits after its '.'" },
		{ "{\"a\" 1}", "':' must follow an object's key" },
		{ "{\"a\\u0000b\": 1}", "an object's key holds a NUL" },
		{ "[\"abc", "a string that never ends" },
		{ "tru", "not a JSON value" },
		{ "\n  [1,\n   x]", "line 3, column 4: not a JSON value" },
	};
	struct arena a = { 0 };
	struct sb why = SB_INIT, deep = SB_INIT;
	const struct json *v;
	long long n;
	size_t i;

	{
		const char *t = "{\"files\": [{\"filename\": \"x\\u00e9\\ud83d\\ude00\\n\", \"size\": -12, \"y\": true, "
				"\"f\": 1.5e3}], \"z\": null}";

		v = jsonparse(&a, t, strlen(t), NULL, &why);
	}
	CHECK(v && v->kind == JSON_OBJECT && v->n == 2 && !strcmp(v->k[1], "z"), "an object with its keys in order");
	v = v ? jsonget(v, "files") : NULL;
	CHECK(v && v->kind == JSON_ARRAY && v->n == 1, "an array of one");
	checkstr(v ? jsonstr(jsonget(v->v[0], "filename")) : NULL, "x\xc3\xa9\xf0\x9f\x98\x80\n",
		 "escapes decoded: \\u00e9, a surrogate pair, \\n");
	CHECK(v && jsonint(jsonget(v->v[0], "size"), &n) == 0 && n == -12, "a whole number");
	CHECK(v && jsonint(jsonget(v->v[0], "f"), &n) < 0 && jsonbool(jsonget(v->v[0], "y")) == 1 &&
	      jsonbool(jsonget(v->v[0], "f")) == -1 && !jsonget(v->v[0], "nothing") && !jsonget(NULL, "x"),
	      "a fraction is no int; true; a missing key");
	v = jsonparse(&a, "\"a\\u0000b\"", 10, NULL, &why);
	CHECK(v && v->len == 3 && !jsonstr(v), "a string with a NUL has its length, and jsonstr refuses it");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sbreset(&why);
		v = jsonparse(&a, bad[i].text, strlen(bad[i].text), NULL, &why);
		CHECK(!v && strstr(why.buf, bad[i].why), bad[i].text);
		if (v || !strstr(why.buf, bad[i].why))
			printf("  want: %s\n  got:  %s\n", bad[i].why, why.buf);
	}
	/* nesting past the limit, and too many values: refused, not a stack overflow */
	for (i = 0; i < 100000; i++)
		sbaddc(&deep, '[');
	sbreset(&why);
	CHECK(!jsonparse(&a, deep.buf, deep.len, NULL, &why) && strstr(why.buf, "nested too deep"), "100000 ['s");
	sbreset(&deep);
	sbaddc(&deep, '[');
	for (i = 0; i < 2000; i++)
		sbadd(&deep, i ? ",0" : "0");
	sbaddc(&deep, ']');
	{
		struct jsonlimits lim = { 0, 1000 };

		sbreset(&why);
		CHECK(!jsonparse(&a, deep.buf, deep.len, &lim, &why) && strstr(why.buf, "too many values"), "a value limit");
	}
	sbfree(&deep);
	sbfree(&why);
	afree(&a);
}

/* simpleapi.c: URLs resolved as RFC 3986 says; pages in both forms; hostile names refused */
static void
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
		checkstr(u.buf, refs[i].want, refs[i].ref);
	}
	CHECK(indexpageparse("https://pypi.example/simple/torch/", json, strlen(json), "application/vnd.pypi.simple.v1+json",
			     &pg, &why) == 0 && pg.n == 1 && pg.json, "a PEP 691 page");
	if (pg.n == 1) {
		checkstr(pg.files[0].url, "https://pypi.example/f/t.whl", "its url, resolved");
		CHECK(pg.files[0].sha256 && startswith(pg.files[0].sha256, "ab01") && pg.files[0].metadata &&
		      pg.files[0].metasha256 && pg.files[0].yanked,
		      "a hash in lower case; core-metadata with its hash; yanked with a reason");
	}
	indexpagefree(&pg);
	CHECK(indexpageparse("https://pypi.example/simple/torch/", html, strlen(html), "", &pg, &why) == 0 && pg.n == 2 &&
	      !pg.json, "a PEP 503 page (the text decides)");
	if (pg.n == 2) {
		checkstr(pg.files[0].filename, "torch-2.9.1+cu128-cp312-cp312-linux_x86_64.whl", "the anchor's text");
		checkstr(pg.files[0].requirespython, ">=3.9", "an attribute's entity");
		checkstr(pg.files[1].filename, "x & y.whl", "an upper-case anchor, blanks trimmed");
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
	checkstr(u.buf, "'a\\x01\\xff''", "a name from the network, quoted");
	sbfree(&u);
	sbfree(&why);
}

/* coremeta.c: the headers, markers in three values, a torch wheel's CUDA */
static void
testcoremeta(void)
{
	static const struct {
		const char *marker;
		int want;
	} marks[] = {
		{ "platform_system == \"Linux\" and platform_machine == \"x86_64\"", MARKER_TRUE },
		{ " platform_machine=='aarch64'", MARKER_FALSE },
		{ "python_version < \"3.15\"", MARKER_UNKNOWN },
		{ "python_version < \"3.15\" and platform_machine == \"aarch64\"", MARKER_FALSE },
		{ "(python_version < \"3.15\" or sys_platform == 'linux') and extra == \"cuda\"", MARKER_FALSE },
		{ "'x86' in platform_machine and os_name != 'nt'", MARKER_TRUE },
		{ "platform_machine not in 'arm64 aarch64'", MARKER_TRUE },
		{ "platform_machine ==", MARKER_BAD },
		{ "nonsense == 'x'", MARKER_BAD },
		{ "(((platform_machine == 'x86_64'", MARKER_BAD },
	};
	const char *meta = "Metadata-Version: 2.1\r\nName: torch\nVersion: 2.10.0\n"
			   "Requires-Dist: nvidia-cuda-runtime-cu12==12.8.90; platform_system == \"Linux\" and platform_machine == \"x86_64\"\n"
			   "Requires-Dist: triton==3.6.0; platform_system == \"Linux\"\n"
			   "Requires-Dist: cuda-bindings==12.9.4;\n  platform_machine == \"x86_64\"\n"
			   "\nRequires-Dist: not-a-header\n";
	const char *meta13 = "Name: torch\nVersion: 2.15.0\nRequires-Dist: nvidia-cuda-runtime-cu13==13.0.1; extra == \"old\"\n"
			     "Requires-Dist: cuda-toolkit[cublas,cudart]==13.2.2; platform_system == \"Linux\"\n";
	struct markerenv env;
	struct coremeta m;
	struct sb why = SB_INIT;
	char cuda[16];
	size_t i;

	markerlinux(&env, "x86_64");
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		CHECK(markereval(marks[i].marker, &env) == marks[i].want, marks[i].marker);
	CHECK(coremetaparse(meta, strlen(meta), &m, &why) == 0 && m.nrequires == 3 && !strcmp(m.version, "2.10.0") &&
	      strstr(m.requires[2], "platform_machine"), "headers to the empty line; a folded field joined");
	CHECK(torchcuda(&m, "x86_64", cuda, &why) == 0 && !strcmp(cuda, "12.8"), "2.10 on x86_64: 12.8");
	CHECK(torchcuda(&m, "aarch64", cuda, &why) == 0 && !strcmp(cuda, ""), "2.10 on aarch64: a CPU-only wheel");
	coremetafree(&m);
	CHECK(coremetaparse(meta13, strlen(meta13), &m, &why) == 0 && torchcuda(&m, "aarch64", cuda, &why) == 0 &&
	      !strcmp(cuda, "13.2"), "cuda-toolkit wins; an extra's requirement does not count");
	coremetafree(&m);
	sbreset(&why);
	CHECK(coremetaparse("Name: x\n", 8, &m, &why) < 0 && strstr(why.buf, "no Version"), "no Version");
	CHECK(coremetaparse("Name: \xff\n", 8, &m, &why) < 0, "not UTF-8");
	sbfree(&why);
}

/* yamledit.c: values replaced, lists appended to, all else byte for byte */
static void
testyamledit(void)
{
	const char *src = "# top\na:\n  versions: [\"1.0\", '2.0']  # c\n  b: {x: [1], y: plain}\n"
			  "  block:\n    - \"1.0\"   # one\n  one: \"1.0\"\n  empty: []\n";
	struct arena a = { 0 };
	struct diags d = { 0 };
	struct yedits e = { 0 };
	struct sb out = SB_INIT, why = SB_INIT, q = SB_INIT;
	struct node *root = ydocparse(&a, src, strlen(src), &d), *m = root ? mapget(root, "a") : NULL;
	const char *add[] = { "3.0", "4.0b1" };
	size_t end;

	CHECK(m && d.errors == 0, "the YAML reads");
	if (!m)
		return;
	CHECK(yappendlist(src, strlen(src), mapget(m, "versions"), add, 2, &e, &why) == 0, "a flow list");
	CHECK(yappendlist(src, strlen(src), mapget(m, "block"), add, 1, &e, &why) == 0, "a block list");
	CHECK(yappendlist(src, strlen(src), mapget(m, "one"), add, 1, &e, &why) == 0, "a single string");
	CHECK(yappendlist(src, strlen(src), mapget(m, "empty"), add + 1, 1, &e, &why) == 0, "an empty flow list");
	CHECK(ynodeend(src, strlen(src), mapget(m, "b"), &end) == 0 && src[end - 1] == '}', "a flow mapping's end");
	CHECK(yeditapply(src, strlen(src), &e, &out) == 0, "the changes apply");
	checkstr(out.buf, "# top\na:\n  versions: [\"1.0\", '2.0', '3.0', '4.0b1']  # c\n  b: {x: [1], y: plain}\n"
			  "  block:\n    - \"1.0\"   # one\n    - \"3.0\"\n  one: [\"1.0\", \"3.0\"]\n  empty: [\"4.0b1\"]\n",
		 "appended in each list's own style");
	yquote(&q, "it's", '\'');
	yquote(&q, "null", 0);
	yquote(&q, "a\"b", '"');
	checkstr(q.buf, "'it''s'\"null\"\"a\\\"b\"", "quoting: single, plain refused for null, double");
	yeditsfree(&e);
	yeditadd(&e, 3, 5, "x");
	yeditadd(&e, 5, 1, "y");
	sbreset(&out);
	CHECK(yeditapply(src, strlen(src), &e, &out) < 0, "overlapping changes are refused");
	yeditsfree(&e);
	sbfree(&out);
	sbfree(&why);
	sbfree(&q);
	diagfree(&d);
	afree(&a);
}

/* the first error lines of a step's log (gen/summary.c): those the step wrote beside the log
   (templates/step-lib.sh owns the rule), else the log's tail */
static void
testfirsterrors(void)
{
	static const char log1[] =
		"wheelgen-step: start 1 build x\n+ gcc -c a.c\na.c:3:1: error: unknown type 'x'\nwheelgen-step: end 2 1 1 s\n";
	static const char log2[] = "wheelgen-step: start 1 test x\none\ntwo\nthree\nwheelgen-step: end 2 1 1 s\n";
	static const char errs2[] = "3: a.c:3:1: error: unknown type 'x'\n7: FAILED: a.o\n";
	char dir[] = "/tmp/wgunitXXXXXX", path[64], errs[64], *want, *golden;
	struct sb lines = SB_INIT;
	struct timeval old[2] = { { 1000000000, 0 }, { 1000000000, 0 } };

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(path, sizeof(path), "%s/x.build.log", dir);
	snprintf(errs, sizeof(errs), "%s/x.build.errors", dir);
	CHECK(writeifchanged(path, log1, strlen(log1)) >= 0, "a log written");
	CHECK(firsterrors(path, 5, &lines) == 0, "the log read");
	checkstr(lines.buf, "+ gcc -c a.c\na.c:3:1: error: unknown type 'x'\n", "no errors file: the log's last lines");
	/* the errors file the step wrote: its lines as they are, at most max */
	CHECK(writeifchanged(errs, errs2, strlen(errs2)) >= 0, "errors written");
	sbreset(&lines);
	CHECK(firsterrors(path, 5, &lines) == 0, "the log read");
	checkstr(lines.buf, errs2, "the step's errors");
	sbreset(&lines);
	CHECK(firsterrors(path, 1, &lines) == 0, "the log read");
	checkstr(lines.buf, "3: a.c:3:1: error: unknown type 'x'\n", "at most max of them");
	/* an errors file older than the log is an earlier run's */
	CHECK(utimes(errs, old) == 0, "errors made old");
	sbreset(&lines);
	CHECK(firsterrors(path, 2, &lines) == 0, "the log read");
	checkstr(lines.buf, "+ gcc -c a.c\na.c:3:1: error: unknown type 'x'\n", "an old errors file: the log's last lines");
	CHECK(writeifchanged(errs, "", 0) >= 0, "an empty errors file");
	CHECK(writeifchanged(path, log2, strlen(log2)) >= 0, "a log without errors written");
	sbreset(&lines);
	CHECK(firsterrors(path, 2, &lines) == 0, "the log read");
	checkstr(lines.buf, "two\nthree\n", "without errors: its last lines");
	snprintf(path, sizeof(path), "%s/none.test.log", dir);
	CHECK(firsterrors(path, 2, &lines) == -1, "no log: -1");
	/* what the rule of templates/step-lib.sh finds in the shared log (tests/t0460 holds the rule
	   to tests/golden/first-errors.expect) is what the summary shows (run from the top of the tree) */
	want = readfile("tests/golden/first-errors.expect", NULL);
	golden = readfile("tests/golden/first-errors.log", NULL);
	CHECK(want && golden, "tests/golden/first-errors.* read");
	if (want && golden) {
		snprintf(path, sizeof(path), "%s/g.build.log", dir);
		snprintf(errs, sizeof(errs), "%s/g.build.errors", dir);
		CHECK(writeifchanged(path, golden, strlen(golden)) >= 0 && writeifchanged(errs, want, strlen(want)) >= 0,
		      "the golden log and its errors written");
		sbreset(&lines);
		CHECK(firsterrors(path, 10, &lines) == 0, "the golden log read");
		checkstr(lines.buf, want, "tests/golden/first-errors.expect: the lines step-lib.sh's rule found");
	}
	free(want);
	free(golden);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0, "cleanup");
	sbfree(&lines);
}

/* the one depfile writer (key.h): a path source's files, escaped as ninja's depfile parser reads
   them ('$' doubled, space and '#' escaped, ':' as it is); a git source names none; a file a
   depfile cannot name is an error */
static void
testdepfile(void)
{
	char dir[] = "/tmp/wgunitXXXXXX", path[96], *got;
	struct package pkg;
	struct cell cl;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	memset(&pkg, 0, sizeof(pkg));
	memset(&cl, 0, sizeof(cl));
	cl.pkg = &pkg;
	pkg.src = SRC_PATH;
	pkg.path = dir;
	snprintf(path, sizeof(path), "%s/we$ird :dir", dir);
	CHECK(mkdir(path, 0777) == 0, "a directory with '$', space and ':'");
	snprintf(path, sizeof(path), "%s/we$ird :dir/a#b.c", dir);
	CHECK((f = fopen(path, "w")) && fclose(f) == 0, "a file in it");
	snprintf(path, sizeof(path), "%s/setup.py", dir);
	CHECK((f = fopen(path, "w")) && fclose(f) == 0, "setup.py");
	snprintf(path, sizeof(path), "%s/build", dir);
	CHECK(mkdir(path, 0777) == 0, "build/ (not a source)");
	snprintf(path, sizeof(path), "%s.d", dir);
	CHECK(depfilewrite(&cl, "out dir/wheels/x/manifest", path) == 0, "depfile written");
	got = readfile(path, NULL);
	{
		struct sb want = SB_INIT;

		sbaddf(&want, "out\\ dir/wheels/x/manifest: %s/setup.py %s/we$$ird\\ :dir/a\\#b.c\n", dir, dir);
		checkstr(got ? got : "", want.buf, "the depfile: sorted, escaped, no build/");
		sbfree(&want);
	}
	free(got);
	pkg.src = SRC_GIT;
	CHECK(depfilewrite(&cl, "out/wheels/x/manifest", path) == 0, "a git cell's depfile");
	got = readfile(path, NULL);
	checkstr(got ? got : "", "out/wheels/x/manifest:\n", "a git cell names no file");
	free(got);
	pkg.src = SRC_PATH;
	snprintf(path, sizeof(path), "%s/tab\there", dir);
	CHECK((f = fopen(path, "w")) && fclose(f) == 0, "a file with a tab");
	snprintf(path, sizeof(path), "%s.d", dir);
	CHECK(depfilewrite(&cl, "out/wheels/x/manifest", path) == -1, "a tab: -1");
	unlink(path);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	CHECK(system(path) == 0, "cleanup");
}

/* layout: the log of any step, and the places of the whole build directory */
static void
testlayout(void)
{
	struct sb s = SB_INIT;

	bdlog(&s, "out", "c-1.0-py312", "shard2");
	checkstr(s.buf, "out/logs/c-1.0-py312.shard2.log", "a part's log");
	sbreset(&s);
	bdlog(&s, NULL, "c-1.0-py312", "build");
	bdrel(&s, BD_BUILDLOG, "c-1.0-py312");
	checkstr(s.buf, "logs/c-1.0-py312.build.loglogs/c-1.0-py312.build.log", "bdlog's build log is BD_BUILDLOG");
	sbreset(&s);
	bdpath(&s, "b", BD_GRAPH, NULL);
	bdpath(&s, " b", BD_INDEXPAGE, "ignored");
	checkstr(s.buf, "b/graph.ninja b/index/simple/index.html", "places of the whole directory");
	sbfree(&s);
}

/* damage: a stored wheel's name, and a manifest that contradicts its cell */
static void
testdamage(void)
{
	struct wheelinfo m;
	struct package pkg;
	struct cell cl;
	struct sb why = SB_INIT;
	char flat[] = "a-1.0-py3-none-any.whl", blob[] = "blobs/0123/a-1.0-py3-none-any.whl", other[] = "b-1.0-py312";

	memset(&m, 0, sizeof(m));
	memset(&pkg, 0, sizeof(pkg));
	memset(&cl, 0, sizeof(cl));
	CHECK(plainwheel("a-1.0-py3-none-any.whl") && !plainwheel(".a.whl") && !plainwheel("x/a.whl") &&
	      !plainwheel("a.tar.gz"), "plainwheel");
	m.filename = flat;
	CHECK(!strcmp(entrywheel(&m), m.filename), "a flat wheel: its file name");
	m.stored = blob;
	CHECK(!strcmp(entrywheel(&m), m.stored), "a blob: its name in the store");
	cl.pkg = &pkg;
	cl.id = "a-1.0-py312";
	m.cell = other;
	CHECK(entrydamage(&cl, &m, &why) == 1 && strstr(why.buf, "its cell= is 'b-1.0-py312'"), "another cell's entry");
	sbfree(&why);
}

/* platform: each platform's cross helper is a script of templates/ (run from the top of the tree) */
static void
testcrossscript(void)
{
	size_t i;

	for (i = 0; i < nplatforms; i++) {
		struct sb path = SB_INIT;

		sbaddf(&path, "templates/%s", orempty(platforms[i].crossscript));
		CHECK(platforms[i].crossscript && access(path.buf, R_OK) == 0, "a platform's crossscript is in templates/");
		sbfree(&path);
	}
	CHECK(!strcmp(platformfind("win_amd64")->crossscript, "windows.sh") &&
	      !strcmp(platformfind("aarch64")->crossscript, "cross.sh"), "win_amd64: windows.sh; aarch64: cross.sh");
}

/* shardplan: the fit of setup and time per object, the binomial largest part, the suggested N */
static void
testshardplan(void)
{
	/* flash-attn's production cell (issue 37): 73 objects, about 9.5 hours on a 4-processor runner */
	struct shardpoint whole[] = { { 73, 34200 } };
	/* a whole build and its 4 parts: 10 minutes of setup, 100 s an object */
	struct shardpoint pts[] = { { 40, 4600 }, { 12, 1800 }, { 8, 1400 }, { 11, 1700 }, { 9, 1500 }, { 0, 600 } };
	struct shardpoint same[] = { { 10, 1000 }, { 10, 1100 } };
	struct shardfit f;
	double l;

	/* the largest of n hash-split parts: mean + 2 sd of Binomial(total, 1/n), at most total */
	l = shardlargest(73, 4);
	CHECK(l > 25.64 && l < 25.66, "73 objects in 4 parts: 18.25 + 2 x 3.70 = 25.65");
	CHECK(shardlargest(73, 1) == 73, "one part holds every object");
	CHECK(shardlargest(1, 2) == 1, "the largest part is at most the total");
	l = shardlargest(10, 2);
	CHECK(l > 8.16 && l < 8.17, "10 objects in 2 parts: 5 + 2 x 1.58 = 8.16");

	/* setup given: the rest of the time is the objects' */
	CHECK(shardfitpoints(whole, 1, 600, &f) == 0 && !f.fitted, "a fit with the setup given");
	CHECK(f.perobject > 460.27 && f.perobject < 460.28, "(34200 - 600) / 73 s an object");
	/* 330 minutes: N = 1 takes 9.5 h; 2: 600 + 460.27 x 45.04 = 21330 s > 19800; 3: 15510 s */
	CHECK(shardsuggest(73, &f, 330 * 60) == 3, "flash-attn's cell: 3 parts of jobs within 330 minutes");
	CHECK(shardsuggest(73, &f, 300 * 60) == 3 && shardsuggest(73, &f, 240 * 60) == 4, "shorter jobs, more parts");
	CHECK(shardsuggest(73, &f, 34300) == 1, "a build that fits is one part");
	CHECK(shardsuggest(73, &f, 1000) == 0, "no N when one object takes longer than the job");
	l = shardjobsecs(73, 4, &f);
	CHECK(l > 12405 && l < 12407, "the largest of 4 parts' job: 600 + 460.27 x 25.65 s");

	/* fitted from builds of different counts (a final step that compiled 0 is pure setup) */
	CHECK(shardfitpoints(pts, 6, -1, &f) == 0 && f.fitted, "setup and rate fitted");
	CHECK(f.setup > 599 && f.setup < 601 && f.perobject > 99.9 && f.perobject < 100.1, "600 s of setup, 100 s an object");
	CHECK(shardfitpoints(same, 2, -1, &f) < 0, "one count only: setup and rate cannot be told apart");
	CHECK(shardfitpoints(pts + 5, 1, 600, &f) < 0, "nothing compiled: no rate");
	CHECK(shardfitpoints(pts, 1, 5000, &f) < 0, "a setup longer than the build: no rate");
}

/* write text to a fresh file under dir; its path into path */
static void
putfile(const char *dir, const char *name, const char *text, char *path, size_t n)
{
	FILE *f;

	snprintf(path, n, "%s/%s", dir, name);
	if ((f = fopen(path, "wb"))) {
		fputs(text, f);
		fclose(f);
	}
}

/* the manifest: its lines read, set, dropped and written byte for byte as templates/manifest.py
   wrote them; its checks; the store's entry of a cell; the store's layout (gen/manifest.c,
   gen/storelayout.c) */
static void
testmanifest(void)
{
	static const char sha[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	char dir[] = "/tmp/wgmanXXXXXX", path[256], rec[256];
	struct manifestlines m;
	struct wheelinfo w;
	struct sb why = SB_INIT, t = SB_INIT;
	char *data;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	sbaddf(&t, "cell=x-1.0-py312\npackage=x\nversion=1.0\nno equals sign\nfilename=x-1.0-cp312-cp312-linux_x86_64.whl\n"
		   "sha256=%s\nsize=12\nkey=k\norigin=build\ncell=second\n", sha);
	putfile(dir, "m", t.buf, path, sizeof(path));
	CHECK(manifestlinesread(path, &m, &why) == 0 && m.n == 10, "a manifest's lines, one without '=' kept");
	CHECK(manifestlinesget(&m, "cell") && !strcmp(manifestlinesget(&m, "cell"), "second") &&
	      !manifestlinesget(&m, "torch") && !manifestlinesget(&m, "no equals sign"), "a field's value: its last line's");
	CHECK(manifestfield("sha256") && manifestfield("test_torch") && !manifestfield("sha") && !manifestfield("fielname"),
	      "the fields are the table's");
	CHECK(manifestlinesset(&m, "fielname", "x") < 0 && manifestlinesset(&m, "torch", "2.8\n") < 0 &&
	      manifestlinesset(&m, "torch", "2.8\r") < 0, "no field of another name, no line break in a value");
	/* manifest.py's merge: the dropped keys go, a set replaces its key's first line, else appends */
	manifestlinesclean(&m);
	manifestlinesdrop(&m, "key");
	CHECK(manifestlinesset(&m, "cell", "y-1.0-py313") == 0 && manifestlinesset(&m, "abi_from", "x-1.0-py312") == 0 &&
	      manifestlinesset(&m, "python", "3.13") == 0, "sets");
	sbreset(&t);
	manifestlinestext(&t, &m);
	{
		struct sb want = SB_INIT;

		sbaddf(&want, "cell=y-1.0-py313\npackage=x\nversion=1.0\nfilename=x-1.0-cp312-cp312-linux_x86_64.whl\n"
			      "sha256=%s\nsize=12\norigin=build\ncell=second\nabi_from=x-1.0-py312\npython=3.13\n", sha);
		CHECK(!strcmp(t.buf, want.buf), "the text: lines in place, the new appended in order (manifest.py's bytes)");
		sbfree(&want);
	}
	snprintf(rec, sizeof(rec), "%s/out", dir);
	CHECK(manifestlineswrite(rec, &m) == 1 && manifestlineswrite(rec, &m) == 0, "written once, then unchanged");
	data = readfile(rec, NULL);
	CHECK(data && !strcmp(data, t.buf), "the file holds the text");
	free(data);
	manifestlinesfree(&m);

	/* the store's entry: origin, tested, gpu and stored replaced, the test record's gpu= */
	sbreset(&t);
	sbaddf(&t, "cell=x-1.0-py312\npackage=x\nfilename=x-1.0-cp312-cp312-linux_x86_64.whl\nsha256=%s\norigin=store\n"
		   "tested=old\ngpu=old\nstored=old\nsize=12\n", sha);
	putfile(dir, "m", t.buf, path, sizeof(path));
	putfile(dir, "rec", "0123\ngpu=passed\nmodules=1\n", rec, sizeof(rec));
	sbreset(&t);
	CHECK(manifestlinesread(path, &m, &why) == 0 && manifeststoreentry(&t, &m, rec, "r1/x.whl", &why) == 0, "an entry");
	{
		struct sb want = SB_INIT;

		sbaddf(&want, "cell=x-1.0-py312\npackage=x\nfilename=x-1.0-cp312-cp312-linux_x86_64.whl\nsha256=%s\nsize=12\n"
			      "origin=build\ntested=%s\ngpu=passed\nstored=r1/x.whl\n", sha, sha);
		CHECK(!strcmp(t.buf, want.buf), "the store's entry, as publish.sh wrote it");
		sbfree(&want);
	}
	manifestlinesfree(&m);

	/* the checks of a manifest from a store */
	putfile(dir, "m", "package=x\nfilename=a/b.whl\nsha256=0\n", path, sizeof(path));
	sbreset(&why);
	CHECK(manifestparse(path, &w, &why) < 0 && strstr(why.buf, "filename is not a plain file name"), "a filename with '/'");
	sbreset(&t);
	sbaddf(&t, "package=x\nfilename=x.whl\nsha256=%s\nstored=blobs/%s/y.whl\n", sha, sha);
	putfile(dir, "m", t.buf, path, sizeof(path));
	sbreset(&why);
	CHECK(manifestparse(path, &w, &why) < 0 && strstr(why.buf, "stored is not blobs/<sha256>/<filename> or <release>/<filename>"),
	      "a stored= of another file");
	sbreset(&t);
	sbaddf(&t, "package=x\nfilename=x.whl\nsha256=%s\nstored=blobs/%s/x.whl\nsize=7\nupload_time=9\n", sha, sha);
	putfile(dir, "m", t.buf, path, sizeof(path));
	sbreset(&t);
	sbaddf(&t, "blobs/%s/x.whl", sha);
	CHECK(manifestparse(path, &w, &why) == 0 && w.size == 7 && w.mtime == 9 && w.objcompiled == -1 &&
	      !strcmp(w.stored, t.buf), "a blob's stored=, the numbers");
	manifestfree(&w);
	/* what wheels.json carries: GPU code, dependencies, the torch it was built against */
	{
		static const char *const bad[] = {
			"gpu_archs=sm_9", "gpu_archs=sm_90 ", "gpu_archs=sm_90  compute_90", "gpu_archs=sm_90x",
			"gpu_archs=arch_90", "gpu_archs=sm_1000", "dependencies=Einops", "dependencies=a  b",
			"dependencies=a;b", "torch_cuda=13", "torch_cxx11_abi=yes", "torch_index=file:///x",
			"torch_index=https://x/a b", "torch_index=https://x/'a", "torch_version=2.9.0 x", NULL,
		};
		size_t k;

		for (k = 0; bad[k]; k++) {
			sbreset(&t);
			sbaddf(&t, "package=x\nfilename=x.whl\nsha256=%s\n%s\n", sha, bad[k]);
			putfile(dir, "m", t.buf, path, sizeof(path));
			sbreset(&why);
			CHECK(manifestparse(path, &w, &why) < 0 && strstr(why.buf, "manifest '"), bad[k]);
		}
		sbreset(&t);
		sbaddf(&t, "package=x\nfilename=x.whl\nsha256=%s\ngpu_archs=sm_80 sm_90a sm_100 compute_120f\n"
			   "dependencies=einops torch typing-extensions\ntorch_version=2.9.0+cu130\ntorch_cuda=13.0\n"
			   "torch_index=\ntorch_cxx11_abi=1\n", sha);
		putfile(dir, "m", t.buf, path, sizeof(path));
		CHECK(manifestparse(path, &w, &why) == 0 && !strcmp(w.archs, "sm_80 sm_90a sm_100 compute_120f") &&
		      !strcmp(w.deps, "einops torch typing-extensions") && !strcmp(w.torchversion, "2.9.0+cu130") &&
		      !strcmp(w.torchabi, "1") && !*w.torchindex, "GPU code, dependencies, torch read");
		manifestfree(&w);
		putfile(dir, "m", "package=x\nfilename=x.whl\nsha256=0000000000000000000000000000000000000000000000000000000000000000\ngpu_archs=\n",
			path, sizeof(path));
		CHECK(manifestparse(path, &w, &why) == 0 && w.archs && !*w.archs && !w.deps, "no GPU code: empty, not unknown");
		manifestfree(&w);
	}
	{
		char big[MANIFEST_MAX + 2];

		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		putfile(dir, "m", big, path, sizeof(path));
		sbreset(&why);
		CHECK(manifestlinesread(path, &m, &why) < 0 && strstr(why.buf, "larger than"), "a manifest is bounded");
		putfile(dir, "m", "package=x\xff\n", path, sizeof(path));
		sbreset(&why);
		CHECK(manifestlinesread(path, &m, &why) < 0 && strstr(why.buf, "not text"), "a manifest is UTF-8 text");
	}

	/* the layout */
	sbreset(&t);
	storeblob(&t, sha, "x.whl");
	CHECK(!strncmp(t.buf, "blobs/", 6) && !strcmp(t.buf + 6 + 64, "/x.whl") && storedwheel(t.buf, sha, "x.whl") &&
	      !storedwheel(t.buf, sha, "y.whl") && storefile(t.buf), "a blob: blobs/<sha256>/<file>");
	sbreset(&t);
	storeasset(&t, "wheels-x-1.0-py312", "x.whl");
	CHECK(!strcmp(t.buf, "wheels-x-1.0-py312/x.whl") && storedwheel(t.buf, sha, "x.whl") && storefile(t.buf) &&
	      !storedwheel(".w/x.whl", sha, "x.whl") && !storedwheel("a b/x.whl", sha, "x.whl"), "a release's asset");
	unlink(path);
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	unlink(rec);
	rmdir(dir);
	sbfree(&why);
	sbfree(&t);
}

/* wheels.json: an entry per wheel (not the PEP 825 variant wheels), the tags from the file name,
   null for what the manifest does not say, strings escaped */
static void
testwheelsjson(void)
{
	struct wheelinfo w[3];
	struct indexopts o = { 0 };
	struct sb s = SB_INIT;
	char v0[] = "x";
	char v1[] = "x-1.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl";
	char v2[] = "ab";
	char v3[] = "13.0";
	char v4[] = "cu130";
	char v5[] = "sm_90 compute_90";
	char v6[] = "";
	char v7[] = "1";
	char v8[] = "x";
	char v9[] = "x-1.0-cp312-cp312-manylinux_2_28_x86_64-cu130.whl";
	char v10[] = "cu130";
	char v11[] = "y";
	char v12[] = "y-2.0-1build-py3-none-any.whl";
	char title[] = "a \"title\" </script>";

	memset(w, 0, sizeof(w));
	w[0].package = v0;
	w[0].filename = v1;
	w[0].sha256 = v2;
	w[0].cuda = v3;
	w[0].variant = v4;
	w[0].archs = v5;
	w[0].deps = v6;
	w[0].torchabi = v7;
	w[1].package = v8;
	w[1].filename = v9;
	w[1].vlabel = v10;
	w[2].package = v11;
	w[2].filename = v12;
	o.title = title;
	wheelsjson(&s, w, 3, "files/", &o);
	CHECK(startswith(s.buf, "{\"format\": \"" WHEELSJSON_FORMAT "\", \"title\": \"a \\\"title\\\" </script>\""),
	      "wheels.json: its format, the title escaped");
	CHECK(strstr(s.buf, "\"version\": \"1.0+cu130\", \"filename\": \"x-1.0+cu130-cp312-cp312-manylinux_2_28_x86_64.whl\", "
			    "\"url\": \"files/x-1.0%2Bcu130-cp312-cp312-manylinux_2_28_x86_64.whl\"") != NULL,
	      "wheels.json: version with its label, the URL as the pages link it");
	CHECK(strstr(s.buf, "\"python_tag\": \"cp312\", \"abi_tag\": \"cp312\", \"platform_tag\": \"manylinux_2_28_x86_64\", "
			    "\"machine\": \"x86_64\"") != NULL, "wheels.json: the tags and the machine");
	CHECK(strstr(s.buf, "\"torch\": null, \"torch_version\": null, \"torch_cuda\": null, \"torch_index\": null, "
			    "\"torch_cxx11_abi\": true, \"gpu_archs\": [\"sm_90\", \"compute_90\"], \"dependencies\": [], "
			    "\"index\": \"cu130/simple/\", \"yanked\": null}") != NULL, "wheels.json: GPU code, unknown fields null");
	CHECK(!strstr(s.buf, "-cu130.whl"), "wheels.json: no PEP 825 variant wheel");
	CHECK(strstr(s.buf, "\"python_tag\": \"py3\", \"abi_tag\": \"none\", \"platform_tag\": \"any\", \"machine\": \"any\"") &&
	      strstr(s.buf, "\"cuda\": null") && strstr(s.buf, "\"gpu_archs\": null, \"dependencies\": null, \"index\": \"simple/\""),
	      "wheels.json: a build tag, a wheel without CUDA (the combined index)");
	sbfree(&s);
}

/* the fake curl testhttp puts on PATH: records its arguments and the header files it is handed,
   and answers by URL as curl's -w line would */
static const char fakecurl[] =
	"#!/bin/sh\n"
	"d=${0%/*}\n"
	"prev= url=\n"
	"for a do\n"
	"	printf '%s\\n' \"$a\" >>\"$d/argv\"\n"
	"	if [ \"$prev\" = -H ]; then case $a in @*) { stat -c %a \"${a#@}\"; cat \"${a#@}\"; } >>\"$d/hdr\" ;; esac; fi\n"
	"	[ \"$prev\" != --url ] || url=$a\n"
	"	prev=$a\n"
	"done\n"
	"echo \"url $url\" >>\"$d/hdr\"\n"
	"case $url in\n"
	"*/start) printf '\\nwg-http: 302 0 0|||0||%s|\\n' \"${url%/start}/next\" >&2 ;;\n"
	"*/next) printf '\\nwg-http: 302 0 0|||0||%s|\\n' \"$(echo \"$url\" | sed 's|//a\\.|//b.|; s|/next$|/file|')\" >&2 ;;\n"
	"*/file) printf body; printf '\\nwg-http: 200 0 4|text/plain||4|||\\n' >&2 ;;\n"
	"*/loop) printf '\\nwg-http: 301 0 0|||0||%s|\\n' \"$url\" >&2 ;;\n"
	"*) printf '\\nwg-http: 404 0 0|||0|||\\n' >&2 ;;\n"
	"esac\n";

/* http: the private header file; the token never in curl's arguments, and only to url's host;
   redirects by hand within the host (or to https), never for a PUT, 5 at most */
static void
testhttp(void)
{
	char dir[] = "/tmp/wgunithttp.XXXXXX", path[4096], *text, *oldpath, *oldtmp;
	struct httpget g;
	struct stat st;
	struct sb p = SB_INIT;
	FILE *f;

	CHECK(httpsamehost("https://A.example:8/x", "https://a.example:8/y?z") &&
	      !httpsamehost("https://a.example/x", "https://a.example:8/x") &&
	      !httpsamehost("http://a.example/x", "https://a.example/x") &&
	      !httpsamehost("https://a.example.evil/x", "https://a.example/x"), "httpsamehost: scheme, host and port");
	if (!mkdtemp(dir)) {
		CHECK(0, "mkdtemp");
		return;
	}
	oldtmp = getenv("TMPDIR") ? xstrdup(getenv("TMPDIR")) : NULL;
	oldpath = xstrdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("TMPDIR", dir, 1);
	CHECK(httpheaderfile("s3cret", path, sizeof(path)) == 0 && startswith(path, dir) && stat(path, &st) == 0 &&
	      (st.st_mode & 0777) == 0600, "the header file: in TMPDIR, mode 0600");
	text = readfile(path, NULL);
	checkstr(text ? text : "", "Authorization: Bearer s3cret\n", "the header file holds the header");
	free(text);
	unlink(path);
	CHECK(httpheaderfile("a\nX-Evil: 1", path, sizeof(path)) < 0 && errno == EINVAL, "a token with a newline refused");
	CHECK(httpheaderfile("a b", path, sizeof(path)) < 0 && httpheaderfile("", path, sizeof(path)) < 0,
	      "a token with a blank, an empty token refused");

	sbaddf(&p, "%s/curl", dir);
	f = fopen(p.buf, "w");
	CHECK(f && fputs(fakecurl, f) >= 0 && fclose(f) == 0 && chmod(p.buf, 0755) == 0, "the fake curl");
	sbreset(&p);
	sbaddf(&p, "%s:%s", dir, oldpath);
	setenv("PATH", p.buf, 1);

	/* within the host with the token, to another https host without it */
	memset(&g, 0, sizeof(g));
	sbreset(&p);
	sbaddf(&p, "%s/body", dir);
	g.url = "https://a.example/start";
	g.dest = p.buf;
	g.how.token = "s3cret";
	g.how.redirect = HTTP_SAMEHOST_HTTPS;
	CHECK(httpfetch(&g, 1, NULL) == 0 && g.status == 200 && !g.why.len && g.length == 4 &&
	      !strcmp(g.at.buf, "https://b.example/file") && g.got == 4, "redirects followed by hand, to any https host");
	sbreset(&p);
	sbaddf(&p, "%s/hdr", dir);
	text = readfile(p.buf, NULL);
	checkstr(text ? text : "", "600\nAuthorization: Bearer s3cret\nurl https://a.example/start\n"
				   "600\nAuthorization: Bearer s3cret\nurl https://a.example/next\n"
				   "url https://b.example/file\n", "the token to the URL's host only, from a 0600 file");
	free(text);
	unlink(p.buf);
	sbreset(&p);
	sbaddf(&p, "%s/argv", dir);
	text = readfile(p.buf, NULL);
	CHECK(text && !strstr(text, "s3cret") && strstr(text, "--netrc-optional") == NULL && strstr(text, "-L") == NULL,
	      "no token, no netrc unless asked, no -L in curl's arguments");
	free(text);
	unlink(p.buf);
	httpgetfree(&g);

	/* within the host only: another host is not followed, and says where */
	memset(&g, 0, sizeof(g));
	g.url = "https://a.example/start";
	g.how.redirect = HTTP_SAMEHOST;
	g.how.netrc = 1;
	CHECK(httpfetch(&g, 1, NULL) == 0 && g.status == 302 && g.stop == HTTP_STOP_HOST &&
	      !strcmp(g.location.buf, "https://b.example/file") && !strcmp(g.at.buf, "https://a.example/next"),
	      "a redirect to another host is not followed");
	httpgetfree(&g);
	memset(&g, 0, sizeof(g));
	g.url = "https://a.example/loop";
	g.how.redirect = HTTP_SAMEHOST;
	CHECK(httpfetch(&g, 1, NULL) == 0 && g.stop == HTTP_STOP_HOPS, "more than 5 redirects: stopped");
	httpgetfree(&g);
	memset(&g, 0, sizeof(g));
	g.method = HTTP_PUT;
	g.upload = "/dev/null";
	g.url = "https://a.example/start";
	g.how.redirect = HTTP_SAMEHOST;
	CHECK(httpfetch(&g, 1, NULL) == 0 && g.stop == HTTP_STOP_METHOD && !strcmp(g.location.buf, "https://a.example/next"),
	      "a PUT answered with a redirect is not redirected");
	httpgetfree(&g);
	sbreset(&p);
	sbaddf(&p, "%s/argv", dir);
	text = readfile(p.buf, NULL);
	CHECK(text && strstr(text, "\n--netrc-optional\n") && strstr(text, "\n-T\n/dev/null\n"), "netrc where asked; PUT -T");
	free(text);

	sbreset(&p);
	sbaddf(&p, "rm -rf '%s'", dir);
	CHECK(system(p.buf) == 0, "cleanup (no header file left behind)");
	setenv("PATH", oldpath, 1);
	if (oldtmp)
		setenv("TMPDIR", oldtmp, 1);
	else
		unsetenv("TMPDIR");
	free(oldpath);
	free(oldtmp);
	sbfree(&p);
}

int
main(void)
{
	testsha256();
	testesc();
	testpep();
	testutil();
	testmatrix();
	testtorchcontainer();
	testconfigerrors();
	testgiturls();
	teststore();
	testmanifest();
	testwheelsjson();
	testhttp();
	testjson();
	testsimpleapi();
	testcoremeta();
	testyamledit();
	testfirsterrors();
	testdepfile();
	testlayout();
	testdamage();
	testcrossscript();
	testshardplan();
	testpytag();
	pepfree();
	printf("unit: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
