/* pages: how the index's pages reach the disk (created in a fresh tree, else written if
   changed), and their upload times as PEP 700 spells them. */
#ifndef WG_PAGES_H
#define WG_PAGES_H

#include "util.h"

/*
 * Create rel (relative to the directory dirfd, named dir in messages; NULL when rel says it all)
 * in a fresh tree that is renamed into place as a whole afterwards: no comparison, no temporary.
 * Returns 1, or -1 with a message.
 */
int createpage(int dirfd, const char *dir, const char *rel, const struct sb *s);
/* write s to path: createpage's way when fresh, else writeifchanged's */
int writepage(const char *path, const struct sb *s, int fresh);

/* the last time isotime formatted: the same few times come again and again (one per wheel,
   in every tree of the index); one per thread, initialized { -1, "" } */
struct timecache {
	long long last;
	char buf[64];
};
/* t (seconds since the epoch) as PEP 700's upload-time, 2025-01-31T12:00:00.000000Z */
void isotime(struct sb *s, long long t, struct timecache *c);

#endif
