/* shardplan: which N for a cell's shards (see shardplan.h). */
#include "shardplan.h"

/* the square root of x >= 0 by Newton's method (no libm for one call) */
static double
root(double x)
{
	double r = x > 1 ? x : 1;
	int i;

	if (x <= 0)
		return 0;
	for (i = 0; i < 200 && r * r - x > 1e-12 * x; i++)
		r = (r + x / r) / 2;
	return r;
}

int
shardfitpoints(const struct shardpoint *p, size_t n, double setup, struct shardfit *f)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		double x = (double)p[i].compiled, y = (double)p[i].secs;

		if (p[i].compiled < 0 || p[i].secs < 0)
			continue;
		sx += x, sy += y, sxx += x * x, sxy += x * y, m++;
	}
	if (sx <= 0)
		return SHARDFIT_NOTHING;
	f->fitted = setup < 0;
	if (setup < 0) {
		double d = m * sxx - sx * sx;

		/* (no spread in the counts: setup and the rate cannot be told apart) */
		if (m < 2 || d <= 1e-9 * sxx * m)
			return SHARDFIT_ONECOUNT;
		f->perobject = (m * sxy - sx * sy) / d;
		f->setup = (sy - f->perobject * sx) / m;
		if (f->setup < 0) {
			f->setup = 0;
			f->perobject = sxy / sxx;
		}
	} else {
		f->setup = setup;
		f->perobject = (sy - m * setup) / sx;
	}
	return f->perobject > 0 ? 0 : SHARDFIT_NOTIME;
}

double
shardlargest(long long total, long n)
{
	double t = (double)total, q = 1.0 / (double)n, l;

	if (n <= 1)
		return t;
	l = t * q + 2 * root(t * q * (1 - q));
	return l < t ? l : t;
}

double
shardjobsecs(long long total, long n, const struct shardfit *f)
{
	return f->setup + f->perobject * shardlargest(total, n);
}

long
shardsuggest(long long total, const struct shardfit *f, double target)
{
	long n;

	for (n = 1; n <= SHARDS_MAX; n++) {
		if (shardjobsecs(total, n, f) <= target)
			return n;
	}
	return 0;
}
