/* storelayout: where a store keeps a cell's files (see storelayout.h). */
#include <string.h>

#include "files.h"
#include "storelayout.h"
#include "util.h"

#define BLOBS "blobs/"
#define BLOBSLEN (sizeof(BLOBS) - 1)

void
storeblob(struct sb *s, const char *sha256, const char *file)
{
	sbaddf(s, BLOBS "%s/%s", sha256, file);
}

void
storeasset(struct sb *s, const char *release, const char *file)
{
	sbaddf(s, "%s/%s", release, file);
}

int
storereleasename(const char *s, size_t n)
{
	size_t k;

	if (!n || s[0] == '.')
		return 0;
	for (k = 0; k < n; k++) {
		if (!s[k] || !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.+", s[k]))
			return 0;
	}
	return 1;
}

/* the file part of a blob's name (blobs/<64 lowercase hex digits>/<file>), or NULL */
static const char *
blobfile(const char *name)
{
	char sha256[65];
	const char *file;

	if (!storeblobof(name, sha256, &file) || !*file)
		return NULL;
	return file;
}

void
storetmpdir(struct sb *s)
{
	sbadd(s, "tmp/");
}

void
storeblobsdir(struct sb *s, const char *sha256)
{
	sbadd(s, BLOBS);
	if (sha256)
		sbaddf(s, "%s/", sha256);
}

int
storeblobof(const char *name, char sha256[65], const char **file)
{
	if (strncmp(name, BLOBS, BLOBSLEN) || strlen(name) < BLOBSLEN + 64 + 1 ||
	    strspn(name + BLOBSLEN, "0123456789abcdef") != 64 || name[BLOBSLEN + 64] != '/')
		return 0;
	memcpy(sha256, name + BLOBSLEN, 64);
	sha256[64] = '\0';
	if (file)
		*file = name + BLOBSLEN + 64 + 1;
	return 1;
}

int
storedwheel(const char *stored, const char *sha256, const char *file)
{
	size_t n = strlen(file), m = strlen(stored);
	const char *slash = strchr(stored, '/');

	/* a release's asset: <release>/<its file name> */
	if (strncmp(stored, BLOBS, BLOBSLEN) && slash && m > n + 1 && slash == stored + m - n - 1 &&
	    !strcmp(slash + 1, file) && storereleasename(stored, m - n - 1))
		return 1;
	/* its blob: blobs/<its sha256>/<its file name> */
	return m == BLOBSLEN + 64 + 1 + n && !strncmp(stored, BLOBS, BLOBSLEN) &&
	       !strncmp(stored + BLOBSLEN, sha256, 64) && stored[BLOBSLEN + 64] == '/' &&
	       !strcmp(stored + BLOBSLEN + 64 + 1, file);
}

int
storefile(const char *name)
{
	const char *slash, *file;

	if (plainname(name))
		return 1;
	/* <release>/<file name>: a GitHub release's asset */
	if ((slash = strchr(name, '/')) && !strchr(slash + 1, '/') && strncmp(name, BLOBS, BLOBSLEN))
		return storereleasename(name, (size_t)(slash - name)) && plainname(slash + 1) && slash[1] != '.';
	/* blobs/<sha256>/<file name>: a wheel and its .metadata stored by their content */
	if (!(file = blobfile(name)))
		return 0;
	return plainname(file) && file[0] != '.';
}
