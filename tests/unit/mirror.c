/* unit tests of mirror: the mirror paths of git URLs, relative submodule URLs */
#include <stdlib.h>

#include "mirror.h"
#include "util.h"
#include "unit.h"

void
testmirror(void)
{
	struct sb s = SB_INIT;
	char *u;

	static const struct {
		const char *url, *want, *what;
	} mirrors[] = {
		{ "https://github.com/Dao-AILab/flash-attention.git", "out/git/github.com/Dao-AILab/flash-attention.git",
		  "mirror of an https url" },
		{ "git://127.0.0.1:9418/a/b/", "out/git/127.0.0.1_9418/a/b.git", "mirror keeps the port, drops the trailing slash" },
		{ "git@github.com:owner/repo.git", "out/git/github.com/owner/repo.git", "mirror of an scp-like url" },
		{ "file:///srv/git/x.git", "out/git/file/srv/git/x.git", "mirror of a file url" },
		{ "https://user:secret@example.com/a b.git", "out/git/example.com/a_b.git",
		  "no credentials and no spaces in the mirror path" },
	};
	size_t i;

	for (i = 0; i < sizeof(mirrors) / sizeof(mirrors[0]); i++) {
		sbreset(&s);
		CHECK(mirrorpath(&s, "out", mirrors[i].url) == 0, mirrors[i].what);
		CHECKSTR(s.buf, mirrors[i].want, mirrors[i].what);
	}
	sbreset(&s);
	CHECK(mirrorpath(&s, "out", "https://example.com/../etc") < 0, "'..' refused");
	sbreset(&s);
	/* a relative path made absolute inside mirrorpath: its message names the url it built
	   (this read freed memory before: ASan's heap-use-after-free) */
	CHECK(mirrorpath(&s, "out", "a/../b") < 0, "'..' in a relative path refused");
	sbreset(&s);
	CHECK(mirrorpath(&s, "out", "https://example.com/a.git\nref=x") < 0, "a newline in a url refused");
	sbfree(&s);

	{
		static const struct {
			const char *parent, *url, *want, *what;
		} rel[] = {
			{ "https://github.com/facebookresearch/xformers.git", "../../Dao-AILab/flash-attention.git",
			  "https://github.com/Dao-AILab/flash-attention.git", "relative submodule url, two levels up" },
			{ "git://h:1/top.git/", "./sub.git", "git://h:1/top.git/sub.git", "./ is below the parent" },
			{ "git://h:1/top.git", "https://other/x.git", "https://other/x.git", "absolute urls stay as they are" },
			{ "git@github.com:owner/top.git", "../mid.git", "git@github.com:owner/mid.git", "scp-like parent" },
		};

		for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			u = resolveurl(rel[i].parent, rel[i].url);
			CHECKSTR(u, rel[i].want, rel[i].what);
			free(u);
		}
	}
}
