/*
 * rand(3): a linear congruential generator (the ISO C example's
 * constants), 31 bits of output.
 */
#include <stdlib.h>

static unsigned long next = 1;

int
rand(void)
{
	next = next * 1103515245 + 12345;
	return (int)((next >> 1) & RAND_MAX);
}

void
srand(unsigned seed)
{
	next = seed;
}
