/*
 * crt0: the entry point of every program.  The kernel starts a process
 * at _start with %esp pointing at
 *	argc, argv[0] ... argv[argc-1], NULL, envp[0] ... NULL, strings
 * crt0 sets environ and __progname, calls main(argc, argv, envp) on a
 * 16-byte aligned stack, and passes its result to exit(), which runs the
 * atexit functions and flushes stdio.
 */
	.text
	.globl _start
	.type _start, @function
_start:
	xorl %ebp, %ebp			/* the outermost frame, for debuggers */
	movl 0(%esp), %eax		/* argc */
	leal 4(%esp), %ebx		/* argv */
	leal 8(%esp,%eax,4), %ecx	/* envp = argv + argc + 1 */
	movl %ecx, environ
	testl %eax, %eax
	jz 1f
	movl 0(%ebx), %edx		/* argv[0], for error messages */
	testl %edx, %edx
	jz 1f
	movl %edx, __progname
1:	andl $-16, %esp
	subl $4, %esp			/* three words below keep alignment */
	pushl %ecx
	pushl %ebx
	pushl %eax
	call main
	pushl %eax
	call exit
	hlt				/* not reached */
	.size _start, . - _start

	.section .note.GNU-stack, "", @progbits
