/*
 * Page tables.
 *
 * The kernel half of every page directory is a copy of kernel_pmap's:
 * physical memory mapped at KERNBASE with 4 MB pages that never change
 * after boot, so copying the entries once is all the sharing needed.
 * User pages are 4 KB, allocated zeroed when mapped; fork copies them
 * (no copy-on-write: a teaching simplification that costs memory and
 * time on fork, not correctness).
 */
#include "kern/systm.h"
#include "kern/malloc.h"
#include "kern/i386/cpu.h"
#include "kern/i386/pmap.h"

#define PDX(va)		((u_int32_t)(va) >> 22)
#define PTX(va)		(((u_int32_t)(va) >> 12) & 0x3ff)
#define KPDE_FIRST	PDX(KERNBASE)

struct pmap kernel_pmap;

void
pmap_bootstrap(u_int32_t physmem)
{
	u_int32_t pa;

	kernel_pmap.pm_pdir = page_alloc(1, M_ZERO);
	kernel_pmap.pm_pdirpa = V2P(kernel_pmap.pm_pdir);
	for (pa = 0; pa < physmem && KPDE_FIRST + PDX(pa) < 1024;
	    pa += 0x400000)
		kernel_pmap.pm_pdir[KPDE_FIRST + PDX(pa)] =
		    pa | PG_P | PG_RW | PG_PS;
	lcr3(kernel_pmap.pm_pdirpa);
}

struct pmap *
pmap_create(void)
{
	struct pmap *pm = malloc(sizeof(*pm), M_NOWAIT | M_ZERO);

	if (pm == NULL)
		return NULL;
	pm->pm_pdir = page_alloc(1, M_NOWAIT | M_ZERO);
	if (pm->pm_pdir == NULL) {
		free(pm);
		return NULL;
	}
	pm->pm_pdirpa = V2P(pm->pm_pdir);
	memcpy(&pm->pm_pdir[KPDE_FIRST], &kernel_pmap.pm_pdir[KPDE_FIRST],
	    (1024 - KPDE_FIRST) * 4);
	return pm;
}

void
pmap_activate(struct pmap *pm)
{
	lcr3(pm ? pm->pm_pdirpa : kernel_pmap.pm_pdirpa);
}

/* The page-table entry for va, allocating the page table if asked. */
static u_int32_t *
pmap_pte(struct pmap *pm, u_int32_t va, int alloc)
{
	u_int32_t *pde = &pm->pm_pdir[PDX(va)], *pt;

	if (!(*pde & PG_P)) {
		if (!alloc)
			return NULL;
		pt = page_alloc(1, M_NOWAIT | M_ZERO);
		if (pt == NULL)
			return NULL;
		*pde = V2P(pt) | PG_P | PG_RW | PG_U;
	}
	pt = P2V(*pde & PG_FRAME);
	return &pt[PTX(va)];
}

/* Map a new zeroed page at va.  Returns 0 or ENOMEM. */
int
pmap_enter(struct pmap *pm, u_int32_t va, int writable)
{
	u_int32_t *pte;
	void *page;

	KASSERT(va < VM_MAXUSER_ADDRESS);
	/* User memory stops short of the kernel's reserve: ENOMEM, not a
	 * later kernel allocation that cannot be refused. */
	if (kmem_free_pages() < KMEM_RESERVE)
		return ENOMEM;
	pte = pmap_pte(pm, va, 1);
	if (pte == NULL)
		return ENOMEM;
	if (*pte & PG_P) {
		if (writable)
			*pte |= PG_RW;
		return 0;
	}
	page = page_alloc(1, M_NOWAIT | M_ZERO);
	if (page == NULL)
		return ENOMEM;
	*pte = V2P(page) | PG_P | PG_U | (writable ? PG_RW : 0);
	pm->pm_npages++;
	if (rcr3() == pm->pm_pdirpa)
		invlpg(va);
	return 0;
}

void
pmap_remove(struct pmap *pm, u_int32_t sva, u_int32_t eva)
{
	u_int32_t va, *pte;

	for (va = trunc_page(sva); va < eva && va < VM_MAXUSER_ADDRESS;
	    va += PAGE_SIZE) {
		if (!(pm->pm_pdir[PDX(va)] & PG_P)) {
			va = (va | 0x3fffff) - (PAGE_SIZE - 1);	/* next 4 MB */
			continue;
		}
		pte = pmap_pte(pm, va, 0);
		if (*pte & PG_P) {
			page_free(P2V(*pte & PG_FRAME), 1);
			*pte = 0;
			pm->pm_npages--;
			if (rcr3() == pm->pm_pdirpa)
				invlpg(va);
		}
	}
}

void *
pmap_extract(struct pmap *pm, u_int32_t va)
{
	u_int32_t *pte;

	if (va >= VM_MAXUSER_ADDRESS)
		return NULL;
	pte = pmap_pte(pm, va, 0);
	if (pte == NULL || !(*pte & PG_P))
		return NULL;
	return (char *)P2V(*pte & PG_FRAME) + (va & (PAGE_SIZE - 1));
}

/* Copy every user page of src into dst (fork).  0 or ENOMEM. */
int
pmap_copy(struct pmap *dst, struct pmap *src)
{
	u_int32_t pdx, ptx, va;

	for (pdx = 0; pdx < KPDE_FIRST; pdx++) {
		u_int32_t *pt;

		if (!(src->pm_pdir[pdx] & PG_P))
			continue;
		pt = P2V(src->pm_pdir[pdx] & PG_FRAME);
		for (ptx = 0; ptx < 1024; ptx++) {
			if (!(pt[ptx] & PG_P))
				continue;
			va = (pdx << 22) | (ptx << 12);
			if (pmap_enter(dst, va, pt[ptx] & PG_RW) != 0)
				return ENOMEM;
			memcpy(pmap_extract(dst, va), P2V(pt[ptx] & PG_FRAME),
			    PAGE_SIZE);
		}
	}
	return 0;
}

void
pmap_destroy(struct pmap *pm)
{
	u_int32_t pdx;

	if (pm == NULL)
		return;
	KASSERT(rcr3() != pm->pm_pdirpa);	/* never free the active one */
	pmap_remove(pm, 0, VM_MAXUSER_ADDRESS);
	for (pdx = 0; pdx < KPDE_FIRST; pdx++)
		if (pm->pm_pdir[pdx] & PG_P)
			page_free(P2V(pm->pm_pdir[pdx] & PG_FRAME), 1);
	page_free(pm->pm_pdir, 1);
	free(pm);
}

/* Copy into another address space's mapped pages (exec's new stack). */
void
pmap_copyout(struct pmap *pm, u_int32_t va, const void *src, u_int32_t len)
{
	const char *s = src;

	while (len > 0) {
		u_int32_t n = MIN(len, PAGE_SIZE - (va & (PAGE_SIZE - 1)));

		memcpy(pmap_extract(pm, va), s, n);
		va += n;
		s += n;
		len -= n;
	}
}
