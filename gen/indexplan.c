/* indexplan: what the index holds and where (see indexplan.h): the wheels read from manifests,
   one file per name, the variants, and the PEP 825 variants.json files. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "files.h"
#include "indexplan.h"
#include "leftout.h"
#include "store.h"
#include "pages.h"
#include "pep.h"
#include "sha256.h"
#include "util.h"

int
cmpwheel(const void *a, const void *b)
{
	const struct wheelinfo *x = a, *y = b;
	int r = strcmp(x->package, y->package);

	if (!r)
		r = strcmp(x->filename, y->filename);
	if (!r)
		r = strcmp(orempty(x->variant), orempty(y->variant));
	return r ? r : strcmp(orempty(x->cell), orempty(y->cell));
}

/* the tree of the PEP 825 variant wheels: index/variants/simple/ */
const char variantstree[] = "variants";

/* does wheel w belong to the tree of variant v (NULL: the combined tree)? The variants tree
   holds the variant wheels, their variants.json files and the wheels without CUDA (the null
   variant, for every machine); the others hold no variant wheel */
int
intree(const struct wheelinfo *w, const char *v)
{
	if (v == variantstree)
		return w->vjson || w->vlabel || !w->variant;
	return !w->vjson && !w->vlabel && (!v || !w->variant || !strcmp(w->variant, v));
}

/*
 * A distribution file name as the only thing known of it (--from-list): its project is the
 * first field of a wheel name, and for an sdist what comes before the first "-<digit>".
 */
static int
fromname(const char *name, struct wheelinfo *w)
{
	const char *e = NULL, *q;
	char *proj;

	memset(w, 0, sizeof(*w));
	if (!*name || strchr(name, '/'))
		return -1;
	if (strlen(name) > 4 && !strcmp(name + strlen(name) - 4, ".whl"))
		e = strchr(name, '-');
	for (q = name; !e && (q = strchr(q, '-')); q++) {
		if (q[1] >= '0' && q[1] <= '9')
			e = q;
	}
	if (!e || e == name)
		return -1;
	proj = xstrndup(name, (size_t)(e - name));
	if (!pepname(proj)) { /* not a project name (PEP 508): no page for it */
		free(proj);
		return -1;
	}
	w->package = xcalloc(strlen(proj) + 1, 1);
	pepnormalize(proj, w->package);
	free(proj);
	w->filename = xstrdup(name);
	return 0;
}

/* the providers uv knows without installing anything (uv 0.13, --preview-features
   wheel-variants): namespace and its declaration, as templates/variant.py writes it */
static const struct {
	const char *ns, *decl;
} vproviders[] = {
	{ "nvidia", "{\"requires\": [\"nvidia-variant-provider>=0.0.1,<1.0.0\"], "
		    "\"plugin-api\": \"nvidia_variant_provider.plugin:NvidiaVariantPlugin\"}" },
};

/* the variant's properties {"ns": {"feature": ["value"]}} from "ns::feature::value;..." (one
   namespace, as variant.py writes them); the namespace into ns */
static int
vpropsjson(struct sb *j, const char *props, struct sb *ns)
{
	const char *p = props;
	int first = 1;

	sbreset(ns);
	sbaddn(ns, p, strcspn(p, ":"));
	sbadd(j, "{");
	escjson(j, ns->buf);
	sbadd(j, ": {");
	for (; *p; p += *p == ';') {
		size_t nl = strcspn(p, ":"), fl, vl;

		if (strncmp(p, ns->buf, nl) || nl != ns->len)
			return error("variant properties '%s' name more than one namespace", props);
		p += nl + 2;
		fl = strcspn(p, ":");
		vl = strcspn(p + fl + 2, ";");
		sbadd(j, first ? "" : ", ");
		sbaddc(j, '"');
		sbaddn(j, p, fl); /* (checked when the manifest was read: a-z 0-9 _ .) */
		sbadd(j, "\": [\"");
		sbaddn(j, p + fl + 2, vl);
		sbadd(j, "\"]");
		p += fl + 2 + vl;
		first = 0;
	}
	sbadd(j, "}}");
	return 0;
}

/* the version in a wheel's file name, in s */
static void
filever(struct sb *s, const char *filename)
{
	sbreset(s);
	wheelversion(s, filename);
}

/*
 * PEP 825: for each project and version with variant wheels, files/<name>-<version>-variants.json
 * (name with '_' for '-', as uv looks for it) listing every variant's properties and the
 * providers; each becomes an entry of w (vjson) that the variants tree links. Returns the new
 * count, or (size_t)-1.
 */
