/* unit tests of esc: escaping for ninja, the shell, HTML, JSON and Markdown */
#include "esc.h"
#include "util.h"
#include "unit.h"

void
testesc(void)
{
	struct sb s = SB_INIT;

	CHECK(escninjapath(&s, "a b:c$d") == 0, "ninja path with space colon dollar");
	CHECKSTR(s.buf, "a$ b$:c$$d", "ninja path escaping");
	sbreset(&s);
	CHECK(escninjapath(&s, "a\nb") < 0 && s.len == 0, "ninja path rejects newline");
	CHECK(escninjapath(&s, "a|b") < 0 && s.len == 0, "ninja path rejects |");
	CHECK(escninjavalue(&s, "x $y: z") == 0, "ninja value");
	CHECKSTR(s.buf, "x $$y: z", "ninja value keeps spaces and colons, doubles $");
	sbreset(&s);
	CHECK(escninjavalue(&s, "a\rb") < 0, "ninja value rejects CR");
	escshell(&s, "it's a $HOME `x` \"q\"");
	CHECKSTR(s.buf, "'it'\\''s a $HOME `x` \"q\"'", "shell single quotes");
	sbreset(&s);
	escshell(&s, "");
	CHECKSTR(s.buf, "''", "empty shell word");
	sbreset(&s);
	eschtml(&s, "<a href=\"x\">&'</a>");
	CHECKSTR(s.buf, "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;", "html escaping");
	sbreset(&s);
	escjson(&s, "q\"b\\n\n\x01\x7f<&");
	CHECKSTR(s.buf, "\"q\\\"b\\\\n\\n\\u0001\\u007f<&\"", "json escaping");
	sbreset(&s);
	escmd(&s, "a_b *c* `d` [e](f) #1 | x~y \\ <b>&amp; $HOME: 'q' \"z\"\n\tend\x7f");
	CHECKSTR(s.buf, "a\\_b \\*c\\* \\`d\\` \\[e\\](f) \\#1 \\| x\\~y \\\\ &lt;b&gt;&amp;amp; $HOME: 'q' \"z\"  end ",
		 "markdown escaping: one literal line, also in a table cell");
	sbreset(&s);
	escmd(&s, "");
	CHECK(s.len == 0, "markdown escaping of nothing");
	escmdcode(&s, "x = a\tb\r | `c` <d>\x1b[0m");
	CHECKSTR(s.buf, "x = a?b? | `c` <d>?[0m", "a markdown code line: control characters as ?");
	sbreset(&s);
	{
		/* the one depfile writer: every path escaped one way, "./" dropped, DIR before each */
		const char *deps[] = { "./a b.c", "we$ird#x.h", "tab\there" };
		struct sb bad = SB_INIT;

		CHECK(escdepfile(&s, &bad, "out/x y.o", "src dir", deps, 2) == 0, "a depfile of two");
		CHECKSTR(s.buf, "out/x\\ y.o: src\\ dir/a\\ b.c src\\ dir/we$$ird\\#x.h\n", "its text");
		sbreset(&s);
		CHECK(escdepfile(&s, &bad, "t", NULL, deps, 3) == -2, "a dep a depfile cannot hold");
		CHECKSTR(bad.buf, "tab\there", "named in bad");
		sbreset(&s);
		CHECK(escdepfile(&s, &bad, "new\nline", NULL, deps, 1) == -1, "a target a depfile cannot hold");
		sbfree(&bad);
	}
	sbfree(&s);
}
