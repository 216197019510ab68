/* one translation unit of eight: part5(n) = 5 * n */
long part5(long n);

long part5(long n)
{
	return 5 * n;
}
