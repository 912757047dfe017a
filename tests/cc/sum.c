/* A student's first input loop: numbers from the standard input, summed. */
#include <stdio.h>

int
main(void)
{
	int n, count = 0;
	long sum = 0;
	char name[32];

	if (scanf("%31s", name) != 1)
		return 1;
	while (scanf("%d", &n) == 1) {
		sum += n;
		count++;
	}
	printf("%s: %d numbers, sum %ld\n", name, count, sum);
	return 0;
}
