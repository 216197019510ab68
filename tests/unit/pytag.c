/* unit tests of pytag: which wheel tags a CPython X.Y installs */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "diag.h"
#include "pytag.h"
#include "unit.h"

/* each Python a cell can have (the production torch table's and configure's), and its tags as
   CPython itself spells them (python -c "import sysconfig; print(sysconfig.get_config_var('SOABI'))") */
static const struct {
	const char *python, *interp, *abi, *soabi;
} known[] = {
	{ "3.6", "cp36", "cp36m", "36m" },      { "3.7", "cp37", "cp37m", "37m" },
	{ "3.8", "cp38", "cp38", "38" },        { "3.9", "cp39", "cp39", "39" },
	{ "3.10", "cp310", "cp310", "310" },    { "3.11", "cp311", "cp311", "311" },
	{ "3.12", "cp312", "cp312", "312" },    { "3.13", "cp313", "cp313", "313" },
	{ "3.13t", "cp313", "cp313t", "313t" }, { "3.14", "cp314", "cp314", "314" },
	{ "3.14t", "cp314", "cp314t", "314t" }, { "3.15", "cp315", "cp315", "315" },
	{ "3.15t", "cp315", "cp315t", "315t" },
};

/* the row of known[] for python, or -1 */
static int
knownrow(const char *python)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (!strcmp(known[i].python, python))
			return (int)i;
	}
	return -1;
}

/* every Python of the production config's torch table and defaults has a row of known[] */
static void
productionpythons(void)
{
	struct arena a = { 0 };
	struct diags d = { 0 };
	struct config *c = configload(&a, "config/packages.yml", &d);
	size_t i, j, n = 0, missing = 0;

	CHECK(c != NULL, "config/packages.yml loads");
	for (i = 0; c && i < c->ntorch; i++) {
		for (j = 0; j < c->torch[i].python.n; j++, n++) {
			if (knownrow(c->torch[i].python.v[j]) < 0) {
				printf("  Python %s of torch %s has no row in tests/unit/pytag.c\n", c->torch[i].python.v[j],
				       c->torch[i].version);
				missing++;
			}
		}
	}
	for (j = 0; c && j < c->python.n; j++, n++)
		missing += knownrow(c->python.v[j]) < 0;
	CHECK(n > 10 && missing == 0, "every Python of config/packages.yml's torch table and defaults is tested");
	diagfree(&d);
	afree(&a);
}

void
testpytag(void)
{
	size_t i;
	struct pyver v;
	char out[16], soabi[14], file[128];

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const char *py = known[i].python;

		CHECK(pyverparse(py, &v) == 0, py);
		pytaginterp(&v, out);
		CHECKSTR(out, known[i].interp, py);
		pytagabi(&v, out);
		CHECKSTR(out, known[i].abi, py);
		pytagsoabi(&v, soabi);
		CHECKSTR(soabi, known[i].soabi, py);
		pytagpython(known[i].abi, out);
		CHECKSTR(out, py, "the Python of an ABI tag");
		CHECK(pytagsok(&v, known[i].interp, known[i].abi), "a Python installs its own cpXY-ABI wheel");
		CHECK(pytagsok(&v, "py3", "none") && pytagsok(&v, "py2.py3", "none"), "and py3-none");
		/* cp38-abi3 from 3.8 on, never for a free-threaded Python */
		CHECK(pytagsok(&v, "cp38", "abi3") == (!v.freethreaded && v.minor >= 8), "cp38-abi3");
		snprintf(file, sizeof(file), "%s", known[i].interp);
		CHECK(!pytagsok(&v, "cp39", "cp39") || !strcmp(py, "3.9"), "cp39-cp39 is 3.9's alone");
	}
	pyverparse("3.9", &v);
	CHECK(!pytagsok(&v, "cp309", "cp309"), "3.9 is not cp309");
	pyverparse("3.7", &v);
	CHECK(!pytagsok(&v, "cp37", "cp37"), "3.7's ABI is cp37m");
	pyverparse("3.13t", &v);
	CHECK(!pytagsok(&v, "cp313", "cp313") && !pytagsok(&v, "cp313", "abi3"), "3.13t installs neither cp313 nor abi3");
	CHECK(pyverparse("3", &v) < 0 && pyverparse("3.x", &v) < 0 && pyverparse("3.12u", &v) < 0 &&
	      pyverparse("", &v) < 0 && pyverparse("3.100", &v) < 0, "no Python versions");
	pytagpython("abi3", out);
	CHECKSTR(out, "", "abi3 is no CPython's");
	pytagpython("c", out);
	CHECKSTR(out, "", "a short tag is no CPython's");
	productionpythons();
}
