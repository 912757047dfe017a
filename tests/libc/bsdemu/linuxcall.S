/*
 * long __linux_call(long number, long a1, ..., long a6): trap into the
 * Linux i386 kernel with the arguments in registers, as Linux wants
 * them.  Returns what Linux returns: a result, or -errno.
 */
	.text
	.globl __linux_call
	.type __linux_call, @function
__linux_call:
	pushl %ebp
	pushl %edi
	pushl %esi
	pushl %ebx
	movl 20(%esp), %eax
	movl 24(%esp), %ebx
	movl 28(%esp), %ecx
	movl 32(%esp), %edx
	movl 36(%esp), %esi
	movl 40(%esp), %edi
	movl 44(%esp), %ebp
	int $0x80
	popl %ebx
	popl %esi
	popl %edi
	popl %ebp
	ret
	.size __linux_call, . - __linux_call

/* Return from a signal handler (the restorer rt_sigaction wants). */
	.globl __linux_restore_rt
	.type __linux_restore_rt, @function
__linux_restore_rt:
	movl $173, %eax		/* rt_sigreturn */
	int $0x80
	.size __linux_restore_rt, . - __linux_restore_rt

	.section .note.GNU-stack, "", @progbits
