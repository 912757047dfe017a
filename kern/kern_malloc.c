/*
 * Kernel memory allocator.
 *
 * Pages: a bitmap over physical memory, one bit per page (1 = in use);
 * page_alloc(n) takes the first run of n free pages, so every allocation
 * is physically contiguous.  Small objects: malloc() rounds the size up to
 * a power of two from 16 bytes to half a page and takes an object from
 * that bucket's free list, filling the list a page at a time.  kmemusage
 * records, per page, the bucket it was cut into or the length of the page
 * run it starts, so free() needs no size (4.4BSD kern_malloc.c).
 */
#include "kern/systm.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "kern/i386/cpu.h"

#define MINBUCKET	4		/* 16 bytes */
#define MAXBUCKET	11		/* 2048 bytes */

struct kmemusage {
	u_int16_t ku_indx;		/* bucket, or 0 for a page run */
	u_int16_t ku_pagecnt;		/* pages in the run it starts */
};

struct freeobj {
	struct freeobj *next;
};

static u_int32_t *pagemap;		/* 1 bit per physical page */
static struct kmemusage *kmemusage;
static u_int32_t npages, nfree, hint;
static struct freeobj *buckets[MAXBUCKET + 1];

#define PM_ISSET(i)	(pagemap[(i) >> 5] & (1u << ((i) & 31)))
#define PM_SET(i)	(pagemap[(i) >> 5] |= (1u << ((i) & 31)))
#define PM_CLR(i)	(pagemap[(i) >> 5] &= ~(1u << ((i) & 31)))

/*
 * Called with the first physical address past the kernel image and the
 * end of RAM.  The maps themselves are carved from the start of free
 * memory; everything below is marked in use.
 */
void
kmem_init(u_int32_t first_pa, u_int32_t last_pa)
{
	u_int32_t i, mapbytes, usebytes, first;

	npages = last_pa / PAGE_SIZE;
	mapbytes = round_page((npages + 31) / 32 * 4);
	usebytes = round_page(npages * sizeof(struct kmemusage));
	first_pa = round_page(first_pa);
	pagemap = P2V(first_pa);
	kmemusage = P2V(first_pa + mapbytes);
	memset(pagemap, 0, mapbytes);
	memset(kmemusage, 0, usebytes);
	first = (first_pa + mapbytes + usebytes) / PAGE_SIZE;
	for (i = 0; i < first; i++)
		PM_SET(i);
	nfree = npages - first;
	hint = first;
}

void *
page_alloc(int n, int flags)
{
	u_int32_t i, run = 0, start = 0, pass;
	int s;
	void *va;

	s = splhigh();
	for (pass = 0; pass < 2; pass++) {
		u_int32_t from = pass == 0 ? hint : 0;
		u_int32_t to = pass == 0 ? npages : hint + n;

		run = 0;
		for (i = from; i < to && i < npages; i++) {
			if (PM_ISSET(i)) {
				run = 0;
				continue;
			}
			if (run++ == 0)
				start = i;
			if (run == (u_int32_t)n)
				goto found;
		}
	}
	splx(s);
	if (!(flags & M_NOWAIT))
		panic("page_alloc: out of memory (%d pages wanted, %u free)",
		    n, nfree);
	return NULL;
found:
	for (i = start; i < start + n; i++)
		PM_SET(i);
	nfree -= n;
	if (n == 1)
		hint = start + 1;
	kmemusage[start].ku_indx = 0;
	kmemusage[start].ku_pagecnt = n;
	splx(s);
	va = P2V(start * PAGE_SIZE);
	if (flags & M_ZERO)
		memset(va, 0, n * PAGE_SIZE);
	return va;
}

void
page_free(void *va, int n)
{
	u_int32_t i, first = V2P(va) / PAGE_SIZE;
	int s = splhigh();

	for (i = first; i < first + n; i++) {
		if (!PM_ISSET(i))
			panic("page_free: page %u already free", i);
		PM_CLR(i);
	}
	nfree += n;
	if (first < hint)
		hint = first;
	splx(s);
}

static int
bucket_of(size_t size)
{
	int b = MINBUCKET;

	while ((1u << b) < size)
		b++;
	return b;
}

void *
malloc(size_t size, int flags)
{
	struct freeobj *o;
	void *p;
	int b, s;

	if (size > (1u << MAXBUCKET)) {
		int n = round_page(size) / PAGE_SIZE;
		return page_alloc(n, flags);
	}
	b = bucket_of(size);
	s = splhigh();
	if (buckets[b] == NULL) {
		char *page = page_alloc(1, flags);
		u_int32_t off;

		if (page == NULL) {
			splx(s);
			return NULL;
		}
		kmemusage[V2P(page) / PAGE_SIZE].ku_indx = b;
		for (off = 0; off < PAGE_SIZE; off += 1u << b) {
			o = (struct freeobj *)(page + off);
			o->next = buckets[b];
			buckets[b] = o;
		}
	}
	o = buckets[b];
	buckets[b] = o->next;
	splx(s);
	p = o;
	if (flags & M_ZERO)
		memset(p, 0, 1u << b);
	return p;
}

void
free(void *p)
{
	struct kmemusage *ku;
	struct freeobj *o = p;
	int s;

	if (p == NULL)
		return;
	ku = &kmemusage[V2P(p) / PAGE_SIZE];
	if (ku->ku_indx == 0) {
		page_free(p, ku->ku_pagecnt);
		return;
	}
	s = splhigh();
	o->next = buckets[ku->ku_indx];
	buckets[ku->ku_indx] = o;
	splx(s);
}

u_int32_t
kmem_free_pages(void)
{
	return nfree;
}

u_int32_t
kmem_total_pages(void)
{
	return npages;
}
