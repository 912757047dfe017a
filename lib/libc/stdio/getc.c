/*
 * Input one byte at a time, and ungetc.  ungetc guarantees one byte of
 * push-back: it steps back in the read buffer, or puts the byte at the
 * start of an empty buffer.
 */
#include <stdio.h>

void	__smakebuf(FILE *);

int
getc(FILE *fp)
{
	if (fp->_r > 0 || __srefill(fp) == 0) {
		fp->_r--;
		return *fp->_p++;
	}
	return EOF;
}

int
fgetc(FILE *fp)
{
	return getc(fp);
}

int
getchar(void)
{
	return getc(stdin);
}

int
ungetc(int c, FILE *fp)
{
	if (c == EOF)
		return EOF;
	if (!(fp->_flags & __SRD)) {
		if (!(fp->_flags & __SRDOK))
			return EOF;
		if ((fp->_flags & __SWR) && __sflush(fp) == EOF)
			return EOF;
		fp->_flags &= ~__SWR;
		fp->_flags |= __SRD;
		fp->_w = 0;
		fp->_r = 0;
		if (fp->_bf == NULL)
			__smakebuf(fp);
		fp->_p = fp->_bf;
	}
	if (fp->_p > fp->_bf)
		fp->_p--;
	else if (fp->_r == 0)
		fp->_p = fp->_bf;
	else
		return EOF;
	*fp->_p = c;
	fp->_r++;
	fp->_flags &= ~__SEOF;
	return (unsigned char)c;
}
