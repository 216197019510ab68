/* landing: the index's index.html, an install guide (see landing.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "landing.h"
#include "pages.h"
#include "pep.h"
#include "selector.h"
#include "util.h"

/* the landing page's looks: inline, no external assets; narrow screens get one column */
static const char landingstyle[] =
	"<style>\n"
	"body{font:16px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}\n"
	"main{max-width:72rem;margin:0 auto;padding:1rem 1.25rem 3rem}\n"
	"h1{font-size:1.75rem;margin:.5rem 0}h2{margin-top:2.5rem;border-bottom:1px solid #d0d7de}"
	"h3{font-size:1.05rem;margin:1.5rem 0 .25rem}\n"
	"section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:0 1.25rem 1rem;margin:1.5rem 0}\n"
	"pre{background:#1b1f24;color:#f0f3f6;padding:.75rem 1rem;border-radius:6px;overflow-x:auto;font-size:.9rem}\n"
	"code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}\n"
	".table{overflow-x:auto}table{border-collapse:collapse;width:100%;font-size:.9rem}\n"
	"caption{text-align:left;font-weight:600;padding:.5rem 0}\n"
	"th,td{border-bottom:1px solid #d0d7de;padding:.35rem .5rem;text-align:left;vertical-align:top}\n"
	"td a{word-break:break-all}.muted{color:#57606a}\n"
	".picks{display:flex;flex-wrap:wrap;gap:.5rem 1.25rem}.picks select{font:inherit;margin-left:.25rem}\n"
	".why{border-left:4px solid #bf8700;padding:.25rem .75rem;background:#fff8c5}"
	"#find pre{white-space:pre-wrap;word-break:break-all}\n"
	"</style>\n";

/* "CUDA 13.0 · torch 2.15", "CUDA 13.0", or "any setup (no CUDA)" */
static void
setupwords(struct sb *s, const struct wheelinfo *w)
{
	if (!w->variant) {
		sbadd(s, "any setup (no CUDA)");
		return;
	}
	sbadd(s, "CUDA ");
	eschtml(s, w->cuda && *w->cuda ? w->cuda : w->variant);
	if (w->torch && *w->torch) {
		sbadd(s, " &middot; torch ");
		eschtml(s, w->torch);
	}
}

/* a wheel's GPU code in words, as the finder says it: "8.0 9.0a (PTX 9.0)" (compute capabilities:
   sm_90a is 9.0a), "none" for a CUDA wheel without any, "?" where its manifest does not say;
   nothing for a wheel without CUDA */
static void
gpuwords(struct sb *s, const struct wheelinfo *w)
{
	struct sb kinds[2] = { SB_INIT, SB_INIT }; /* the cubins, the PTX */
	const char *p;

	if (!w->cuda || !*w->cuda)
		return;
	if (!w->archs) {
		sbadd(s, "?");
		return;
	}
	for (p = w->archs; *p;) {
		size_t len = strcspn(p, " "), sfx = p[len - 1] == 'a' || p[len - 1] == 'f';
		int k = p[0] == 'c';
		size_t pre = k ? 8 : 3; /* compute_, sm_ (checked when the manifest was read) */

		if (kinds[k].len)
			sbaddc(&kinds[k], ' ');
		/* XY[Z][a]: the digits but the last, a dot, the last and the suffix */
		sbaddn(&kinds[k], p + pre, len - pre - 1 - sfx);
		sbaddc(&kinds[k], '.');
		sbaddn(&kinds[k], p + len - 1 - sfx, 1 + sfx);
		p += len;
		p += *p == ' ';
	}
	if (!kinds[0].len && !kinds[1].len)
		sbadd(s, "none");
	else
		sbadd(s, kinds[0].len ? kinds[0].buf : "no real cubin");
	if (kinds[1].len)
		sbaddf(s, " (PTX %s)", kinds[1].buf);
	sbfree(&kinds[0]);
	sbfree(&kinds[1]);
}

/* Python versions as numbers: 3.9 before 3.10, 3.14 before 3.14t */
static int
pycmp(const char *a, const char *b)
{
	char *ea, *eb;
	long ma = strtol(a ? a : "", &ea, 10), mb = strtol(b ? b : "", &eb, 10), na, nb;

	if (ma != mb)
		return ma < mb ? -1 : 1;
	na = *ea == '.' ? strtol(ea + 1, &ea, 10) : 0;
	nb = *eb == '.' ? strtol(eb + 1, &eb, 10) : 0;
	if (na != nb)
		return na < nb ? -1 : 1;
	return strcmp(ea, eb);
}

/* a row of the landing page's tables: a wheel and its version */
struct row {
	const struct wheelinfo *w;
	char *version;
};

/* newest version first, then the setups in order, then Python by number */
static int
cmprow(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int r = -pepcmp(x->version, y->version);

	if (!r)
		r = strcmp(orempty(x->w->variant), orempty(y->w->variant));
	return r ? r : pycmp(x->w->python, y->w->python);
}

