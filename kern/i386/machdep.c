/*
 * Machine setup: the segment descriptors (GDT), the task state segment
 * that gives the CPU the kernel stack on a trap from user mode, and the
 * interrupt descriptor table pointing at locore's vectors.  Segments are
 * flat (base 0, limit 4 GB); protection comes from paging.  One more slot,
 * GUTLS_SEL, holds the running process's thread-local storage segment
 * (a Linux program's set_thread_area, compat/linux); the scheduler
 * writes it for each process it runs, as it does the FPU registers.
 */
#include "kern/systm.h"
#include "kern/i386/cpu.h"
#include "kern/i386/machdep.h"

struct segdesc {
	u_int16_t limit_lo, base_lo;
	u_int8_t  base_mid, access, limit_hi_flags, base_hi;
} __attribute__((packed));

struct gatedesc {
	u_int16_t off_lo, sel;
	u_int8_t  zero, type;
	u_int16_t off_hi;
} __attribute__((packed));

struct tss {
	u_int32_t link, esp0, ss0, esp1, ss1, esp2, ss2, cr3, eip, eflags;
	u_int32_t eax, ecx, edx, ebx, esp, ebp, esi, edi;
	u_int32_t es, cs, ss, ds, fs, gs, ldt;
	u_int16_t trap, iomap;
} __attribute__((packed));

struct descptr {
	u_int16_t limit;
	u_int32_t base;
} __attribute__((packed));

static struct segdesc gdt[NGDT];
static struct gatedesc idt[256];
static struct tss tss;
static u_int8_t fpu_initial[FPU_SAVE_SIZE] __attribute__((aligned(16)));

static void fpu_init(void);

static void
setseg(int sel, u_int32_t base, u_int32_t limit, int access, int flags)
{
	struct segdesc *d = &gdt[sel];

	d->limit_lo = limit & 0xffff;
	d->base_lo = base & 0xffff;
	d->base_mid = (base >> 16) & 0xff;
	d->access = access;
	d->limit_hi_flags = ((limit >> 16) & 0xf) | (flags << 4);
	d->base_hi = base >> 24;
}

static void
setgate(int n, void (*fn)(void), int dpl)
{
	u_int32_t off = (u_int32_t)fn;

	idt[n].off_lo = off & 0xffff;
	idt[n].sel = GSEL_KCODE;
	idt[n].zero = 0;
	idt[n].type = 0x8e | (dpl << 5);	/* 32-bit interrupt gate */
	idt[n].off_hi = off >> 16;
}

#define V(n) extern void Xtrap##n(void)
V(0); V(1); V(2); V(3); V(4); V(5); V(6); V(7); V(8); V(9); V(10); V(11);
V(12); V(13); V(14); V(15); V(16); V(17); V(18); V(19); V(32); V(33);
V(34); V(35); V(36); V(37); V(38); V(39); V(40); V(41); V(42); V(43);
V(44); V(45); V(46); V(47); V(128);
#undef V

static void (*const vectors[])(void) = {
	Xtrap0, Xtrap1, Xtrap2, Xtrap3, Xtrap4, Xtrap5, Xtrap6, Xtrap7,
	Xtrap8, Xtrap9, Xtrap10, Xtrap11, Xtrap12, Xtrap13, Xtrap14, Xtrap15,
	Xtrap16, Xtrap17, Xtrap18, Xtrap19,
};
static void (*const irqvectors[])(void) = {
	Xtrap32, Xtrap33, Xtrap34, Xtrap35, Xtrap36, Xtrap37, Xtrap38,
	Xtrap39, Xtrap40, Xtrap41, Xtrap42, Xtrap43, Xtrap44, Xtrap45,
	Xtrap46, Xtrap47,
};

