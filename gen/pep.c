/* pep: Python packaging names and versions, PEP 503, 508 and 440 (see pep.h). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <ctype.h>
#include <pthread.h>
#include <limits.h>
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

/* compiled once (pthread_once); each match has its own match data: the index's page threads
   call these at once */
static pcre2_code *vre, *nre, *lre;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static pcre2_code *
compile(const char *pat, uint32_t opts)
{
	PCRE2_SIZE off;
	int err;
	pcre2_code *re;

	/* '$' at the very end only: by default it also matches before a final newline ("a\n") */
	re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, opts | PCRE2_DOLLAR_ENDONLY, &err, &off, NULL);

	if (!re) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(err, msg, sizeof(msg));
		fatal("bad built-in pattern at %zu: %s", (size_t)off, (char *)msg);
	}
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

static void
compileall(void)
{
	vre = compile(versionre, PCRE2_CASELESS);
	nre = compile(namere, PCRE2_CASELESS);
	lre = compile(localre, PCRE2_CASELESS);
}

static void
init(void)
{
	pthread_once(&once, compileall);
}

/* match s against re into a new md (free it with pcre2_match_data_free); NULL: no match */
static pcre2_match_data *
matchdata(pcre2_code *re, const char *s)
{
	pcre2_match_data *md = pcre2_match_data_create(32, NULL);

	if (!md)
		fatal("out of memory");
	if (pcre2_match(re, (PCRE2_SPTR)s, strlen(s), 0, 0, md, NULL) < 0) {
		pcre2_match_data_free(md);
		return NULL;
	}
	return md;
}

static int
rematch(pcre2_code *re, const char *s)
{
	pcre2_match_data *md = matchdata(re, s);

	pcre2_match_data_free(md);
	return md != NULL;
}

int
pepname(const char *s)
{
	init();
	return rematch(nre, s);
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
	pcre2_match_data *md;
	PCRE2_SIZE *ov;
	uint32_t num;

	init();
	*local = 0;
	/* the pattern tolerates surrounding whitespace and a leading v; a config must not */
	if (!*s || isspace((unsigned char)s[0]) || isspace((unsigned char)s[strlen(s) - 1]) || s[0] == 'v' || s[0] == 'V')
		return 0;
	if (!(md = matchdata(vre, s)))
		return 0;
	if (pcre2_substring_number_from_name(vre, (PCRE2_SPTR) "local") < 0)
		BUG("no local group");
	num = (uint32_t)pcre2_substring_number_from_name(vre, (PCRE2_SPTR) "local");
	ov = pcre2_get_ovector_pointer(md);
	*local = ov[2 * num] != PCRE2_UNSET;
	pcre2_match_data_free(md);
	return 1;
}

int
peplocal(const char *s)
{
	init();
	return rematch(lre, s);
}

/* the parts of a version that order it */
struct vkey {
	long epoch;
	long rel[16];
	int nrel;
	int pre;        /* -2: dev-only release (sorts first); -1..: a=0 b=1 rc=2; 3: none */
	long prenum;
	long post;      /* -1: none */
	long dev;       /* LONG_MAX: none */
};

static const char *
group(pcre2_match_data *md, const char *s, const char *name, size_t *len)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	int num = pcre2_substring_number_from_name(vre, (PCRE2_SPTR)name);

	if (num < 0 || ov[2 * num] == PCRE2_UNSET)
		return NULL;
	*len = ov[2 * num + 1] - ov[2 * num];
	return s + ov[2 * num];
}

/* a number of a version; one past what a long holds stays at LONG_MAX - 1 (LONG_MAX means "no
   dev release"): such versions compare equal there rather than overflow (found by fuzzing) */
static long
num(const char *p, size_t len)
{
	long v = 0;
	size_t i;

	for (i = 0; i < len && isdigit((unsigned char)p[i]); i++) {
		if (v > (LONG_MAX - 1 - (p[i] - '0')) / 10)
			return LONG_MAX - 1;
		v = v * 10 + (p[i] - '0');
	}
	return v;
}

static void
vkey(const char *s, struct vkey *k)
{
	const char *p, *q;
	size_t len, n;
	pcre2_match_data *md;

	memset(k, 0, sizeof(*k));
	k->pre = 3;
	k->post = -1;
	k->dev = LONG_MAX;
	init();
	if (!(md = matchdata(vre, s)))
		return;
	if ((p = group(md, s, "epoch", &len)))
		k->epoch = num(p, len);
	if ((p = group(md, s, "release", &len))) {
		for (q = p; q < p + len && k->nrel < 16; q++) {
			n = strspn(q, "0123456789");
			k->rel[k->nrel++] = num(q, n);
			q += n;
		}
	}
	if ((p = group(md, s, "pre_l", &len))) {
		k->pre = tolower((unsigned char)p[0]) == 'a' ? 0 : tolower((unsigned char)p[0]) == 'b' ? 1 : 2;
		if ((p = group(md, s, "pre_n", &len)))
			k->prenum = num(p, len);
	}
	if ((p = group(md, s, "post_n1", &len)) || (p = group(md, s, "post_n2", &len)))
		k->post = num(p, len);
	else if (group(md, s, "post_l", &len))
		k->post = 0;
	if (group(md, s, "dev_l", &len)) {
		k->dev = (p = group(md, s, "dev_n", &len)) ? num(p, len) : 0;
		if (k->pre == 3 && k->post < 0)
			k->pre = -2;
	}
	pcre2_match_data_free(md);
}

#define CMP(x, y) do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

int
pepcmp(const char *a, const char *b)
{
	struct vkey x, y;
	int i, n;

	vkey(a, &x);
	vkey(b, &y);
	CMP(x.epoch, y.epoch);
	n = x.nrel > y.nrel ? x.nrel : y.nrel;
	for (i = 0; i < n; i++)
		CMP(i < x.nrel ? x.rel[i] : 0, i < y.nrel ? y.rel[i] : 0);
	CMP(x.pre, y.pre);
	CMP(x.prenum, y.prenum);
	CMP(x.post, y.post);
	CMP(x.dev, y.dev);
	return 0;
}

int
peppre(const char *v)
{
	struct vkey k;

	vkey(v, &k);
	return k.pre != 3 || k.dev != LONG_MAX;
}

void
pepfree(void)
{
	pcre2_code_free(vre);
	pcre2_code_free(nre);
	pcre2_code_free(lre);
	vre = nre = lre = NULL;
}
