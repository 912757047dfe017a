/*
 * The data segment (break), reboot, and the statistics calls.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/buf.h"
#include "kern/mount.h"
#include "kern/syscallargs.h"
#include "kern/i386/pmap.h"
#include "kern/malloc.h"
#include "kern/dev/sd.h"
#include <sys/reboot.h>

/* break(addr): move the end of the data segment; the heap grows up. */
int
sys_break(struct proc *p, struct break_args *uap, int *retval)
{
	u_int32_t new = (u_int32_t)uap->nsize, old = p->p_brk, va;

	(void)retval;
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

int
kern_reboot(int howto)
{
	if (!(howto & RB_NOSYNC)) {
		printf("syncing disks... ");
		vfs_unmountall();
		printf("done\n");
	}
	sdsync_all();
	if (howto & RB_HALT) {
		if ((howto & RB_POWERDOWN) == RB_POWERDOWN) {
			printf("powering off\n");
			cpu_powerdown();
		}
		printf("halted\n");
		for (;;)
			__asm volatile("cli; hlt");
	}
	printf("rebooting\n");
	cpu_reset();
}

int
sys_reboot(struct proc *p, struct reboot_args *uap, int *retval)
{
	int error;

	(void)retval;
	if ((error = suser(p)) != 0)
		return error;
	return kern_reboot(uap->opt);
}

int
sys_sync(struct proc *p, void *uap, int *retval)
{
	(void)p, (void)uap, (void)retval;
	sys_sync_all();
	return 0;
}

int
sys_bufstats(struct proc *p, struct bufstats_args *uap, int *retval)
{
	(void)p, (void)retval;
	return vfs_bufstats(uap->buf);
}
