/* layout: the build directory's paths, each spelled once (see layout.h). */
#include "layout.h"

static const struct {
	const char *dir, *suffix;
} places[] = {
	[BD_CHECKOUT] = { "src/", "" },
	[BD_STAMP] = { "src/", ".commit" },
	[BD_SRCSPEC] = { "src/", ".spec" },
	[BD_SPEC] = { "cells/", "/spec" },
	[BD_TESTSPEC] = { "cells/", "/test" },
	[BD_KEY] = { "cells/", "/key" },
	[BD_WHEELDIR] = { "wheels/", "" },
	[BD_MANIFEST] = { "wheels/", "/manifest" },
	[BD_DEPFILE] = { "wheels/", "/manifest.d" },
	[BD_TESTDONE] = { "tests/", ".done" },
	[BD_TESTOK] = { "tests/", ".ok" },
	[BD_PUBLISHED] = { "publish/", ".done" },
	[BD_VARIANT] = { "variants/", "/manifest" },
	[BD_STOREDIR] = { "store/", "" },
	[BD_HOSTFILE] = { "host.txt", NULL },
	[BD_TESTFAILED] = { "tests/", ".failed" },
	[BD_BUILDLOG] = { "logs/", ".build.log" },
	[BD_TESTLOG] = { "logs/", ".test.log" },
	[BD_MERGELIST] = { "merge-index.rsp", NULL },
	[BD_PULLNOTE] = { "store-pull.tsv", NULL },
	[BD_INDEXNOTE] = { "index-left-out.tsv", NULL },
	[BD_SHARDDIR] = { "shards/", "" },
	[BD_LOGDIR] = { "logs", NULL },
	[BD_GRAPH] = { "graph.ninja", NULL },
	[BD_PUBLISHSPEC] = { "publish.spec", NULL },
	[BD_INDEXSPEC] = { "index.spec", NULL },
	[BD_CONFIGNINJA] = { "config.ninja", NULL },
	[BD_INDEXDIR] = { "index", NULL },
	[BD_INDEXPAGE] = { "index/simple/index.html", NULL },
	[BD_INDEXLOCK] = { "index.lock", NULL },
	[BD_CATALOG] = { "store-catalog", NULL },
};

void
bdrel(struct sb *s, enum bdplace place, const char *name)
{
	sbadd(s, places[place].dir);
	if (places[place].suffix)
		sbaddf(s, "%s%s", name, places[place].suffix);
}

void
bdpath(struct sb *s, const char *builddir, enum bdplace place, const char *name)
{
	sbaddf(s, "%s/", builddir);
	bdrel(s, place, name);
}

void
bdlog(struct sb *s, const char *builddir, const char *cell, const char *kind)
{
	if (builddir)
		sbaddf(s, "%s/", builddir);
	bdrel(s, BD_LOGDIR, NULL);
	sbaddf(s, "/%s.%s.log", cell, kind);
}
