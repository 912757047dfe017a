/*
 * Page tables.
 *
 * The kernel half of every page directory is a copy of kernel_pmap's:
 * physical memory mapped at KERNBASE with 4 MB pages that never change
 * after boot, so copying the entries once is all the sharing needed.
 * User pages are 4 KB, allocated zeroed when mapped; kern/vm_page.c
 * counts the page tables that map each one.
 *
 * Copy-on-write (4.4BSD vm_fork): fork maps each of the parent's pages
 * in the child as well, a writable one read-only in both and marked
 * PG_COW.  The first write to it faults, and pmap_cow gives the writer a
 * copy of its own, or the page itself back writable if no other mapping
 * is left.  CR0.WP (locore.S) makes the kernel's copyout fault like a
 * user write; pmap_copyout, which writes through the kernel's map and so
 * past the protection, breaks the sharing itself.
 */
#include "kern/systm.h"
#include "kern/malloc.h"
#include "kern/vm_page.h"
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
		/* A page table is user memory too: never from the reserve. */
		if (!alloc || kmem_free_pages() < KMEM_RESERVE)
			return NULL;
		pt = page_alloc(1, M_NOWAIT | M_ZERO);
		if (pt == NULL)
			return NULL;
		*pde = V2P(pt) | PG_P | PG_RW | PG_U;
	}
	pt = P2V(*pde & PG_FRAME);
	return &pt[PTX(va)];
}

/* Forget a stale translation of va, if pm is the space in use. */
static void
pmap_invalidate(struct pmap *pm, u_int32_t va)
{
	if (rcr3() == pm->pm_pdirpa)
		invlpg(va);
}

/*
 * Make the mapped page at va writable by pm alone: a copy if another page
 * table maps it too, the page itself if not.  0 or ENOMEM.
 */
static int
pmap_unshare(struct pmap *pm, u_int32_t va, u_int32_t *pte)
{
	/* LAB(cow) begin */
	void *page = P2V(*pte & PG_FRAME), *copy;

	if (vm_page_shared(page)) {
		if ((copy = vm_page_alloc(VM_COPY)) == NULL)
			return ENOMEM;
		memcpy(copy, page, PAGE_SIZE);
		vm_page_unref(page);
		*pte = V2P(copy) | (*pte & ~PG_FRAME);
	}
	*pte = (*pte | PG_RW) & ~PG_COW;
	/* LAB(cow) end, stub:
	 *	*pte |= PG_RW;
	 */
	pmap_invalidate(pm, va);
	return 0;
}

/*
 * Map a new zeroed page at va, or make the page there writable (exec's
 * segments may share a page).  0 or ENOMEM.
 */
int
pmap_enter(struct pmap *pm, u_int32_t va, int writable)
{
	u_int32_t *pte;
	void *page;

	KASSERT(va < VM_MAXUSER_ADDRESS);
	pte = pmap_pte(pm, va, 1);
	if (pte == NULL)
		return ENOMEM;
	if (*pte & PG_P) {
		if (writable && !(*pte & PG_RW))
			return pmap_unshare(pm, va, pte);
		return 0;
	}
	if ((page = vm_page_alloc(M_ZERO)) == NULL)
		return ENOMEM;
	*pte = V2P(page) | PG_P | PG_U | (writable ? PG_RW : 0);
	pm->pm_npages++;
	pmap_invalidate(pm, va);
	return 0;
}

/*
 * A write to the page at va: if it is copy-on-write, make it pm's own
 * and writable.  0 if the page is writable now; EFAULT if it is not
 * mapped or read-only for good; ENOMEM if there is no page for the copy.
 */
