/*
 * malloc, free, realloc and calloc over a fake sbrk: random allocation
 * patterns with every block filled with its own byte and checked before
 * it is freed (so overlapping blocks are caught), alignment, reuse of
 * freed memory (the arena must stop growing), and failure when the
 * arena runs out.
 */
#include <stdlib.h>
#include <string.h>

#include "bsd.h"
#include "harness.h"

#define NSLOT	500

static unsigned char *slot[NSLOT];
static unsigned size[NSLOT];

static int
intact(int i)
{
	unsigned j;

	for (j = 0; j < size[i]; j++)
		if (slot[i][j] != (unsigned char)i)
			return 0;
	return 1;
}

static void
churn(int rounds, unsigned maxsize)
{
	int r, i, ok_fill, ok_align;
	unsigned n;
	void *p;

	ok_fill = ok_align = 1;
	for (r = 0; r < rounds; r++) {
		i = rand() % NSLOT;
		if (slot[i] != NULL) {
			if (!intact(i))
				ok_fill = 0;
			if (rand() % 3 == 0) {
				n = rand() % maxsize;
				p = bsd_realloc(slot[i], n);
				if (n == 0) {
					slot[i] = NULL;
					continue;
				}
				slot[i] = p;
				if (size[i] > n)
					size[i] = n;
				if (!intact(i))
					ok_fill = 0;
				size[i] = n;
				memset(slot[i], i & 0xff, n);
			} else {
				bsd_free(slot[i]);
				slot[i] = NULL;
			}
			continue;
		}
		n = rand() % maxsize;
		slot[i] = rand() % 4 == 0 ? bsd_calloc(1, n) : bsd_malloc(n);
		if (slot[i] == NULL) {
			ok_fill = 0;
			continue;
		}
		if (((unsigned long)slot[i] & 7) != 0)
			ok_align = 0;
		size[i] = n;
		memset(slot[i], i & 0xff, n);
	}
	CHECK(ok_fill);
	CHECK(ok_align);
}

static void
freeall(void)
{
	int i;

	for (i = 0; i < NSLOT; i++) {
		if (slot[i] != NULL) {
			CHECK(intact(i));
			bsd_free(slot[i]);
			slot[i] = NULL;
		}
	}
}

void
test_malloc(void)
{
	unsigned used;
	char *p, *q;
	int i;

	srand(2);
	churn(20000, 300);
	freeall();
	churn(5000, 20000);
	freeall();
	used = arena_used();
	/* Everything was freed and merged: the same load fits again. */
	churn(20000, 300);
	freeall();
	CHECK_INT(arena_used(), used);

	p = bsd_calloc(100, 10);
	for (i = 0; i < 1000 && p[i] == 0; i++)
		continue;
	CHECK_INT(i, 1000);
	bsd_free(p);
	bsd_free(NULL);
	p = bsd_malloc(0);
	q = bsd_malloc(0);
	CHECK(p != NULL && q != NULL && p != q);
	bsd_free(p);
	bsd_free(q);

	/* realloc keeps the contents and grows. */
	p = bsd_malloc(10);
	strcpy(p, "123456789");
	p = bsd_realloc(p, 100000);
	CHECK_STR(p, "123456789");
	bsd_free(p);
	CHECK(bsd_realloc(NULL, 5) != NULL);

	/* Out of memory is NULL with ENOMEM, not a crash. */
	CHECK(bsd_malloc(64 * 1024 * 1024) == NULL);
	CHECK_INT(bsd_errno, 12);
	CHECK(bsd_malloc(0xfffffff0U) == NULL);
	CHECK(bsd_calloc(0x10000, 0x10000) == NULL);
	CHECK(bsd_malloc(100) != NULL);
}
