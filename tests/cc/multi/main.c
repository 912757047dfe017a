#include <stdio.h>
#include "calc.h"

int
main(void)
{
	printf("add(2, 3) = %d, mul(4, 5) = %d\n", add(2, 3), mul(4, 5));
	return 0;
}
