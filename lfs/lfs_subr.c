/*
 * Pure helpers on the BSD-LFS on-disk format (sys/ufs/lfs.h), compiled
 * into the kernel and into the tools (newfs_lfs, dumplfs, fsck_lfs,
 * lfs_cleanerd), so there is one idea of what a valid superblock or
 * summary is.  Integer code only: no libc, no kernel calls, no I/O, no
 * allocation.  Bad disk contents come back as a short reason string,
 * never a panic.
 */
#include <sys/types.h>
#include <stddef.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"

/* The host build must see the guest's layout. */
typedef char lfs_dlfs_is_448[sizeof(struct dlfs) == 448 ? 1 : -1];
typedef char lfs_segsum_is_48[sizeof(struct segsum) == 48 ? 1 : -1];
typedef char lfs_seguse_is_16[sizeof(SEGUSE) == 16 ? 1 : -1];
typedef char lfs_ifile_is_12[sizeof(IFILE) == 12 ? 1 : -1];
typedef char lfs_cleanerinfo_is_32[sizeof(CLEANERINFO) == 32 ? 1 : -1];
typedef char lfs_cksum_at_444[offsetof(struct dlfs, dlfs_cksum) == 444 ?
    1 : -1];

/*
 * CRC-32 (IEEE 802.3, reflected, as zlib's crc32()), four bytes at a
 * time ("slicing by 4"): the segment writer sums every block it writes
 * and the cleaner every block it reads, and under QEMU's TCG each
 * memory load costs a lookup of its own, so loads per byte are what
 * counts: a nibble at a time made three, this makes one and a quarter.
 * crctab[0] is the byte-at-a-time table; crctab[k][b] is b's CRC
 * followed by k zero bytes.  Filled on first use (no init hook in the
 * tools); words are read little-endian, as everything on the disk is.
 */
static u_int32_t crctab[4][256];

