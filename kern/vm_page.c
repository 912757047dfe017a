/*
 * User pages: every page a process maps carries a reference count, the
 * number of page tables that map it.  fork shares the parent's pages with
 * the child instead of copying them (4.4BSD vm_fork's copy-on-write; the
 * write fault that ends the sharing is the pmap's, pmap_cow), so a page
 * is freed only when its last mapping goes.
 *
 * The counts live in a table indexed by physical page frame, beside the
 * allocator's bitmap (kern/kern_malloc.c) rather than in it, because only
 * user pages are counted.  A count fits 16 bits: a page is mapped at most
 * once per process.
 */
#include "kern/systm.h"
#include "kern/malloc.h"
#include "kern/proc.h"
#include "kern/uio.h"
#include "kern/vm_page.h"
#include "kern/syscallargs.h"
#include "kern/i386/cpu.h"

static u_int16_t *refs;			/* per physical frame */
struct vmstats vm_stats;

#define REFS(page)	refs[V2P(page) / PAGE_SIZE]

void
vm_page_init(void)
{
	u_int32_t n = kmem_total_pages() * sizeof(*refs);

	refs = page_alloc(round_page(n) / PAGE_SIZE, M_WAITOK | M_ZERO);
}

/*
 * A page for a process.  User memory stops short of the kernel's reserve:
 * the process sees ENOMEM, not a later kernel allocation that cannot be
 * refused.  New memory (sbrk, the stack, exec) stops VM_COPYMARGIN pages
 * earlier than copy-on-write copies (VM_COPY), so a process whose sbrk
 * just failed can still write its errno and its stack, pages it shares
 * with its parent, instead of being killed for the copy.
 */
void *
vm_page_alloc(int flags)
{
	u_int32_t limit = KMEM_RESERVE + (flags & VM_COPY ? 0 : VM_COPYMARGIN);
	void *page;

	if (kmem_free_pages() < limit ||
	    (page = page_alloc(1, M_NOWAIT | (flags & ~VM_COPY))) == NULL)
		return NULL;
	REFS(page) = 1;
	vm_stats.vm_user++;
	return page;
}

void
vm_page_ref(void *page)
{
	KASSERT(REFS(page) > 0 && REFS(page) < NPROC);
	if (++REFS(page) == 2)
		vm_stats.vm_shared++;
}

void
vm_page_unref(void *page)
{
	KASSERT(REFS(page) > 0);
	switch (--REFS(page)) {
	case 0:
		/*
		 * Wiped before the kernel reuses it: no process's data
		 * outlives it, and under QEMU's TCG a page that held code
		 * keeps its translations until its bytes are overwritten,
		 * which sends every store to it down a slow path (kernel data
		 * on such a page made tpcb 5 times slower; git log this file).
		 */
		memset(page, 0, PAGE_SIZE);
		page_free(page, 1);
		vm_stats.vm_user--;
		break;
	case 1:
		vm_stats.vm_shared--;
		break;
	}
}

int
vm_page_shared(void *page)
{
	return REFS(page) > 1;
}

/* vmstats(buf): the user memory counters (sys/vmstats.h). */
int
sys_vmstats(struct proc *p, struct vmstats_args *uap, int *retval)
{
	struct vmstats vs = vm_stats;

	vs.vm_total = kmem_total_pages();
	vs.vm_free = kmem_free_pages();
	return copyout(&vs, uap->buf, sizeof(vs));
}
