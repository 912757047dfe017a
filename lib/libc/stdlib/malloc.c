/*
 * malloc(3): a first-fit free-list allocator over sbrk, after the one in
 * Kernighan and Ritchie (section 8.7).
 *
 * Every block starts with a header giving its size in header units (the
 * header included).  Free blocks sit on a circular list sorted by
 * address, so free() can merge a block with both neighbours.  malloc
 * takes the first block that fits, from its tail if it is bigger;
 * when nothing fits, morecore asks sbrk for at least NALLOC units more
 * and frees them into the list.  Memory is never given back to the
 * kernel.  Blocks are 8-byte aligned.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NALLOC	4096		/* header units to ask sbrk for, at least */

union header {
	struct {
		union header *next;	/* next free block */
		size_t	 size;		/* in header units */
	} s;
	long long align;
};
typedef union header Header;

static Header base;		/* a zero-size block to start the list */
static Header *freep;		/* where the last search ended */

static Header *
morecore(size_t nu)
{
	Header *up;
	char *cp;
	unsigned long misalign;

	if (nu < NALLOC)
		nu = NALLOC;
	if (nu > 0x7fffffff / sizeof(Header))
		return NULL;
	cp = sbrk(0);
	if ((misalign = (unsigned long)cp % sizeof(Header)) != 0 &&
	    sbrk(sizeof(Header) - misalign) == (void *)-1)
		return NULL;
	cp = sbrk(nu * sizeof(Header));
	if (cp == (char *)-1)
		return NULL;
	up = (Header *)cp;
	up->s.size = nu;
	free(up + 1);
	return freep;
}

void *
malloc(size_t nbytes)
{
	Header *p, *prevp;
	size_t nunits;

	if (nbytes > 0x7fffffff - 2 * sizeof(Header)) {
		errno = ENOMEM;
		return NULL;
	}
	nunits = (nbytes + sizeof(Header) - 1) / sizeof(Header) + 1;
	if ((prevp = freep) == NULL) {
		base.s.next = freep = prevp = &base;
		base.s.size = 0;
	}
	for (p = prevp->s.next;; prevp = p, p = p->s.next) {
		if (p->s.size >= nunits) {
			if (p->s.size == nunits)
				prevp->s.next = p->s.next;
			else {
				p->s.size -= nunits;
				p += p->s.size;
				p->s.size = nunits;
			}
			freep = prevp;
			return p + 1;
		}
		if (p == freep && (p = morecore(nunits)) == NULL) {
			errno = ENOMEM;
			return NULL;
		}
	}
}

void
free(void *ap)
{
	Header *bp, *p;

	if (ap == NULL)
		return;
	bp = (Header *)ap - 1;
	for (p = freep; !(bp > p && bp < p->s.next); p = p->s.next)
		if (p >= p->s.next && (bp > p || bp < p->s.next))
			break;		/* at one end of the arena */
	if (bp + bp->s.size == p->s.next) {	/* merge with the upper one */
		bp->s.size += p->s.next->s.size;
		bp->s.next = p->s.next->s.next;
	} else
		bp->s.next = p->s.next;
	if (p + p->s.size == bp) {		/* merge with the lower one */
		p->s.size += bp->s.size;
		p->s.next = bp->s.next;
	} else
		p->s.next = bp;
	freep = p;
}

void *
calloc(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > 0x7fffffff / size) {
		errno = ENOMEM;
		return NULL;
	}
	if ((p = malloc(n * size)) != NULL)
		memset(p, 0, n * size);
	return p;
}

/* Keep the block if it is big enough; otherwise move it. */
void *
realloc(void *ap, size_t nbytes)
{
	Header *bp;
	size_t have;
	void *np;

	if (ap == NULL)
		return malloc(nbytes);
	if (nbytes == 0) {
		free(ap);
		return NULL;
	}
	bp = (Header *)ap - 1;
	have = (bp->s.size - 1) * sizeof(Header);
	if (have >= nbytes)
		return ap;
	if ((np = malloc(nbytes)) == NULL)
		return NULL;
	memcpy(np, ap, have);
	free(ap);
	return np;
}
