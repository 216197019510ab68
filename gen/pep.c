#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pcre2.h>
#include <string.h>

#include "pep.h"
#include "util.h"

/* PEP 440's appendix B pattern (as packaging.version uses it), anchored */
static const char versionre[] =
	"^\\s*v?"
	"(?:(?:(?<epoch>[0-9]+)!)?"
	"(?<release>[0-9]+(?:\\.[0-9]+)*)"
	"(?<pre>[-_\\.]?(?<pre_l>alpha|a|beta|b|preview|pre|c|rc)[-_\\.]?(?<pre_n>[0-9]+)?)?"
	"(?<post>(?:-(?<post_n1>[0-9]+))|(?:[-_\\.]?(?<post_l>post|rev|r)[-_\\.]?(?<post_n2>[0-9]+)?))?"
	"(?<dev>[-_\\.]?(?<dev_l>dev)[-_\\.]?(?<dev_n>[0-9]+)?)?)"
	"(?:\\+(?<local>[a-z0-9]+(?:[-_\\.][a-z0-9]+)*))?"
	"\\s*$";
static const char namere[] = "^([A-Z0-9]|[A-Z0-9][A-Z0-9._-]*[A-Z0-9])$";
static const char localre[] = "^[a-z0-9]+(?:[-_.][a-z0-9]+)*$";

static pcre2_code *vre, *nre, *lre;
static pcre2_match_data *md;

static pcre2_code *
compile(const char *pat, uint32_t opts)
{
	PCRE2_SIZE off;
	int err;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, opts, &err, &off, NULL);

	if (!re) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(err, msg, sizeof(msg));
		fatal("bad built-in pattern at %zu: %s", (size_t)off, (char *)msg);
	}
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

static void
init(void)
{
	if (md)
		return;
	vre = compile(versionre, PCRE2_CASELESS);
	nre = compile(namere, PCRE2_CASELESS);
	lre = compile(localre, PCRE2_CASELESS);
	md = pcre2_match_data_create(32, NULL);
}

static int
match(pcre2_code *re, const char *s)
{
	return pcre2_match(re, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL) >= 0;
}

int
pepname(const char *s)
{
	init();
	return match(nre, s);
}

void
pepnormalize(const char *name, char *out)
{
	int sep = 0;

	for (; *name; name++) {
		if (*name == '-' || *name == '_' || *name == '.') {
			sep = 1;
			continue;
		}
		if (sep)
			*out++ = '-';
		sep = 0;
		*out++ = (char)tolower((unsigned char)*name);
	}
	*out = '\0';
}

int
pepversion(const char *s, int *local)
{
	PCRE2_SIZE *ov;
	uint32_t num;

	init();
	*local = 0;
	/* the pattern tolerates surrounding whitespace and a leading v; a config must not */
	if (!*s || isspace((unsigned char)s[0]) || isspace((unsigned char)s[strlen(s) - 1]) || s[0] == 'v' || s[0] == 'V')
		return 0;
	if (!match(vre, s))
		return 0;
	if (pcre2_substring_number_from_name(vre, (PCRE2_SPTR) "local") < 0)
		BUG("no local group");
	num = (uint32_t)pcre2_substring_number_from_name(vre, (PCRE2_SPTR) "local");
	ov = pcre2_get_ovector_pointer(md);
	*local = ov[2 * num] != PCRE2_UNSET;
	return 1;
}

int
peplocal(const char *s)
{
	init();
	return match(lre, s);
}

void
pepfree(void)
{
	pcre2_match_data_free(md);
	pcre2_code_free(vre);
	pcre2_code_free(nre);
	pcre2_code_free(lre);
	md = NULL;
	vre = nre = lre = NULL;
}
