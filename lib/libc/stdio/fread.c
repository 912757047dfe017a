/*
 * fread: copy out of the read buffer, refilling it as needed.
 */
#include <stdio.h>
#include <string.h>

size_t
fread(void *buf, size_t size, size_t count, FILE *fp)
{
	unsigned char *p;
	size_t total, left, n;

	total = size * count;
	if (total == 0)
		return 0;
	p = buf;
	left = total;
	while (left > 0) {
		if (fp->_r <= 0 && __srefill(fp) == EOF)
			break;
		n = left < (size_t)fp->_r ? left : (size_t)fp->_r;
		memcpy(p, fp->_p, n);
		fp->_p += n;
		fp->_r -= n;
		p += n;
		left -= n;
	}
	return (total - left) / size;
}
