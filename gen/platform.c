/* platform: the platforms cells are built for, one table (see platform.h). */
#include <string.h>

#include "platform.h"

const struct platform platforms[] = {
	{ "x86_64", "", "x86_64", "amd64", "ubuntu-latest", "x86_64-linux-gnu-" },
	{ "aarch64", "-aarch64", "aarch64", "arm64", "ubuntu-24.04-arm", "aarch64-linux-gnu-" },
};
const size_t nplatforms = sizeof(platforms) / sizeof(platforms[0]);
const char *const platformnames[] = { "x86_64", "aarch64", NULL };

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

const char *
platformalias(const char *name)
{
	static const char *const aliases[][2] = {
		{ "arm64", "aarch64" }, { "arm", "aarch64" }, { "sbsa", "aarch64" },
		{ "amd64", "x86_64" }, { "x86-64", "x86_64" }, { "x64", "x86_64" },
	};
	size_t i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (!strcmp(aliases[i][0], name))
			return aliases[i][1];
	}
	return NULL;
}
