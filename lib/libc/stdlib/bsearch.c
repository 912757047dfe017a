/*
 * bsearch(3): binary search of a sorted array.
 */
#include <stdlib.h>

void *
bsearch(const void *key, const void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *))
{
	const char *lo, *mid;
	int r;

	lo = base;
	while (n > 0) {
		mid = lo + (n / 2) * size;
		if ((r = cmp(key, mid)) == 0)
			return (void *)mid;
		if (r > 0) {
			lo = mid + size;
			n -= n / 2 + 1;
		} else
			n /= 2;
	}
	return NULL;
}
