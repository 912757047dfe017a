/*
 * sigprocmask(how, set, oset).  As in 4.4BSD the trap takes the new mask
 * by value and returns the old mask in %eax, so a mask with every bit set
 * is a valid result and only the carry flag tells an error; hence this
 * stub is in assembly.  A NULL set asks for the mask without changing it
 * (SIG_BLOCK of nothing).  The stub rewrites its own argument words, which
 * belong to the callee in the i386 calling convention.
 */
#include <sys/syscall.h>

	.text
	.globl sigprocmask
	.type sigprocmask, @function
sigprocmask:
	movl 8(%esp), %ecx	/* set */
	testl %ecx, %ecx
	jz 1f
	movl (%ecx), %ecx	/* *set */
	jmp 2f
1:	movl $1, 4(%esp)	/* how = SIG_BLOCK, mask = 0 */
2:	movl %ecx, 8(%esp)
	movl $SYS_sigprocmask, %eax
	int $0x80
	jc __cerror
	movl 12(%esp), %ecx	/* oset */
	testl %ecx, %ecx
	jz 3f
	movl %eax, (%ecx)
3:	xorl %eax, %eax
	ret
	.size sigprocmask, . - sigprocmask

	.section .note.GNU-stack, "", @progbits
