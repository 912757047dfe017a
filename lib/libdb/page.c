/*
 * What every page shares: the checksum, the meta page's checks, and the
 * page size a new file gets.
 *
 * The checksum is CRC-32 (IEEE 802.3, as zlib computes it) over the
 * whole page with its cksum field taken as zero.  It catches a page that
 * was torn by a crash in the middle of its write, or damaged on the disk,
 * before any of its offsets is believed.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "lib/libdb/dbint.h"

static u_int32_t crctab[256];

static void
crcinit(void)
{
	u_int32_t c, n, k;

	for (n = 0; n < 256; n++) {
		c = n;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crctab[n] = c;
	}
}

u_int32_t
db_crc32(u_int32_t crc, const void *buf, size_t len)
{
	const u_int8_t *p = buf;

	if (crctab[1] == 0)
		crcinit();
	crc = ~crc;
	while (len-- > 0)
		crc = crctab[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static u_int32_t
page_crc(const void *page, u_int32_t psize)
{
	static const u_int8_t zero[4];
	const u_int8_t *p = page;
	u_int32_t crc;

	crc = db_crc32(0, p, 8);
	crc = db_crc32(crc, zero, 4);
	return db_crc32(crc, p + 12, psize - 12);
}

void
page_setcksum(void *page, u_int32_t psize)
{
	HDR(page)->cksum = page_crc(page, psize);
}

int
page_cksumok(const void *page, u_int32_t psize)
{
	return HDR(page)->cksum == page_crc(page, psize);
}

/* A page never written: a hole, or past the end of the file. */
int
page_iszero(const void *page, u_int32_t psize)
{
	const u_int8_t *p = page;
	u_int32_t i;

	for (i = 0; i < psize; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

/*
 * The meta page of a file of kind magic: 0, or EFTYPE.  npages may be
 * beyond the file's end (pages allocated but not yet written), but not
 * beyond what 32-bit page numbers reach.
 */
int
meta_check(const void *page, u_int32_t psize, u_int32_t pgno, u_int32_t magic)
{
	const struct pghdr *h = page;
	const struct meta *m = META(page);

	if (pgno != 0 || h->pgno != 0 || h->type != P_META ||
	    m->magic != magic || m->version != DB_VERSION ||
	    m->psize != psize || m->npages < 1)
		return EFTYPE;
	return 0;
}

/* The page size of a new file: asked for, else the file system's block. */
u_int32_t
fs_psize(int fd, u_int32_t asked)
{
	struct stat st;
	u_int32_t ps = asked;

	if (ps == 0) {
		ps = 4096;
		if (fstat(fd, &st) == 0 && st.st_blksize >= MIN_PSIZE)
			ps = (u_int32_t)st.st_blksize;
		if (ps > MAX_PSIZE)
			ps = MAX_PSIZE;
	}
	if (ps < MIN_PSIZE || ps > MAX_PSIZE || (ps & (ps - 1)) != 0)
		return 0;
	return ps;
}
