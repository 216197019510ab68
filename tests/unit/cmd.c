/* unit tests of cmd: each command's option rows, the --help made from them, and the one parser */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd.h"
#include "unit.h"

/* every command of main.c's table */
static const struct command *const all[] = {
	&cmd_check, &cmd_matrix, &cmd_gen, &cmd_index, &cmd_lock, &cmd_fetch, &cmd_checkout, &cmd_outdated,
	&cmd_torchtable, &cmd_key, &cmd_restore, &cmd_store, &cmd_status, &cmd_claim, &cmd_summary, &cmd_shards, NULL,
};

/* the row of cmd named name (n bytes), or NULL */
static const struct optrow *
rownamed(const struct command *cmd, const char *name, size_t n)
{
	const struct optrow *r;

	for (r = cmd->opts; r->name; r++) {
		if (strlen(r->name) == n && !strncmp(r->name, name, n))
			return r;
	}
	return NULL;
}

/* "--name" of r, with " ARG" where it takes one, into buf */
static size_t
spelled(char *buf, size_t n, const struct optrow *r)
{
	return (size_t)snprintf(buf, n, "--%s%s%s", r->name, r->arg ? " " : "", r->arg ? r->arg : "");
}

/* whether text holds r spelled, not followed by more of a name */
static int
names(const char *text, const struct optrow *r)
{
	char want[64];
	size_t n = spelled(want, sizeof(want), r);
	const char *p;

	for (p = text; (p = strstr(p, want)); p++) {
		if (!p[n] || !strchr("abcdefghijklmnopqrstuvwxyz-", p[n]))
			return 1;
	}
	return 0;
}

/* a command's rows: named once each, a value's name where they take one, a help line, a range
   where they have one; a letter means one option in every command */
static void
rowsok(const struct command *cmd)
{
	const struct command *const *k;
	const struct optrow *r, *q;
	char what[128];
	int bad = 0;

	for (r = cmd->opts; r->name; r++) {
		int takes = r->kind == OPTK_STR || r->kind == OPTK_INT || r->kind == OPTK_NUM || r->kind == OPTK_PARSE;

		bad |= !*r->name || rownamed(cmd, r->name, strlen(r->name)) != r || !strcmp(r->name, "help");
		bad |= !r->arg != !takes || !r->help || !*r->help;
		bad |= (r->kind == OPTK_INT || r->kind == OPTK_NUM) && (!r->what || r->min > r->max);
		bad |= (r->kind == OPTK_PARSE) != (r->parse != NULL);
		bad |= r->kind == OPTK_ONEOF && !r->value;
		for (k = all; r->letter && *k; k++) {
			for (q = (*k)->opts; q->name; q++)
				bad |= (q->letter == r->letter) != !strcmp(q->name, r->name);
		}
	}
	snprintf(what, sizeof(what), "%s: its rows are whole (a name once, a value's name, help, a range)", cmd->name);
	CHECK(!bad, what);
}

/* a command's --help: its synopsis names each of its options and no other, its list a line
   for each */
