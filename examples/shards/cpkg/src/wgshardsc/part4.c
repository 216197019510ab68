/* one translation unit of eight: part4(n) = 4 * n */
long part4(long n);

long part4(long n)
{
	return 4 * n;
}
