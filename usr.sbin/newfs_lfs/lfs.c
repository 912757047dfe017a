/*
 * lfs.c: lay out a new BSD-LFS and write its first checkpoint.
 *
 * Layout (sys/ufs/lfs.h): nseg = the partition's blocks / blocks per
 * segment; a tail shorter than a segment is left unused.  Superblock
 * copy 0 takes the first block after the boot area, copy i (0 < i <
 * LFS_NSB) the first block of segment i * max(1, nseg / LFS_NSB) while
 * there is such a segment; an unused copy has sboffs[i] = 0.  So copy 0
 * is always at byte max(LFS_LABELPAD, bsize), where readers look for it.
 *
 * The log starts as one partial segment at lfs_sbfirstblock(fs, 0), the
 * checkpoint (SS_CKP) of an empty file system; it makes two directories,
 * so it is a directory operation too (SS_DIROP):
 *
 *	summary  ifile lbn 0..nif-1  [ifile indirect, lbn -NDADDR]
 *	root (".", "..", lost+found, ifile)  lost+found
 *	inode block (inodes 1, 2, 3)
 *
 * The ifile is one block of CLEANERINFO, segtabsz of SEGUSE and one of
 * IFILE entries: 0 unused, 1-3 in the inode block, 4 .. ifpb-1 free and
 * chained in order.  Only a huge segment table needs the indirect block.
 *
 * Accounting (thesis 6.2.2), as the kernel must find it after newfs_lfs:
 *	dsize	blocks of all segments the log may use: all but the boot
 *		area and the superblock copies (summaries count as log)
 *	bfree	dsize - the blocks of live file data (the ifile's, the
 *		directories'): summaries and inode blocks are log overhead,
 *		like dead blocks they come back when cleaned, and the
 *		kernel keeps a reserve for them instead
 *	avail	the log blocks of the clean segments + those of segment 0
 *		from dlfs_offset to its end (so, here, bfree less the
 *		summary and the inode block)
 *	su_nbytes of segment 0: the ifile, indirect and directory blocks in
 *		bytes + 3 * sizeof(struct dinode); the summary and the unused
 *		part of the inode block are not live data
 *	CLEANERINFO: clean = nseg - 1, dirty = 1 (segment 0); segment 1
 *		is dlfs_nextseg but still clean, not yet marked
 * ss_datasum is lfs_crc32 of the nblocks blocks after the summary as
 * one run (the same as chaining lfs_crc32 block by block).
 *
 * Write order: first zeros, so that nothing an earlier file system left
 * can be taken for ours: the first log block of every segment but 0, the
 * block at dlfs_offset, and (blocks over 8 KB) the rest of block 0 after
 * the boot area, where an FFS superblock would be; then the partial
 * segment; then the superblock copies, copy 0 last: that write is the
 * commit point.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/lfs.h"
#include "newfs_lfs.h"

#define NIFMAP	1		/* ifile blocks of IFILE entries */
#define NFILES	3		/* the ifile, the root, lost+found */

static struct dlfs sb;		/* the superblock being built */
static int64_t now;

/* The block addresses of the initial partial segment. */
static struct {
	u_int32_t sum;		/* the summary */
	u_int32_t ifile;	/* ifile lbn 0, the others follow */
	u_int32_t nif;		/* ifile data blocks */
	u_int32_t ind;		/* ifile indirect block, 0 if none */
	u_int32_t root;		/* the root directory's block */
	u_int32_t lostfound;	/* lost+found's block */
	u_int32_t inodes;	/* the inode block */
	u_int32_t nblocks;	/* blocks after the summary */
} ps;

/* Block i of a run of blocks in memory. */
#define BLKAT(run, i)	((run) + (size_t)(i) * sb.dlfs_bsize)

/* The block at address daddr of the partial segment in memory at buf. */
static u_int8_t *
psblk(u_int8_t *buf, u_int32_t daddr)
{

	return (BLKAT(buf, daddr - ps.sum));
}

static u_int32_t
ilog2(u_int32_t n)
{
	u_int32_t i;

	for (i = 0; (1u << i) < n; i++)
		;
	return (i);
}

