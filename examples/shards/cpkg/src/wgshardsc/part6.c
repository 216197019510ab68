/* one translation unit of eight: part6(n) = 6 * n */
long part6(long n);

long part6(long n)
{
	return 6 * n;
}
