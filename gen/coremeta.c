/* coremeta: core metadata, markers and a torch wheel's CUDA (see coremeta.h). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "coremeta.h"
#include "pep.h"

/* the most Requires-Dist lines read (torch's: about 30) */
#define MAXREQUIRES 10000

int
coremetaparse(const char *text, size_t len, struct coremeta *m, struct sb *why)
{
	char *buf, *next, *line, *last = NULL;
	size_t bad, cap = 0;

	memset(m, 0, sizeof(*m));
	if ((bad = utf8invalid(text, len)) < len) {
		sbaddf(why, "byte %zu: %s", bad, text[bad] ? "bytes that are not UTF-8" : "a NUL byte");
		return -1;
	}
	buf = xstrndup(text, len);
	next = buf;
	while ((line = nextline(&next))) {
		char *colon, *v;
		size_t n = strlen(line);

		if (n && line[n - 1] == '\r')
			line[--n] = '\0';
		if (!*line)
			break; /* the headers end; the description follows */
		if ((*line == ' ' || *line == '\t') && last) {
			/* a folded line continues the field before it (only Requires-Dist is kept whole) */
			char *joined;

			while (*line == ' ' || *line == '\t')
				line++;
			joined = xmalloc(strlen(last) + strlen(line) + 2);
			sprintf(joined, "%s %s", last, line);
			free(last);
			last = m->requires[m->nrequires - 1] = joined;
			continue;
		}
		last = NULL;
		if (!(colon = strchr(line, ':')))
			continue;
		*colon = '\0';
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			;
		if (!strcasecmp(line, "Name") && !m->name) {
			m->name = xstrdup(v);
		} else if (!strcasecmp(line, "Version") && !m->version) {
			m->version = xstrdup(v);
		} else if (!strcasecmp(line, "Requires-Dist")) {
			if (m->nrequires >= MAXREQUIRES) {
				sbaddf(why, "more than %d Requires-Dist fields", MAXREQUIRES);
				free(buf);
				coremetafree(m);
				return -1;
			}
			GROW(m->requires, cap, m->nrequires + 1);
			last = m->requires[m->nrequires++] = xstrdup(v);
		}
	}
	free(buf);
	if (!m->name || !m->version) {
		sbadd(why, m->name ? "it has no Version" : "it has no Name");
		coremetafree(m);
		return -1;
	}
	return 0;
}

void
coremetafree(struct coremeta *m)
{
	size_t i;

	for (i = 0; i < m->nrequires; i++)
		free(m->requires[i]);
	free(m->requires);
	free(m->name);
	free(m->version);
	memset(m, 0, sizeof(*m));
}

void
markerlinux(struct markerenv *env, const char *machine)
{
	memset(env, 0, sizeof(*env));
	env->platform_machine = machine;
	env->platform_system = "Linux";
	env->sys_platform = "linux";
	env->os_name = "posix";
	env->implementation_name = "cpython";
	env->platform_python_implementation = "CPython";
	env->extra = "";
}

/* --- markers -------------------------------------------------------------------------------- */

/* the marker being read */
struct mlex {
	const char *s;
	size_t i;
	int depth;
	const struct markerenv *env;
};

#define MAXDEPTH 32

static void
mspace(struct mlex *x)
{
	while (x->s[x->i] == ' ' || x->s[x->i] == '\t')
		x->i++;
}

/* the word w (followed by no identifier character) at the reader: consumed, 1 */
static int
mword(struct mlex *x, const char *w)
{
	size_t n = strlen(w);
	char c;

	mspace(x);
	if (strncmp(x->s + x->i, w, n))
		return 0;
	c = x->s[x->i + n];
	if (isalnum((unsigned char)c) || c == '_' || c == '.')
		return 0;
	x->i += n;
	return 1;
}

/*
 * A marker value: a quoted string, or a variable (its value, or NULL when env does not know it).
 * *known is 0 for an unknown variable; -1 when it is neither.
 */