/* The superblock's parameters and where its copies go. */
static void
layout(struct lfsparams *p, const char *special)
{
	int64_t nblk;
	u_int32_t i, s, step;

	sb.dlfs_magic = LFS_MAGIC;
	sb.dlfs_version = LFS_VERSION;
	sb.dlfs_bsize = p->bsize;
	sb.dlfs_bshift = ilog2(p->bsize);
	sb.dlfs_fsbtodb = sb.dlfs_bshift - 9;
	sb.dlfs_sumsize = p->bsize;
	sb.dlfs_ssize = p->segbytes / p->bsize;
	nblk = p->sectors / (p->bsize / 512);
	if (nblk > 0xffffffffLL)
		fatal("%s: too large: at most %u blocks of %u bytes",
		    special, 0xffffffffu, p->bsize);
	sb.dlfs_nseg = (u_int32_t)nblk / sb.dlfs_ssize;
	if (sb.dlfs_nseg < LFS_MINSEGS)
		fatal("%s: %lld sectors is too small: a BSD-LFS needs at "
		    "least %d segments of %u KB (%lld sectors)", special,
		    (long long)p->sectors, LFS_MINSEGS, p->segbytes / 1024,
		    (long long)LFS_MINSEGS * p->segbytes / 512);
	sb.dlfs_size = sb.dlfs_nseg * sb.dlfs_ssize;
	sb.dlfs_nindir = p->bsize / sizeof(int32_t);
	sb.dlfs_inopb = p->bsize / sizeof(struct dinode);
	sb.dlfs_ifpb = p->bsize / sizeof(IFILE);
	sb.dlfs_sepb = p->bsize / sizeof(SEGUSE);
	sb.dlfs_cleansz = 1;
	sb.dlfs_segtabsz = (sb.dlfs_nseg + sb.dlfs_sepb - 1) / sb.dlfs_sepb;
	sb.dlfs_minfree = p->minfree;
	if (p->minfreeseg >= sb.dlfs_nseg / 2)
		fatal("-M %u: must be less than half of the %u segments",
		    p->minfreeseg, sb.dlfs_nseg);
	sb.dlfs_minfreeseg = p->minfreeseg;
	sb.dlfs_maxfilesize = lfs_maxfilesize(p->bsize);
	sb.dlfs_maxsymlinklen = MAXSYMLINKLEN;

	sb.dlfs_sboffs[0] = LFS_LABELPAD / p->bsize;
	if (sb.dlfs_sboffs[0] == 0)
		sb.dlfs_sboffs[0] = 1;		/* block 0 means "none" */
	step = sb.dlfs_nseg / LFS_NSB > 0 ? sb.dlfs_nseg / LFS_NSB : 1;
	for (i = 1; i < LFS_NSB && i * step < sb.dlfs_nseg; i++)
		sb.dlfs_sboffs[i] = lfs_sntod(&sb, i * step);
	for (s = 0; s < sb.dlfs_nseg; s++)
		sb.dlfs_dsize += lfs_sntod(&sb, s + 1) -
		    lfs_sbfirstblock(&sb, s);
}

/*
 * Give each block of the initial partial segment its address, and
 * refuse segments too small for it: it must leave dlfs_offset inside
 * segment 0, and its FINFOs must fit in the summary (which also keeps
 * the ifile within its single indirect block).
 */
static void
place(void)
{
	u_int32_t a, sumbytes;

	ps.nif = sb.dlfs_cleansz + sb.dlfs_segtabsz + NIFMAP;
	ps.sum = lfs_sbfirstblock(&sb, 0);
	a = ps.sum + 1;
	ps.ifile = a;
	a += ps.nif;
	ps.ind = ps.nif > NDADDR ? a++ : 0;
	ps.root = a++;
	ps.lostfound = a++;
	ps.inodes = a++;
	ps.nblocks = a - ps.sum - 1;
	if (a >= sb.dlfs_ssize)
		fatal("segments of %u blocks cannot hold the initial log "
		    "(blocks %u to %u of segment 0): use larger ones (-s)",
		    sb.dlfs_ssize, ps.sum, a - 1);
	sumbytes = sizeof(struct segsum) + NFILES * FINFOSIZE +
	    (ps.nblocks - 1) * sizeof(int32_t) + sizeof(u_int32_t);
	if (sumbytes > sb.dlfs_sumsize || ps.nif > NDADDR + sb.dlfs_nindir)
		fatal("%u segments need a segment table too large for one "
		    "summary: use larger segments (-s)", sb.dlfs_nseg);
}

