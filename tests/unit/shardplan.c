/* unit tests of shardplan: the fit of setup and time per object, the largest part, the suggested N */
#include "shardplan.h"
#include "unit.h"

/* shardplan: the fit of setup and time per object, the binomial largest part, the suggested N */
void
testshardplan(void)
{
	/* flash-attn's production cell (issue 37): 73 objects, about 9.5 hours on a 4-processor runner */
	struct shardpoint whole[] = { { 73, 34200 } };
	/* a whole build and its 4 parts: 10 minutes of setup, 100 s an object */
	struct shardpoint pts[] = { { 40, 4600 }, { 12, 1800 }, { 8, 1400 }, { 11, 1700 }, { 9, 1500 }, { 0, 600 } };
	struct shardpoint same[] = { { 10, 1000 }, { 10, 1100 } };
	struct shardfit f;
	double l;

	/* the largest of n hash-split parts: mean + 2 sd of Binomial(total, 1/n), at most total */
	l = shardlargest(73, 4);
	CHECK(l > 25.64 && l < 25.66, "73 objects in 4 parts: 18.25 + 2 x 3.70 = 25.65");
	CHECK(shardlargest(73, 1) == 73, "one part holds every object");
	CHECK(shardlargest(1, 2) == 1, "the largest part is at most the total");
	l = shardlargest(10, 2);
	CHECK(l > 8.16 && l < 8.17, "10 objects in 2 parts: 5 + 2 x 1.58 = 8.16");

	/* setup given: the rest of the time is the objects' */
	CHECK(shardfitpoints(whole, 1, 600, &f) == 0 && !f.fitted, "a fit with the setup given");
	CHECK(f.perobject > 460.27 && f.perobject < 460.28, "(34200 - 600) / 73 s an object");
	/* 330 minutes: N = 1 takes 9.5 h; 2: 600 + 460.27 x 45.04 = 21330 s > 19800; 3: 15510 s */
	CHECK(shardsuggest(73, &f, 330 * 60) == 3, "flash-attn's cell: 3 parts of jobs within 330 minutes");
	CHECK(shardsuggest(73, &f, 300 * 60) == 3 && shardsuggest(73, &f, 240 * 60) == 4, "shorter jobs, more parts");
	CHECK(shardsuggest(73, &f, 34300) == 1, "a build that fits is one part");
	CHECK(shardsuggest(73, &f, 1000) == 0, "no N when one object takes longer than the job");
	l = shardjobsecs(73, 4, &f);
	CHECK(l > 12405 && l < 12407, "the largest of 4 parts' job: 600 + 460.27 x 25.65 s");

	/* fitted from builds of different counts (a final step that compiled 0 is pure setup) */
	CHECK(shardfitpoints(pts, 6, -1, &f) == 0 && f.fitted, "setup and rate fitted");
	CHECK(f.setup > 599 && f.setup < 601 && f.perobject > 99.9 && f.perobject < 100.1, "600 s of setup, 100 s an object");
	CHECK(shardfitpoints(same, 2, -1, &f) < 0, "one count only: setup and rate cannot be told apart");
	CHECK(shardfitpoints(pts + 5, 1, 600, &f) < 0, "nothing compiled: no rate");
	CHECK(shardfitpoints(pts, 1, 5000, &f) < 0, "a setup longer than the build: no rate");
}