static int
mvalue(struct mlex *x, char *buf, size_t size, int *known)
{
	static const char *const vars[] = {
		"python_version", "python_full_version", "platform_release", "platform_version", "implementation_version",
		"platform.version", "platform.python_implementation", "python_implementation", "os_name", "os.name",
		"sys_platform", "sys.platform", "platform_system", "platform_machine", "platform.machine",
		"implementation_name", "platform_python_implementation", "extra", NULL,
	};
	const struct markerenv *e = x->env;
	const char *v = NULL, *start;
	size_t n, k;

	mspace(x);
	*known = 1;
	if (x->s[x->i] == '"' || x->s[x->i] == '\'') {
		char q = x->s[x->i++];

		start = x->s + x->i;
		while (x->s[x->i] && x->s[x->i] != q)
			x->i++;
		if (!x->s[x->i])
			return -1;
		n = (size_t)(x->s + x->i - start);
		x->i++;
		snprintf(buf, size, "%.*s", (int)(n < size ? n : size - 1), start);
		return 0;
	}
	start = x->s + x->i;
	while (isalnum((unsigned char)x->s[x->i]) || x->s[x->i] == '_' || x->s[x->i] == '.')
		x->i++;
	n = (size_t)(x->s + x->i - start);
	for (k = 0; vars[k]; k++) {
		if (strlen(vars[k]) == n && !strncmp(vars[k], start, n))
			break;
	}
	if (!vars[k])
		return -1;
	if (!strcmp(vars[k], "os_name") || !strcmp(vars[k], "os.name"))
		v = e->os_name;
	else if (!strcmp(vars[k], "sys_platform") || !strcmp(vars[k], "sys.platform"))
		v = e->sys_platform;
	else if (!strcmp(vars[k], "platform_system"))
		v = e->platform_system;
	else if (!strcmp(vars[k], "platform_machine") || !strcmp(vars[k], "platform.machine"))
		v = e->platform_machine;
	else if (!strcmp(vars[k], "implementation_name"))
		v = e->implementation_name;
	else if (!strcmp(vars[k], "platform_python_implementation") || !strcmp(vars[k], "platform.python_implementation") ||
		 !strcmp(vars[k], "python_implementation"))
		v = e->platform_python_implementation;
	else if (!strcmp(vars[k], "extra"))
		v = e->extra;
	if (!v) {
		*known = 0;
		buf[0] = '\0';
	} else {
		snprintf(buf, size, "%s", v);
	}
	return 0;
}

static int mor(struct mlex *x);

/* a comparison, or a parenthesized marker */
static int
matom(struct mlex *x)
{
	static const char *const ops[] = { "===", "==", "!=", "<=", ">=", "~=", "<", ">", NULL };
	char l[256], r[256];
	int lk, rk, notin = 0, in = 0, eq = 0, ne = 0, res;
	size_t k;

	mspace(x);
	if (x->s[x->i] == '(') {
		if (++x->depth > MAXDEPTH)
			return MARKER_BAD;
		x->i++;
		res = mor(x);
		mspace(x);
		if (res == MARKER_BAD || x->s[x->i] != ')')
			return MARKER_BAD;
		x->i++;
		x->depth--;
		return res;
	}
	if (mvalue(x, l, sizeof(l), &lk) < 0)
		return MARKER_BAD;
	mspace(x);
	if (mword(x, "not")) {
		if (!mword(x, "in"))
			return MARKER_BAD;
		notin = 1;
	} else if (mword(x, "in")) {
		in = 1;
	} else {
		for (k = 0; ops[k] && strncmp(x->s + x->i, ops[k], strlen(ops[k])); k++)
			;
		if (!ops[k])
			return MARKER_BAD;
		x->i += strlen(ops[k]);
		eq = k <= 1;
		ne = k == 2;
	}
	if (mvalue(x, r, sizeof(r), &rk) < 0)
		return MARKER_BAD;
	if (!lk || !rk || !(in || notin || eq || ne))
		return MARKER_UNKNOWN; /* a version comparison, or what env does not know */
	if (in || notin)
		return (strstr(r, l) != NULL) == in ? MARKER_TRUE : MARKER_FALSE;
	return (strcmp(l, r) == 0) == eq ? MARKER_TRUE : MARKER_FALSE;
}

