/* unit tests of wheelsjson: wheels.json's entries */
#include <string.h>

#include "manifest.h"
#include "util.h"
#include "wheelsjson.h"
#include "unit.h"

/* wheels.json: an entry per wheel (not the PEP 825 variant wheels), the tags from the file name,
   null for what the manifest does not say, strings escaped */
void
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
