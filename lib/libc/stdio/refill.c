/*
 * Refill a stream's read buffer.  Switching from writing flushes first.
 * Before reading a line-buffered or unbuffered stream (a terminal) the
 * line-buffered output streams are flushed, so a prompt written without
 * a newline appears before the program waits for input.  End of file is
 * sticky, as in 4.4BSD, until clearerr or a seek.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

void	__smakebuf(FILE *);

static void
flushlbf(void)
{
	FILE *fp;

	for (fp = __sF; fp < &__sF[FOPEN_MAX]; fp++)
		if ((fp->_flags & (__SLBF | __SWR)) == (__SLBF | __SWR))
			__sflush(fp);
}

int
__srefill(FILE *fp)
{
	int n;

	if (!(fp->_flags & __SRDOK)) {
		fp->_flags |= __SERR;
		errno = EBADF;
		return EOF;
	}
	if (fp->_flags & __SWR) {
		if (__sflush(fp) == EOF)
			return EOF;
		fp->_flags &= ~__SWR;
		fp->_w = 0;
	}
	fp->_flags |= __SRD;
	fp->_r = 0;
	if (fp->_flags & __SEOF)
		return EOF;
	if (fp->_bf == NULL)
		__smakebuf(fp);
	if (fp->_flags & (__SLBF | __SNBF))
		flushlbf();
	fp->_p = fp->_bf;
	n = read(fp->_fd, fp->_bf, fp->_bsize);
	if (n <= 0) {
		fp->_flags |= n == 0 ? __SEOF : __SERR;
		return EOF;
	}
	fp->_r = n;
	return 0;
}