static void
helpok(const struct command *cmd)
{
	struct sb help = SB_INIT, synopsis = SB_INIT, want = SB_INIT;
	const struct optrow *r;
	const char *list, *p;
	char what[160];
	size_t rows = 0, lines = 0, named = 0, listed = 0, others = 0;

	cmdhelp(&help, cmd);
	sbaddf(&want, "usage: wheelgen %s ", cmd->name);
	sbaddf(&synopsis, "%.*s", (int)strcspn(help.buf, "\n") + 1, help.buf);
	for (p = help.buf + synopsis.len; *p == ' '; p += strcspn(p, "\n") + 1)
		sbaddf(&synopsis, "%.*s", (int)strcspn(p, "\n") + 1, p);
	list = strstr(help.buf, "\noptions:\n");
	for (r = cmd->opts; r->name; r++) {
		rows++;
		named += names(synopsis.buf, r);
		for (p = list; p && (p = strstr(p, "\n  --")); p++) {
			char row[64];
			size_t n = spelled(row, sizeof(row), r);

			listed += !strncmp(p + 3, row, n) && (p[3 + n] == ' ' || p[3 + n] == '\n');
		}
	}
	for (p = list; p && (p = strstr(p, "\n  --")); p++)
		lines++;
	for (p = synopsis.buf; (p = strstr(p, "--")); p += 2)
		others += !rownamed(cmd, p + 2, strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-"));
	snprintf(what, sizeof(what), "%s --help: 'usage: wheelgen %s', and a list of its options", cmd->name, cmd->name);
	CHECK(!strncmp(help.buf, want.buf, want.len) && (list || !rows), what);
	snprintf(what, sizeof(what), "%s --help: its list has a line for each of its %zu options, and no other", cmd->name,
		 rows);
	CHECK(listed == rows && lines == rows, what);
	snprintf(what, sizeof(what), "%s --help: its synopsis names each of its options with its value", cmd->name);
	CHECK(named == rows, what);
	snprintf(what, sizeof(what), "%s --help: its synopsis names no option it does not take", cmd->name);
	CHECK(others == 0, what);
	if (named != rows || others)
		printf("  %s", synopsis.buf);
	sbfree(&help);
	sbfree(&synopsis);
	sbfree(&want);
}

/* what the parser fills, for the test command */
struct testopts {
	struct cmdopts c;
	int flag, oneof;
	const char *str;
	long whole;
	double number;
	long pair[2];
};
#define TO(field) offsetof(struct testopts, field)

/* "A+B" into place, two longs */
static int
pairarg(const char *arg, void *place)
{
	long *v = place;

	return sscanf(arg, "%ld+%ld", &v[0], &v[1]) == 2 ? 0 : error("--pair wants A+B, not '%s'", arg);
}

static const struct optrow testrows[] = {
	OPT_CONFIG,
	OPT_VERBOSE("more"),
	OPTFLAG("flag", TO(flag), "a flag"),
	OPTONEOF("one", TO(oneof), 1, "one"),
	OPTONEOF("two", TO(oneof), 2, "two"),
	OPTSTR("str", TO(str), "S", "a string"),
	OPTINT("whole", TO(whole), "N", "a whole number", -5, 5, "a whole number"),
	OPTNUMABOVE("number", TO(number), "X", "a number", 0, 1.5, "a number"),
	OPTPARSE("pair", TO(pair), "A+B", pairarg, "a pair"),
	OPTEND,
};
static const struct command cmd_test = { "test", NULL, "usage: wheelgen test\n", "", testrows, CMD_ARGS };

/* the test command's rows, each kind parsed where its row says; the shared defaults */
static void
parsed(void)
{
	char a[][16] = { "test", "--flag", "-v", "--two", "op", "--str=s", "--whole", "-5", "--number", "1.5",
			 "--pair", "3+4", "-c", "f.yml", "--two", "--fl" };
	char *argv[sizeof(a) / sizeof(a[0]) + 1];
	struct testopts o = { .c = { 0 } };
	size_t i;

	for (i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		argv[i] = a[i];
	argv[i] = NULL;
	parseopts((int)i, argv, &o.c, &cmd_test);
	CHECK(o.flag == 1 && o.c.verbose == 1 && o.oneof == 2 && o.str && !strcmp(o.str, "s") && o.whole == -5 &&
	      o.number == 1.5 && o.pair[0] == 3 && o.pair[1] == 4, "each kind of row parsed into its place");
	CHECK(o.c.configset && !strcmp(o.c.config, "f.yml") && !strcmp(o.c.builddir, "out") &&
	      !strcmp(o.c.templates, "templates") && !o.c.host, "the shared options: given, else their defaults");
	CHECK(o.c.nargs == 1 && !strcmp(o.c.args[0], "op"), "the operands after the options");
}

/* parseopts of cmd on words in a child: its exit status, and its first line on stdout or stderr */
static int
child(const struct command *cmd, const char *words, char *line, size_t n)
{
	static union {
		struct cmdopts c;
		long l[128];
		double d[128];
	} place;
	char path[] = "/tmp/wgunitXXXXXX", buf[256], *argv[16], *w;
	int fd = mkstemp(path), argc = 0, status = -1;
	pid_t pid;
	FILE *f;

	snprintf(buf, sizeof(buf), "%s %s", cmd->name, words);
	for (w = strtok(buf, " "); w && argc < 15; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	fflush(stdout);
	if (fd < 0 || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		memset(&place, 0, sizeof(place));
		parseopts(argc, argv, &place.c, cmd);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	*line = '\0';
	if ((f = fopen(path, "r"))) {
		if (fgets(line, (int)n, f))
			line[strcspn(line, "\n")] = '\0';
		fclose(f);
	}
	close(fd);
	unlink(path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* what each command refuses, and the words it says it in (exit status 2), and what it takes */
static void
refusals(void)
{
	static const struct {
		const struct command *cmd;
		const char *words, *want;
		int status;
	} cases[] = {
		{ &cmd_matrix, "--split x", "wheelgen: error: --split wants a number of matrices from 1 to 64, not 'x'", 2 },
		{ &cmd_matrix, "--split 65", "wheelgen: error: --split wants a number of matrices from 1 to 64, not '65'", 2 },
		{ &cmd_matrix, "--split 64 --github", "", 0 },
		{ &cmd_summary, "--part 0", "wheelgen: error: --part wants a part from 1 to 64, not '0'", 2 },
		{ &cmd_claim, "--fd 2", "wheelgen: error: --fd wants a descriptor from 3 to 255, not '2'", 2 },
		{ &cmd_store, "--grace -1", "wheelgen: error: --grace wants minutes from 0 to 525600, not '-1'", 2 },
		{ &cmd_store, "--grace 0", "", 0 },
		{ &cmd_torchtable, "--timeout 86401", "wheelgen: error: --timeout wants seconds from 1 to 86400, not '86401'", 2 },
		{ &cmd_matrix, "--runners 0",
		  "wheelgen: error: --runners wants a number of concurrent jobs from 1 to 100000, not '0'", 2 },
		{ &cmd_matrix, "--job-overhead 1441",
		  "wheelgen: error: --job-overhead wants minutes (a number from 0 to 1440), not '1441'", 2 },
		{ &cmd_matrix, "--job-overhead 0", "", 0 },
		{ &cmd_shards, "--target-minutes 0",
		  "wheelgen: error: --target-minutes wants minutes (a number above 0, at most 100000), not '0'", 2 },
		{ &cmd_matrix, "--shard 3/2", "wheelgen: error: --shard wants I/N with 1 <= I <= N, not '3/2'", 2 },
		{ &cmd_matrix, "--shard 2/2", "", 0 },
		{ &cmd_matrix, "--json --json --tsv", "wheelgen: error: choose one of --json, --github, --tsv, --table", 2 },
		{ &cmd_status, "--profile x", "wheelgen: error: status does not take --profile", 2 },
		{ &cmd_status, "--prof=x", "wheelgen: error: status does not take --profile", 2 },
		{ &cmd_claim, "-c x", "wheelgen: error: claim does not take --config", 2 },
		{ &cmd_check, "--json", "wheelgen: error: check does not take --json", 2 },
		{ &cmd_check, "--no-such-option", "wheelgen: error: unknown or incomplete option '--no-such-option'", 2 },
		{ &cmd_check, "--config", "wheelgen: error: option '-c' needs a value", 2 },
		{ &cmd_matrix, "--split", "wheelgen: error: unknown or incomplete option '--split'", 2 },
		{ &cmd_gen, "cell", "wheelgen: error: unexpected argument 'cell'", 2 },
		{ &cmd_key, "cell", "", 0 },
		{ &cmd_check, "--help", NULL, 0 },
	};
	struct sb help = SB_INIT;
	char line[256], what[320];
	const char *want;
	size_t i;

	cmdsetall(all);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int status = child(cases[i].cmd, cases[i].words, line, sizeof(line));

		/* (NULL: its help, whose first line is its synopsis's) */
		sbreset(&help);
		cmdhelp(&help, cases[i].cmd);
		help.buf[strcspn(help.buf, "\n")] = '\0';
		want = cases[i].want ? cases[i].want : help.buf;
		snprintf(what, sizeof(what), "%s %s: exit status %d, '%s'", cases[i].cmd->name, cases[i].words,
			 cases[i].status, want);
		CHECK(status == cases[i].status && !strcmp(line, want), what);
		if (status != cases[i].status || strcmp(line, want))
			printf("  got exit status %d, '%s'\n", status, line);
	}
	sbfree(&help);
	cmdsetall(NULL);
}

void
testcmd(void)
{
	const struct command *const *k;
	size_t n = 0;

	for (k = all; *k; k++, n++) {
		rowsok(*k);
		helpok(*k);
	}
	CHECK(n == 16, "the 16 commands of main.c's table");
	parsed();
	refusals();
}
