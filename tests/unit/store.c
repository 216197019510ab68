/* unit tests of store: the store's file names, a cell's release */
#include <string.h>

#include "store.h"
#include "storelayout.h"
#include "util.h"
#include "unit.h"

/* the store's file names */
void
teststore(void)
{
	static const char sha[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
	struct sb p = SB_INIT;

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
	sbfree(&p);
}
