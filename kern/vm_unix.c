/*
 * The data segment of a process: break(2) moves its end, the break, and
 * so grows or shrinks the heap that libc's brk and sbrk hand out (4.4BSD
 * vm_unix.c, obreak).  exec sets the break at the end of bss (p_brkbase,
 * where the heap starts); it may rise to the lowest address the stack
 * may grow down to.  The stack grows by itself, on a fault just below it
 * (grow_stack, kern/i386/trap.c).
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/malloc.h"
#include "kern/syscallargs.h"
#include "kern/i386/pmap.h"

/* break(addr): map or unmap whole pages between the old and new break. */
int
sys_break(struct proc *p, struct break_args *uap, int *retval)
{
	u_int32_t new = (u_int32_t)uap->nsize, old = p->p_brk, va;

	if (new < p->p_brkbase)
		return EINVAL;
	if (new > USRSTACK - MAXSSIZ)
		return ENOMEM;
	if (round_page(new) > round_page(old)) {
		for (va = round_page(old); va < round_page(new);
		    va += PAGE_SIZE) {
			if (pmap_enter(p->p_pmap, va, 1) != 0) {
				pmap_remove(p->p_pmap, round_page(old), va);
				return ENOMEM;
			}
		}
	} else if (round_page(new) < round_page(old))
		pmap_remove(p->p_pmap, round_page(new), round_page(old));
	p->p_brk = new;
	return 0;
}
