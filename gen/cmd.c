/* cmd: each command's options parsed from its rows, one way; the config loaded once (see cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "files.h"
#include "layout.h"

/* the columns --help fills, and where an option's help starts at the latest */
enum { HELPWIDTH = 92, HELPCOLUMN = 26 };

static const struct command *const *every; /* main.c's table, once cmdsetall has it */
/* the parse under way: getopt_long's table and letters (not on the stack: an error exits from
   within the parse, and they are no leak then) */
static struct option *table;
static struct sb shorts = SB_INIT;

void
cmdsetall(const struct command *const *all)
{
	every = all;
}

/* text into s from column col on, its words wrapped before column HELPWIDTH, each next line
   indented to col */
static void
wrap(struct sb *s, const char *text, size_t col)
{
	size_t at = col, n;

	for (text += strspn(text, " "); *text; text += n + strspn(text + n, " ")) {
		n = strcspn(text, " ");
		if (at > col && at + 1 + n > HELPWIDTH) {
			sbaddf(s, "\n%*s", (int)col, "");
			at = col;
		} else if (at > col) {
			sbadd(s, " ");
			at++;
		}
		sbaddf(s, "%.*s", (int)n, text);
		at += n;
	}
	sbadd(s, "\n");
}

void
cmdhelp(struct sb *s, const struct command *cmd)
{
	const struct optrow *r;
	size_t w = 0, n, col;

	sbadd(s, cmd->usage);
	for (r = cmd->opts; r->name; r++) {
		n = strlen(r->name) + (r->arg ? strlen(r->arg) + 1 : 0);
		if (n > w && n + 6 <= HELPCOLUMN)
			w = n;
	}
	if (cmd->opts->name)
		sbadd(s, "\noptions:\n");
	col = w + 6;
	for (r = cmd->opts; r->name; r++) {
		n = s->len;
		sbaddf(s, "  --%s%s%s", r->name, r->arg ? " " : "", r->arg ? r->arg : "");
		n = s->len - n;
		if (n + 2 > col)
			sbaddf(s, "\n%*s", (int)col, "");
		else
			sbaddf(s, "%*s", (int)(col - n), "");
		wrap(s, r->help, col);
	}
}

void
usagefail(const struct command *cmd, const char *fmt, ...)
{
	struct sb msg = SB_INIT;
	va_list ap;

	va_start(ap, fmt);
	sbvaddf(&msg, fmt, ap);
	va_end(ap);
	error("%s", msg.buf);
	sbreset(&msg);
	cmdhelp(&msg, cmd);
	fputs(msg.buf, stderr);
	sbfree(&msg);
	exit(2);
}

/*
 * The config ./configure named for builddir (its config.ninja's "config = FILE"), so that
 * commands run by hand after `./configure --config X` read X; config/packages.yml without one
 */
static const char *
configuredconfig(const char *builddir)
{
	static char *found;
	struct sb path = SB_INIT;
	char *buf, *next, *line;

	if (found)
		return found;
	bdpath(&path, builddir, BD_CONFIGNINJA, NULL);
	buf = readfile(path.buf, NULL);
	sbfree(&path);
	next = buf;
	while (next && (line = nextline(&next))) {
		if (!strncmp(line, "config = ", 9) && line[9]) {
			found = xstrdup(line + 9);
			break;
		}
	}
	free(buf);
	return found ? found : "config/packages.yml";
}

/* the row of rows with letter c, or NULL */
static const struct optrow *
rowletter(const struct optrow *rows, int c)
{
	for (; rows->name; rows++) {
		if (rows->letter == c)
			return rows;
	}
	return NULL;
}

/* the option of some command (of cmd alone without cmdsetall) with letter c, or NULL */
static const struct optrow *
anyletter(const struct command *cmd, int c)
{
	const struct command *const *k;
	const struct optrow *r = rowletter(cmd->opts, c);

	for (k = every; !r && k && *k; k++)
		r = rowletter((*k)->opts, c);
	return r;
}

/* the option some command takes that arg names ("--name", "--name=value", or a prefix of that
   one name alone), or NULL */
