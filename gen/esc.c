#include <string.h>

#include "esc.h"

int
escninjapath(struct sb *s, const char *p)
{
	if (strpbrk(p, "\n\r|"))
		return -1;
	for (; *p; p++) {
		if (*p == '$' || *p == ' ' || *p == ':')
			sbaddc(s, '$');
		sbaddc(s, *p);
	}
	return 0;
}

int
escninjavalue(struct sb *s, const char *v)
{
	if (strpbrk(v, "\n\r"))
		return -1;
	for (; *v; v++) {
		if (*v == '$')
			sbaddc(s, '$');
		sbaddc(s, *v);
	}
	return 0;
}

void
escshell(struct sb *s, const char *w)
{
	sbaddc(s, '\'');
	for (; *w; w++) {
		if (*w == '\'')
			sbadd(s, "'\\''");
		else
			sbaddc(s, *w);
	}
	sbaddc(s, '\'');
}

void
eschtml(struct sb *s, const char *t)
{
	for (; *t; t++) {
		switch (*t) {
		case '&': sbadd(s, "&amp;"); break;
		case '<': sbadd(s, "&lt;"); break;
		case '>': sbadd(s, "&gt;"); break;
		case '"': sbadd(s, "&quot;"); break;
		case '\'': sbadd(s, "&#39;"); break;
		default: sbaddc(s, *t);
		}
	}
}

void
escjson(struct sb *s, const char *t)
{
	sbaddc(s, '"');
	for (; *t; t++) {
		unsigned char c = (unsigned char)*t;

		if (c == '"' || c == '\\') {
			sbaddc(s, '\\');
			sbaddc(s, (char)c);
		} else if (c == '\n') {
			sbadd(s, "\\n");
		} else if (c == '\t') {
			sbadd(s, "\\t");
		} else if (c < 0x20 || c == 0x7f) {
			sbaddf(s, "\\u%04x", c);
		} else {
			sbaddc(s, (char)c);
		}
	}
	sbaddc(s, '"');
}
