/* unit tests of wheelfile: a wheel's name, the tags a cell takes, ELF machines */
#include <string.h>

#include "util.h"
#include "wheelfile.h"
#include "unit.h"

void
testwheelfile(void)
{
	struct wheelname w;
	struct sb why = SB_INIT;

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
}
