/* unit tests of pep: PEP 503 names, PEP 440 versions and their order */
#include "pep.h"
#include "unit.h"

void
testpep(void)
{
	char buf[64];
	int local;

	CHECK(pepname("flash-attn") && pepname("Flash_Attn.x") && pepname("a"), "valid names");
	CHECK(!pepname("-bad") && !pepname("bad-") && !pepname("a b") && !pepname(""), "invalid names");
	pepnormalize("Flash__Attn.-X", buf);
	CHECKSTR(buf, "flash-attn-x", "PEP 503 normalization");
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
