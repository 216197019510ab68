/* one translation unit of eight: part3(n) = 3 * n */
long part3(long n);

long part3(long n)
{
	return 3 * n;
}