static const char *
othersname(const char *arg)
{
	const struct command *const *k;
	const struct optrow *r;
	const char *found = NULL;
	int ambiguous = 0;
	size_t n;

	if (strncmp(arg, "--", 2))
		return NULL;
	arg += 2;
	n = strcspn(arg, "=");
	for (k = every; k && *k; k++) {
		for (r = (*k)->opts; r->name; r++) {
			if (strncmp(r->name, arg, n))
				continue;
			if (!r->name[n])
				return r->name;
			ambiguous |= found && strcmp(found, r->name);
			found = r->name;
		}
	}
	return n && !ambiguous ? found : NULL;
}

/* getopt's letters: those of every command's options (a letter of another command's option is
   refused by its name), a ':' after each that takes a value, and h */
static void
letters(struct sb *s, const struct command *cmd)
{
	const char *names = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	const struct optrow *r;

	for (; *names; names++) {
		if (*names != 'h' && (r = anyletter(cmd, *names)))
			sbaddf(s, "%c%s", *names, r->arg ? ":" : "");
	}
	sbadd(s, "h");
}

/* the error of the option getopt refused last, with cmd's help; exit status 2 */
static WG_NORETURN void
refused(const struct command *cmd, char **argv)
{
	const struct optrow *r;
	const char *name;

	if (optopt > 0 && optopt < 256) {
		r = anyletter(cmd, optopt);
		usagefail(cmd, "option '-%c' %s", optopt, r && r->arg ? "needs a value" : "is unknown");
	}
	if (!optopt && (name = othersname(argv[optind - 1])))
		usagefail(cmd, "%s does not take --%s", cmd->name, name);
	usagefail(cmd, "unknown or incomplete option '%s'", argv[optind - 1]);
}

/* the names of cmd's rows that exclude r ("--json, --github, --tsv, --table") into s */
static void
oneofnames(struct sb *s, const struct command *cmd, const struct optrow *r)
{
	const struct optrow *q;

	for (q = cmd->opts; q->name; q++) {
		if (q->kind == OPTK_ONEOF && q->off == r->off)
			sbaddf(s, "%s--%s", s->len ? ", " : "", q->name);
	}
}

/* the value of r given as arg into its place in o; a bad value exits 2 */
static void
setopt(struct cmdopts *o, const struct optrow *r, const char *arg, const struct command *cmd)
{
	void *place = (char *)o + r->off;
	struct sb names = SB_INIT;
	char *end;
	double v;

	switch (r->kind) {
	case OPTK_FLAG:
		*(int *)place = 1;
		return;
	case OPTK_STR:
		*(const char **)place = arg;
		return;
	case OPTK_INT:
		v = (double)strtol(arg, &end, 10);
		if (end == arg || *end || v < r->min || v > r->max)
			break;
		*(long *)place = (long)v;
		return;
	case OPTK_NUM:
		v = strtod(arg, &end);
		if (end == arg || *end || !(v >= r->min && v <= r->max) || (r->above && v <= r->min))
			break;
		*(double *)place = v;
		return;
	case OPTK_ONEOF:
		if (*(int *)place && *(int *)place != r->value) {
			oneofnames(&names, cmd, r);
			error("choose one of %s", names.buf);
			sbfree(&names);
			exit(2);
		}
		*(int *)place = r->value;
		return;
	case OPTK_PARSE:
		if (r->parse(arg, place) < 0)
			exit(2);
		return;
	}
	if (r->kind == OPTK_INT)
		error("--%s wants %s from %.0f to %.0f, not '%s'", r->name, r->what, r->min, r->max, arg);
	else
		error("--%s wants %s (a number %s %g%s%g), not '%s'", r->name, r->what, r->above ? "above" : "from",
		      r->min, r->above ? ", at most " : " to ", r->max, arg);
	exit(2);
}

/* getopt_long's table of cmd's rows (an option's val: its letter, else 256 + its row) and --help */
static struct option *
longopts(const struct command *cmd)
{
	struct option *lo;
	size_t i, n;

	for (n = 0; cmd->opts[n].name; n++)
		;
	lo = xcalloc(n + 2, sizeof(*lo));
	for (i = 0; i < n; i++) {
		lo[i].name = cmd->opts[i].name;
		lo[i].has_arg = cmd->opts[i].arg ? required_argument : no_argument;
		lo[i].val = cmd->opts[i].letter ? cmd->opts[i].letter : 256 + (int)i;
	}
	lo[n].name = "help";
	lo[n].val = 'h';
	return lo;
}

