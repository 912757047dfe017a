/*
 * syscall(number, args...): the indirect system call, for calls that have
 * no libc wrapper.  The kernel has no SYS_syscall, so the stub moves the
 * number out of the way itself: it pops the return address and the
 * number, pushes the return address back (the arguments now start at
 * 4(%esp), as for a direct stub), traps, and then restores the caller's
 * stack depth by putting a word back where the number was.
 */
	.text
	.globl syscall
	.type syscall, @function
syscall:
	popl %ecx		/* return address */
	popl %eax		/* system call number */
	pushl %ecx
	int $0x80
	popl %ecx		/* return address again; flags unchanged */
	pushl %ecx		/* stands in for the number the caller pops */
	pushl %ecx
	jc __cerror
	ret
	.size syscall, . - syscall

	.section .note.GNU-stack, "", @progbits
