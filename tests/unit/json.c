/* unit tests of json: what it takes and what it refuses, with the place */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "util.h"
#include "unit.h"

/* json.c: what it takes and what it refuses, with the place */
void
testjson(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "", "line 1, column 1: the text ends where a value should be" },
		{ "[1,]", "line 1, column 4: not a JSON value" },
		{ "{\"a\":1,\"a\":2}", "a duplicate key in an object: a" },
		{ "\"\\ud800\"", "a lone high surrogate" },
		{ "\"\\udc00\"", "a lone low surrogate" },
		{ "\"a\tb\"", "a control character in a string" },
		{ "[1] 2", "text after the JSON value" },
		{ "\"\xff\"", "bytes that are not UTF-8" },
		{ "01", "text after the JSON value" },
		{ "1.", "a number needs digits after its '.'" },
		{ "{\"a\" 1}", "':' must follow an object's key" },
		{ "{\"a\\u0000b\": 1}", "an object's key holds a NUL" },
		{ "[\"abc", "a string that never ends" },
		{ "tru", "not a JSON value" },
		{ "\n  [1,\n   x]", "line 3, column 4: not a JSON value" },
	};
	struct arena a = { 0 };
	struct sb why = SB_INIT, deep = SB_INIT;
	const struct json *v;
	long long n;
	size_t i;

	{
		const char *t = "{\"files\": [{\"filename\": \"x\\u00e9\\ud83d\\ude00\\n\", \"size\": -12, \"y\": true, "
				"\"f\": 1.5e3}], \"z\": null}";

		v = jsonparse(&a, t, strlen(t), NULL, &why);
	}
	CHECK(v && v->kind == JSON_OBJECT && v->n == 2 && !strcmp(v->k[1], "z"), "an object with its keys in order");
	v = v ? jsonget(v, "files") : NULL;
	CHECK(v && v->kind == JSON_ARRAY && v->n == 1, "an array of one");
	CHECKSTR(v ? jsonstr(jsonget(v->v[0], "filename")) : NULL, "x\xc3\xa9\xf0\x9f\x98\x80\n",
		 "escapes decoded: \\u00e9, a surrogate pair, \\n");
	CHECK(v && jsonint(jsonget(v->v[0], "size"), &n) == 0 && n == -12, "a whole number");
	CHECK(v && jsonint(jsonget(v->v[0], "f"), &n) < 0 && jsonbool(jsonget(v->v[0], "y")) == 1 &&
	      jsonbool(jsonget(v->v[0], "f")) == -1 && !jsonget(v->v[0], "nothing") && !jsonget(NULL, "x"),
	      "a fraction is no int; true; a missing key");
	v = jsonparse(&a, "\"a\\u0000b\"", 10, NULL, &why);
	CHECK(v && v->len == 3 && !jsonstr(v), "a string with a NUL has its length, and jsonstr refuses it");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		sbreset(&why);
		v = jsonparse(&a, bad[i].text, strlen(bad[i].text), NULL, &why);
		CHECK(!v && strstr(why.buf, bad[i].why), bad[i].text);
		if (v || !strstr(why.buf, bad[i].why))
			printf("  want: %s\n  got:  %s\n", bad[i].why, why.buf);
	}
	/* nesting past the limit, and too many values: refused, not a stack overflow */
	for (i = 0; i < 100000; i++)
		sbaddc(&deep, '[');
	sbreset(&why);
	CHECK(!jsonparse(&a, deep.buf, deep.len, NULL, &why) && strstr(why.buf, "nested too deep"), "100000 ['s");
	sbreset(&deep);
	sbaddc(&deep, '[');
	for (i = 0; i < 2000; i++)
		sbadd(&deep, i ? ",0" : "0");
	sbaddc(&deep, ']');
	{
		struct jsonlimits lim = { 0, 1000 };

		sbreset(&why);
		CHECK(!jsonparse(&a, deep.buf, deep.len, &lim, &why) && strstr(why.buf, "too many values"), "a value limit");
	}
	sbfree(&deep);
	sbfree(&why);
	afree(&a);
}
