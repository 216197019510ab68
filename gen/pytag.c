/* pytag: which wheel tags a CPython X.Y installs (see pytag.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pytag.h"

int
pyverparse(const char *python, struct pyver *v)
{
	char *end;
	long major, minor;

	if (!isdigit((unsigned char)python[0]))
		return -1;
	major = strtol(python, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]))
		return -1;
	minor = strtol(end + 1, &end, 10);
	if (major < 1 || major > 9 || minor < 0 || minor > 99 || (*end && strcmp(end, "t")))
		return -1;
	v->major = (int)major;
	v->minor = (int)minor;
	v->freethreaded = *end == 't';
	return 0;
}

void
pytaginterp(const struct pyver *v, char out[16])
{
	snprintf(out, 16, "cp%d%d", v->major, v->minor);
}

void
pytagsoabi(const struct pyver *v, char out[14])
{
	/* (3.8 dropped the pymalloc flag: cpython-37m, cpython-38; at most "9" "99" "m") */
	snprintf(out, 14, "%d%d%s", v->major, v->minor,
		 v->freethreaded ? "t" : v->major == 3 && v->minor < 8 ? "m" : "");
}

void
pytagabi(const struct pyver *v, char out[16])
{
	out[0] = 'c';
	out[1] = 'p';
	pytagsoabi(v, out + 2);
}

void
pytagpython(const char *abi, char out[16])
{
	size_t d;
	const char *rest;

	out[0] = '\0';
	if (strncmp(abi, "cp", 2))
		return;
	d = strspn(abi + 2, "0123456789");
	if (d < 2 || d > 3)
		return;
	rest = abi + 2 + d;
	if (*rest && strcmp(rest, "t") && strcmp(rest, "m") && strcmp(rest, "mu") && strcmp(rest, "d"))
		return;
	snprintf(out, 16, "%c.%.*s%s", abi[2], (int)(d - 1), abi + 3, !strcmp(rest, "t") ? "t" : "");
}

/* is tag one of the dotted set's? */
static int
inset(const char *set, const char *tag)
{
	size_t n = strlen(tag);

	for (;;) {
		size_t k = strcspn(set, ".");

		if (k == n && !strncmp(set, tag, n))
			return 1;
		if (!set[k])
			return 0;
		set += k + 1;
	}
}

int
pytagsok(const struct pyver *v, const char *py, const char *abi)
{
	char cp[16], ab[16], pyxy[16];
	const char *p;

	pytaginterp(v, cp);
	pytagabi(v, ab);
	if (inset(py, cp) && inset(abi, ab))
		return 1;
	if (!v->freethreaded && inset(abi, "abi3")) {
		/* the stable ABI of any CPython of this major up to the cell's: cp38 is 3.8, cp311 3.11 */
		for (p = py; *p; p += strcspn(p, ".") + (p[strcspn(p, ".")] == '.')) {
			size_t k = strcspn(p, ".");
			char *end;
			long minor;

			if (k < 4 || strncmp(p, "cp", 2) || p[2] - '0' != v->major || !isdigit((unsigned char)p[3]))
				continue;
			minor = strtol(p + 3, &end, 10);
			if (end == p + k && minor <= v->minor)
				return 1;
		}
	}
	if (inset(abi, "none")) {
		snprintf(pyxy, sizeof(pyxy), "py%d", v->major);
		if (inset(py, pyxy))
			return 1;
		snprintf(pyxy, sizeof(pyxy), "py%d%d", v->major, v->minor);
		return inset(py, pyxy) || inset(py, cp);
	}
	return 0;
}
