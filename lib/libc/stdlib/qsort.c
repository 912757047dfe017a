/*
 * qsort(3): quicksort with a median-of-three pivot, recursing into the
 * smaller part and looping on the larger (so the stack stays O(log n)),
 * and insertion sort for short runs.  Elements are swapped byte by byte;
 * the sort is not stable.
 */
#include <stdlib.h>

#define SHORT	7	/* runs this short are insertion sorted */

typedef int (*cmp_t)(const void *, const void *);

static void
swap(char *a, char *b, size_t size)
{
	char t;

	while (size-- > 0) {
		t = *a;
		*a++ = *b;
		*b++ = t;
	}
}

static char *
med3(char *a, char *b, char *c, cmp_t cmp)
{
	if (cmp(a, b) < 0)
		return cmp(b, c) < 0 ? b : (cmp(a, c) < 0 ? c : a);
	return cmp(b, c) > 0 ? b : (cmp(a, c) < 0 ? a : c);
}

static void
sort(char *a, size_t n, size_t size, cmp_t cmp)
{
	char *lo, *hi, *p, *q;
	size_t nl, nr;

	while (n > SHORT) {
		/* Move the pivot to a[0], then partition a[1..n-1]. */
		swap(a, med3(a, a + n / 2 * size, a + (n - 1) * size, cmp),
		    size);
		lo = a + size;
		hi = a + (n - 1) * size;
		for (;;) {
			while (lo <= hi && cmp(lo, a) < 0)
				lo += size;
			while (lo <= hi && cmp(hi, a) > 0)
				hi -= size;
			if (lo >= hi)
				break;
			swap(lo, hi, size);
			lo += size;
			hi -= size;
		}
		/* hi is the last element <= pivot; put the pivot there. */
		swap(a, hi, size);
		nl = (hi - a) / size;
		nr = n - nl - 1;
		if (nl < nr) {
			sort(a, nl, size, cmp);
			a = hi + size;
			n = nr;
		} else {
			sort(hi + size, nr, size, cmp);
			n = nl;
		}
	}
	for (p = a + size; p < a + n * size; p += size)
		for (q = p; q > a && cmp(q - size, q) > 0; q -= size)
			swap(q, q - size, size);
}

void
qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1 && size > 0)
		sort(base, n, size, cmp);
}
