/*
 * Switching a stream to writing, and flushing what it has written.
 * Switching from reading gives back the unread part of the read buffer by
 * seeking back, so reads and writes on a "+" stream land where expected.
 * An unbuffered stream keeps _w at 0 so that every byte takes the slow
 * path and is written at once (wbuf.c).
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

void	__smakebuf(FILE *);

int
__swsetup(FILE *fp)
{
	if (!(fp->_flags & __SWROK)) {
		fp->_flags |= __SERR;
		errno = EBADF;
		return EOF;
	}
	if (fp->_flags & __SRD) {
		if (fp->_r > 0)
			lseek(fp->_fd, -(off_t)fp->_r, SEEK_CUR);
		fp->_r = 0;
		fp->_flags &= ~(__SRD | __SEOF);
	}
	if (fp->_bf == NULL)
		__smakebuf(fp);
	fp->_flags |= __SWR;
	fp->_p = fp->_bf;
	fp->_w = (fp->_flags & __SNBF) ? 0 : fp->_bsize;
	return 0;
}

int
__sflush(FILE *fp)
{
	unsigned char *p;
	int n, len;

	if (!(fp->_flags & __SWR))
		return 0;
	p = fp->_bf;
	len = fp->_p - p;
	fp->_p = fp->_bf;
	fp->_w = (fp->_flags & __SNBF) ? 0 : fp->_bsize;
	while (len > 0) {
		n = write(fp->_fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fp->_flags |= __SERR;
			return EOF;
		}
		p += n;
		len -= n;
	}
	return 0;
}

/*
 * fflush(NULL) flushes every output stream.  On an input stream, fflush
 * gives back the unread buffer by seeking back (when the file can seek).
 */
int
fflush(FILE *fp)
{
	int r;

	if (fp == NULL) {
		r = 0;
		for (fp = __sF; fp < &__sF[FOPEN_MAX]; fp++)
			if ((fp->_flags & __SWR) && __sflush(fp) == EOF)
				r = EOF;
		return r;
	}
	if (fp->_flags & __SWR)
		return __sflush(fp);
	if ((fp->_flags & __SRD) && fp->_r > 0 &&
	    lseek(fp->_fd, -(off_t)fp->_r, SEEK_CUR) >= 0)
		fp->_r = 0;
	return 0;
}