int
pmap_cow(struct pmap *pm, u_int32_t va)
{
	/* LAB(cow) begin */
	u_int32_t *pte;
	int shared, error;

	if (va >= VM_MAXUSER_ADDRESS || (pte = pmap_pte(pm, va, 0)) == NULL ||
	    !(*pte & PG_P))
		return EFAULT;
	if (*pte & PG_RW)
		return 0;
	if (!(*pte & PG_COW))
		return EFAULT;
	shared = vm_page_shared(P2V(*pte & PG_FRAME));
	if ((error = pmap_unshare(pm, va, pte)) != 0)
		return error;
	if (shared)
		vm_stats.vm_cow_copies++;
	else
		vm_stats.vm_cow_reuses++;
	return 0;
	/* LAB(cow) end, stub:
	 *	u_int32_t *pte;
	 *
	 *	if (va >= VM_MAXUSER_ADDRESS ||
	 *	    (pte = pmap_pte(pm, va, 0)) == NULL || !(*pte & PG_P))
	 *		return EFAULT;
	 *	return *pte & PG_RW ? 0 : EFAULT;
	 */
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
			vm_page_unref(P2V(*pte & PG_FRAME));
			*pte = 0;
			pm->pm_npages--;
			pmap_invalidate(pm, va);
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

/*
 * fork: map every user page of src in dst as well.  A writable page
 * becomes read-only and PG_COW in both, so that the first write to it,
 * by either, copies it (pmap_cow).  0 or ENOMEM; dst then maps what it
 * got, for pmap_destroy.
 */
int
pmap_copy(struct pmap *dst, struct pmap *src)
{
	/* LAB(cow) begin */
	u_int32_t pdx, ptx, *spt, *dpt;
	int error = 0;

	for (pdx = 0; pdx < KPDE_FIRST; pdx++) {
		if (!(src->pm_pdir[pdx] & PG_P))
			continue;
		if ((dpt = pmap_pte(dst, pdx << 22, 1)) == NULL) {
			error = ENOMEM;
			break;
		}
		spt = P2V(src->pm_pdir[pdx] & PG_FRAME);
		for (ptx = 0; ptx < 1024; ptx++) {
			if (!(spt[ptx] & PG_P))
				continue;
			if (spt[ptx] & PG_RW)
				spt[ptx] = (spt[ptx] & ~PG_RW) | PG_COW;
			dpt[ptx] = spt[ptx];
			vm_page_ref(P2V(spt[ptx] & PG_FRAME));
			dst->pm_npages++;
		}
	}
	/* Whatever happened, src's writable translations must go. */
	if (rcr3() == src->pm_pdirpa)
		lcr3(src->pm_pdirpa);
	return error;
	/* LAB(cow) end, stub:
	 *	u_int32_t pdx, ptx, va, *spt;
	 *	int error = 0;
	 *
	 *	for (pdx = 0; pdx < KPDE_FIRST && error == 0; pdx++) {
	 *		if (!(src->pm_pdir[pdx] & PG_P))
	 *			continue;
	 *		spt = P2V(src->pm_pdir[pdx] & PG_FRAME);
	 *		for (ptx = 0; ptx < 1024 && error == 0; ptx++) {
	 *			if (!(spt[ptx] & PG_P))
	 *				continue;
	 *			va = pdx << 22 | ptx << 12;
	 *			error = pmap_enter(dst, va, spt[ptx] & PG_RW);
	 *			if (error == 0)
	 *				memcpy(pmap_extract(dst, va),
	 *				    P2V(spt[ptx] & PG_FRAME), PAGE_SIZE);
	 *		}
	 *	}
	 *	return error;
	 */
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

/*
 * Copy into another address space (exec's new stack, a Linux child's
 * thread id).  The copy goes through the kernel's map of the pages, past
 * the page tables' protection, so a page still shared after fork is
 * made pm's own first.  0, EFAULT or ENOMEM.
 */
int
pmap_copyout(struct pmap *pm, u_int32_t va, const void *src, u_int32_t len)
{
	const char *s = src;
	int error;

	while (len > 0) {
		u_int32_t n = MIN(len, PAGE_SIZE - (va & (PAGE_SIZE - 1)));

		if ((error = pmap_cow(pm, va)) != 0)
			return error;
		memcpy(pmap_extract(pm, va), s, n);
		va += n;
		s += n;
		len -= n;
	}
	return 0;
}
