/* leftout: what merge-index left out, as data for the summary (see leftout.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "files.h"
#include "leftout.h"

/* s as one field: tabs and line ends become spaces */
static void
field(struct sb *rows, const char *s)
{
	for (; s && *s; s++)
		sbaddc(rows, *s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
}

void
leftoutcell(struct sb *rows, const char *cell, const char *why)
{
	sbadd(rows, "left-out\t");
	field(rows, cell);
	sbaddc(rows, '\t');
	field(rows, why);
	sbaddc(rows, '\n');
}

void
leftoutstore(struct sb *rows, const struct pullcounts *c)
{
	sbadd(rows, "store\t");
	field(rows, c->store);
	sbaddf(rows, "\t%zu\t%d\t%zu\t%zu\t%zu\t%zu\n", c->restored, c->manifestsonly, c->local, c->missing, c->other,
	       c->damaged);
}

void
leftoutclear(const char *builddir, enum bdplace place)
{
	struct sb path = SB_INIT;

	bdpath(&path, builddir, place, "");
	unlink(path.buf);
	sbfree(&path);
}

int
leftoutwrite(const char *builddir, enum bdplace place, const struct sb *rows)
{
	struct sb path = SB_INIT;
	int rc;

	/* no rows, no file (leftoutclear removed the last one): a run that fails later leaves the
	   build directory as it found it */
	if (!rows->len)
		return 0;
	bdpath(&path, builddir, place, "");
	rc = writeifchanged(path.buf, rows->buf, rows->len) < 0 ? -1 : 0;
	sbfree(&path);
	return rc;
}

/* one file's rows */
static void
readone(const char *builddir, enum bdplace place, struct sb *cells, struct pullcounts *c)
{
	struct sb path = SB_INIT;
	char *buf, *next, *line;

	bdpath(&path, builddir, place, "");
	buf = readfile(path.buf, NULL);
	next = buf;
	while (buf && (line = nextline(&next))) {
		char *f[8];
		size_t n = 0;

		for (f[n++] = line; n < 8 && (line = strchr(line, '\t')); f[n++] = ++line)
			*line = '\0';
		if (n == 3 && !strcmp(f[0], "left-out")) {
			sbaddf(cells, "%s\t%s\n", f[1], f[2]);
		} else if (n == 8 && !strcmp(f[0], "store")) {
			free(c->store);
			c->store = xstrdup(f[1]);
			c->restored = strtoul(f[2], NULL, 10);
			c->manifestsonly = f[3][0] == '1';
			c->local = strtoul(f[4], NULL, 10);
			c->missing = strtoul(f[5], NULL, 10);
			c->other = strtoul(f[6], NULL, 10);
			c->damaged = strtoul(f[7], NULL, 10);
		}
	}
	free(buf);
	sbfree(&path);
}

void
leftoutread(const char *builddir, struct sb *cells, struct pullcounts *c)
{
	memset(c, 0, sizeof(*c));
	readone(builddir, BD_PULLNOTE, cells, c);
	readone(builddir, BD_INDEXNOTE, cells, c);
}
