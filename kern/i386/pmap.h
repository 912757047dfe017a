/*
 * Address spaces.  Every page directory maps the kernel the same way:
 * all of physical memory at KERNBASE with 4 MB pages, supervisor-only.
 * Below KERNBASE each process has its own 4 KB user pages, some shared
 * copy-on-write after fork (pmap.c).
 */
#ifndef _I386_PMAP_H_
#define _I386_PMAP_H_

#include <sys/types.h>

#define VM_MAXUSER_ADDRESS	0xBFC00000u	/* user space ends here */
#define USRSTACK		VM_MAXUSER_ADDRESS
#define MAXSSIZ			(8u * 1024 * 1024)	/* stack grows to this */
#define USRTEXT			0x1000u		/* page 0 stays unmapped */

struct pmap {
	u_int32_t *pm_pdir;		/* page directory (kernel VA) */
	u_int32_t pm_pdirpa;		/* its physical address, for %cr3 */
	int	pm_npages;		/* user pages mapped */
};

void	pmap_bootstrap(u_int32_t physmem);
struct pmap *pmap_create(void);
void	pmap_destroy(struct pmap *);
void	pmap_activate(struct pmap *);
int	pmap_enter(struct pmap *, u_int32_t va, int writable);	/* new zeroed page */
void	pmap_remove(struct pmap *, u_int32_t sva, u_int32_t eva);
void	*pmap_extract(struct pmap *, u_int32_t va);	/* kernel VA of the page */
int	pmap_copy(struct pmap *dst, struct pmap *src);	/* fork: share */
int	pmap_cow(struct pmap *, u_int32_t va);		/* a write: unshare */
int	pmap_copyout(struct pmap *, u_int32_t va, const void *src, u_int32_t len);
extern struct pmap kernel_pmap;

#endif
