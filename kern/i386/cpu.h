/*
 * i386 instructions as inline functions, and the trap frame that
 * locore's alltraps builds on the kernel stack.
 */
#ifndef _I386_CPU_H_
#define _I386_CPU_H_

#include <sys/types.h>
#include "kern/i386/asm.h"

struct trapframe {
	u_int32_t tf_gs, tf_fs, tf_es, tf_ds;
	u_int32_t tf_edi, tf_esi, tf_ebp, tf_oesp;	/* pushal */
	u_int32_t tf_ebx, tf_edx, tf_ecx, tf_eax;
	u_int32_t tf_trapno, tf_err;
	u_int32_t tf_eip, tf_cs, tf_eflags;		/* pushed by the CPU */
	u_int32_t tf_esp, tf_ss;			/* only from user mode */
};

#define PSL_C		0x00000001	/* carry: system call failed */
#define PSL_I		0x00000200	/* interrupts enabled */
#define PSL_USERSET	(PSL_I | 0x2)

#define T_DIVIDE	0
#define T_DEBUG		1
#define T_NMI		2
#define T_BPT		3
#define T_OFLOW		4
#define T_BOUND		5
#define T_PRIVINFLT	6
#define T_DNA		7
#define T_DOUBLEFLT	8
#define T_TSSFLT	10
#define T_SEGNPFLT	11
#define T_STKFLT	12
#define T_PROTFLT	13
#define T_PAGEFLT	14
#define T_ARITHTRAP	16
#define T_ALIGNFLT	17
#define T_MCHK		18
#define T_XMM		19
#define T_IRQ0		32
#define T_SYSCALL	128

/* a page fault's error code */
#define PGEX_P		0x01		/* present: a protection fault */
#define PGEX_W		0x02		/* a write */

#define USERMODE(tf)	(((tf)->tf_cs & 3) == SEL_UPL)

static inline u_int8_t
inb(int port)
{
	u_int8_t v;
	__asm volatile("inb %w1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u_int16_t
inw(int port)
{
	u_int16_t v;
	__asm volatile("inw %w1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline u_int32_t
inl(int port)
{
	u_int32_t v;
	__asm volatile("inl %w1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void
outb(int port, u_int8_t v)
{
	__asm volatile("outb %0, %w1" : : "a"(v), "Nd"(port));
}

static inline void
outw(int port, u_int16_t v)
{
	__asm volatile("outw %0, %w1" : : "a"(v), "Nd"(port));
}

static inline void
outl(int port, u_int32_t v)
{
	__asm volatile("outl %0, %w1" : : "a"(v), "Nd"(port));
}

static inline u_int32_t
read_eflags(void)
{
	u_int32_t f;
	__asm volatile("pushfl; popl %0" : "=r"(f));
	return f;
}

static inline void
write_eflags(u_int32_t f)
{
	__asm volatile("pushl %0; popfl" : : "r"(f) : "memory", "cc");
}

static inline void cli(void) { __asm volatile("cli" ::: "memory"); }
static inline void sti(void) { __asm volatile("sti" ::: "memory"); }
static inline void halt(void) { __asm volatile("hlt"); }

static inline u_int32_t
rcr2(void)
{
	u_int32_t v;
	__asm volatile("movl %%cr2, %0" : "=r"(v));
	return v;
}

static inline void
lcr3(u_int32_t pa)
{
	__asm volatile("movl %0, %%cr3" : : "r"(pa) : "memory");
}

static inline u_int32_t
rcr3(void)
{
	u_int32_t v;
	__asm volatile("movl %%cr3, %0" : "=r"(v));
	return v;
}

static inline void
invlpg(u_int32_t va)
{
	__asm volatile("invlpg (%0)" : : "r"(va) : "memory");
}

static inline u_int64_t
rdtsc(void)
{
	u_int64_t v;
	__asm volatile("rdtsc" : "=A"(v));
	return v;
}

/*
 * Interrupt priority, the uniprocessor way: splhigh() turns interrupts
 * off and returns the previous state, splx() restores it.  The kernel is
 * not preempted, so this is all the mutual exclusion interrupt handlers
 * and process code need (4.4BSD's splbio and friends collapse into it).
 */
static inline int
splhigh(void)
{
	int s = read_eflags() & PSL_I;
	cli();
	return s;
}

static inline void
splx(int s)
{
	if (s)
		sti();
}

#define splbio()	splhigh()
#define spltty()	splhigh()
#define splclock()	splhigh()

#endif
