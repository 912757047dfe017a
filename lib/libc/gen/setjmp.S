/*
 * setjmp/longjmp for i386.  jmp_buf layout (int[7]):
 *	0 return address, 4 %ebx, 8 %esp, 12 %ebp, 16 %esi, 20 %edi,
 *	24 signal mask.
 * The saved %esp is the caller's stack pointer at the call, pointing at
 * the return address; longjmp restores it, stores the saved return address
 * there and returns, so setjmp appears to return a second time.
 * setjmp/longjmp also save and restore the signal mask, as 4.4BSD's do
 * (a longjmp out of a signal handler unblocks the signal again);
 * _setjmp/_longjmp do not.
 */
#define SIG_BLOCK	1
#define SIG_SETMASK	3

	.text
	.globl setjmp
	.type setjmp, @function
setjmp:
	movl 4(%esp), %ecx
	leal 24(%ecx), %eax
	pushl %eax		/* oset = &env[6] */
	pushl $0		/* set = NULL: only ask */
	pushl $SIG_BLOCK
	call sigprocmask
	addl $12, %esp
	jmp _setjmp
	.size setjmp, . - setjmp

	.globl _setjmp
	.type _setjmp, @function
_setjmp:
	movl 4(%esp), %ecx
	movl 0(%esp), %edx
	movl %edx, 0(%ecx)
	movl %ebx, 4(%ecx)
	movl %esp, 8(%ecx)
	movl %ebp, 12(%ecx)
	movl %esi, 16(%ecx)
	movl %edi, 20(%ecx)
	xorl %eax, %eax
	ret
	.size _setjmp, . - _setjmp

	.globl longjmp
	.type longjmp, @function
longjmp:
	movl 4(%esp), %ecx
	pushl $0		/* oset = NULL */
	leal 24(%ecx), %eax
	pushl %eax		/* set = &env[6] */
	pushl $SIG_SETMASK
	call sigprocmask
	addl $12, %esp
	jmp _longjmp
	.size longjmp, . - longjmp

	.globl _longjmp
	.type _longjmp, @function
_longjmp:
	movl 4(%esp), %edx
	movl 8(%esp), %eax
	testl %eax, %eax	/* longjmp(env, 0) returns 1 */
	jnz 1f
	incl %eax
1:	movl 4(%edx), %ebx
	movl 8(%edx), %esp
	movl 12(%edx), %ebp
	movl 16(%edx), %esi
	movl 20(%edx), %edi
	movl 0(%edx), %ecx
	movl %ecx, 0(%esp)
	ret
	.size _longjmp, . - _longjmp

	.section .note.GNU-stack, "", @progbits
