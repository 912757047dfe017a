/*
 * locore: the first instructions, trap entry and context switch.
 *
 * QEMU's multiboot loader enters start_phys in 32-bit protected mode with
 * paging off, %eax = multiboot magic, %ebx = physical address of the
 * multiboot information.  We map the first 16 MB twice (at 0 and at
 * KERNBASE) with 4 MB pages, turn paging on, move to the high addresses
 * and call main().  pmap_bootstrap() later replaces this page directory.
 */
#include "kern/i386/asm.h"

#define MB_MAGIC	0x1BADB002
#define MB_FLAGS	0x00000003	/* page-align modules, give memory map */

	.section .multiboot
	.align 4
	.long	MB_MAGIC
	.long	MB_FLAGS
	.long	-(MB_MAGIC + MB_FLAGS)

	.text
	.globl	start_phys
	.set	start_phys, start - KERNBASE
start:
	cli
	movl	$(bootpd - KERNBASE), %edi
	movl	$(PG_P | PG_RW | PG_PS), %ecx	/* 4 MB pages 0..16 MB */
	xorl	%esi, %esi
1:	movl	%ecx, (%edi, %esi, 4)
	movl	%ecx, (KERNBASE >> 22) * 4(%edi, %esi, 4)
	addl	$0x400000, %ecx
	incl	%esi
	cmpl	$4, %esi
	jne	1b
	movl	%cr4, %ecx
	orl	$CR4_PSE, %ecx
	movl	%ecx, %cr4
	movl	%edi, %cr3
	movl	%cr0, %ecx
	orl	$(CR0_PG | CR0_WP), %ecx
	movl	%ecx, %cr0
	movl	$high, %ecx
	jmp	*%ecx
high:
	movl	$(bootstack + KSTACK_SIZE), %esp
	xorl	%ebp, %ebp			/* ends backtraces */
	pushl	%ebx				/* multiboot info (physical) */
	pushl	%eax				/* multiboot magic */
	call	main
	hlt

/*
 * Trap entry.  Each vector pushes an error code (0 when the CPU does not)
 * and its number; alltraps builds a struct trapframe and calls trap().
 */
#define TRAP(n)		.globl Xtrap##n; Xtrap##n: pushl $0; pushl $n; jmp alltraps
#define TRAPERR(n)	.globl Xtrap##n; Xtrap##n: pushl $n; jmp alltraps

TRAP(0); TRAP(1); TRAP(2); TRAP(3); TRAP(4); TRAP(5); TRAP(6); TRAP(7)
TRAPERR(8); TRAP(9); TRAPERR(10); TRAPERR(11); TRAPERR(12); TRAPERR(13)
TRAPERR(14); TRAP(15); TRAP(16); TRAPERR(17); TRAP(18); TRAP(19)
TRAP(32); TRAP(33); TRAP(34); TRAP(35); TRAP(36); TRAP(37); TRAP(38)
TRAP(39); TRAP(40); TRAP(41); TRAP(42); TRAP(43); TRAP(44); TRAP(45)
TRAP(46); TRAP(47)
TRAP(128)

alltraps:
	pushal
	pushl	%ds
	pushl	%es
	pushl	%fs
	pushl	%gs
	movw	$GSEL_KDATA, %ax
	movw	%ax, %ds
	movw	%ax, %es
	/* %fs and %gs too: a Linux program's %gs names its TLS slot in the
	 * GDT, which the scheduler rewrites for every process it runs; a
	 * frame of a kernel thread must not save and reload that selector. */
	movw	%ax, %fs
	movw	%ax, %gs
	pushl	%esp
	call	trap
	addl	$4, %esp
	.globl	trapret
trapret:
	popl	%gs
	popl	%fs
	popl	%es
	popl	%ds
	popal
	addl	$8, %esp			/* trap number and error code */
	iret

/*
 * swtch(struct context **from, struct context *to): save the callee-saved
 * registers on the current kernel stack, store the stack pointer in *from,
 * and resume the thread whose saved stack pointer is "to".
 */
	.globl	swtch
swtch:
	movl	4(%esp), %eax
	movl	8(%esp), %edx
	pushl	%ebp
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	movl	%esp, (%eax)
	movl	%edx, %esp
	popl	%edi
	popl	%esi
	popl	%ebx
	popl	%ebp
	ret

	.data
	.align	4096
	.globl	bootpd
bootpd:
	.space	4096
	.globl	bootstack
	.align	4096
bootstack:
	.space	KSTACK_SIZE

	.section .note.GNU-stack,"",@progbits
