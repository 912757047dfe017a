/*
 * The BSD-LFS on-disk format (thesis chapter 6), one definition for the
 * kernel (lfs/), newfs_lfs, dumplfs, fsck_lfs, lfs_cleanerd and the GDB
 * helpers.  4.4BSD names where 4.4BSD had the thing (struct dlfs, SEGUSE,
 * IFILE, CLEANERINFO, FINFO, struct segsum, SS_DIROP, SS_CONT).
 *
 * Units: there are no fragments (thesis 6.3.1.1); every disk address is
 * a block number (4 KB by default) counted from the start of the
 * partition, lfs_fsbtodb() turns it into a 512-byte sector.  Address 0
 * (LFS_UNUSED_DADDR, inside the boot area) means "none": a hole, a free
 * inode.  Inodes are the FFS ones (sys/ufs/dinode.h), lfs_inopb to a
 * block, di_inumber naming each; indirect blocks have negative logical
 * block numbers as everywhere in UFS (thesis 6.3.1.2).
 *
 * Layout: the disk is lfs_nseg segments of lfs_ssize blocks; segment s
 * starts at block s * lfs_ssize.  Segment 0 begins with the boot area
 * (LFS_LABELPAD bytes, holds the disk label).  LFS_NSB superblock copies
 * each take the first block of their segment (segment 0's after the boot
 * area); those segments are flagged SEGUSE_SUPERBLOCK and the log skips
 * the block.  The first two copies take turns holding checkpoints, so a
 * write torn in the middle of one leaves the other (the newer valid one
 * wins, by serial number and checksum); the rest are refreshed at
 * unmount.
 *
 * The log is a chain of partial segments, each
 *
 *	[summary: struct segsum, FINFOs, inode-block addresses]
 *	[the blocks of the first FINFO, in its order] [the next FINFO's] ...
 *	[ss_ninos inode blocks]
 *
 * The summary takes one block (lfs_sumsize = lfs_bsize): FINFOs grow
 * from the front, the inode blocks' addresses from the back.  ss_sumsum
 * is a CRC-32 of the summary after that field; ss_datasum a CRC-32 of
 * every block after the summary, whole (thesis 6.2.3 sampled four bytes
 * of each; whole blocks cost little and miss nothing).  ss_serial grows
 * by one with every partial segment ever written, so the log's order
 * never depends on clocks.  A partial segment never crosses a segment
 * boundary; when a segment fills, the writer moves to the segment named
 * by ss_next, chosen when the previous one was started.
 *
 * The ifile (inode LFS_IFILE_INUM) is an ordinary file, read-only to
 * users (thesis 6.3.2):
 *
 *	block 0 .. lfs_cleansz-1		CLEANERINFO
 *	next lfs_segtabsz blocks		SEGUSE[lfs_nseg], lfs_sepb a block
 *	the rest				IFILE[], lfs_ifpb a block,
 *						indexed by inode number
 *
 * The superblock records where the ifile's inode is (lfs_idaddr) as of
 * the last checkpoint; everything else is found through it.
 */
#ifndef _UFS_LFS_H_
#define _UFS_LFS_H_

#define LFS_MAGIC	0x19920401	/* the superblock's */
#define SS_MAGIC	0x53534c46	/* a summary's: "FLSS" */
#define LFS_VERSION	1

#define LFS_LABELPAD	8192		/* boot area, holds the label */
#define LFS_SBPAD	4096		/* bytes of a superblock copy */
#define LFS_NSB		10		/* superblock copies */
#define LFS_NCKP	2		/* of which take turns at checkpoints */
#define LFS_UNUSED_DADDR 0		/* no disk address */
#define LFS_IFILE_INUM	1		/* the ifile's inode */
#define LFS_MINFREESEG	2		/* clean segments kept for the cleaner */
#define LFS_MINSEGS	8		/* smallest file system, in segments */
#define LFS_DEFSEGSIZE	(1024 * 1024)	/* newfs_lfs default */
#define LFS_DEFBSIZE	4096
#define LFS_MAXMNTLEN	128

/*
 * The superblock.  Parameters first (set by newfs_lfs), then the
 * checkpoint (rewritten at every checkpoint), then the checksum.
 * All fields are fixed-width, so the host tools see the same layout.
 */
