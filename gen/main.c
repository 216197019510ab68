/* wheelgen: the table of commands, and the dispatch to them (each command: cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "mirror.h"
#include "pep.h"
#include "util.h"

#define WG_VERSION "0.1.0"

/* every command, in the order --help lists them (git's builtins, ninja's tools) */
static const struct command *const commands[] = {
	&cmd_check, &cmd_matrix, &cmd_gen, &cmd_index, &cmd_lock, &cmd_fetch, &cmd_checkout, &cmd_outdated,
	&cmd_torchtable, &cmd_key, &cmd_restore, &cmd_store, &cmd_status, &cmd_claim, &cmd_summary, &cmd_shards, NULL,
};

/* wheelgen --help: the command list comes from the table */
static void
usage(FILE *f)
{
	const struct command *const *c;

	fputs("usage: wheelgen <command> [options]\n"
	      "\n"
	      "Turns a package list (packages.yml) into a Ninja graph that builds, tests and\n"
	      "indexes Python wheels for every package x version x Python x CUDA [x torch] cell.\n"
	      "\n"
	      "commands:\n", f);
	for (c = commands; *c; c++)
		fprintf(f, "  %-12s %s\n", (*c)->name, (*c)->desc);
	fputs("\n"
	      "Without --config, commands read the config ./configure named for the build directory\n"
	      "(DIR/config.ninja), else config/packages.yml.\n"
	      "Run 'wheelgen <command> --help' for a command's options. Usually you run\n"
	      "'./configure && ninja', which builds wheelgen and runs it.\n", f);
}

int
main(int argc, char **argv)
{
	const struct command *const *c;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("wheelgen %s\n", WG_VERSION);
		return 0;
	}
	for (c = commands; *c && strcmp((*c)->name, argv[1]); c++)
		;
	if (!*c) {
		error("unknown command '%s'", argv[1]);
		usage(stderr);
		return 2;
	}
	cmdsetall(commands);
	if ((*c)->flags & CMD_GIT)
		gitinit();
	rc = (*c)->fn(*c, argc - 1, argv + 1);
	if ((*c)->flags & CMD_GIT)
		gitshutdown();
	pepfree();
	if (fflush(stdout) != 0 || ferror(stdout))
		fatal("cannot write to standard output: %s", strerror(errno));
	return rc;
}
