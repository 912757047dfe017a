/*
 * main(): the kernel's first C code, called by locore with paging on.
 * It brings the machine up in dependency order: console, descriptors,
 * memory, interrupts and clock, buffer cache and VFS, devices (while
 * "cold", drivers poll), the root file system, then process 1 (init)
 * and the update daemon, and finally becomes the scheduler.
 */
#include "kern/systm.h"
#include "kern/proc.h"
#include "kern/malloc.h"
#include "kern/vm_page.h"
#include "kern/buf.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"
#include "kern/i386/pmap.h"
#include "kern/dev/pci.h"
#include "kern/dev/sd.h"
#include "kern/uio.h"
#include <sys/reboot.h>

#define MULTIBOOT_MAGIC	0x2BADB002
#define MBI_MEM		0x001
#define MBI_CMDLINE	0x004

struct multiboot_info {
	u_int32_t flags;
	u_int32_t mem_lower, mem_upper;		/* KB below 1 MB, above 1 MB */
	u_int32_t boot_device;
	u_int32_t cmdline;			/* physical address */
};

extern char end[];
int cold = 1;
u_int32_t physmem;
char kargs[256];

/* The value of "name=value" on the kernel command line, or NULL. */
const char *
getkarg(const char *name)
{
	static char val[64];
	size_t n = strlen(name);
	const char *s = kargs;

	while (*s) {
		while (*s == ' ')
			s++;
		if (strncmp(s, name, n) == 0 && s[n] == '=') {
			size_t i;

			s += n + 1;
			for (i = 0; s[i] && s[i] != ' ' && i < sizeof(val) - 1;
			    i++)
				val[i] = s[i];
			val[i] = '\0';
			return val;
		}
		while (*s && *s != ' ')
			s++;
	}
	return NULL;
}

long
getkarg_int(const char *name, long dflt)
{
	const char *v = getkarg(name);

	return v ? strtol(v, NULL, 0) : dflt;
}

static void
multiboot(u_int32_t magic, u_int32_t mbi_pa)
{
	struct multiboot_info *mbi = P2V(mbi_pa);

	if (magic != MULTIBOOT_MAGIC)
		panic("not started by a multiboot loader (magic 0x%x)", magic);
	physmem = 16 * 1024 * 1024;
	if (mbi->flags & MBI_MEM)
		physmem = (mbi->mem_upper + 1024) * 1024;
	/* Only what the 4 MB kernel mappings below 4 GB can cover. */
	if (physmem > 0x3f000000)
		physmem = 0x3f000000;
	if (mbi->flags & MBI_CMDLINE)
		strlcpy(kargs, P2V(mbi->cmdline), sizeof(kargs));
}

/*
 * Process 1 starts as a kernel process: it mounts the root, becomes a
 * user process by exec'ing /sbin/init, and leaves the kernel through
 * trapret with the trap frame exec filled in.
 */
static void
start_init(void *arg)
{
	static char *argv[] = { "init", NULL };
	static char *envp[] = { NULL };
	struct proc *p = curproc;
	int error;

	if ((error = vfs_mountroot()) != 0) {
		printf("cannot mount root (error %d); halting\n", error);
		kern_reboot(RB_HALT | RB_NOSYNC);
	}
	p->p_cdir = rootvnode;
	vref(rootvnode);
	p->p_pid = p->p_pgid = p->p_sid = 1;
	p->p_umask = 022;
	p->p_flag &= ~P_SYSTEM;
	if ((p->p_pmap = pmap_create()) == NULL)
		panic("start_init: no memory");
	pmap_activate(p->p_pmap);
	p->p_tf = (struct trapframe *)(p->p_kstack + KSTACK_SIZE) - 1;
	error = kern_execve(p, "/sbin/init", UIO_SYSSPACE, argv, envp);
	if (error != EJUSTRETURN) {
		printf("cannot exec /sbin/init (error %d); halting\n", error);
		kern_reboot(RB_HALT);
	}
	cli();
	__asm volatile("movl %0, %%esp; jmp trapret" : : "r"(p->p_tf));
	panic("start_init: trapret returned");
}

int
main(u_int32_t magic, u_int32_t mbi_pa)
{
	cninit();
	multiboot(magic, mbi_pa);
	printf("%s\n", version);
	machdep_init();
	kmem_init(V2P(end), physmem);
	vm_page_init();
	pmap_bootstrap(physmem);
	printf("real mem = %u KB, avail mem = %u KB\n", physmem / 1024,
	    kmem_free_pages() * 4);
	intr_init();
	clock_init();
	comattach();
	sti();

	bufinit();
	vfsinit();		/* after the cache: LFS sizes its limits by it */
	pci_init();
	cold = 0;

	initproc = kthread_create(start_init, NULL, "init");
	kthread_create(update_daemon, NULL, "update");
	scheduler();
}
