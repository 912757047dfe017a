/*
 * Positioning: fseek/fseeko, ftell/ftello, rewind, fgetpos/fsetpos.  A
 * seek flushes pending output, drops the read buffer and clears EOF; the
 * next operation picks the direction again.
 */
#include <stdio.h>
#include <unistd.h>

int
fseeko(FILE *fp, off_t offset, int whence)
{
	if ((fp->_flags & __SWR) && __sflush(fp) == EOF)
		return -1;
	if (whence == SEEK_CUR && (fp->_flags & __SRD))
		offset -= fp->_r;
	if (lseek(fp->_fd, offset, whence) < 0)
		return -1;
	fp->_flags &= ~(__SRD | __SWR | __SEOF);
	fp->_r = 0;
	fp->_w = 0;
	fp->_p = fp->_bf;
	return 0;
}

int
fseek(FILE *fp, long offset, int whence)
{
	return fseeko(fp, offset, whence);
}

off_t
ftello(FILE *fp)
{
	off_t pos;

	if ((pos = lseek(fp->_fd, 0, SEEK_CUR)) < 0)
		return -1;
	if (fp->_flags & __SRD)
		pos -= fp->_r;
	else if (fp->_flags & __SWR)
		pos += fp->_p - fp->_bf;
	return pos;
}

long
ftell(FILE *fp)
{
	return (long)ftello(fp);
}

void
rewind(FILE *fp)
{
	fseeko(fp, 0, SEEK_SET);
	fp->_flags &= ~__SERR;
}

int
fgetpos(FILE *fp, fpos_t *pos)
{
	return (*pos = ftello(fp)) < 0 ? -1 : 0;
}

int
fsetpos(FILE *fp, const fpos_t *pos)
{
	return fseeko(fp, *pos, SEEK_SET);
}
