/* placeholder: the {name} placeholders of config values, one table and one expander. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "placeholder.h"

enum phvalue { V_VERSION, V_PYTHON, V_CUDA, V_CUDAVERSION, V_CUDAMAJOR, V_TORCH, V_ARCHS, V_ARCHSNODOT };

/* every placeholder, what it stands for and where it may stand */
static const struct {
	const char *name;
	enum phvalue value;
	int where;
} table[] = {
	{ "version", V_VERSION, PH_ENV | PH_TAG },
	{ "python", V_PYTHON, PH_ENV | PH_LABEL | PH_IMAGE },
	{ "cuda", V_CUDA, PH_ENV | PH_LABEL | PH_IMAGE | PH_INDEX },
	{ "cuda_version", V_CUDAVERSION, PH_ENV | PH_LABEL | PH_IMAGE },
	{ "cuda_major", V_CUDAMAJOR, PH_ENV | PH_LABEL | PH_IMAGE | PH_INDEX },
	{ "torch", V_TORCH, PH_ENV | PH_LABEL | PH_TORCHREQ | PH_IMAGE },
	{ "cuda_archs", V_ARCHS, PH_ENV },
	{ "cuda_archs_nodot", V_ARCHSNODOT, PH_ENV },
};
#define NTABLE (sizeof(table) / sizeof(table[0]))

/* the length of the placeholder word at p ("{word}": lower-case letters and '_'), or 0 */
static size_t
word(const char *p)
{
	size_t n = 1;

	if (*p != '{')
		return 0;
	while ((p[n] >= 'a' && p[n] <= 'z') || p[n] == '_')
		n++;
	return n > 1 && p[n] == '}' ? n + 1 : 0;
}

/* the table entry of the placeholder at p of length n, or -1 */
static int
lookup(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < NTABLE; i++) {
		if (strlen(table[i].name) == n - 2 && !strncmp(p + 1, table[i].name, n - 2))
			return (int)i;
	}
	return -1;
}

static void
addnodots(struct sb *s, const char *v)
{
	for (; *v; v++) {
		if (*v != '.')
			sbaddc(s, *v);
	}
}

/* append the value of entry e, or 0 when the cell lacks it */
static int
value(struct sb *s, enum phvalue e, const struct phvalues *v)
{
	size_t i;

	switch (e) {
	case V_VERSION:
		if (!v->version)
			return 0;
		sbadd(s, v->version);
		return 1;
	case V_PYTHON:
		if (!v->python)
			return 0;
		addnodots(s, v->python);
		return 1;
	case V_CUDA:
	case V_CUDAVERSION:
	case V_CUDAMAJOR:
		if (!v->cuda)
			return 0;
		if (e == V_CUDA)
			addnodots(s, v->cuda);
		else if (e == V_CUDAVERSION)
			sbadd(s, v->cuda);
		else
			sbaddn(s, v->cuda, strcspn(v->cuda, "."));
		return 1;
	case V_TORCH:
		if (!v->torch)
			return 0;
		sbadd(s, v->torch);
		return 1;
	case V_ARCHS:
	case V_ARCHSNODOT:
		if (!v->archs)
			return 0;
		for (i = 0; i < v->archs->n; i++) {
			if (i)
				sbaddc(s, ';');
			if (e == V_ARCHS)
				sbadd(s, v->archs->v[i]);
			else
				addnodots(s, v->archs->v[i]);
		}
		return 1;
	}
	return 0;
}

void
phexpand(struct sb *s, const char *pattern, const struct phvalues *v)
{
	const char *p = pattern;
	size_t n;
	int e;

	sbadd(s, "");
	while (*p) {
		if (p[0] == '$' && p[1] == '{') {      /* ${VAR} is no placeholder */
			sbaddn(s, p, 2);
			p += 2;
		} else if ((n = word(p)) && (e = lookup(p, n)) >= 0 && value(s, table[e].value, v)) {
			p += n;
		} else {
			sbaddc(s, *p++);
		}
	}
}

const char *
phcheck(const char *pattern, int where)
{
	static char msg[512];
	const char *p;
	size_t n, i, len;
	int e;

	for (p = pattern; *p; p++) {
		if (p[0] == '$' && p[1] == '{') {
			p++;
			continue;
		}
		if (!(n = word(p)) || ((e = lookup(p, n)) >= 0 && (table[e].where & where)))
			continue;
		len = (size_t)snprintf(msg, sizeof(msg), "%s placeholder %.*s here (allowed:", e < 0 ? "unknown" : "no",
				       (int)(n > 64 ? 64 : n), p);
		for (i = 0; i < NTABLE && len < sizeof(msg); i++) {
			if (table[i].where & where)
				len += (size_t)snprintf(msg + len, sizeof(msg) - len, " {%s}", table[i].name);
		}
		if (len < sizeof(msg))
			snprintf(msg + len, sizeof(msg) - len, ")");
		return msg;
	}
	return NULL;
}

int
phuses(const char *pattern, const char *name)
{
	const char *p;
	size_t n;

	for (p = pattern; p && *p; p++) {
		if ((n = word(p)) && n - 2 == strlen(name) && !strncmp(p + 1, name, n - 2))
			return 1;
	}
	return 0;
}
