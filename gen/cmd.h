/*
 * cmd: what the commands share. A command is a row of a table (struct command): its name, what
 * runs it, its synopsis and what it does, its one line for `wheelgen --help` and its option
 * rows; main.c holds the table and dispatches. Each command owns its options, declared beside
 * its code (cmdcells.c, cmdupstream.c, cmdstore.c, cmdrun.c, as git's builtins do): a struct of
 * its own whose first member is what every command may share (struct cmdopts), and a row per
 * option (struct optrow) with its name, its kind (a flag, a string, a whole number or a number
 * in a range, one of flags that exclude each other, or a syntax of its own), where its value goes
 * (offsetof into that struct), its value's name and its help line. Adding an option to a command
 * touches its file alone.
 *
 * parseopts parses any command's rows one way: getopt_long's table is made from them; a value
 * out of range is refused with its range ("--split wants a number of matrices from 1 to 64, not
 * 'x'"), an option of another command by name ("status does not take --profile"), each with exit
 * status 2; --help is the synopsis and text, then a line per row (cmdhelp). The config is loaded,
 * checked and expanded one way (cmdload), and a profile looked up one way (cmdprofile).
 */
#ifndef WG_CMD_H
#define WG_CMD_H

#include <stddef.h>

#include "config.h"
#include "key.h"
#include "matrix.h"
#include "store.h"
#include "util.h"

/* what an option takes, and what parseopts puts where its row says */
enum optkind {
	OPTK_FLAG,  /* --name: 1 into an int */
	OPTK_STR,   /* --name VALUE: VALUE into a const char * */
	OPTK_INT,   /* --name N: a whole number from min to max into a long */
	OPTK_NUM,   /* --name N: a number from min (above it with above) to max into a double */
	OPTK_ONEOF, /* --name: value into an int; the command's rows of the same place exclude each other */
	OPTK_PARSE, /* --name VALUE: parse(VALUE, place), a syntax of its own; -1 once it said why */
};

/* an option of a command */
struct optrow {
	const char *name;     /* its long name, without the dashes */
	enum optkind kind;
	size_t off;           /* where its value goes: offsetof into the command's options struct */
	const char *arg;      /* its value's name in --help (FILE, N), as the synopsis spells it; NULL: none */
	const char *help;     /* its help: --help wraps it beside the option */
	const char *what;     /* OPTK_INT, OPTK_NUM: what the value is, for its error ("minutes") */
	double min, max;      /* OPTK_INT, OPTK_NUM: its range */
	int above;            /* OPTK_NUM: min itself is refused */
	int value;            /* OPTK_ONEOF: what it sets */
	int (*parse)(const char *arg, void *place); /* OPTK_PARSE */
	char letter;          /* its one-letter form (-c), or 0 */
};

/* a row of each kind, o its place: offsetof(the command's options struct, a field of it) */
#define OPTFLAG(n, o, h) { .name = (n), .kind = OPTK_FLAG, .off = (o), .help = (h) }
#define OPTSTR(n, o, a, h) { .name = (n), .kind = OPTK_STR, .off = (o), .arg = (a), .help = (h) }
#define OPTINT(n, o, a, w, lo, hi, h) \
	{ .name = (n), .kind = OPTK_INT, .off = (o), .arg = (a), .what = (w), .min = (lo), .max = (hi), .help = (h) }
#define OPTNUM(n, o, a, w, lo, hi, h) \
	{ .name = (n), .kind = OPTK_NUM, .off = (o), .arg = (a), .what = (w), .min = (lo), .max = (hi), .help = (h) }
#define OPTNUMABOVE(n, o, a, w, lo, hi, h) \
	{ .name = (n), .kind = OPTK_NUM, .off = (o), .arg = (a), .what = (w), .min = (lo), .max = (hi), .above = 1, \
	  .help = (h) }
#define OPTONEOF(n, o, v, h) { .name = (n), .kind = OPTK_ONEOF, .off = (o), .value = (v), .help = (h) }
#define OPTPARSE(n, o, a, fn, h) \
	{ .name = (n), .kind = OPTK_PARSE, .off = (o), .arg = (a), .parse = (fn), .help = (h) }
#define OPTEND { .name = NULL }

/* what every command may take, the first member of each command's options struct (parseopts
   fills what was not given with its default) */