/* The checkpoint fields: the file system as of the partial segment. */
static void
checkpoint(void)
{
	u_int32_t seg0;

	sb.dlfs_serial = 1;
	sb.dlfs_tstamp = now;
	sb.dlfs_idaddr = ps.inodes;
	sb.dlfs_free = NFILES + 1;
	sb.dlfs_nfiles = NFILES;
	sb.dlfs_curseg = 0;
	sb.dlfs_offset = ps.sum + 1 + ps.nblocks;
	sb.dlfs_nextseg = 1;
	sb.dlfs_ccurseg = sb.dlfs_cnextseg = 2;	/* the cold head: not yet */
	sb.dlfs_coffset = 0;
	sb.dlfs_lastpseg = ps.sum;
	sb.dlfs_clean = 1;
	sb.dlfs_bfree = sb.dlfs_dsize - (ps.nblocks - 1);	/* not inodes */
	seg0 = sb.dlfs_ssize - lfs_sbfirstblock(&sb, 0);
	sb.dlfs_avail = sb.dlfs_dsize - seg0 +
	    (sb.dlfs_ssize - sb.dlfs_offset);
}

static void
mkinode(struct dinode *dp, u_int32_t ino, int mode, int nlink,
    u_int32_t nblocks)
{

	dp->di_mode = mode;
	dp->di_nlink = nlink;
	dp->di_inumber = ino;
	dp->di_size = (u_int64_t)nblocks * sb.dlfs_bsize;
	dp->di_atime = dp->di_mtime = dp->di_ctime = (int32_t)now;
	dp->di_blocks = nblocks << sb.dlfs_fsbtodb;
	dp->di_gen = 1;
}

/*
 * A directory block: ".", ".." and, for the root, "lost+found" and
 * "ifile" (where lfs_cleanerd reads it) in the first DIRBLKSIZ chunk
 * (the last entry's d_reclen runs to the chunk's end), then empty chunks.
 */
static void
mkdirblock(u_int8_t *blk, u_int32_t ino, u_int32_t parent, u_int32_t child)
{
	static const char *names[] = { ".", "..", "lost+found", "ifile" };
	u_int32_t inos[4];
	struct direct *dp;
	int i, n, off, len;

	inos[0] = ino;
	inos[1] = parent;
	inos[2] = child;
	inos[3] = LFS_IFILE_INUM;
	n = child != 0 ? 4 : 2;
	for (i = 0, off = 0; i < n; i++, off += len) {
		dp = (struct direct *)(blk + off);
		len = DIRECTSIZ(strlen(names[i]));
		dp->d_ino = inos[i];
		dp->d_reclen = i == n - 1 ? DIRBLKSIZ - off : len;
		dp->d_type = inos[i] == LFS_IFILE_INUM ? DT_REG : DT_DIR;
		dp->d_namlen = strlen(names[i]);
		memcpy(dp->d_name, names[i], dp->d_namlen);
	}
	for (off = DIRBLKSIZ; off < (int)sb.dlfs_bsize; off += DIRBLKSIZ)
		((struct direct *)(blk + off))->d_reclen = DIRBLKSIZ;
}