size_t
variantfiles(const char *index, struct wheelinfo **wp, size_t nw, int fresh)
{
	struct sb j = SB_INIT, ns = SB_INIT, vi = SB_INIT, vk = SB_INIT, path = SB_INIT, name = SB_INIT;
	struct wheelinfo *w = *wp;
	size_t i, k, n = nw;
	int rc = 0;

	for (i = 0; i < nw && rc == 0; i++) {
		long long when = 0;
		size_t p, first = 1;
		struct sha256 c;
		char hex[65], *q;

		if (!w[i].vlabel)
			continue;
		filever(&vi, w[i].filename);
		for (k = 0; k < i; k++) { /* the first of its project and version makes the file */
			filever(&vk, w[k].filename);
			if (w[k].vlabel && !strcmp(w[k].package, w[i].package) && !strcmp(vk.buf, vi.buf))
				break;
		}
		if (k < i)
			continue;
		sbreset(&j);
		sbadd(&j, "{\n  \"$schema\": \"https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json\",\n");
		if (vpropsjson(&path, w[i].vprops, &ns) < 0) {
			rc = -1;
			break;
		}
		for (p = 0; p < sizeof(vproviders) / sizeof(vproviders[0]) && strcmp(vproviders[p].ns, ns.buf); p++)
			;
		if (p == sizeof(vproviders) / sizeof(vproviders[0])) {
			rc = error("%s: variant namespace '%s' has no provider uv knows", w[i].filename, ns.buf);
			break;
		}
		sbaddf(&j, "  \"default-priorities\": {\"namespace\": [\"%s\"]},\n  \"providers\": {\"%s\": %s},\n  \"variants\": {",
		       ns.buf, ns.buf, vproviders[p].decl);
		for (k = i; k < nw; k++) {
			size_t m;

			filever(&vk, w[k].filename);
			if (!w[k].vlabel || strcmp(w[k].package, w[i].package) || strcmp(vk.buf, vi.buf))
				continue;
			for (m = i; m < k; m++) { /* each label once (one per Python and platform tag) */
				filever(&name, w[m].filename);
				if (w[m].vlabel && !strcmp(w[m].package, w[i].package) && !strcmp(name.buf, vi.buf) &&
				    !strcmp(w[m].vlabel, w[k].vlabel))
					break;
			}
			when = w[k].mtime > when ? w[k].mtime : when;
			if (m < k)
				continue;
			sbreset(&path);
			if (vpropsjson(&path, w[k].vprops, &ns) < 0 || strcmp(ns.buf, vproviders[p].ns)) {
				rc = rc < 0 ? rc : error("%s: its variant namespace differs from %s's", w[k].filename, w[i].filename);
				break;
			}
			sbaddf(&j, "%s\n    \"%s\": %s", first ? "" : ",", w[k].vlabel, path.buf);
			first = 0;
		}
		sbadd(&j, "\n  }\n}\n");
		sbreset(&name);
		for (q = w[i].package; *q; q++)
			sbaddc(&name, *q == '-' ? '_' : *q);
		sbaddf(&name, "-%s-variants.json", vi.buf);
		sbreset(&path);
		sbaddf(&path, "%s/files", index);
		if (rc < 0 || mkdirs(path.buf) < 0) {
			rc = -1;
			break;
		}
		sbaddf(&path, "/%s", name.buf);
		if ((fresh ? createpage(AT_FDCWD, NULL, path.buf, &j) : writeifchanged(path.buf, j.buf, j.len)) < 0) {
			rc = -1;
			break;
		}
		sha256init(&c);
		sha256add(&c, j.buf, j.len);
		sha256hex(&c, hex);
		*wp = w = xrealloc(w, (n + 1) * sizeof(*w));
		memset(&w[n], 0, sizeof(w[n]));
		w[n].package = xstrdup(w[i].package);
		w[n].filename = sbdetach(&name);
		w[n].sha256 = xstrdup(hex);
		w[n].size = (long long)j.len;
		w[n].mtime = when;
		w[n].dir = xstrdup(index);
		w[n++].vjson = 1;
	}
	sbfree(&j);
	sbfree(&ns);
	sbfree(&vi);
	sbfree(&vk);
	sbfree(&path);
	sbfree(&name);
	return rc < 0 ? (size_t)-1 : n;
}

/* read the manifests (or, with --from-list, file names) into w; only tested wheels (those left
   out: builddir's BD_INDEXNOTE, leftout.h). *rc = -1 for a manifest that cannot be read (every
   one is still read, each error reported) */
