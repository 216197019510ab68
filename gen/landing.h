/* landing: the index's landing page (index.html), an install guide: per package its versions,
   a section per CUDA/torch setup in words with the pip and uv lines for that setup's index,
   and a table of its wheels sorted as versions. Inline CSS, no external assets. */
#ifndef WG_LANDING_H
#define WG_LANDING_H

#include <stddef.h>

#include "manifest.h"
#include "util.h"

/*
 * Append the page for the wheels w[0..nw) (sorted by package, as the index sorts them) to s.
 * files: the URL prefix of the wheels ("files/" or the base_url).
 */
void landing(struct sb *s, const struct wheelinfo *w, size_t nw, const char *files, const struct indexopts *o);

#endif
