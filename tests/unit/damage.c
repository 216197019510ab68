/* unit tests of damage: a stored wheel's name, a manifest that contradicts its cell */
#include <string.h>

#include "config.h"
#include "damage.h"
#include "manifest.h"
#include "matrix.h"
#include "util.h"
#include "unit.h"

/* damage: a stored wheel's name, and a manifest that contradicts its cell */
void
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