size_t
readwheels(const char *builddir, char **manifests, size_t n, const struct indexopts *o, struct wheelinfo *w, int *rc)
{
	struct sb left = SB_INIT;
	size_t i, nw = 0, skipped = 0;
	const char *firstskipped = NULL;

	if (!o->fromlist)
		leftoutclear(builddir, BD_INDEXNOTE);
	for (i = 0; i < n; i++) {
		if (o->fromlist) {
			if (fromname(manifests[i], &w[nw]) == 0) {
				nw++;
			} else if (!skipped++) {
				firstskipped = manifests[i];
			}
			continue;
		}
		if (manifestread(manifests[i], &w[nw]) < 0) {
			*rc = -1;
			continue;
		}
		/* where the pages link a stored wheel: the store's blob under base_url (this build's
		   wheel too, where the store keeps blobs: publish put it there); without one, the
		   index's own files/<filename> */
		if (!o->baseurl) {
			free(w[nw].stored);
			w[nw].stored = NULL;
		} else if (!w[nw].stored && o->blobs) {
			struct sb b = SB_INIT;

			storeblob(&b, w[nw].sha256, w[nw].filename);
			w[nw].stored = sbdetach(&b);
		} else if (!w[nw].stored && o->release && w[nw].cell) {
			struct sb b = SB_INIT, tag = SB_INIT;

			storerelease(o->release, w[nw].cell, &tag);
			storeasset(&b, tag.buf, w[nw].filename);
			sbfree(&tag);
			w[nw].stored = sbdetach(&b);
		}
		/* only tested wheels are indexed */
		if (!manifesttested(builddir, &w[nw])) {
			struct sb why = SB_INIT;

			sbaddf(&why, "%s has not passed its test (no test record of sha256 %.12s)", w[nw].filename,
			       w[nw].sha256);
			notice("index: left out %s: %s", w[nw].cell ? w[nw].cell : manifests[i], why.buf);
			leftoutcell(&left, w[nw].cell ? w[nw].cell : manifests[i], why.buf);
			sbfree(&why);
			manifestfree(&w[nw]);
			continue;
		}
		nw++;
	}
	if (skipped)
		notice("skipped %zu file name%s whose project cannot be told or is not a PEP 508 name (the first: '%s')",
			skipped, skipped == 1 ? "" : "s", firstskipped);
	if (!o->fromlist && leftoutwrite(builddir, BD_INDEXNOTE, &left) < 0)
		*rc = -1;
	sbfree(&left);
	return nw;
}

/*
 * One file name, one file (w sorted by cmpwheel): the wheels kept, in w; (size_t)-1 after an
 * error (two different wheels of one name)
 */
size_t
onefile(struct wheelinfo *w, size_t nw)
{
	size_t i, k;
	int rc = 0;

	/* One file name, one file, found before anything is written. Wheels of one name from cells
	   of one variant that differ only in Python (abi3 or pure-Python wheels, which every Python
	   of the variant installs) are one wheel: the first cell's is kept. Two different wheels of
	   one name in different variants cannot both be in files/, and pip could not tell them
	   apart. */
	for (i = 1, k = 1; i < nw; i++) {
		struct wheelinfo *x = &w[k - 1], *y = &w[i];

		if (strcmp(x->filename, y->filename)) {
			w[k++] = *y;
		} else if (!strcmp(orempty(x->variant), orempty(y->variant))) {
			manifestfree(y);
		} else if (x->sha256 && y->sha256 && strcmp(x->sha256, y->sha256)) {
			rc = error("cells '%s' and '%s' both built '%s', with different contents: give their package a "
				   "local_version that tells their CUDA/torch versions apart",
				   orempty(x->cell), orempty(y->cell), y->filename);
			w[k++] = *y;
		} else {
			w[k++] = *y; /* the same bytes in two variants: one file, listed in both */
		}
	}
	if (rc < 0) {
		for (i = 0; i < k; i++)
			manifestfree(&w[i]);
		return (size_t)-1;
	}
	return nw ? k : 0;
}

/* the variants of w, each once, in order of first appearance; their count */
size_t
variantsof(const struct wheelinfo *w, size_t nw, const char **variants)
{
	size_t i, k, nv = 0;

	for (i = 0; i < nw; i++) {
		for (k = 0; w[i].variant && k < nv && strcmp(variants[k], w[i].variant); k++)
			;
		if (w[i].variant && k == nv)
			variants[nv++] = w[i].variant;
	}
	return nv;
}
