/* one translation unit of eight: part7(n) = 7 * n */
long part7(long n);

long part7(long n)
{
	return 7 * n;
}
