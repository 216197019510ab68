/* steps: the scripts each step of a cell runs, one table (see steps.h). */
#include "steps.h"

enum { HOST = 1, CONTAINER = 2, ANY = HOST | CONTAINER, FOREIGN = 4 };

/* every script a step runs (or sources, or imports), the steps that run it, and under which
   backends (FOREIGN: only for cells of another platform than x86_64); in the order the keys
   have always hashed them */
static const struct {
	const char *name;
	int steps;
	int backends;
} scripts[] = {
	{ "build-host.sh", STEP_BUILD, ANY },  /* in a container too: container-run.sh runs it inside */
	{ "step-lib.sh", STEP_BUILD | STEP_TEST, ANY },
	{ "wheel-info.py", STEP_BUILD, ANY },
	{ "relabel.py", STEP_BUILD | STEP_VARIANT, ANY },  /* wheel-info.py imports it to relabel */
	{ "test.sh", STEP_TEST, ANY },
	{ "test-host.sh", STEP_TEST, ANY },
	{ "build-container.sh", STEP_BUILD, CONTAINER },
	{ "test-container.sh", STEP_TEST, CONTAINER },
	{ "container-run.sh", STEP_BUILD | STEP_TEST, CONTAINER },
	{ "abi-share.sh", STEP_SHARE, ANY },
	{ "variant.py", STEP_VARIANT, ANY },
	{ "publish.sh", STEP_PUBLISH, ANY },
	{ "publish-lib.sh", STEP_PUBLISH, ANY },
	{ "publish-dir.sh", STEP_PUBLISH, ANY },
	{ "publish-http.sh", STEP_PUBLISH, ANY },
	{ "publish-github.sh", STEP_PUBLISH, ANY },
	{ "github-json.py", STEP_PUBLISH, ANY },
	/* a cell of another platform than x86_64: its cross build and emulated test, its root file system */
	{ "cross.sh", STEP_BUILD | STEP_TEST, HOST | FOREIGN },
	{ "sysroot.sh", STEP_BUILD | STEP_TEST, HOST | FOREIGN },
	/* ... and a win_amd64 cell's: mingw-w64, a Windows CPython, wine */
	{ "windows.sh", STEP_BUILD | STEP_TEST, HOST | FOREIGN },
	{ "winpython.sh", STEP_BUILD | STEP_TEST, HOST | FOREIGN },
	/* the test's view of a user's machine; the table of the CUDA libraries (what a repaired
	   wheel declares, what that view hides) */
	{ "test-view.sh", STEP_TEST, ANY },
	{ "cuda-libs.txt", STEP_BUILD | STEP_TEST, ANY },
	{ "linux-repair.py", STEP_BUILD, ANY },
	/* the one voice every script that speaks sources (build, test, share, publish) */
	{ "voice.sh", STEP_BUILD | STEP_TEST | STEP_SHARE | STEP_PUBLISH, ANY },
};

const char *
stepscript(size_t *i, int steps, int container, int foreign)
{
	int backend = container ? CONTAINER : HOST;

	for (; *i < sizeof(scripts) / sizeof(scripts[0]); (*i)++) {
		if ((scripts[*i].steps & steps) && (scripts[*i].backends & backend) &&
		    (foreign || !(scripts[*i].backends & FOREIGN)))
			return scripts[(*i)++].name;
	}
	return NULL;
}
