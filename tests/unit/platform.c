/* unit tests of platform: each platform's cross helper */
#include <string.h>
#include <unistd.h>

#include "platform.h"
#include "util.h"
#include "unit.h"

/* platform: each platform's cross helper is a script of templates/ (run from the top of the tree) */
void
testplatform(void)
{
	size_t i;

	for (i = 0; i < nplatforms; i++) {
		struct sb path = SB_INIT;

		sbaddf(&path, "templates/%s", orempty(platforms[i].crossscript));
		CHECK(platforms[i].crossscript && access(path.buf, R_OK) == 0, "a platform's crossscript is in templates/");
		sbfree(&path);
	}
	CHECK(!strcmp(platformfind("win_amd64")->crossscript, "windows.sh") &&
	      !strcmp(platformfind("aarch64")->crossscript, "cross.sh"), "win_amd64: windows.sh; aarch64: cross.sh");
}
