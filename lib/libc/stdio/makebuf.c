/*
 * Buffer allocation, on a stream's first read or write.  A stream on a
 * terminal is line buffered; an unbuffered stream reads through the
 * one-byte _nbuf (and writes with no buffer at all, see wbuf.c);
 * setvbuf may choose first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void	__smakebuf(FILE *);

void
__smakebuf(FILE *fp)
{
	int size;

	if (!(fp->_flags & __SBUFCHK)) {
		fp->_flags |= __SBUFCHK;
		if (isatty(fp->_fd))
			fp->_flags |= __SLBF;
	}
	if (!(fp->_flags & __SNBF)) {
		size = fp->_bsize > 0 ? fp->_bsize : BUFSIZ;
		if ((fp->_bf = malloc(size)) != NULL) {
			fp->_flags |= __SMBF;
			fp->_bsize = size;
			return;
		}
		fp->_flags |= __SNBF;
	}
	fp->_bf = fp->_nbuf;
	fp->_bsize = 1;
}
