/* diag: errors about an input file, collected, sorted and printed with a caret (see diag.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

/* errors printed at most; a runaway file should not bury the first ones */
#define DIAGMAX 100

static void
vadd(struct diags *d, int note, int line, int col, int span, const char *fmt, va_list ap)
{
	struct sb s = SB_INIT, t = SB_INIT;
	struct diag *g;
	size_t i;

	sbvaddf(&t, fmt, ap);
	/* values quoted in messages are shown escaped: a newline in a value must not forge a line */
	for (i = 0; i < t.len; i++) {
		unsigned char c = (unsigned char)t.buf[i];

		if (c == '\n')
			sbadd(&s, "\\n");
		else if (c == '\r')
			sbadd(&s, "\\r");
		else if (c == '\t')
			sbadd(&s, "\\t");
		else if (c < 0x20 || c == 0x7f)
			sbaddf(&s, "\\x%02x", c);
		else
			sbaddc(&s, (char)c);
	}
	sbfree(&t);
	GROW(d->v, d->cap, d->n + 1);
	g = &d->v[d->n];
	g->line = line > 0 ? line : 1;
	g->col = col > 0 ? col : 1;
	g->span = span > 0 ? span : 1;
	g->note = note;
	g->seq = d->n++;
	g->msg = sbdetach(&s);
	if (!note)
		d->errors++;
}

void
diagerr(struct diags *d, int line, int col, int span, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(d, 0, line, col, span, fmt, ap);
	va_end(ap);
}

void
diagnote(struct diags *d, int line, int col, int span, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(d, 1, line, col, span, fmt, ap);
	va_end(ap);
}

/* find line (1-based) in the source; sets *len to its length without the newline */
static const char *
srcline(const struct diags *d, int line, size_t *len)
{
	const char *p = d->src, *end, *nl;
	int i;

	if (!p)
		return NULL;
	end = p + d->srclen;
	for (i = 1; i < line; i++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	nl = memchr(p, '\n', (size_t)(end - p));
	*len = (size_t)((nl ? nl : end) - p);
	if (*len && p[*len - 1] == '\r')
		(*len)--;
	return p;
}

/* at most this many bytes of a source line are quoted: a window around the column */
#define QUOTEMAX 160

static void
printone(const struct diags *d, const struct diag *g, FILE *f)
{
	const char *line;
	size_t len, i, at, from = 0, to, mask, maskend;
	int c = 1, k, utf8;

	fprintf(f, "%s:%d:%d: %s: %s\n", d->file, g->line, g->col, g->note ? "note" : "error", g->msg);
	line = srcline(d, g->line, &len);
	if (!line)
		return;
	/* the byte of the column (columns are characters: UTF-8 continuation bytes are skipped) */
	for (at = 0; at < len && c < g->col; at++) {
		if (((unsigned char)line[at] & 0xC0) != 0x80)
			c++;
	}
	to = len;
	if (len > QUOTEMAX) {
		from = at > QUOTEMAX / 2 ? at - QUOTEMAX / 2 : 0;
		while (from > 0 && ((unsigned char)line[from] & 0xC0) == 0x80)
			from--;
		to = from + QUOTEMAX < len ? from + QUOTEMAX : len;
		while (to < len && ((unsigned char)line[to] & 0xC0) == 0x80)
			to++;
	}
	fputs(from ? "    ..." : "    ", f);
	/* quote the line as it is, but never pass on control characters or bytes that are not UTF-8,
	   nor the password of a URL (scheme://user:PASSWORD@host), which is shown as '*' */
	utf8 = utf8invalid(line, len) == len;
	for (i = from, mask = 0, maskend = 0; i < to; i++) {
		unsigned char b = (unsigned char)line[i];

		if (i >= 3 && !memcmp(line + i - 3, "://", 3)) {
			size_t colon = i + strcspn(line + i, ":@/ \"'\n"), atsign = colon + strcspn(line + colon, "@/ \"'\n");

			if (colon < atsign && atsign < len && line[colon] == ':' && line[atsign] == '@') {
				mask = colon + 1;
				maskend = atsign;
			}
		}
		if (i >= mask && i < maskend)
			b = '*';
		fputc((b < 0x20 && b != '\t') || b == 0x7f || (b >= 0x80 && !utf8) ? '?' : (char)b, f);
	}
	fputs(to < len ? "...\n    " : "\n    ", f);
	if (from)
		fputs("   ", f);
	for (i = from; i < at; i++) {
		if (((unsigned char)line[i] & 0xC0) == 0x80)
			continue;
		fputc(line[i] == '\t' ? '\t' : ' ', f);
	}
	fputc('^', f);
	for (k = 1; k < g->span; k++)
		fputc('~', f);
	fputc('\n', f);
}

static int
cmpdiag(const void *a, const void *b)
{
	const struct diag *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

size_t
diagprint(struct diags *d, FILE *f)
{
	size_t i, j, k, nerr = 0;
	struct diag *errs;

	/* sort the errors by position; each keeps the notes that followed it */
	errs = xcalloc(d->n, sizeof(*errs));
	for (i = 0; i < d->n; i++) {
		if (!d->v[i].note)
			errs[nerr++] = d->v[i];
	}
	qsort(errs, nerr, sizeof(*errs), cmpdiag);
	for (i = 0; i < nerr; i++) {
		if (i == DIAGMAX) {
			fprintf(f, "%s: %zu more errors not shown\n", d->file, nerr - i);
			break;
		}
		printone(d, &errs[i], f);
		for (j = errs[i].seq + 1; j < d->n && d->v[j].note; j++)
			printone(d, &d->v[j], f);
	}
	free(errs);
	k = d->errors;
	if (k)
		fprintf(f, "%s: %zu error%s\n", d->file, k, k == 1 ? "" : "s");
	return k;
}

void
diagfree(struct diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		free(d->v[i].msg);
	free(d->v);
	d->v = NULL;
	d->n = d->cap = d->errors = 0;
}
