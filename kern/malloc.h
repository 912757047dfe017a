/*
 * Kernel memory: a physical page allocator (runs of contiguous pages,
 * addressed through the kernel's direct map) and malloc for small objects
 * in power-of-two buckets, in the style of 4.4BSD's kern_malloc.c: a
 * per-page usage record (kmemusage) says which bucket a page serves, so
 * free() needs no size.  All memory returned is physically contiguous, so
 * drivers may hand V2P(addr) to a DMA engine.
 */
#ifndef _KERN_MALLOC_H_
#define _KERN_MALLOC_H_

#include <sys/types.h>

#define PAGE_SIZE	4096
#define PAGE_SHIFT	12
#define round_page(x)	(((u_int32_t)(x) + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))
#define trunc_page(x)	((u_int32_t)(x) & ~(PAGE_SIZE - 1))

#define KMEM_RESERVE	512		/* pages (2 MB) only the kernel may take */

#define M_WAITOK	0x0000	/* sleep until memory is available */
#define M_NOWAIT	0x0001	/* return NULL instead */
#define M_ZERO		0x0100	/* zero the memory */

void	kmem_init(u_int32_t first_free_pa, u_int32_t last_pa);
void	*page_alloc(int npages, int flags);	/* contiguous; NULL if none */
void	page_free(void *va, int npages);
void	*malloc(size_t size, int flags);
void	free(void *p);
u_int32_t kmem_free_pages(void);
u_int32_t kmem_total_pages(void);

#endif