/* three-valued and/or: false and anything is false, true or anything is true */
static int
mand(struct mlex *x)
{
	int v = matom(x), w;

	while (v != MARKER_BAD && mword(x, "and")) {
		if ((w = matom(x)) == MARKER_BAD)
			return MARKER_BAD;
		v = v == MARKER_FALSE || w == MARKER_FALSE ? MARKER_FALSE
		  : v == MARKER_UNKNOWN || w == MARKER_UNKNOWN ? MARKER_UNKNOWN : MARKER_TRUE;
	}
	return v;
}

static int
mor(struct mlex *x)
{
	int v = mand(x), w;

	while (v != MARKER_BAD && mword(x, "or")) {
		if ((w = mand(x)) == MARKER_BAD)
			return MARKER_BAD;
		v = v == MARKER_TRUE || w == MARKER_TRUE ? MARKER_TRUE
		  : v == MARKER_UNKNOWN || w == MARKER_UNKNOWN ? MARKER_UNKNOWN : MARKER_FALSE;
	}
	return v;
}

int
markereval(const char *marker, const struct markerenv *env)
{
	struct mlex x;
	int v;

	x.s = marker;
	x.i = 0;
	x.depth = 0;
	x.env = env;
	v = mor(&x);
	mspace(&x);
	return v == MARKER_BAD || x.s[x.i] ? MARKER_BAD : v;
}

/* --- a torch wheel's CUDA ------------------------------------------------------------------- */

/*
 * The CUDA a pin among specs names ("==13.0.2", "~=12.8.0", ">=13.0.3,<14" as a last resort):
 * MAJOR.MINOR into cuda; 0 when none does
 */
static int
pincuda(const char *specs, char cuda[16])
{
	static const char *const ops[] = { "===", "==", "~=", ">=", NULL };
	size_t k;

	for (k = 0; ops[k]; k++) {
		const char *p = specs;

		while ((p = strstr(p, ops[k]))) {
			long maj, min;
			char *end;

			p += strlen(ops[k]);
			while (*p == ' ')
				p++;
			maj = strtol(p, &end, 10);
			if (end == p || *end != '.' || !isdigit((unsigned char)end[1]))
				continue;
			min = strtol(end + 1, &end, 10);
			if (maj >= 10 && maj <= 99 && min >= 0 && min <= 99) {
				snprintf(cuda, 16, "%ld.%ld", maj, min);
				return 1;
			}
		}
	}
	return 0;
}

int
torchcuda(const struct coremeta *m, const char *machine, char cuda[16], struct sb *why)
{
	struct markerenv env;
	char best[2][16] = { "", "" }; /* 0: cuda-toolkit, 1: nvidia-cuda-runtime */
	size_t i;

	markerlinux(&env, machine);
	cuda[0] = '\0';
	for (i = 0; i < m->nrequires; i++) {
		const char *r = m->requires[i], *semi;
		char name[128], norm[128], *specs;
		size_t n = strspn(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-");
		int which;

		if (n == 0 || n >= sizeof(name))
			continue;
		memcpy(name, r, n);
		name[n] = '\0';
		pepnormalize(name, norm);
		if (!strcmp(norm, "cuda-toolkit"))
			which = 0;
		else if (!strcmp(norm, "nvidia-cuda-runtime") ||
			 (startswith(norm, "nvidia-cuda-runtime-cu") && strspn(norm + 22, "0123456789") == strlen(norm + 22) && norm[22]))
			which = 1;
		else
			continue;
		if (strchr(r, '@'))
			continue; /* a URL, no version */
		semi = strchr(r + n, ';');
		if (semi) {
			int v = markereval(semi + 1, &env);

			if (v == MARKER_BAD) {
				sbadd(why, "a marker that does not parse: Requires-Dist: ");
				sbaddn(why, r, strlen(r) > 200 ? 200 : strlen(r));
				return -1;
			}
			if (v == MARKER_FALSE)
				continue;
		}
		specs = xstrndup(r + n, semi ? (size_t)(semi - (r + n)) : strlen(r + n));
		if (!best[which][0])
			pincuda(specs, best[which]);
		free(specs);
	}
	snprintf(cuda, 16, "%s", best[0][0] ? best[0] : best[1]);
	return 0;
}
