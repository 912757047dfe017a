/*
 * Constants shared by assembly and C: segment selectors, page-table and
 * control-register bits.
 */
#ifndef _I386_ASM_H_
#define _I386_ASM_H_

#define KERNBASE	0xC0000000
#define KSTACK_SIZE	8192		/* per-process kernel stack */

/* GDT slots and selectors */
#define GNULL_SEL	0
#define GCODE_SEL	1		/* kernel code */
#define GDATA_SEL	2		/* kernel data */
#define GUCODE_SEL	3		/* user code */
#define GUDATA_SEL	4		/* user data */
#define GTSS_SEL	5
#define GUTLS_SEL	6		/* a process's TLS segment (compat/linux);
					   Linux's first TLS slot is 6 too */
#define NGDT		7
#define SEL_KPL		0
#define SEL_UPL		3
#define GSEL_KCODE	(GCODE_SEL << 3)
#define GSEL_KDATA	(GDATA_SEL << 3)
#define GSEL_UCODE	((GUCODE_SEL << 3) | SEL_UPL)
#define GSEL_UDATA	((GUDATA_SEL << 3) | SEL_UPL)
#define GSEL_TSS	(GTSS_SEL << 3)

/* page table entry bits */
#define PG_P		0x001		/* present */
#define PG_RW		0x002		/* writable */
#define PG_U		0x004		/* user accessible */
#define PG_PS		0x080		/* 4 MB page (in a PDE) */
#define PG_COW		0x200		/* software: copy on write (pmap_cow) */
#define PG_FRAME	0xfffff000

#define CR0_PE		0x00000001
#define CR0_MP		0x00000002	/* FPU: WAIT honours TS */
#define CR0_EM		0x00000004	/* no FPU: trap FPU instructions */
#define CR0_TS		0x00000008	/* task switched */
#define CR0_WP		0x00010000	/* kernel honours read-only pages */
#define CR0_PG		0x80000000
#define CR4_PSE		0x00000010
#define CR4_OSFXSR	0x00000200	/* fxsave/fxrstor and SSE */
#define CR4_OSXMMEXCPT	0x00000400	/* SSE exceptions as #XM */

#endif
