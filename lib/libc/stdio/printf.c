/*
 * The printf family: each sets up a sink for __format (kern/subr_format.c,
 * the kernel's printf engine too).
 *	stream:	fwrite into the stream's buffer; an unbuffered stream
 *		(stderr) collects the output in a local buffer first so
 *		that one message is one write(2).
 *	string:	copy into the caller's buffer, truncating, always
 *		NUL-terminated when there is room for anything.
 *	fd:	dprintf, through the same local buffer.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct strsink {
	char	*buf;
	size_t	 size;		/* room, including the NUL */
	size_t	 len;		/* bytes the output would need */
};

static void
strput(void *arg, const char *s, size_t n)
{
	struct strsink *ss = arg;
	size_t room;

	if (ss->len + 1 < ss->size) {
		room = ss->size - 1 - ss->len;
		memcpy(ss->buf + ss->len, s, n < room ? n : room);
	}
	ss->len += n;
}

int
vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct strsink ss;
	int n;

	ss.buf = buf;
	ss.size = size;
	ss.len = 0;
	n = __format(strput, &ss, fmt, ap);
	if (size > 0)
		buf[ss.len < size ? ss.len : size - 1] = '\0';
	return n;
}

int
vsprintf(char *buf, const char *fmt, va_list ap)
{
	return vsnprintf(buf, (size_t)0x7fffffff, fmt, ap);
}

int
snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

int
sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsprintf(buf, fmt, ap);
	va_end(ap);
	return n;
}

/* A local buffer that drains into a stream or a file descriptor. */
struct bufsink {
	char	 buf[512];
	size_t	 len;
	FILE	*fp;		/* the stream, or NULL for fd */
	int	 fd;
	int	 error;
};

static void
drain(struct bufsink *bs)
{
	const char *p;
	size_t left;
	int n;

	if (bs->fp != NULL) {
		if (fwrite(bs->buf, 1, bs->len, bs->fp) != bs->len)
			bs->error = 1;
	} else {
		for (p = bs->buf, left = bs->len; left > 0; p += n, left -= n)
			if ((n = write(bs->fd, p, left)) <= 0) {
				bs->error = 1;
				break;
			}
	}
	bs->len = 0;
}

static void
bufput(void *arg, const char *s, size_t n)
{
	struct bufsink *bs = arg;
	size_t k;

	while (n > 0) {
		if (bs->len == sizeof(bs->buf))
			drain(bs);
		k = sizeof(bs->buf) - bs->len;
		if (k > n)
			k = n;
		memcpy(bs->buf + bs->len, s, k);
		bs->len += k;
		s += k;
		n -= k;
	}
}

static void
streamput(void *arg, const char *s, size_t n)
{
	fwrite(s, 1, n, arg);
}

int
vfprintf(FILE *fp, const char *fmt, va_list ap)
{
	struct bufsink bs;
	int n;

	if (!(fp->_flags & __SNBF)) {
		n = __format(streamput, fp, fmt, ap);
		return ferror(fp) ? EOF : n;
	}
	bs.len = 0;
	bs.fp = fp;
	bs.error = 0;
	n = __format(bufput, &bs, fmt, ap);
	drain(&bs);
	return bs.error ? EOF : n;
}

int
vdprintf(int fd, const char *fmt, va_list ap)
{
	struct bufsink bs;
	int n;

	bs.len = 0;
	bs.fp = NULL;
	bs.fd = fd;
	bs.error = 0;
	n = __format(bufput, &bs, fmt, ap);
	drain(&bs);
	return bs.error ? EOF : n;
}

int
vprintf(const char *fmt, va_list ap)
{
	return vfprintf(stdout, fmt, ap);
}

int
fprintf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(fp, fmt, ap);
	va_end(ap);
	return n;
}

int
printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

int
dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}