struct dlfs {
	u_int32_t dlfs_magic;		/*   0: LFS_MAGIC */
	u_int32_t dlfs_version;		/*   4: LFS_VERSION */
	u_int32_t dlfs_size;		/*   8: blocks in the file system */
	u_int32_t dlfs_ssize;		/*  12: blocks per segment */
	u_int32_t dlfs_dsize;		/*  16: blocks that may hold data */
	u_int32_t dlfs_bsize;		/*  20: block size, bytes */
	u_int32_t dlfs_bshift;		/*  24: log2(bsize) */
	u_int32_t dlfs_fsbtodb;		/*  28: log2(bsize / 512) */
	u_int32_t dlfs_sumsize;		/*  32: summary bytes (= bsize) */
	u_int32_t dlfs_nseg;		/*  36: segments */
	u_int32_t dlfs_nindir;		/*  40: addresses per indirect block */
	u_int32_t dlfs_inopb;		/*  44: inodes per block */
	u_int32_t dlfs_ifpb;		/*  48: IFILE entries per block */
	u_int32_t dlfs_sepb;		/*  52: SEGUSE entries per block */
	u_int32_t dlfs_cleansz;		/*  56: ifile blocks of CLEANERINFO */
	u_int32_t dlfs_segtabsz;	/*  60: ifile blocks of SEGUSE */
	u_int32_t dlfs_minfree;		/*  64: % of blocks kept from users */
	u_int32_t dlfs_minfreeseg;	/*  68: segments kept for the cleaner */
	u_int64_t dlfs_maxfilesize;	/*  72: largest file, bytes */
	int32_t	  dlfs_maxsymlinklen;	/*  80: longest symlink in the inode */
	u_int32_t dlfs_spare0;		/*  84: zero */
	u_int32_t dlfs_sboffs[LFS_NSB];	/*  88: block of each copy */
	/* the checkpoint */
	u_int64_t dlfs_serial;		/* 128: last partial segment in it */
	int64_t	  dlfs_tstamp;		/* 136: when it was taken */
	u_int32_t dlfs_idaddr;		/* 144: block holding the ifile inode */
	u_int32_t dlfs_free;		/* 148: head of the free-inode list */
	int32_t	  dlfs_bfree;		/* 152: blocks without live data */
	int32_t	  dlfs_avail;		/* 156: clean-segment blocks unpromised */
	u_int32_t dlfs_nfiles;		/* 160: allocated inodes */
	u_int32_t dlfs_curseg;		/* 164: segment being written */
	u_int32_t dlfs_offset;		/* 168: block where the next partial
					 *      segment goes */
	u_int32_t dlfs_nextseg;		/* 172: segment to go to after curseg */
	u_int32_t dlfs_lastpseg;	/* 176: the last partial segment */
	u_int32_t dlfs_clean;		/* 180: unmounted cleanly */
	u_int32_t dlfs_ckpidx;		/* 184: which checkpoint copy this is */
	char	  dlfs_fsmnt[LFS_MAXMNTLEN]; /* 188: where last mounted */
	/* the cold log head: the cleaner's output (lfs_segment.c) */
	u_int32_t dlfs_ccurseg;		/* 316: segment it writes */
	u_int32_t dlfs_coffset;		/* 320: where its next partial segment
					 *      goes; 0: none yet */
	u_int32_t dlfs_cnextseg;	/* 324: segment it goes to next */
	u_int32_t dlfs_spare[29];	/* 328: zero */
	u_int32_t dlfs_cksum;		/* 444: CRC-32 of bytes 0..443 */
};					/* 448 bytes */

/* CLEANERINFO: the head of the ifile, what a cleaner reads first. */
typedef struct _cleanerinfo {
	u_int32_t clean;		/* clean segments */
	u_int32_t dirty;		/* segments holding data */
	int32_t	  bfree;		/* = lfs_bfree when last written */
	int32_t	  avail;		/* = lfs_avail when last written */
	u_int32_t free_head;		/* = lfs_free */
	u_int32_t spare[3];
} CLEANERINFO;

/* SEGUSE: one segment's line of the segment usage table. */
typedef struct segusage {
	u_int32_t su_nbytes;		/* live bytes in it */
	u_int32_t su_lastmod;		/* last written (seconds since 1970) */
	u_int16_t su_nsums;		/* summaries in it */
	u_int16_t su_ninos;		/* inode blocks in it */
	u_int32_t su_flags;		/* SEGUSE_* */
} SEGUSE;
#define SEGUSE_ACTIVE		0x01	/* the writer is filling it */
#define SEGUSE_DIRTY		0x02	/* holds log (not clean) */
#define SEGUSE_SUPERBLOCK	0x04	/* its first block is a superblock */
#define SEGUSE_CLEANING		0x08	/* a cleaner is working on it */

/* IFILE: one inode's entry in the inode map. */
typedef struct ifile {
	u_int32_t if_version;		/* grows each time the inode is freed */
	u_int32_t if_daddr;		/* block holding it; 0: free */
	u_int32_t if_nextfree;		/* free list link (0 ends it); of an
					 * allocated inode: 0, or */
} IFILE;
#define LFS_ORPHANED	0xffffffffU	/* a directory operation left it with
					 * no links, open or not yet let go:
					 * the mount after a crash frees it */

