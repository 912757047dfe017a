/*
 * Opening and closing streams: fopen, fdopen, freopen, fclose.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static FILE *
setup(FILE *fp, int fd, int flags, int oflags)
{
	fp->_fd = fd;
	fp->_flags = flags;
	fp->_p = NULL;
	fp->_r = 0;
	fp->_w = 0;
	fp->_bf = NULL;
	fp->_bsize = 0;
	if (oflags & O_APPEND)
		lseek(fd, 0, SEEK_END);
	return fp;
}

FILE *
fopen(const char *path, const char *mode)
{
	int flags, oflags, fd;
	FILE *fp;

	if ((flags = __sflags(mode, &oflags)) == 0)
		return NULL;
	if ((fp = __sfp()) == NULL)
		return NULL;
	if ((fd = open(path, oflags, 0666)) < 0)
		return NULL;
	return setup(fp, fd, flags, oflags);
}

FILE *
fdopen(int fd, const char *mode)
{
	int flags, oflags;
	FILE *fp;

	if ((flags = __sflags(mode, &oflags)) == 0)
		return NULL;
	if ((fp = __sfp()) == NULL)
		return NULL;
	return setup(fp, fd, flags, oflags & O_APPEND);
}

int
fclose(FILE *fp)
{
	int r;

	if (fp->_flags == 0)
		return EOF;
	r = (fp->_flags & __SWR) ? __sflush(fp) : 0;
	if (close(fp->_fd) < 0)
		r = EOF;
	if (fp->_flags & __SMBF)
		free(fp->_bf);
	fp->_flags = 0;
	fp->_bf = NULL;
	return r;
}

/* Reuse fp for another file; the usual use is to reopen stdin or stdout. */
FILE *
freopen(const char *path, const char *mode, FILE *fp)
{
	int flags, oflags, fd;

	if ((flags = __sflags(mode, &oflags)) == 0) {
		fclose(fp);
		return NULL;
	}
	if (fp->_flags != 0)
		fclose(fp);
	if ((fd = open(path, oflags, 0666)) < 0)
		return NULL;
	return setup(fp, fd, flags, oflags);
}