/* The ifile's blocks: CLEANERINFO, SEGUSE table, inode map. */
static void
mkifile(u_int8_t *first)
{
	CLEANERINFO *ci;
	SEGUSE *sup;
	IFILE *ifp;
	u_int32_t s, i, ino;

	ci = (CLEANERINFO *)BLKAT(first, 0);
	ci->clean = sb.dlfs_nseg - 1;
	ci->dirty = 1;
	ci->bfree = sb.dlfs_bfree;
	ci->avail = sb.dlfs_avail;
	ci->free_head = sb.dlfs_free;

	for (i = 0; i < LFS_NSB; i++) {
		if (sb.dlfs_sboffs[i] == 0)
			continue;
		s = lfs_dtosn(&sb, sb.dlfs_sboffs[i]);
		sup = (SEGUSE *)BLKAT(first, lfs_seguse_lbn(&sb, s)) +
		    s % sb.dlfs_sepb;
		sup->su_flags |= SEGUSE_SUPERBLOCK;
	}
	sup = (SEGUSE *)BLKAT(first, lfs_seguse_lbn(&sb, 0));
	sup->su_flags |= SEGUSE_DIRTY | SEGUSE_ACTIVE;
	sup->su_nbytes = (ps.nif + (ps.ind != 0) + 2) * sb.dlfs_bsize +
	    NFILES * sizeof(struct dinode);
	sup->su_nsums = 1;
	sup->su_ninos = 1;
	sup->su_lastmod = (u_int32_t)now;

	/* Entry 0 stays zero: never allocated, never on the free list. */
	ifp = (IFILE *)BLKAT(first, lfs_ifile_lbn(&sb, 0));
	for (ino = 1; ino < sb.dlfs_ifpb; ino++) {
		ifp[ino].if_version = 1;
		if (ino <= NFILES)
			ifp[ino].if_daddr = ps.inodes;
		else if (ino + 1 < sb.dlfs_ifpb)
			ifp[ino].if_nextfree = ino + 1;
	}
}

/*
 * The initial partial segment in memory, summary first, with both
 * checksums set.
 */
static u_int8_t *
mkpseg(void)
{
	struct segsum *ss;
	struct dinode *dp;
	FINFO *fip;
	u_int8_t *buf;
	int32_t *ib;
	u_int32_t lbn;
	const char *why;

	buf = emalloc((size_t)(1 + ps.nblocks) * sb.dlfs_bsize);
	mkifile(psblk(buf, ps.ifile));
	if (ps.ind != 0) {
		ib = (int32_t *)psblk(buf, ps.ind);
		for (lbn = NDADDR; lbn < ps.nif; lbn++)
			ib[lbn - NDADDR] = ps.ifile + lbn;
	}
	mkdirblock(psblk(buf, ps.root), ROOTINO, ROOTINO, LOSTFOUNDINO);
	mkdirblock(psblk(buf, ps.lostfound), LOSTFOUNDINO, ROOTINO, 0);

	dp = (struct dinode *)psblk(buf, ps.inodes);
	mkinode(&dp[0], LFS_IFILE_INUM, IFREG | 0400, 1, ps.nif);
	for (lbn = 0; lbn < ps.nif && lbn < NDADDR; lbn++)
		dp[0].di_db[lbn] = ps.ifile + lbn;
	dp[0].di_ib[0] = ps.ind;
	if (ps.ind != 0)
		dp[0].di_blocks += 1 << sb.dlfs_fsbtodb;
	mkinode(&dp[1], ROOTINO, IFDIR | 0755, 3, 1);
	dp[1].di_db[0] = ps.root;
	mkinode(&dp[2], LOSTFOUNDINO, IFDIR | 0755, 2, 1);
	dp[2].di_db[0] = ps.lostfound;

	ss = (struct segsum *)buf;
	ss->ss_magic = SS_MAGIC;
	ss->ss_next = lfs_sntod(&sb, sb.dlfs_nextseg);
	ss->ss_serial = sb.dlfs_serial;
	ss->ss_create = now;
	ss->ss_nfinfo = NFILES;
	ss->ss_ninos = 1;
	ss->ss_flags = SS_CKP | SS_DIROP;
	ss->ss_nblocks = ps.nblocks;
	fip = (FINFO *)(ss + 1);
	fip->fi_nblocks = ps.nif + (ps.ind != 0);
	fip->fi_version = 1;
	fip->fi_ino = LFS_IFILE_INUM;
	fip->fi_lastlength = sb.dlfs_bsize;
	for (lbn = 0; lbn < ps.nif; lbn++)
		fip->fi_blocks[lbn] = lbn;
	if (ps.ind != 0)
		fip->fi_blocks[lbn] = -NDADDR;
	fip = lfs_nextfinfo(fip);
	fip->fi_nblocks = 1;
	fip->fi_version = 1;
	fip->fi_ino = ROOTINO;
	fip->fi_lastlength = sb.dlfs_bsize;
	fip = lfs_nextfinfo(fip);
	fip->fi_nblocks = 1;
	fip->fi_version = 1;
	fip->fi_ino = LOSTFOUNDINO;
	fip->fi_lastlength = sb.dlfs_bsize;
	lfs_inoaddrs(&sb, ss)[-1] = ps.inodes;
	ss->ss_datasum = lfs_crc32(0, psblk(buf, ps.sum + 1),
	    (size_t)ps.nblocks * sb.dlfs_bsize);
	ss->ss_sumsum = lfs_sssum(&sb, ss);
	if ((why = lfs_sscheck(&sb, ss)) != NULL)
		fatal("internal error: the summary fails its check: %s", why);
	return (buf);
}

