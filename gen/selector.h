/* selector: the landing page's "find your wheel" section: the finder's one-liner, and a selector
   (package, platform, Python, torch, CUDA) whose plain JavaScript reads the page's copy of
   wheels.json (wheelsjson.h) and shows the command the finder (templates/find.py) prints for
   the setup chosen, or why no wheel fits it. The choice is kept in the URL's fragment
   (#package=wgcuda&platform=x86_64&python=3.12&torch=none&cuda=13.0), so a link names a setup.
   Without JavaScript the section shows the one-liner and the rest of the page is as it was. */
#ifndef WG_SELECTOR_H
#define WG_SELECTOR_H

#include <stddef.h>

#include "manifest.h"
#include "util.h"

/* the section (before the packages' sections), for the wheels w[0..nw) */
void selectorsection(struct sb *s, const struct wheelinfo *w, size_t nw);
/* wheels.json's text as the page's data and the selector's script (at the end of the body);
   files: the URL prefix of the wheels, as the pages link them */
void selectorscript(struct sb *s, const struct wheelinfo *w, size_t nw, const char *files, const struct indexopts *o);

#endif
