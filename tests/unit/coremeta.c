/* unit tests of coremeta: the headers, markers in three values, a torch wheel's CUDA */
#include <string.h>

#include "coremeta.h"
#include "util.h"
#include "unit.h"

/* coremeta.c: the headers, markers in three values, a torch wheel's CUDA */
void
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
