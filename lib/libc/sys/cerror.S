/*
 * The common error exit of the system call stubs: the kernel left the
 * errno value in %eax.  Store it in errno and return -1, in %edx as well
 * so that calls with 64-bit results (lseek) return -1 too.
 */
	.text
	.globl __cerror
	.type __cerror, @function
__cerror:
	movl %eax, errno
	movl $-1, %eax
	movl $-1, %edx
	ret
	.size __cerror, . - __cerror

	.section .note.GNU-stack, "", @progbits