/* Print the layout, as newfs prints its summary. */
static void
report(const char *special, struct lfsparams *p)
{
	int64_t tenthmb;
	u_int32_t i, unused;

	printf("%s:\t%lld sectors in %u segments of %u blocks of %u bytes\n",
	    special, (long long)lfs_fsbtodb(&sb, sb.dlfs_size),
	    sb.dlfs_nseg, sb.dlfs_ssize, sb.dlfs_bsize);
	tenthmb = lfs_fsbtodb(&sb, sb.dlfs_size) * 512 * 10 / (1024 * 1024);
	printf("\t%d.%dMB, segments of %uKB, %u blocks for data, "
	    "minfree %u%%, %u segments for the cleaner\n",
	    (int)(tenthmb / 10), (int)(tenthmb % 10),
	    sb.dlfs_ssize * (sb.dlfs_bsize / 1024), sb.dlfs_dsize,
	    sb.dlfs_minfree, sb.dlfs_minfreeseg);
	unused = p->sectors - lfs_fsbtodb(&sb, sb.dlfs_size);
	if (unused != 0)
		printf("\t%u sectors past the last segment unused\n", unused);
	printf("super-block copies at blocks:");
	for (i = 0; i < LFS_NSB; i++)
		if (sb.dlfs_sboffs[i] != 0)
			printf("%s %u", i ? "," : "", sb.dlfs_sboffs[i]);
	printf("\n");
}

/* Write superblock copy i (each has its own ckpidx and checksum). */
static void
putsb(int i, u_int8_t *blk)
{

	sb.dlfs_ckpidx = i == 1 ? 1 : 0;
	sb.dlfs_cksum = lfs_sbsum(&sb);
	memset(blk, 0, sb.dlfs_bsize);
	memcpy(blk, &sb, sizeof(sb));
	wtfs((int64_t)sb.dlfs_sboffs[i] * sb.dlfs_bsize, sb.dlfs_bsize, blk);
}

void
make_lfs(struct lfsparams *p, const char *special)
{
	u_int8_t *pseg, *blk;
	const char *why;
	u_int32_t s;
	int i;

	now = time(NULL);
	layout(p, special);
	place();
	checkpoint();
	sb.dlfs_cksum = lfs_sbsum(&sb);
	if ((why = lfs_sbcheck(&sb)) != NULL)
		fatal("internal error: the superblock fails its check: %s",
		    why);
	report(special, p);
	if (Nflag)
		return;
	pseg = mkpseg();

	blk = emalloc(sb.dlfs_bsize);
	if (sb.dlfs_sboffs[0] * sb.dlfs_bsize > LFS_LABELPAD)
		wtfs(LFS_LABELPAD, sb.dlfs_sboffs[0] * sb.dlfs_bsize -
		    LFS_LABELPAD, blk);
	for (s = 1; s < sb.dlfs_nseg; s++)
		wtfs((int64_t)lfs_sbfirstblock(&sb, s) * sb.dlfs_bsize,
		    sb.dlfs_bsize, blk);
	wtfs((int64_t)sb.dlfs_offset * sb.dlfs_bsize, sb.dlfs_bsize, blk);
	wtfs((int64_t)ps.sum * sb.dlfs_bsize,
	    (size_t)(1 + ps.nblocks) * sb.dlfs_bsize, pseg);

	for (i = LFS_NSB - 1; i > 0; i--)
		if (sb.dlfs_sboffs[i] != 0)
			putsb(i, blk);
	/* Commit point: copy 0, where readers look first. */
	putsb(0, blk);
	free(blk);
	free(pseg);
}
