/* unit tests of checkout: the tags it takes (git check-ref-format's, stricter) */
#include <stdio.h>

#include "checkout.h"
#include "unit.h"

void
testcheckout(void)
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
	size_t i;

	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		char what[80];

		snprintf(what, sizeof(what), "tag '%.40s' %s", tags[i].tag, tags[i].ok ? "valid" : "refused");
		CHECK((tagwhy(tags[i].tag) == NULL) == tags[i].ok, what);
	}
}
