/*
 * Integer arithmetic helpers: abs, labs, llabs, div, ldiv.
 */
#include <stdlib.h>

int
abs(int j)
{
	return j < 0 ? -j : j;
}

long
labs(long j)
{
	return j < 0 ? -j : j;
}

long long
llabs(long long j)
{
	return j < 0 ? -j : j;
}

div_t
div(int num, int denom)
{
	div_t r;

	r.quot = num / denom;
	r.rem = num % denom;
	return r;
}

ldiv_t
ldiv(long num, long denom)
{
	ldiv_t r;

	r.quot = num / denom;
	r.rem = num % denom;
	return r;
}
