/*
 * wheelgen-step: what the step scripts (templates/) ask of the manifest, the store's layout, a
 * depfile and the machines, so that they never spell a manifest field, a store path, a depfile's
 * escaping or an ELF machine number themselves (manifest.h, storelayout.h, esc.h, platform.h:
 * one owner per format and per fact).
 *
 *   wheelgen-step manifest-get MANIFEST FIELD
 *   wheelgen-step manifest-write OUT [--from MANIFEST] [--drop FIELD]... [--set FIELD VALUE]...
 *   wheelgen-step manifest-entry OUT MANIFEST TESTRECORD (--blob | --release RELEASE)
 *   wheelgen-step store-blob SHA256 FILE
 *   wheelgen-step store-tmp
 *   wheelgen-step depfile OUT TARGET [DIR LIST]
 *   wheelgen-step elf-machines
 *   wheelgen-step platform PLATFORM FIELD
 *
 * Built from gen/manifest.c, gen/storelayout.c (with -DWG_STEP_TOOL) and gen/esc.c, static and linked
 * against nothing of wheelgen's libraries, like wheelgen-cc: the steps may run inside a build
 * container (which mounts the build directory), where BUILDDIR/wheelgen (libgit2, libyaml,
 * PCRE2) may not run. Errors: "wheelgen-step: error: ..." and exit status 1; a usage error 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../esc.h"
#include "../files.h"
#include "../manifest.h"
#include "../platform.h"
#include "../storelayout.h"
#include "../util.h"

/* print MANIFEST's FIELD (its last line of it) and a newline; nothing when it has none. The
   manifest must be one (manifest.h: manifestparse's checks); "-" reads standard input */
static int
cmdget(int argc, char **argv)
{
	struct manifestlines m;
	struct wheelinfo w;
	struct sb why = SB_INIT;
	const char *v;

	if (argc != 3)
		return 2;
	if (!manifestfield(argv[2]))
		return error("'%s' is not a field of a manifest", argv[2]);
	if (manifestlinesread(argv[1], &m, &why) < 0 || manifestcheck(&m, argv[1], &w, &why) < 0) {
		error("%s", why.buf);
		sbfree(&why);
		manifestlinesfree(&m);
		return -1;
	}
	manifestfree(&w);
	if ((v = manifestlinesget(&m, argv[2])))
		printf("%s\n", v);
	manifestlinesfree(&m);
	return 0;
}

/* OUT gets the lines of MANIFEST (when given; lines without '=' left out) less the dropped
   fields; each --set then replaces its field's line where it stands, or is appended in the
   order given. Prints "updated" or "unchanged" */
static int
cmdwrite(int argc, char **argv)
{
	struct manifestlines m = { 0 };
	struct sb why = SB_INIT;
	const char *from = NULL;
	int i, pass, rc = 0;

	if (argc < 2)
		return 2;
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--from") && i + 1 < argc)
			from = argv[++i];
		else if (!strcmp(argv[i], "--drop") && i + 1 < argc)
			i++;
		else if (!strcmp(argv[i], "--set") && i + 2 < argc)
			i += 2;
		else
			return 2;
	}
	if (from) {
		if (manifestlinesread(from, &m, &why) < 0) {
			error("%s", why.buf);
			sbfree(&why);
			return -1;
		}
		manifestlinesclean(&m);
	}
	/* the drops first, then the sets, whatever their order */
	for (pass = 0; pass < 2 && rc == 0; pass++) {
		for (i = 2; i < argc && rc == 0; i++) {
			if (!strcmp(argv[i], "--from")) {
				i++;
			} else if (!strcmp(argv[i], "--drop")) {
				i++;
				if (pass == 0 && !manifestfield(argv[i]))
					rc = error("'%s' is not a field of a manifest", argv[i]);
				else if (pass == 0)
					manifestlinesdrop(&m, argv[i]);
			} else {
				if (pass == 1)
					rc = manifestlinesset(&m, argv[i + 1], argv[i + 2]);
				i += 2;
			}
		}
	}
	if (rc == 0) {
		rc = manifestlineswrite(argv[1], &m);
		if (rc >= 0)
			printf("%s\n", rc ? "updated" : "unchanged");
		rc = rc < 0 ? -1 : 0;
	}
	manifestlinesfree(&m);
	sbfree(&why);
	return rc;
}

/* OUT gets the store's entry of a tested cell (manifeststoreentry): its wheel stored at its
   blob, or as an asset of RELEASE */
static int
cmdentry(int argc, char **argv)
{
	struct manifestlines m;
	struct wheelinfo w;
	struct sb why = SB_INIT, stored = SB_INIT, out = SB_INIT;
	int rc = -1;

	if (!(argc == 5 && !strcmp(argv[4], "--blob")) && !(argc == 6 && !strcmp(argv[4], "--release")))
		return 2;
	if (argc == 6 && !storereleasename(argv[5], strlen(argv[5])))
		return error("'%s' is not a release name (letters, digits and '-_.+')", argv[5]);
	if (manifestlinesread(argv[2], &m, &why) < 0 || manifestcheck(&m, argv[2], &w, &why) < 0) {
		error("%s", why.buf);
		sbfree(&why);
		manifestlinesfree(&m);
		return -1;
	}
	if (argc == 5)
		storeblob(&stored, w.sha256, w.filename);
	else
		storeasset(&stored, argv[5], w.filename);
	if (manifeststoreentry(&out, &m, argv[3], stored.buf, &why) == 0)
		rc = writeifchanged(argv[1], out.buf, out.len) < 0 ? -1 : 0;
	manifestlinesfree(&m);
	if (why.len)
		error("%s", why.buf);
	manifestfree(&w);
	sbfree(&why);
	sbfree(&stored);
	sbfree(&out);
	return rc;
}