/* The summary at the front of each partial segment. */
struct segsum {
	u_int32_t ss_sumsum;		/*  0: CRC-32 of the summary after this */
	u_int32_t ss_datasum;		/*  4: CRC-32 of the blocks after it */
	u_int32_t ss_magic;		/*  8: SS_MAGIC */
	u_int32_t ss_next;		/* 12: first block of the next segment */
	u_int64_t ss_serial;		/* 16: one more than the previous */
	int64_t	  ss_create;		/* 24: when written (seconds) */
	u_int16_t ss_nfinfo;		/* 32: FINFOs that follow */
	u_int16_t ss_ninos;		/* 34: inode blocks at the end */
	u_int16_t ss_flags;		/* 36: SS_* */
	u_int16_t ss_nblocks;		/* 38: blocks after the summary */
	u_int32_t ss_ndelta;		/* 40: DELTAs after the FINFOs */
	u_int32_t ss_spare;		/* 44: zero */
};					/* 48 bytes, then the FINFOs */
#define SS_DIROP	0x01	/* holds (part of) a directory operation */
#define SS_CONT		0x02	/* ... which goes on in the next one */
#define SS_CLEAN	0x04	/* written for the cleaner (lfs_markv) */
#define SS_CKP		0x08	/* ends a checkpoint (ifile included) */
#define SS_TXN		0x10	/* holds (part of) a transaction's commit;
				 * SS_CONT as for a dirop */
#define SS_DATAONLY	0x20	/* only blocks of files whose inode it does
				 * not carry: roll-forward points the files
				 * at them (a forced write, lfs_dataonly) */

/* FINFO: which blocks of one file follow, in this order. */
typedef struct finfo {
	u_int32_t fi_nblocks;		/* blocks listed */
	u_int32_t fi_version;		/* the inode's version (IFILE) */
	u_int32_t fi_ino;		/* inode number */
	u_int32_t fi_lastlength;	/* bytes used in the last block */
	int32_t	  fi_blocks[1];		/* logical block numbers */
} FINFO;
#define FINFOSIZE	(sizeof(FINFO) - sizeof(int32_t))	/* no blocks */

/*
 * DELTA: a committed change to a block the disk already holds, carried
 * in the summary after the FINFOs instead of the whole block (a kernel
 * transaction's commit, lfs/lfs_txndelta.c; a plain file's fsync,
 * lfs/lfs_delta.c): roll-forward writes dr_len
 * bytes at dr_off of block dr_lbn of the file, and grows the file to
 * dr_size.  The bytes follow the record, padded to 4.
 */
typedef struct delta {
	u_int32_t dr_ino;		/* inode number */
	u_int32_t dr_version;		/* the inode's version (IFILE) */
	int32_t	  dr_lbn;		/* logical block */
	u_int16_t dr_off;		/* first byte changed */
	u_int16_t dr_len;		/* bytes changed */
	u_int64_t dr_size;		/* the file's size once committed */
} DELTA;				/* 24 bytes, then the bytes */
#define DELTASIZE(len)	(sizeof(DELTA) + (((len) + 3) & ~3u))

/*
 * What the cleaner tells the kernel about one block (lfs_bmapv,
 * lfs_markv): which file and logical block, where it found it, and its
 * copy of the data.  bi_lbn LFS_UNUSED_LBN means the file's inode.
 */
typedef struct block_info {
	u_int32_t bi_inode;		/* inode number */
	int32_t	  bi_lbn;		/* logical block, or LFS_UNUSED_LBN */
	u_int32_t bi_daddr;		/* where the cleaner found it */
	u_int32_t bi_version;		/* the FINFO's (the inode's) version */
	u_int32_t bi_segcreate;		/* its segment's last-modified time */
	void	 *bi_bp;		/* the data, in the cleaner's memory */
} BLOCK_INFO;
#define LFS_UNUSED_LBN	(-1)		/* no data block is -1 (6.3.1.2) */

/* What the mount's roll-forward did after a crash (lfs_rfw.c). */
struct lfs_rfwstats {
	int32_t	  unclean;		/* 1: it was not unmounted cleanly */
	int32_t	  psegs;		/* partial segments rolled forward */
	int32_t	  discarded;		/* ... discarded (unfinished dirop) */
	int32_t	  ms;			/* how long recovery took */
};

/*
 * The kernel's LFS counters (thesis 7.2), per file system; lfsstat
 * prints them (SYS_lfsstats).
 */
