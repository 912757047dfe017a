/*
 * Copying between user and kernel memory.  Each routine first checks that
 * the user range lies below VM_MAXUSER_ADDRESS without wrapping, then
 * copies with "onfault" pointing at copyfault: a page fault on an unmapped
 * user page resumes there and the routine returns EFAULT instead of the
 * kernel faulting.
 */
#include "kern/i386/asm.h"

#define EFAULT		14
#define ENAMETOOLONG	63
#define VM_MAXUSER	0xBFC00000

/*
 * %ecx bytes from %esi to %edi: words first, then the rest (TCG runs a
 * rep movs an element at a time: words are four times fewer).
 */
#define COPYBYTES			\
	cld;				\
	movl	%ecx, %eax;		\
	shrl	$2, %ecx;		\
	rep movsl;			\
	movl	%eax, %ecx;		\
	andl	$3, %ecx;		\
	rep movsb

	.text
/* int copyin(const void *uaddr, void *kaddr, size_t len) */
	.globl	copyin
copyin:
	pushl	%esi
	pushl	%edi
	movl	12(%esp), %esi
	movl	16(%esp), %edi
	movl	20(%esp), %ecx
	movl	%esi, %edx
	addl	%ecx, %edx
	jc	copyfault_nofault
	cmpl	$VM_MAXUSER, %edx
	ja	copyfault_nofault
	movl	$copyfault, onfault
	COPYBYTES
	movl	$0, onfault
	xorl	%eax, %eax
	popl	%edi
	popl	%esi
	ret

/* int copyout(const void *kaddr, void *uaddr, size_t len) */
	.globl	copyout
copyout:
	pushl	%esi
	pushl	%edi
	movl	12(%esp), %esi
	movl	16(%esp), %edi
	movl	20(%esp), %ecx
	movl	%edi, %edx
	addl	%ecx, %edx
	jc	copyfault_nofault
	cmpl	$VM_MAXUSER, %edx
	ja	copyfault_nofault
	movl	$copyfault, onfault
	COPYBYTES
	movl	$0, onfault
	xorl	%eax, %eax
	popl	%edi
	popl	%esi
	ret

/*
 * int copyinstr(const void *uaddr, char *kaddr, size_t len, size_t *done)
 * Copies up to len bytes including the NUL; ENAMETOOLONG if none fits.
 */
	.globl	copyinstr
copyinstr:
	pushl	%esi
	pushl	%edi
	movl	12(%esp), %esi
	movl	16(%esp), %edi
	movl	20(%esp), %ecx
	movl	$copyfault, onfault
	xorl	%edx, %edx
1:	cmpl	%ecx, %edx
	je	2f
	movl	%esi, %eax
	addl	%edx, %eax
	cmpl	$VM_MAXUSER, %eax
	jae	copyfault
	movb	(%eax), %al
	movb	%al, (%edi, %edx)
	incl	%edx
	testb	%al, %al
	jnz	1b
	xorl	%eax, %eax
	jmp	3f
2:	movl	$ENAMETOOLONG, %eax
3:	movl	$0, onfault
	movl	24(%esp), %ecx
	testl	%ecx, %ecx
	jz	4f
	movl	%edx, (%ecx)
4:	popl	%edi
	popl	%esi
	ret

copyfault:
	movl	$0, onfault
copyfault_nofault:
	movl	$EFAULT, %eax
	popl	%edi
	popl	%esi
	ret

	.section .note.GNU-stack,"",@progbits
