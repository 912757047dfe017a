#include <stdio.h>

int
main(void)
{
	long long big = 1000000000000LL;

	printf("hello, world: %lld / 7 = %lld\n", big, big / 7);
	return 0;
}
