/* unit tests of layout: the places of the build directory */
#include "layout.h"
#include "util.h"
#include "unit.h"

/* layout: the log of any step, and the places of the whole build directory */
void
testlayout(void)
{
	struct sb s = SB_INIT;

	bdlog(&s, "out", "c-1.0-py312", "shard2");
	CHECKSTR(s.buf, "out/logs/c-1.0-py312.shard2.log", "a part's log");
	sbreset(&s);
	bdlog(&s, NULL, "c-1.0-py312", "build");
	bdrel(&s, BD_BUILDLOG, "c-1.0-py312");
	CHECKSTR(s.buf, "logs/c-1.0-py312.build.loglogs/c-1.0-py312.build.log", "bdlog's build log is BD_BUILDLOG");
	sbreset(&s);
	bdpath(&s, "b", BD_GRAPH, NULL);
	bdpath(&s, " b", BD_INDEXPAGE, "ignored");
	CHECKSTR(s.buf, "b/graph.ninja b/index/simple/index.html", "places of the whole directory");
	sbfree(&s);
}