void
parseopts(int argc, char **argv, struct cmdopts *o, const struct command *cmd)
{
	struct sb help = SB_INIT;
	const struct optrow *r;
	int c;

	table = longopts(cmd);
	letters(&shorts, cmd);
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, shorts.buf, table, NULL)) != -1) {
		if (c == 'h') {
			cmdhelp(&help, cmd);
			fputs(help.buf, stdout);
			sbfree(&help);
			exit(0);
		}
		if (c == '?' || c == ':')
			refused(cmd, argv);
		r = c >= 256 ? &cmd->opts[c - 256] : rowletter(cmd->opts, c);
		if (!r)
			usagefail(cmd, "%s does not take --%s", cmd->name, anyletter(cmd, c)->name);
		setopt(o, r, optarg, cmd);
	}
	free(table);
	table = NULL;
	sbfree(&shorts);
	o->configset = o->config != NULL;
	if (!o->builddir)
		o->builddir = "out";
	if (!o->templates)
		o->templates = "templates";
	if (!o->config)
		o->config = configuredconfig(o->builddir);
	for (r = cmd->opts; r->name && strcmp(r->name, "host"); r++)
		;
	if (!o->host && r->name) {
		/* what ./configure found for this build directory: its backend, Pythons, toolkits */
		static struct sb path = SB_INIT;

		bdpath(&path, o->builddir, BD_HOSTFILE, NULL);
		if (access(path.buf, R_OK) == 0)
			o->host = path.buf;
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	if (o->nargs > 0 && !(cmd->flags & CMD_ARGS))
		usagefail(cmd, "unexpected argument '%s'", argv[optind]);
}

struct config *
cmdload(struct arena *a, const struct cmdopts *o, struct host *h, struct matrix *m)
{
	struct diags d = { 0 };
	struct config *c;
	size_t i;

	memset(h, 0, sizeof(*h));
	memset(m, 0, sizeof(*m));
	if (o->host && hostload(a, o->host, h) < 0)
		return NULL;
	c = configload(a, o->config, &d);
	if (c && d.errors == 0)
		matrixexpand(a, c, h, m, &d);
	if (c && d.errors == 0)
		profilescheck(c, m, &d);
	if (diagprint(&d, stderr) || !c)
		c = NULL;
	diagfree(&d);
	if (c && o->verbose) {
		for (i = 0; i < m->ndropped; i++)
			notice("dropped %s: %s", m->dropped[i].id, m->dropped[i].why);
		for (i = 0; i < m->n; i++) {
			if (m->cells[i].whynot)
				notice("cannot build %s here: %s", m->cells[i].id, m->cells[i].whynot);
		}
	}
	free(m->dropped);
	m->dropped = NULL;
	return c;
}

const struct profile *
cmdprofile(const struct config *c, const char *name, const char *config)
{
	size_t i;

	for (i = 0; i < c->nprofiles; i++) {
		if (!strcmp(c->profiles[i].name, name))
			return &c->profiles[i];
	}
	error("no profile '%s' in %s%s", name, config, c->nprofiles ? "; it has:" : "");
	for (i = 0; i < c->nprofiles; i++)
		fprintf(stderr, "  %s\n", c->profiles[i].name);
	return NULL;
}

const struct cell *
cmdcell(const struct matrix *m, const char *id, const char *config)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (!strcmp(m->cells[i].id, id))
			return &m->cells[i];
	}
	error("no cell '%s' in %s", id, config);
	return NULL;
}

int
loadkeyed(struct keyed *x, const struct cmdopts *o, enum keysource from)
{
	memset(&x->a, 0, sizeof(x->a));
	memset(&x->k, 0, sizeof(x->k));
	memset(&x->st, 0, sizeof(x->st));
	if (!(x->c = cmdload(&x->a, o, &x->h, &x->m)))
		return -1;
	keyctxinit(&x->k, x->c, o->builddir, o->templates, from);
	storeopen(x->c, o->builddir, &x->st);
	return 0;
}

void
unloadkeyed(struct keyed *x)
{
	keyctxfree(&x->k);
	storefree(&x->st);
	free(x->m.cells);
	afree(&x->a);
}