/* print where a directory or HTTP store keeps the file FILE whose content is SHA256 */
static int
cmdblob(int argc, char **argv)
{
	struct sb s = SB_INIT;

	if (argc != 3)
		return 2;
	if (strlen(argv[1]) != 64 || strspn(argv[1], "0123456789abcdef") != 64)
		return error("'%s' is not a sha256 (64 lowercase hex digits)", argv[1]);
	if (!plainname(argv[2]) || argv[2][0] == '.')
		return error("'%s' is not a plain file name", argv[2]);
	storeblob(&s, argv[1], argv[2]);
	printf("%s\n", s.buf);
	sbfree(&s);
	return 0;
}

/* print the directory of a store where publishers keep their temporaries */
static int
cmdtmp(int argc, char **argv)
{
	struct sb s = SB_INIT;

	(void)argv;
	if (argc != 1)
		return 2;
	storetmpdir(&s);
	printf("%s\n", s.buf);
	sbfree(&s);
	return 0;
}

/* OUT gets the depfile of a part of a cell (build-host.sh): TARGET, then each line of the file
   LIST (a source file, relative: "./" before it is dropped) under DIR, by esc.c's rule, the one
   of every depfile; without LIST, TARGET alone */
static int
cmddepfile(int argc, char **argv)
{
	struct sb d = SB_INIT, bad = SB_INIT, why = SB_INIT;
	char *list = NULL, *line, *next;
	const char **deps = NULL;
	size_t len = 0, n = 0, cap = 0;
	int rc = -1, e;

	if (argc != 3 && argc != 5)
		return 2;
	if (argc == 5 && !(list = readfile(argv[4], &len)))
		return error("cannot read '%s': %s", argv[4], strerror(errno));
	next = list;
	while (len && (line = nextline(&next))) {
		if (!*line)
			continue;
		GROW(deps, cap, n + 1);
		deps[n++] = line;
	}
	if ((e = escdepfile(&d, &bad, argv[2], argc == 5 ? argv[3] : NULL, deps, n)) < 0) {
		escdepfilewhy(&why, e, argv[2], bad.buf);
		error("%s", why.buf);
	} else {
		rc = writeifchanged(argv[1], d.buf, d.len) < 0 ? -1 : 0;
	}
	free(deps);
	free(list);
	sbfree(&d);
	sbfree(&bad);
	sbfree(&why);
	return rc;
}

/* print the ELF machines platform.c names, one "NUMBER NAME" line each (the steps' checks of a
   shared object's machine, and their messages) */
static int
cmdelf(int argc, char **argv)
{
	const char *name;
	unsigned em;
	size_t i;

	(void)argv;
	if (argc != 1)
		return 2;
	for (i = 0; (name = elfnameat(i, &em)); i++)
		printf("%u %s\n", em, name);
	return 0;
}

/* print a fact of PLATFORM from platform.c's table (configure: its cross compilers' prefix, its
   Debian architecture): FIELD cross, deb, machine or manylinux; nothing where it has none */
static int
cmdplatform(int argc, char **argv)
{
	const struct platform *p;
	const char *v;

	if (argc != 3)
		return 2;
	if (!(p = platformfind(argv[1])))
		return error("'%s' is not a platform", argv[1]);
	if (!strcmp(argv[2], "cross"))
		v = p->cross;
	else if (!strcmp(argv[2], "deb"))
		v = p->deb;
	else if (!strcmp(argv[2], "machine"))
		v = p->machine;
	else if (!strcmp(argv[2], "manylinux"))
		v = p->manylinux;
	else
		return error("'%s' is not a field of a platform (cross, deb, machine, manylinux)", argv[2]);
	if (v)
		printf("%s\n", v);
	return 0;
}

static const struct {
	const char *name;
	int (*run)(int, char **);
	const char *usage;
} cmds[] = {
	{ "manifest-get", cmdget, "manifest-get MANIFEST FIELD" },
	{ "manifest-write", cmdwrite, "manifest-write OUT [--from MANIFEST] [--drop FIELD]... [--set FIELD VALUE]..." },
	{ "manifest-entry", cmdentry, "manifest-entry OUT MANIFEST TESTRECORD (--blob | --release RELEASE)" },
	{ "store-blob", cmdblob, "store-blob SHA256 FILE" },
	{ "store-tmp", cmdtmp, "store-tmp" },
	{ "depfile", cmddepfile, "depfile OUT TARGET [DIR LIST]" },
	{ "elf-machines", cmdelf, "elf-machines" },
	{ "platform", cmdplatform, "platform PLATFORM (cross | deb | machine | manylinux)" },
};

static int
usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  wheelgen-step %s\n", cmds[i].usage);
	return 2;
}

int
main(int argc, char **argv)
{
	size_t i;
	int rc;

	argv0 = "wheelgen-step";
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		rc = cmds[i].run(argc - 1, argv + 1);
		if (rc == 2)
			fprintf(stderr, "usage: wheelgen-step %s\n", cmds[i].usage);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			error("cannot write the standard output");
			return 1;
		}
		return rc == 0 ? 0 : rc == 2 ? 2 : 1;
	}
	error("no command '%s'", argv[1]);
	return usage(stderr);
}
