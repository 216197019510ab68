/* one translation unit of eight: part1(n) = 1 * n */
long part1(long n);

long part1(long n)
{
	return 1 * n;
}
