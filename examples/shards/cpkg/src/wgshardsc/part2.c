/* one translation unit of eight: part2(n) = 2 * n */
long part2(long n);

long part2(long n)
{
	return 2 * n;
}
