/*
 * fstests helpers: names under the test directory, and
 * the offset-dependent byte pattern that file data is written with and
 * compared against.
 */
#include "fstests.h"

char buf[64 * 1024], buf2[64 * 1024];

unsigned char
pattern(off_t off, int seed)
{
	return (unsigned char)(off * 7 + off / 251 + seed * 31);
}

void
fill(unsigned char *p, off_t off, int n, int seed)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = pattern(off + i, seed);
}

/* Write [off, off + len) of the pattern; 0 or -1. */
int
write_pattern(int fd, off_t off, off_t len, int seed)
{
	int n;

	if (lseek(fd, off, SEEK_SET) != off)
		return -1;
	while (len > 0) {
		n = len < (off_t)sizeof(buf) ? (int)len : (int)sizeof(buf);
		fill((unsigned char *)buf, off, n, seed);
		if (write(fd, buf, n) != n)
			return -1;
		off += n;
		len -= n;
	}
	return 0;
}

/*
 * Read [off, off + len) in odd-sized pieces and compare with the pattern
 * (seed -1: zeros); the offset of the first wrong byte, or -1 if none.
 */
off_t
verify(int fd, off_t off, off_t len, int seed)
{
	off_t end = off + len;
	int n, i;

	if (lseek(fd, off, SEEK_SET) != off)
		return off;
	while (off < end) {
		n = end - off < 60001 ? (int)(end - off) : 60001;
		if (read(fd, buf2, n) != n)
			return off;
		for (i = 0; i < n; i++)
			if ((unsigned char)buf2[i] != (seed < 0 ? 0 :
			    pattern(off + i, seed)))
				return off + i;
		off += n;
	}
	return -1;
}

long
freeblocks(void)
{
	struct statfs sfs;

	sync();
	return statfs(check_dir, &sfs) == 0 ? sfs.f_bfree : -1;
}

/* stat(name), all zeros if it fails. */
struct stat *
statp(const char *name)
{
	static struct stat sb;

	if (stat(name, &sb) != 0)
		memset(&sb, 0, sizeof(sb));
	return &sb;
}
