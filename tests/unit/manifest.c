/* unit tests of manifest: its lines read, set, dropped and written; its checks; a store entry */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "manifest.h"
#include "storelayout.h"
#include "util.h"
#include "unit.h"

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
void
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