/* the install lines for one setup: pip and uv, the index's address filled in by the script, with
   PyPI beside it for what the wheels require (torch's dependencies, the CUDA libraries a wheel
   links: cuda-toolkit[...]). pip takes the highest version of all its indexes: the newest
   version of the setup (version, its public part) is pinned, so that a newer release on PyPI
   does not win; uv takes a package from the first index that has it: this one first */
static void
installlines(struct sb *s, const char *package, const char *variant, const char *version)
{
	size_t k;

	sbadd(s, "<pre><code>");
	for (k = 0; k < 2; k++) {
		sbadd(s, k ? "uv pip install --index " : "pip install --index-url ");
		sbadd(s, "<span class=\"index\">INDEX</span>/");
		if (variant) {
			eschtml(s, variant);
			sbaddc(s, '/');
		}
		sbadd(s, k ? "simple/ --default-index https://pypi.org/simple " : "simple/ --extra-index-url https://pypi.org/simple ");
		eschtml(s, package);
		if (!k && version && *version && *version != '+') {
			char *pub = xstrndup(version, strcspn(version, "+"));

			sbadd(s, "==");
			eschtml(s, pub);
			free(pub);
		}
		sbaddc(s, '\n');
	}
	sbadd(s, "</code></pre>\n");
}

/* one package: its versions, the install lines of each setup, and the table of its wheels */
/* the section of a package with PEP 825 variant wheels (vw: one of them): one index for every
   CUDA setup, uv picking the variant for the driver */
static void
variantlines(struct sb *s, const struct wheelinfo *vw)
{
	sbadd(s, "<h3>Any CUDA setup, one index: wheel variants (uv)</h3>\n"
		 "<p>uv 0.13 and newer pick the wheel for your driver's CUDA themselves (PEP 825 wheel variants, "
		 "a preview feature; pip ignores these wheels: use a setup's index above)");
	if (vw->torch && *vw->torch)
		sbadd(s, ". Name the torch you have: each version (<code>+torchX.Y</code>) requires its own");
	sbadd(s, ":</p>\n<pre><code>uv pip install --preview-features wheel-variants --index "
		 "<span class=\"index\">INDEX</span>/variants/simple/ --default-index https://pypi.org/simple ");
	eschtml(s, vw->package);
	if (vw->torch && *vw->torch) {
		sbadd(s, " &quot;torch==");
		eschtml(s, vw->torch);
		sbadd(s, ".*&quot;");
	}
	sbadd(s, "\n</code></pre>\n<p class=\"muted\"><a href=\"variants/simple/\">the variants index</a></p>\n");
}

static void
landingpackage(struct sb *s, struct row *r, size_t n, const char *files, const struct indexopts *o,
	       const struct wheelinfo *vw, struct timecache *tc)
{
	struct sb t = SB_INIT;
	size_t i, k;

	qsort(r, n, sizeof(*r), cmprow);
	sbadd(s, "<section>\n<h2 id=\"");
	eschtml(s, r[0].w->package);
	sbadd(s, "\">");
	eschtml(s, r[0].w->package);
	sbadd(s, "</h2>\n<p>Versions:");
	/* the public versions (the local label names the setup), newest first, each once */
	for (i = 0, k = 0; i < n; i++) {
		size_t len = strcspn(r[i].version, "+");

		if (i && len == strcspn(r[k].version, "+") && !strncmp(r[i].version, r[k].version, len))
			continue;
		sbadd(s, i ? ", " : " ");
		sbaddn(s, r[i].version, len);
		k = i;
	}
	sbadd(s, "</p>\n");
	/* one section per setup, in the order of the table */
	for (i = 0; i < n; i++) {
		for (k = 0; k < i && strcmp(orempty(r[k].w->variant), orempty(r[i].w->variant)); k++)
			;
		if (k < i)
			continue;
		sbadd(s, "<h3>");
		setupwords(s, r[i].w);
		sbadd(s, "</h3>\n");
		installlines(s, r[i].w->package, r[i].w->variant, r[i].version);
		sbadd(s, "<p class=\"muted\"><a href=\"");
		if (r[i].w->variant) {
			eschref(s, r[i].w->variant);
			sbaddc(s, '/');
		}
		sbadd(s, "simple/\">this setup's index</a></p>\n");
	}
	if (vw)
		variantlines(s, vw);
	sbadd(s, "<div class=\"table\"><table>\n<caption>The wheels of ");
	eschtml(s, r[0].w->package);
	sbadd(s, "</caption>\n<thead><tr><th scope=\"col\">version</th><th scope=\"col\">setup</th>"
		 "<th scope=\"col\">Python</th><th scope=\"col\">platform</th><th scope=\"col\">GPU</th>"
		 "<th scope=\"col\">wheel</th>"
		 "<th scope=\"col\">built (UTC)</th>"
		 "<th scope=\"col\">yanked</th></tr></thead>\n<tbody>\n");
	for (i = 0; i < n; i++) {
		const char *yank = yankof(o, r[i].w);

		sbadd(s, "<tr><td>");
		eschtml(s, r[i].version);
		sbadd(s, "</td><td>");
		setupwords(s, r[i].w);
		sbadd(s, "</td><td>");
		eschtml(s, r[i].w->python ? r[i].w->python : "");
		sbadd(s, "</td><td>");
		eschtml(s, wheelplatform(r[i].w->filename));
		sbadd(s, "</td><td>");
		gpuwords(s, r[i].w);
		sbadd(s, "</td><td><a href=\"");
		eschtml(s, files);
		escurlpath(s, r[i].w->stored ? r[i].w->stored : r[i].w->filename);
		sbadd(s, "\">");
		eschtml(s, r[i].w->filename);
		sbadd(s, "</a></td><td>");
		sbreset(&t);
		isotime(&t, r[i].w->mtime, tc);
		if (r[i].w->mtime)
			sbaddn(s, t.buf, 10);
		sbadd(s, "</td><td>");
		if (yank)
			eschtml(s, *yank ? yank : "yes");
		sbadd(s, "</td></tr>\n");
	}
	sbadd(s, "</tbody>\n</table></div>\n</section>\n");
	sbfree(&t);
}

