/*
 * Stream state and buffering control: feof, ferror, clearerr, fileno,
 * setvbuf, setbuf.
 */
#include <stdio.h>
#include <stdlib.h>

int
feof(FILE *fp)
{
	return (fp->_flags & __SEOF) != 0;
}

int
ferror(FILE *fp)
{
	return (fp->_flags & __SERR) != 0;
}

void
clearerr(FILE *fp)
{
	fp->_flags &= ~(__SEOF | __SERR);
}

int
fileno(FILE *fp)
{
	return fp->_fd;
}

/*
 * Choose the buffering of a stream before its first I/O (any buffered
 * output is flushed first).  With buf NULL, a buffer of the given size is
 * allocated on first use.
 */
int
setvbuf(FILE *fp, char *buf, int mode, size_t size)
{
	if (mode != _IOFBF && mode != _IOLBF && mode != _IONBF)
		return EOF;
	fflush(fp);
	if (fp->_flags & __SMBF)
		free(fp->_bf);
	fp->_flags &= ~(__SLBF | __SNBF | __SMBF | __SRD | __SWR);
	fp->_flags |= __SBUFCHK;
	fp->_r = 0;
	fp->_w = 0;
	fp->_bf = NULL;
	fp->_bsize = 0;
	if (mode == _IONBF)
		fp->_flags |= __SNBF;
	else {
		if (mode == _IOLBF)
			fp->_flags |= __SLBF;
		if (buf != NULL && size > 0)
			fp->_bf = (unsigned char *)buf;
		fp->_bsize = size;
	}
	fp->_p = fp->_bf;
	return 0;
}

void
setbuf(FILE *fp, char *buf)
{
	setvbuf(fp, buf, buf != NULL ? _IOFBF : _IONBF, BUFSIZ);
}
