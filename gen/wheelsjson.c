/* wheelsjson: the index's wheels.json and its finder, find.py (see wheelsjson.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "files.h"
#include "pages.h"
#include "wheelfile.h"
#include "wheelsjson.h"

/* , "key": "value", or null for NULL or "" */
static void
jstr(struct sb *s, const char *key, const char *val)
{
	sbaddf(s, ", \"%s\": ", key);
	if (val && *val)
		escjson(s, val);
	else
		sbadd(s, "null");
}

/* , "key": ["word", ...] of a space-separated list ("": []), or null for NULL */
static void
jwords(struct sb *s, const char *key, const char *words)
{
	const char *p = words;

	sbaddf(s, ", \"%s\": ", key);
	if (!words) {
		sbadd(s, "null");
		return;
	}
	sbaddc(s, '[');
	while (*p) {
		size_t n = strcspn(p, " ");
		char *word = xstrndup(p, n);

		if (p != words)
			sbadd(s, ", ");
		escjson(s, word);
		free(word);
		p += n;
		p += *p == ' ';
	}
	sbaddc(s, ']');
}

/* , "python_tag": ..., "abi_tag": ..., "platform_tag": ... from a wheel's file name
   (wheelnameparse), null each when the name is not a wheel's */
static void
jtags(struct sb *s, const char *filename)
{
	struct wheelname n;
	struct sb why = SB_INIT;
	int ok = wheelnameparse(filename, &n, &why) == 0;

	jstr(s, "python_tag", ok ? n.py : NULL);
	jstr(s, "abi_tag", ok ? n.abi : NULL);
	jstr(s, "platform_tag", ok ? n.plat : NULL);
	wheelnamefree(&n);
	sbfree(&why);
}

/* one wheel's entry */
static void
wheelentry(struct sb *s, const struct wheelinfo *w, const char *files, const struct indexopts *o)
{
	struct sb ver = SB_INIT, url = SB_INIT;
	const char *yank = yankof(o, w);

	wheelversion(&ver, w->filename);
	sbadd(&url, files);
	escurlpath(&url, w->stored ? w->stored : w->filename);
	sbadd(s, "{\"package\": ");
	escjson(s, w->package);
	jstr(s, "version", ver.buf);
	jstr(s, "filename", w->filename);
	jstr(s, "url", url.buf);
	jstr(s, "sha256", w->sha256);
	sbaddf(s, ", \"size\": %lld", w->size);
	jstr(s, "python", w->python);
	jtags(s, w->filename);
	jstr(s, "machine", wheelplatform(w->filename));
	jstr(s, "requires_python", w->requirespy);
	jstr(s, "cuda", w->cuda);
	jstr(s, "torch", w->torch);
	jstr(s, "torch_version", w->torchversion);
	jstr(s, "torch_cuda", w->torchcuda);
	jstr(s, "torch_index", w->torchindex);
	sbaddf(s, ", \"torch_cxx11_abi\": %s",
	       !w->torchabi || !*w->torchabi ? "null" : !strcmp(w->torchabi, "1") ? "true" : "false");
	jwords(s, "gpu_archs", w->archs);
	jwords(s, "dependencies", w->deps);
	sbadd(s, ", \"index\": ");
	sbaddc(s, '"');
	if (w->variant) {
		sbadd(s, w->variant); /* (cu130-torch2.9: checked when the manifest was read) */
		sbaddc(s, '/');
	}
	sbadd(s, "simple/\"");
	sbadd(s, ", \"yanked\": ");
	if (yank)
		escjson(s, *yank ? yank : "yes");
	else
		sbadd(s, "null");
	sbaddc(s, '}');
	sbfree(&ver);
	sbfree(&url);
}

void
wheelsjson(struct sb *s, const struct wheelinfo *w, size_t nw, const char *files, const struct indexopts *o)
{
	size_t i, n = 0;

	sbadd(s, "{\"format\": \"" WHEELSJSON_FORMAT "\", \"title\": ");
	escjson(s, o->title ? o->title : "Wheels");
	sbadd(s, ", \"wheels\": [");
	for (i = 0; i < nw; i++) {
		/* a PEP 825 variant wheel is another name of a wheel listed already */
		if (w[i].vlabel || w[i].vjson)
			continue;
		sbadd(s, n++ ? ",\n  " : "\n  ");
		wheelentry(s, &w[i], files, o);
	}
	sbadd(s, "\n]}\n");
}

int
writewheelsjson(const char *index, const struct wheelinfo *w, size_t nw, const char *files,
		const struct indexopts *o, int fresh)
{
	struct sb s = SB_INIT, path = SB_INIT;
	int rc = 0;

	wheelsjson(&s, w, nw, files, o);
	sbaddf(&path, "%s/" WHEELSJSON_FILE, index);
	if (writepage(path.buf, &s, fresh) < 0)
		rc = -1;
	if (rc == 0 && o->finder) {
		char *text;
		size_t len;

		if (!(text = readfile(o->finder, &len))) {
			rc = error("cannot read the finder '%s' (the index serves it as find.py): %s", o->finder,
				   strerror(errno));
		} else {
			sbreset(&s);
			sbaddn(&s, text, len);
			free(text);
			sbreset(&path);
			sbaddf(&path, "%s/" FINDER_FILE, index);
			rc = writepage(path.buf, &s, fresh) < 0 ? -1 : 0;
		}
	}
	sbfree(&s);
	sbfree(&path);
	return rc;
}