struct cmdopts {
	const char *config;    /* --config FILE; else the config ./configure named, else config/packages.yml */
	const char *builddir;  /* --builddir DIR (default out) */
	const char *host;      /* --host FILE; else BUILDDIR/host.txt where there is one (if it takes --host) */
	const char *templates; /* --templates DIR (default templates) */
	int configset;         /* --config was given */
	int verbose;           /* --verbose */
	char **args;           /* what remains after the options */
	int nargs;
};

/* the rows of the shared options (their help the same in every command; --verbose's its own) */
#define OPT_CONFIG \
	{ .name = "config", .kind = OPTK_STR, .off = offsetof(struct cmdopts, config), .arg = "FILE", .letter = 'c', \
	  .help = "the config (default: the one ./configure named for the build directory, else config/packages.yml)" }
#define OPT_BUILDDIR \
	{ .name = "builddir", .kind = OPTK_STR, .off = offsetof(struct cmdopts, builddir), .arg = "DIR", .letter = 'b', \
	  .help = "the build directory: checkouts, builds, the index (default out)" }
#define OPT_HOST \
	{ .name = "host", .kind = OPTK_STR, .off = offsetof(struct cmdopts, host), .arg = "FILE", \
	  .help = "what ./configure found on this host (default: BUILDDIR/host.txt, when there is one)" }
#define OPT_TEMPLATES \
	{ .name = "templates", .kind = OPTK_STR, .off = offsetof(struct cmdopts, templates), .arg = "DIR", \
	  .help = "the steps' scripts, part of every key, and find.py (default templates)" }
#define OPT_VERBOSE(h) \
	{ .name = "verbose", .kind = OPTK_FLAG, .off = offsetof(struct cmdopts, verbose), .letter = 'v', .help = (h) }

/* a subcommand: its name, what runs it, its --help and what it takes */
struct command {
	const char *name;
	int (*fn)(const struct command *, int, char **);
	const char *usage;           /* its synopsis, then what it does: --help adds a line per option */
	const char *desc;            /* its line in `wheelgen --help` */
	const struct optrow *opts;   /* its options, up to OPTEND (--help: always) */
	int flags;                   /* CMD_GIT, CMD_ARGS */
};
enum {
	CMD_GIT = 1,  /* needs libgit2 set up */
	CMD_ARGS = 2, /* takes operands */
};

/* the commands (each beside the modules it runs: cmdcells.c, cmdupstream.c, cmdstore.c, cmdrun.c) */
extern const struct command cmd_check, cmd_matrix, cmd_gen, cmd_key;
extern const struct command cmd_lock, cmd_fetch, cmd_checkout, cmd_outdated, cmd_torchtable;
extern const struct command cmd_index, cmd_restore, cmd_store;
extern const struct command cmd_status, cmd_claim, cmd_summary, cmd_shards;

/* every command (NULL-terminated: main.c's table), so that an option one of them takes is refused
   by name in the others */
void cmdsetall(const struct command *const *all);
/* the options of argv (argv[0] is the command's name) into o, the first member of cmd's options
   struct (its defaults set by the caller): --help prints cmd's help and exits 0; an option cmd
   does not take, a bad value or an operand it takes none of exits 2 */
void parseopts(int argc, char **argv, struct cmdopts *o, const struct command *cmd);
/* cmd's --help into s: its usage text, then a line per option */
void cmdhelp(struct sb *s, const struct command *cmd);
/* the error, then cmd's help; exit status 2 */
WG_NORETURN void usagefail(const struct command *cmd, const char *fmt, ...) WG_PRINTF(2, 3);
/* load, check and expand o's config; prints diagnostics; returns NULL on any error */
struct config *cmdload(struct arena *a, const struct cmdopts *o, struct host *h, struct matrix *m);
/* the profile named name of c, or NULL with a message listing c's profiles */
const struct profile *cmdprofile(const struct config *c, const char *name, const char *config);
/* the cell named id in m, or NULL with a message */
const struct cell *cmdcell(const struct matrix *m, const char *id, const char *config);

/* what key, restore and store work on: the loaded config, its cells, keys and store */
struct keyed {
	struct arena a;
	struct host h;
	struct matrix m;
	struct config *c;
	struct keyctx k;
	struct store st;
};

/* load o's config and set up keys (looked up first where from says) and the store; -1 on errors */
int loadkeyed(struct keyed *x, const struct cmdopts *o, enum keysource from);
void unloadkeyed(struct keyed *x);

#endif