struct lfs_stats {
	u_int64_t segwrites;		/* runs of the segment writer */
	u_int64_t segs_used;		/* segments the writer moved into */
	u_int64_t ckps;			/* checkpoints */
	u_int64_t writes;		/* disk transfers issued */
	u_int64_t psegs;		/* partial segments */
	u_int64_t psegs_sync;		/* ... for fsync and sync */
	u_int64_t psegs_clean;		/* ... for the cleaner */
	u_int64_t psegs_dirop;		/* ... carrying a directory op */
	u_int64_t blocks;		/* blocks written, summaries too */
	u_int64_t blocks_clean;		/* ... for the cleaner */
	u_int64_t start_write;		/* start-write threshold reached */
	u_int64_t stop_access;		/* stop-access threshold reached */
	u_int64_t cleaner_waits;	/* writers that waited for space */
	u_int64_t segs_cleaned;		/* segments lfs_segclean returned */
	/* blocks written by kind (summaries: psegs) */
	u_int64_t blocks_data;		/* file data */
	u_int64_t blocks_indir;		/* indirect blocks */
	u_int64_t blocks_inode;		/* inode blocks */
	u_int64_t blocks_ifile;		/* the ifile's */
	u_int64_t files_dataonly;	/* files a forced write wrote data only */
	u_int64_t rfw_dataonly;		/* blocks roll-forward pointed files at
					 * from SS_DATAONLY summaries */
	u_int64_t blocks_moved;		/* the cleaner's copies (lfs_markv) */
	u_int64_t blocks_moved_hot;	/* ... data not at the cold head */
	u_int64_t blocks_cold;		/* users' rewrites at the cold head
					 * (lfs_writecold) */
	u_int64_t deltas;		/* DELTAs written (commits, and the
					 * checkpoints that log them again) */
	u_int64_t delta_bytes;		/* ... the bytes they carry */
	u_int64_t rfw_deltas;		/* DELTAs roll-forward applied */
	u_int64_t blocks_delta;		/* blocks a forced write logged as
					 * DELTAs instead (lfs_delta.c) */
	/* directory operations against the writer (thesis 6.3.3) */
	u_int64_t writer_waits;		/* sleeps of the writer for dirops
					 * in progress */
	u_int64_t dirop_waits;		/* sleeps of dirops at its gate */
	/* the state now, filled in by SYS_lfsstats */
	int64_t	  start_bytes, stop_bytes;	/* the thresholds (lfs_bio.c) */
	int32_t	  start_bufs, stop_bufs;
	int32_t	  locked_bufs;		/* B_LOCKED buffers now (all LFS) */
	int32_t	  clean_segs;		/* clean segments */
	int64_t	  locked_bytes;
	int32_t	  bfree, avail;		/* blocks (thesis 6.2.2) */
	int32_t	  promised;		/* of avail, to cached dirty blocks */
	int32_t	  cleanblocks;		/* log blocks of clean segments and
					 * of the current one past offset:
					 * avail + promised, if all is well */
	struct	lfs_rfwstats rfw;	/* the mount's roll-forward */
};

/* Parameters from the superblock. */
#define lfs_fsbtodb(fs, b)	((int64_t)(b) << (fs)->dlfs_fsbtodb)
#define lfs_dbtofsb(fs, db)	((u_int32_t)((db) >> (fs)->dlfs_fsbtodb))
#define lfs_sntod(fs, sn)	((u_int32_t)(sn) * (fs)->dlfs_ssize)
#define lfs_dtosn(fs, daddr)	((u_int32_t)(daddr) / (fs)->dlfs_ssize)
#define lfs_segbytes(fs)	((int64_t)(fs)->dlfs_ssize * (fs)->dlfs_bsize)

/* ifile block of segment sn's SEGUSE, and of inode ino's IFILE */
#define lfs_seguse_lbn(fs, sn)	((fs)->dlfs_cleansz + (sn) / (fs)->dlfs_sepb)
#define lfs_ifile_lbn(fs, ino)	((fs)->dlfs_cleansz + (fs)->dlfs_segtabsz + \
				    (ino) / (fs)->dlfs_ifpb)

/*
 * Pure helpers shared by the kernel and the tools (lfs/lfs_subr.c).
 */
u_int32_t lfs_crc32(u_int32_t crc, const void *buf, size_t len);
u_int32_t lfs_sbsum(const struct dlfs *);
const char *lfs_sbcheck(const struct dlfs *);	/* NULL, or what is wrong */
u_int32_t lfs_sssum(const struct dlfs *, const void *summary);
const char *lfs_sscheck(const struct dlfs *, const void *summary);
FINFO	*lfs_nextfinfo(const FINFO *);
DELTA	*lfs_firstdelta(const void *summary);
DELTA	*lfs_nextdelta(const DELTA *);
u_int32_t *lfs_inoaddrs(const struct dlfs *, const void *summary);
u_int32_t lfs_sbfirstblock(const struct dlfs *, u_int32_t sn);
u_int64_t lfs_maxfilesize(u_int32_t bsize);

#endif
