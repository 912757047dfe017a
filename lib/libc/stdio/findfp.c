/*
 * The stream table: stdin, stdout and stderr are its first three slots,
 * set up statically; fopen takes a free slot (_flags == 0) from the rest.
 * stderr is unbuffered from the start; the others decide between line and
 * full buffering on first use (makebuf.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

FILE __sF[FOPEN_MAX] = {
	{ NULL, 0, 0, __SRDOK, 0, NULL, 0, { 0 } },
	{ NULL, 0, 0, __SWROK, 1, NULL, 0, { 0 } },
	{ NULL, 0, 0, __SWROK | __SNBF | __SBUFCHK, 2, NULL, 0, { 0 } },
};

FILE *
__sfp(void)
{
	FILE *fp;

	for (fp = &__sF[3]; fp < &__sF[FOPEN_MAX]; fp++) {
		if (fp->_flags == 0) {
			memset(fp, 0, sizeof(*fp));
			fp->_fd = -1;
			return fp;
		}
	}
	errno = EMFILE;
	return NULL;
}

/*
 * Turn an fopen mode ("r", "w+", "ab", ...) into stream flags and open(2)
 * flags.  Return 0 with errno set for a bad mode.
 */
int
__sflags(const char *mode, int *oflagsp)
{
	int flags, oflags;

	switch (*mode++) {
	case 'r':
		flags = __SRDOK;
		oflags = O_RDONLY;
		break;
	case 'w':
		flags = __SWROK;
		oflags = O_WRONLY | O_CREAT | O_TRUNC;
		break;
	case 'a':
		flags = __SWROK;
		oflags = O_WRONLY | O_CREAT | O_APPEND;
		break;
	default:
		errno = EINVAL;
		return 0;
	}
	if (*mode == 'b')
		mode++;
	if (*mode == '+') {
		flags = __SRDOK | __SWROK | __SRW;
		oflags = (oflags & ~O_ACCMODE) | O_RDWR;
	}
	*oflagsp = oflags;
	return flags;
}