/* index.html: for each package, which wheel fits which setup and the lines that install it */
void
landing(struct sb *s, const struct wheelinfo *w, size_t nw, const char *files, const struct indexopts *o)
{
	const char *title = o->title ? o->title : "Wheels";
	struct timecache tc = { -1, "" };
	struct row *r = xcalloc(nw ? nw : 1, sizeof(*r));
	struct sb ver = SB_INIT;
	const struct wheelinfo *vw = NULL; /* a variant wheel of the package in r */
	size_t i, n = 0;

	sbaddf(s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		  "<meta name=\"pypi:repository-version\" content=\"%s\">\n<title>", indexapiversion(o));
	eschtml(s, title);
	sbadd(s, "</title>\n");
	sbadd(s, landingstyle);
	sbadd(s, "</head>\n<body>\n<main>\n<h1>");
	eschtml(s, title);
	sbadd(s, "</h1>\n<p>Each CUDA/torch setup has an index of its own: install from the one that matches "
		 "yours, and pip or uv cannot pick a wheel built for another.</p>\n");
	/* the finder's one-liner and the selector first: on a phone too, the way to the right wheel */
	if (!o->fromlist)
		selectorsection(s, w, nw);
	sbadd(s, "<p>Which is yours, by hand: <code>python -c \"import torch; print(torch.__version__, torch.version.cuda)\"</code> "
		 "prints your torch and its CUDA (<code>2.15.0+cu130 13.0</code> is the section "
		 "&ldquo;CUDA 13.0 &middot; torch 2.15&rdquo;). Without torch, <code>nvidia-smi</code> shows the "
		 "newest CUDA your driver runs.</p>\n"
		 "<p class=\"muted\">The commands name this index by its address, <code class=\"index\">INDEX</code> "
		 "(the directory of this page). <a href=\"simple/\">The combined index</a> lists every setup's wheels: "
		 "pip takes the highest local label from it, so use a setup's index.</p>\n");
	for (i = 0; i < nw; i++) {
		/* (one file in two setups' trees, torch_abi: a row, and install lines, for each) */
		if (n && strcmp(w[i].package, r[0].w->package)) {
			landingpackage(s, r, n, files, o, vw, &tc);
			while (n)
				free(r[--n].version);
			vw = NULL;
		}
		/* a variant wheel is the same build as a row's: one section for them all */
		if (w[i].vlabel || w[i].vjson) {
			if (w[i].vlabel && (!vw || strcmp(vw->package, w[i].package)))
				vw = &w[i];
			continue;
		}
		if (vw && strcmp(vw->package, w[i].package))
			vw = NULL;
		sbreset(&ver);
		wheelversion(&ver, w[i].filename);
		r[n].w = &w[i];
		r[n++].version = xstrdup(ver.len ? ver.buf : "");
	}
	if (n)
		landingpackage(s, r, n, files, o, vw, &tc);
	while (n)
		free(r[--n].version);
	sbadd(s, "</main>\n");
	if (!o->fromlist)
		selectorscript(s, w, nw, files, o);
	sbadd(s, "<script>\n"
		 "var here = location.href.replace(/[?#].*$/, '').replace(/[^\\/]*$/, '').replace(/\\/$/, '');\n"
		 "document.querySelectorAll('.index').forEach(function (e) { e.textContent = here; });\n"
		 "</script>\n</body>\n</html>\n");
	free(r);
	sbfree(&ver);
}