void
machdep_init(void)
{
	struct descptr dp;
	u_int32_t i;

	setseg(GCODE_SEL, 0, 0xfffff, 0x9a, 0xc);	/* ring 0 code */
	setseg(GDATA_SEL, 0, 0xfffff, 0x92, 0xc);	/* ring 0 data */
	setseg(GUCODE_SEL, 0, 0xfffff, 0xfa, 0xc);	/* ring 3 code */
	setseg(GUDATA_SEL, 0, 0xfffff, 0xf2, 0xc);	/* ring 3 data */
	setseg(GTSS_SEL, (u_int32_t)&tss, sizeof(tss) - 1, 0x89, 0x0);
	tss.ss0 = GSEL_KDATA;
	tss.iomap = sizeof(tss);			/* no I/O bitmap */

	dp.limit = sizeof(gdt) - 1;
	dp.base = (u_int32_t)gdt;
	__asm volatile("lgdt %0" : : "m"(dp));
	__asm volatile(
	    "ljmp %0, $1f\n1:\n"
	    "movw %w1, %%ax; movw %%ax, %%ds; movw %%ax, %%es;"
	    "movw %%ax, %%ss; movw %%ax, %%fs; movw %%ax, %%gs"
	    : : "i"(GSEL_KCODE), "r"(GSEL_KDATA) : "eax");
	__asm volatile("ltr %w0" : : "r"(GSEL_TSS));

	for (i = 0; i < nitems(vectors); i++)
		setgate(i, vectors[i], SEL_KPL);
	setgate(T_BPT, vectors[T_BPT], SEL_UPL);	/* int3 from user */
	for (i = 0; i < nitems(irqvectors); i++)
		setgate(T_IRQ0 + i, irqvectors[i], SEL_KPL);
	setgate(T_SYSCALL, Xtrap128, SEL_UPL);
	dp.limit = sizeof(idt) - 1;
	dp.base = (u_int32_t)idt;
	__asm volatile("lidt %0" : : "m"(dp));
	fpu_init();
}

/*
 * The FPU and SSE units: on, with fxsave/fxrstor, and the registers of a
 * new program saved as the image every process starts from (x87 control
 * word 0x37f and MXCSR 0x1f80: all exceptions masked).  glibc's string
 * functions use SSE2, so a Linux program needs them, and each process
 * keeps its own registers.
 */
static void
fpu_init(void)
{
	u_int32_t cr0, cr4, mxcsr = 0x1f80;

	__asm volatile("movl %%cr0, %0" : "=r"(cr0));
	cr0 = (cr0 & ~(CR0_EM | CR0_TS)) | CR0_MP;
	__asm volatile("movl %0, %%cr0" : : "r"(cr0));
	__asm volatile("movl %%cr4, %0" : "=r"(cr4));
	cr4 |= CR4_OSFXSR | CR4_OSXMMEXCPT;
	__asm volatile("movl %0, %%cr4" : : "r"(cr4));
	__asm volatile("fninit; ldmxcsr %0" : : "m"(mxcsr));
	fpu_save(fpu_initial);
}

void
fpu_clean(u_int8_t *area)
{
	memcpy(area, fpu_initial, FPU_SAVE_SIZE);
}

void
fpu_save(u_int8_t *area)
{
	__asm volatile("fxsave %0" : "=m"(*(u_int8_t (*)[FPU_SAVE_SIZE])area));
}

void
fpu_restore(const u_int8_t *area)
{
	__asm volatile("fxrstor %0" : : "m"(*(const u_int8_t (*)[FPU_SAVE_SIZE])area));
}

/*
 * Install a process's TLS segment descriptor (two zero words: none).
 * %gs caches a descriptor when it is loaded, so the new one takes effect
 * when the process's %gs is reloaded from its trap frame on the way back
 * to user mode.
 */
void
set_user_tls(const u_int32_t desc[2])
{
	memcpy(&gdt[GUTLS_SEL], desc, sizeof(gdt[GUTLS_SEL]));
}

/* The CPU switches to this stack on a trap from user mode. */
void
set_kstack(u_int32_t esp0)
{
	tss.esp0 = esp0;
}

/* Reset through the keyboard controller; QEMU restarts the machine. */
void
cpu_reset(void)
{
	cli();
	outb(0x64, 0xfe);
	for (;;)
		halt();
}

/*
 * Power off through the ACPI PM1a control register.  QEMU's PIIX4 has it
 * at 0x604 (SeaBIOS) and older QEMUs at 0xb004; QEMU then exits with
 * status 0.
 */
void
cpu_powerdown(void)
{
	cli();
	outw(0x604, 0x2000);
	outw(0xb004, 0x2000);
	printf("powerdown failed; halted\n");
	for (;;)
		halt();
}
