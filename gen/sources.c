/* sources: the git sources of a config as the build directory has them (see sources.h). */
#include <string.h>

#include "layout.h"
#include "sources.h"

void
srcname(struct sb *s, const struct package *p, const char *version)
{
	sbaddf(s, "%s-%s", p->norm, version);
}

/* builddir's path of place for (p, version), in the arena */
static char *
placeof(struct arena *a, const char *builddir, enum bdplace place, const struct package *p, const char *version)
{
	struct sb name = SB_INIT, path = SB_INIT;
	char *r;

	srcname(&name, p, version);
	bdpath(&path, builddir, place, name.buf);
	r = astrdup(a, path.buf);
	sbfree(&name);
	sbfree(&path);
	return r;
}

void
sourcespec(struct arena *a, const struct config *c, const struct package *p, const char *version,
	   const char *builddir, int update, struct srcspec *s)
{
	memset(s, 0, sizeof(*s));
	s->package = (char *)p->name;
	s->version = (char *)version;
	s->url = (char *)p->git;
	s->ref = (char *)gitref(a, p, version);
	s->dest = placeof(a, builddir, BD_CHECKOUT, p, version);
	s->stamp = placeof(a, builddir, BD_STAMP, p, version);
	s->lock = (char *)c->lockpath;
	if (p->skipsubs.n) {
		struct sb skip = SB_INIT;
		size_t i;

		for (i = 0; i < p->skipsubs.n; i++)
			sbaddf(&skip, "%s%s", i ? " " : "", p->skipsubs.v[i]);
		s->skip = astrdup(a, skip.buf);
		sbfree(&skip);
	}
	s->updatelock = update;
}