static void
crc32_init(void)
{
	u_int32_t c;
	int b, k;

	for (b = 0; b < 256; b++) {
		c = b;
		for (k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ 0xedb88320 : c >> 1;
		crctab[0][b] = c;
	}
	for (k = 1; k < 4; k++)
		for (b = 0; b < 256; b++)
			crctab[k][b] = (crctab[k - 1][b] >> 8) ^
			    crctab[0][crctab[k - 1][b] & 0xff];
}

u_int32_t
lfs_crc32(u_int32_t crc, const void *buf, size_t len)
{
	const u_int8_t *p = buf;

	if (crctab[0][1] == 0)
		crc32_init();
	crc = ~crc;
	for (; len > 0 && ((unsigned long)p & 3) != 0; len--)
		crc = (crc >> 8) ^ crctab[0][(crc ^ *p++) & 0xff];
	for (; len >= 4; len -= 4, p += 4) {
		crc ^= *(const u_int32_t *)p;
		crc = crctab[3][crc & 0xff] ^ crctab[2][(crc >> 8) & 0xff] ^
		    crctab[1][(crc >> 16) & 0xff] ^ crctab[0][crc >> 24];
	}
	for (; len > 0; len--)
		crc = (crc >> 8) ^ crctab[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

u_int32_t
lfs_sbsum(const struct dlfs *fs)
{
	return lfs_crc32(0, fs, offsetof(struct dlfs, dlfs_cksum));
}

static int
ilog2(u_int32_t n)
{
	int i;

	for (i = 0; i < 32; i++)
		if ((1u << i) == n)
			return i;
	return -1;
}

/* The largest file the block size allows (direct + 3 levels). */
u_int64_t
lfs_maxfilesize(u_int32_t bsize)
{
	u_int64_t nindir = bsize / sizeof(int32_t), blocks;

	blocks = NDADDR + nindir + nindir * nindir + nindir * nindir * nindir;
	if (blocks > 0x7fffffffULL)		/* lbns are int32_t */
		blocks = 0x7fffffffULL;
	return blocks * bsize;
}

/*
 * Is the superblock one the kernel and the tools can trust?  NULL if so,
 * else what is wrong, for the message.  Checks the checksum and that
 * every parameter is consistent with the others, so that no later
 * computation (segment numbers, ifile offsets) can run off the disk.
 */
const char *
lfs_sbcheck(const struct dlfs *fs)
{
	u_int32_t i;

	if (fs->dlfs_magic != LFS_MAGIC)
		return "bad magic number";
	if (fs->dlfs_version != LFS_VERSION)
		return "unknown version";
	if (fs->dlfs_cksum != lfs_sbsum(fs))
		return "bad checksum";
	if (fs->dlfs_bsize < 4096 || fs->dlfs_bsize > 65536 ||
	    ilog2(fs->dlfs_bsize) != (int)fs->dlfs_bshift ||
	    fs->dlfs_fsbtodb + 9 != fs->dlfs_bshift ||
	    fs->dlfs_sumsize != fs->dlfs_bsize)
		return "bad block size";
	if (fs->dlfs_ssize < 8 || fs->dlfs_ssize > 65535 ||
	    fs->dlfs_nseg < LFS_MINSEGS ||
	    (u_int64_t)fs->dlfs_nseg * fs->dlfs_ssize > fs->dlfs_size ||
	    fs->dlfs_dsize > fs->dlfs_size)
		return "bad segment size or count";
	if (fs->dlfs_nindir != fs->dlfs_bsize / sizeof(int32_t) ||
	    fs->dlfs_inopb != fs->dlfs_bsize / sizeof(struct dinode) ||
	    fs->dlfs_ifpb != fs->dlfs_bsize / sizeof(IFILE) ||
	    fs->dlfs_sepb != fs->dlfs_bsize / sizeof(SEGUSE))
		return "bad per-block counts";
	if (fs->dlfs_cleansz < 1 || fs->dlfs_cleansz > 16 ||
	    fs->dlfs_segtabsz != (fs->dlfs_nseg + fs->dlfs_sepb - 1) /
	    fs->dlfs_sepb)
		return "bad ifile layout";
	if (fs->dlfs_minfree > 50 || fs->dlfs_minfreeseg < LFS_MINFREESEG ||
	    fs->dlfs_minfreeseg >= fs->dlfs_nseg / 2)
		return "bad reserve";
	if (fs->dlfs_maxfilesize != lfs_maxfilesize(fs->dlfs_bsize) ||
	    fs->dlfs_maxsymlinklen != MAXSYMLINKLEN)
		return "bad file size limits";
	for (i = 0; i < LFS_NSB; i++)
		if (fs->dlfs_sboffs[i] != 0 &&
		    (fs->dlfs_sboffs[i] >= fs->dlfs_size ||
		    fs->dlfs_sboffs[i] != lfs_sbfirstblock(fs,
		    lfs_dtosn(fs, fs->dlfs_sboffs[i])) - 1))
			return "bad superblock copy address";
	if (fs->dlfs_sboffs[0] == 0 || fs->dlfs_sboffs[1] == 0)
		return "missing checkpoint copies";
	if (fs->dlfs_curseg >= fs->dlfs_nseg ||
	    fs->dlfs_nextseg >= fs->dlfs_nseg ||
	    /* the log's end may be the segment's end: a full segment */
	    fs->dlfs_offset > lfs_sntod(fs, fs->dlfs_curseg + 1) ||
	    fs->dlfs_offset < lfs_sbfirstblock(fs, fs->dlfs_curseg) ||
	    fs->dlfs_lastpseg >= fs->dlfs_size ||
	    fs->dlfs_idaddr == 0 || fs->dlfs_idaddr >= fs->dlfs_size)
		return "bad checkpoint addresses";
	if (fs->dlfs_ccurseg >= fs->dlfs_nseg ||
	    fs->dlfs_cnextseg >= fs->dlfs_nseg || (fs->dlfs_coffset != 0 &&
	    (fs->dlfs_coffset > lfs_sntod(fs, fs->dlfs_ccurseg + 1) ||
	    fs->dlfs_coffset < lfs_sbfirstblock(fs, fs->dlfs_ccurseg))))
		return "bad cold log head";
	if (fs->dlfs_ckpidx >= LFS_NCKP)
		return "bad checkpoint index";
	return NULL;
}

/*
 * The first block of segment sn that the log may use: after the boot
 * area in segment 0, after the superblock copy in a segment that holds
 * one.  (The copy itself is the block before.)
 */
u_int32_t
lfs_sbfirstblock(const struct dlfs *fs, u_int32_t sn)
{
	u_int32_t first = lfs_sntod(fs, sn), i;

	if (sn == 0)
		first = LFS_LABELPAD / fs->dlfs_bsize;
	if (first == 0)
		first = 1;		/* block 0 is LFS_UNUSED_DADDR */
	for (i = 0; i < LFS_NSB; i++)
		if (fs->dlfs_sboffs[i] != 0 && fs->dlfs_sboffs[i] == first)
			return first + 1;
	return first;
}

/* The checksum a summary block should carry in ss_sumsum. */
u_int32_t
lfs_sssum(const struct dlfs *fs, const void *summary)
{
	return lfs_crc32(0, (const char *)summary + sizeof(u_int32_t),
	    fs->dlfs_sumsize - sizeof(u_int32_t));
}

FINFO *
lfs_nextfinfo(const FINFO *fip)
{
	return (FINFO *)((const char *)fip + FINFOSIZE +
	    fip->fi_nblocks * sizeof(int32_t));
}

/* The summary's first DELTA, after its FINFOs. */
DELTA *
lfs_firstdelta(const void *summary)
{
	const struct segsum *ss = summary;
	const FINFO *fip = (const FINFO *)(ss + 1);
	u_int32_t i;

	for (i = 0; i < ss->ss_nfinfo; i++)
		fip = lfs_nextfinfo(fip);
	return (DELTA *)fip;
}

DELTA *
lfs_nextdelta(const DELTA *dr)
{
	return (DELTA *)((const char *)dr + DELTASIZE(dr->dr_len));
}

/* The inode-block addresses, from the end of the summary backwards:
 * the i-th inode block is at lfs_inoaddrs(fs, ss)[-1 - i]. */
u_int32_t *
lfs_inoaddrs(const struct dlfs *fs, const void *summary)
{
	return (u_int32_t *)((char *)summary + fs->dlfs_sumsize);
}

/*
 * Is this summary block well formed: magic, checksum, and FINFOs, DELTAs
 * and inode addresses that fit in it and agree with ss_nblocks?  NULL if so.
 * (The data checksum needs the blocks: the caller checks it.)
 */
const char *
lfs_sscheck(const struct dlfs *fs, const void *summary)
{
	const struct segsum *ss = summary;
	const char *end = (const char *)summary + fs->dlfs_sumsize;
	const char *inos;
	const FINFO *fip;
	u_int32_t i, nblocks = 0;

	if (ss->ss_magic != SS_MAGIC)
		return "bad magic number";
	if (ss->ss_sumsum != lfs_sssum(fs, summary))
		return "bad summary checksum";
	if (ss->ss_ninos > (fs->dlfs_sumsize - sizeof(struct segsum)) /
	    sizeof(u_int32_t))
		return "inode addresses overflow the summary";
	inos = end - ss->ss_ninos * sizeof(u_int32_t);
	fip = (const FINFO *)(ss + 1);
	for (i = 0; i < ss->ss_nfinfo; i++) {
		if ((const char *)fip + FINFOSIZE > inos ||
		    fip->fi_nblocks > fs->dlfs_ssize ||
		    (const char *)lfs_nextfinfo(fip) > inos)
			return "FINFOs overflow the summary";
		if (fip->fi_nblocks == 0 ||
		    fip->fi_lastlength == 0 ||
		    fip->fi_lastlength > fs->dlfs_bsize)
			return "bad FINFO";
		nblocks += fip->fi_nblocks;
		fip = lfs_nextfinfo(fip);
	}
	for (i = 0; i < ss->ss_ndelta; i++) {
		const DELTA *dr = (const DELTA *)fip;

		if ((const char *)dr + sizeof(*dr) > inos ||
		    (const char *)lfs_nextdelta(dr) > inos)
			return "DELTAs overflow the summary";
		if (dr->dr_len == 0 ||
		    (u_int32_t)dr->dr_off + dr->dr_len > fs->dlfs_bsize)
			return "bad DELTA";
		fip = (const FINFO *)lfs_nextdelta(dr);
	}
	if (nblocks + ss->ss_ninos != ss->ss_nblocks)
		return "block count disagrees with the FINFOs";
	if (1u + ss->ss_nblocks > fs->dlfs_ssize ||
	    ss->ss_next >= fs->dlfs_size)
		return "bad size or next segment";
	return NULL;
}
