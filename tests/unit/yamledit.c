/* unit tests of yamledit: values replaced, lists appended to, all else byte for byte */
#include <string.h>

#include "diag.h"
#include "util.h"
#include "yamledit.h"
#include "ydoc.h"
#include "unit.h"

/* yamledit.c: values replaced, lists appended to, all else byte for byte */
void
testyamledit(void)
{
	const char *src = "# top\na:\n  versions: [\"1.0\", '2.0']  # c\n  b: {x: [1], y: plain}\n"
			  "  block:\n    - \"1.0\"   # one\n  one: \"1.0\"\n  empty: []\n";
	struct arena a = { 0 };
	struct diags d = { 0 };
	struct yedits e = { 0 };
	struct sb out = SB_INIT, why = SB_INIT, q = SB_INIT;
	struct node *root = ydocparse(&a, src, strlen(src), &d), *m = root ? mapget(root, "a") : NULL;
	const char *add[] = { "3.0", "4.0b1" };
	size_t end;

	CHECK(m && d.errors == 0, "the YAML reads");
	if (!m)
		return;
	CHECK(yappendlist(src, strlen(src), mapget(m, "versions"), add, 2, &e, &why) == 0, "a flow list");
	CHECK(yappendlist(src, strlen(src), mapget(m, "block"), add, 1, &e, &why) == 0, "a block list");
	CHECK(yappendlist(src, strlen(src), mapget(m, "one"), add, 1, &e, &why) == 0, "a single string");
	CHECK(yappendlist(src, strlen(src), mapget(m, "empty"), add + 1, 1, &e, &why) == 0, "an empty flow list");
	CHECK(ynodeend(src, strlen(src), mapget(m, "b"), &end) == 0 && src[end - 1] == '}', "a flow mapping's end");
	CHECK(yeditapply(src, strlen(src), &e, &out) == 0, "the changes apply");
	CHECKSTR(out.buf, "# top\na:\n  versions: [\"1.0\", '2.0', '3.0', '4.0b1']  # c\n  b: {x: [1], y: plain}\n"
			  "  block:\n    - \"1.0\"   # one\n    - \"3.0\"\n  one: [\"1.0\", \"3.0\"]\n  empty: [\"4.0b1\"]\n",
		 "appended in each list's own style");
	yquote(&q, "it's", '\'');
	yquote(&q, "null", 0);
	yquote(&q, "a\"b", '"');
	CHECKSTR(q.buf, "'it''s'\"null\"\"a\\\"b\"", "quoting: single, plain refused for null, double");
	yeditsfree(&e);
	yeditadd(&e, 3, 5, "x");
	yeditadd(&e, 5, 1, "y");
	sbreset(&out);
	CHECK(yeditapply(src, strlen(src), &e, &out) < 0, "overlapping changes are refused");
	yeditsfree(&e);
	sbfree(&out);
	sbfree(&why);
	sbfree(&q);
	diagfree(&d);
	afree(&a);
}
