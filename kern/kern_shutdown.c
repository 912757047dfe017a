/*
 * Shutdown: reboot(2), and kern_reboot, which the boot also comes to when
 * it cannot start init.  Unless told RB_NOSYNC, every file system is
 * unmounted first (an LFS writes its checkpoint); then each disk drains
 * its queue and flushes its cache, and the machine halts, powers off or
 * resets.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/mount.h"
#include "kern/syscallargs.h"
#include "kern/dev/sd.h"
#include <sys/reboot.h>

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

/* reboot(opt): the superuser only; opt is RB_* of sys/reboot.h. */
int
sys_reboot(struct proc *p, struct reboot_args *uap, int *retval)
{
	int error;

	if ((error = suser(p)) != 0)
		return error;
	return kern_reboot(uap->opt);
}
