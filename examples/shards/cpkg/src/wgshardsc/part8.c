/* one translation unit of eight: part8(n) = 8 * n */
long part8(long n);

long part8(long n)
{
	return 8 * n;
}
