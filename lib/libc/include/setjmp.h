/*
 * setjmp(3)/longjmp(3) for i386.  A jmp_buf holds the return address,
 * %ebx, %esp, %ebp, %esi, %edi and the signal mask; setjmp saves the mask
 * and longjmp restores it, as in 4.4BSD.  _setjmp/_longjmp leave the mask
 * alone.
 */
#ifndef _SETJMP_H_
#define _SETJMP_H_

typedef int jmp_buf[7];

int	setjmp(jmp_buf);
void	longjmp(jmp_buf, int) __attribute__((__noreturn__));
int	_setjmp(jmp_buf);
void	_longjmp(jmp_buf, int) __attribute__((__noreturn__));

#endif
