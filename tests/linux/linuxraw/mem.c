/*
 * linuxraw: the address space: set_thread_area's segments and mprotect.
 */
#include "linuxraw.h"

static char page[4096] __attribute__((aligned(4096)));

/* --- set_thread_area ----------------------------------------------------- */

static long
sta(unsigned entry, unsigned base, unsigned limit, unsigned flags)
{
	struct user_desc ud = { entry, base, limit, flags };

	return sys(NR_set_thread_area, (long)&ud, 0, 0, 0, 0);
}

/*
 * set_thread_area in a child, so that a segment the kernel wrongly takes
 * is a FAILED line and not this process's broken %gs: its answer, as 0 or
 * -errno (-255: another answer).
 */
static int
c_sta(void *arg)
{
	const struct user_desc *u = arg;
	long r = sta(u->entry_number, u->base_addr, u->limit, u->flags);

	return r == 0 ? 0 : r < 0 && r > -255 ? -r : 255;
}

static long
sta_child(unsigned entry, unsigned base, unsigned limit, unsigned flags)
{
	struct user_desc ud = { entry, base, limit, flags };
	int st = inchild(c_sta, &ud);

	if (st == -1 || !WIFEXITED(st))
		return -1000;
	return -(long)WEXITSTATUS(st);
}

/* A segment of the 4 KB at arg, then %gs:0 must read its first word. */
static int
c_small_segment(void *arg)
{
	unsigned *w = arg;

	if (sta(TLS_ENTRY, (unsigned)w, 0xfff, UD_SEG32) != 0)
		return 1;
	return gs0() == w[0] ? 0 : 2;
}

/* Clear the slot %gs holds, then use %gs: the process is signalled, the
 * kernel lives. */
static int
c_clear_then_use(void *arg)
{
	(void)arg;
	if (sta(TLS_ENTRY, 0, 0, UD_RDONLY | UD_NOTPRESENT) != 0)
		return 1;
	return gs0() == 0 ? 2 : 3;	/* not reached */
}

void
t_tls(void)
{
	unsigned tcb = gs0();
	struct user_desc ud;
	int st;

	expect("set_thread_area, base at the kernel: EINVAL",
	    sta_child(TLS_ENTRY, KERNADDR, 0xfff, UD_SEG32), -EINVAL);
	expect("set_thread_area, 8 KB from the last user page: EINVAL",
	    sta_child(TLS_ENTRY, USEREND - 4096, 0x1fff, UD_SEG32), -EINVAL);
	expect("set_thread_area, 257 pages from 1 MB below the end: EINVAL",
	    sta_child(TLS_ENTRY, USEREND - 0x100000, 0x100,
	    UD_SEG32 | UD_PAGES), -EINVAL);
	expect("set_thread_area, 4 GB from a kernel base: EINVAL",
	    sta_child(TLS_ENTRY, 0xfffff000u, 0xfffff, UD_SEG32 | UD_PAGES),
	    -EINVAL);
	expect("set_thread_area, a segment not present: EINVAL",
	    sta_child(TLS_ENTRY, (unsigned)page, 0xfff,
	    UD_SEG32 | UD_NOTPRESENT), -EINVAL);
	expect("set_thread_area, another GDT slot: EINVAL",
	    sta_child(12, (unsigned)page, 0xfff, UD_SEG32), -EINVAL);
	expect("set_thread_area, the descriptor at a kernel address: EFAULT",
	    sys(NR_set_thread_area, KERNADDR, 0, 0, 0, 0), -EFAULT);

	expect("child: a segment ending at the last user byte: 0",
	    sta_child(TLS_ENTRY, USEREND - 4096, 0xfff, UD_SEG32), 0);
	expect("child: clearing the slot %gs holds, then back to user mode: 0",
	    sta_child(TLS_ENTRY, 0, 0, UD_RDONLY | UD_NOTPRESENT), 0);
	expect("child: clearing it with an all-zero descriptor: 0",
	    sta_child(TLS_ENTRY, 0, 0, 0), 0);
	page[0] = 'L';
	st = inchild(c_small_segment, page);
	check("child: a 4 KB segment in user space, %gs:0 reads it",
	    st == 0, st);
	st = inchild(c_clear_then_use, NULL);
	check("child: a %gs access after clearing: a signal, not a panic",
	    st != -1 && WIFSIGNALED(st), st);

	ud = (struct user_desc){ -1, tcb, 0xfffff,
	    UD_SEG32 | UD_PAGES | UD_USEABLE };
	expect("set_thread_area, glibc's own (4 GB from the TCB) again: 0",
	    sys(NR_set_thread_area, (long)&ud, 0, 0, 0, 0), 0);
	check("... in slot 6, and %gs:0 still the TCB",
	    ud.entry_number == TLS_ENTRY && gs0() == tcb, gs0());
}

/* --- mprotect ------------------------------------------------------------ */

void
t_mprotect(void)
{
	expect("mprotect of a kernel page: ENOMEM",
	    sys(NR_mprotect, KERNADDR, 4096, PROT_READ, 0, 0), -ENOMEM);
	expect("mprotect of 8 KB from the last user page: ENOMEM",
	    sys(NR_mprotect, USEREND - 4096, 8192, PROT_READ, 0, 0), -ENOMEM);
	expect("mprotect of a range that wraps past 4 GB: ENOMEM",
	    sys(NR_mprotect, 0xfffff000u, 8192, PROT_READ, 0, 0), -ENOMEM);
	expect("mprotect of an unmapped user page: ENOMEM",
	    sys(NR_mprotect, 0x40000000, 4096, PROT_READ, 0, 0), -ENOMEM);
	expect("mprotect of an unaligned address: EINVAL",
	    sys(NR_mprotect, (long)page + 1, 4096, PROT_READ, 0, 0), -EINVAL);
	expect("mprotect with an unknown protection bit: EINVAL",
	    sys(NR_mprotect, (long)page, 4096, 0x100, 0, 0), -EINVAL);
	expect("mprotect of nothing (length 0) at a kernel address: 0",
	    sys(NR_mprotect, KERNADDR, 0, PROT_READ, 0, 0), 0);
	expect("mprotect of the program's own data page: 0",
	    sys(NR_mprotect, (long)page, 4096, PROT_READ | PROT_WRITE, 0, 0),
	    0);
	page[1] = 'w';
	check("... which is still writable", page[1] == 'w', 0);
}
