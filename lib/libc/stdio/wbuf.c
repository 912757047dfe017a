/*
 * Output: putc and its slow path, and fwrite.  The fast path stores into
 * the buffer while there is room (_w > 0); the slow path sets the stream
 * up for writing, flushes a full buffer, writes an unbuffered stream's
 * byte at once and flushes a line-buffered stream at a newline.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int
writeall(FILE *fp, const unsigned char *p, size_t len)
{
	int n;

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

static int
swbuf(int c, FILE *fp)
{
	unsigned char ch;

	if (!(fp->_flags & __SWR) && __swsetup(fp) == EOF)
		return EOF;
	ch = c;
	if (fp->_flags & __SNBF)
		return writeall(fp, &ch, 1) == EOF ? EOF : ch;
	if (fp->_w <= 0 && __sflush(fp) == EOF)
		return EOF;
	*fp->_p++ = ch;
	fp->_w--;
	if ((fp->_flags & __SLBF) && ch == '\n' && __sflush(fp) == EOF)
		return EOF;
	return ch;
}

int
putc(int c, FILE *fp)
{
	if (fp->_w > 0 && c != '\n') {
		fp->_w--;
		return *fp->_p++ = (unsigned char)c;
	}
	return swbuf(c, fp);
}

int
fputc(int c, FILE *fp)
{
	return putc(c, fp);
}

int
putchar(int c)
{
	return putc(c, stdout);
}

size_t
fwrite(const void *buf, size_t size, size_t count, FILE *fp)
{
	const unsigned char *p;
	size_t total, left, n;

	total = size * count;
	if (total == 0)
		return 0;
	if (!(fp->_flags & __SWR) && __swsetup(fp) == EOF)
		return 0;
	p = buf;
	left = total;
	if (fp->_flags & __SNBF)
		return writeall(fp, p, left) == EOF ? 0 : count;
	while (left > 0) {
		if (fp->_w <= 0 && __sflush(fp) == EOF)
			break;
		if (fp->_p == fp->_bf && left >= (size_t)fp->_bsize) {
			/* A large write bypasses the empty buffer. */
			if (writeall(fp, p, left) == EOF)
				break;
			left = 0;
			break;
		}
		n = left < (size_t)fp->_w ? left : (size_t)fp->_w;
		memcpy(fp->_p, p, n);
		fp->_p += n;
		fp->_w -= n;
		p += n;
		left -= n;
	}
	if ((fp->_flags & __SLBF) && memchr(buf, '\n', total - left) != NULL)
		__sflush(fp);
	return (total - left) / size;
}
