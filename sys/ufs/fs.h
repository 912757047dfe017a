/*
 * The FFS on-disk format: superblock (struct fs), cylinder groups
 * (struct cg) and the macros that turn inode numbers, file offsets and
 * fragment numbers into each other.  4.4BSD names and meanings; one
 * definition for the kernel (ffs/), newfs, fsck_ffs, dumpfs and the host
 * reader tests/ffsimage.py.  EFS is FFS with FS_EFS set in fs_flags.
 *
 * Units: a block (fs_bsize, 4096..65536 bytes) is fs_frag (1, 2, 4 or 8)
 * fragments of fs_fsize bytes.  Every disk address in the file system is
 * a fragment number (ufs_daddr_t) counted from the start of the partition;
 * fsbtodb() turns it into a DEV_BSIZE (512-byte) sector number.
 *
 * Layout: the disk is cut into fs_ncg cylinder groups of fs_fpg fragments
 * (fs_cpg cylinders each; the last group may be shorter).  Inside group c,
 * at fragment offsets from cgbase(fs, c):
 *
 *	[0, fs_sblkno)		data, except in cg 0 where the boot area
 *				(BBSIZE, holds the disk label) and the primary
 *				superblock (SBOFF, SBSIZE) live
 *	fs_sblkno		a copy of the superblock (backup for fsck -b)
 *	fs_cblkno		the cylinder group block (struct cg + maps)
 *	fs_iblkno		fs_ipg inodes
 *	fs_dblkno ...		data; in cg 0 the summary array (fs_csaddr,
 *				fs_cssize bytes: one struct csum per group)
 *				comes first
 *
 * Simplifications against 4.4BSD, on purpose: no cylinder-group
 * staggering (fs_cgoffset/fs_cgmask: cgstart == cgbase), no rotational
 * position tables (fs_nrpos, fs_postbl, fs_rotbl, cg_btot, cg_b), and no
 * in-core pointers inside struct fs (fs_csp, fs_maxcluster): the kernel
 * keeps those in its own mount structure, so struct fs has the same
 * layout on the 64-bit host as on the i386 guest.
 *
 * Prototypes of the pure helpers in ffs/ffs_subr.c are at the bottom.
 *
 * This header includes nothing; include sys/ufs/dinode.h before it (the
 * macros use NDADDR and ufs_daddr_t).
 */
#ifndef _UFS_FS_H_
#define _UFS_FS_H_

#define BBSIZE		8192		/* boot area, holds the label */
#define SBSIZE		8192		/* space reserved for a superblock */
#define BBOFF		((int64_t)0)
#define SBOFF		((int64_t)(BBOFF + BBSIZE))	/* primary: byte 8192 */
#define BBLOCK		((ufs_daddr_t)0)	/* in 512-byte sectors */
#define SBLOCK		((ufs_daddr_t)(SBOFF / 512))	/* sector 16 */

#define MINBSIZE	4096		/* smallest block size */
#define FS_MAXBSIZE	65536		/* largest block size */
#define MAXFRAG		8		/* most fragments in a block */
#define MAXMNTLEN	128		/* bytes of fs_fsmnt */

/*
 * Space kept free for the superuser, in percent; below 5% the allocator
 * cannot find contiguous blocks, so newfs switches to FS_OPTSPACE.
 */
#define MINFREE		5
#define FS_OPTTIME	0		/* minimize allocation time */
#define FS_OPTSPACE	1		/* minimize disk fragmentation */
#define DEFAULTOPT	FS_OPTTIME

/* Longest cluster summarised per cylinder group (cg_clustersum). */
#define FS_MAXCONTIG	16

#define FS_MAGIC	0x011954	/* superblock magic */
#define CG_MAGIC	0x090255	/* cylinder group magic */

/* fs_flags */
#define FS_EFS		0x01		/* EFS: cluster reads and writes */

/* Free-space summary of a cylinder group, or of the file system. */
struct csum {
	int32_t	cs_ndir;		/* number of directories */
	int32_t	cs_nbfree;		/* number of free blocks */
	int32_t	cs_nifree;		/* number of free inodes */
	int32_t	cs_nffree;		/* free fragments not in free blocks */
};

/*
 * The superblock, 1024 bytes.  Read from SBOFF; copies at cgsblock(c) in
 * every group.  Offsets are given for the host reader.
 */
struct fs {
	int32_t	 fs_sblkno;		/*   0: superblock copy, in cg */
	int32_t	 fs_cblkno;		/*   4: cylinder group block, in cg */
	int32_t	 fs_iblkno;		/*   8: inode blocks, in cg */
	int32_t	 fs_dblkno;		/*  12: first data after inodes, in cg */
	int32_t	 fs_time;		/*  16: last time written */
	int32_t	 fs_size;		/*  20: fragments in the file system */
	int32_t	 fs_dsize;		/*  24: fragments available for data */
	int32_t	 fs_ncg;		/*  28: number of cylinder groups */
	int32_t	 fs_bsize;		/*  32: block size */
	int32_t	 fs_fsize;		/*  36: fragment size */
	int32_t	 fs_frag;		/*  40: fragments per block */
	int32_t	 fs_minfree;		/*  44: percent kept free */
	int32_t	 fs_rotdelay;		/*  48: ms between blocks (FFS gap) */
	int32_t	 fs_rps;		/*  52: disk revolutions per second */
	int32_t	 fs_bmask;		/*  56: ~(fs_bsize - 1) */
	int32_t	 fs_fmask;		/*  60: ~(fs_fsize - 1) */
	int32_t	 fs_bshift;		/*  64: log2(fs_bsize) */
	int32_t	 fs_fshift;		/*  68: log2(fs_fsize) */
	int32_t	 fs_maxcontig;		/*  72: blocks laid out contiguously */
	int32_t	 fs_maxbpg;		/*  76: blocks of a file per group */
	int32_t	 fs_fragshift;		/*  80: log2(fs_frag) */
	int32_t	 fs_fsbtodb;		/*  84: log2(fs_fsize / 512) */
	int32_t	 fs_sbsize;		/*  88: bytes of superblock written */
	int32_t	 fs_nindir;		/*  92: pointers per indirect block */
	int32_t	 fs_inopb;		/*  96: inodes per block */
	int32_t	 fs_optim;		/* 100: FS_OPTTIME or FS_OPTSPACE */
	int32_t	 fs_id[2];		/* 104: unique file system id */
	int32_t	 fs_csaddr;		/* 112: fragment of summary array */
	int32_t	 fs_cssize;		/* 116: bytes of summary array */
	int32_t	 fs_cgsize;		/* 120: bytes of cylinder group block */
	int32_t	 fs_ntrak;		/* 124: tracks per cylinder */
	int32_t	 fs_nsect;		/* 128: sectors per track */
	int32_t	 fs_spc;		/* 132: sectors per cylinder */
	int32_t	 fs_ncyl;		/* 136: cylinders in the file system */
	int32_t	 fs_cpg;		/* 140: cylinders per group */
	int32_t	 fs_ipg;		/* 144: inodes per group */
	int32_t	 fs_fpg;		/* 148: fragments per group */
	struct	csum fs_cstotal;	/* 152: totals over all groups */
	int8_t	 fs_fmod;		/* 168: in core: superblock modified */
	int8_t	 fs_clean;		/* 169: unmounted cleanly */
	int8_t	 fs_ronly;		/* 170: in core: mounted read-only */
	u_int8_t fs_flags;		/* 171: FS_EFS */
	char	 fs_fsmnt[MAXMNTLEN];	/* 172: where last mounted */
	int32_t	 fs_cgrotor;		/* 300: last group searched */
	int32_t	 fs_contigsumsize;	/* 304: cluster summary length */
	int32_t	 fs_maxsymlinklen;	/* 308: longest fast symlink + 1 */
	int64_t	 fs_maxfilesize;	/* 312: largest file size */
	int32_t	 fs_sparecon[175];	/* 320: reserved, zero */
	int32_t	 fs_magic;		/* 1020: FS_MAGIC */
};					/* 1024 bytes */

/*
 * The cylinder group block, fs_cgsize bytes at cgtod(fs, c).  The fixed
 * header is followed, inside the same block, by the maps it points to:
 *
 *	cg_iusedoff	inode map, fs_ipg bits, 1 = inode in use
 *	cg_freeoff	fragment map, fs_fpg bits, 1 = fragment free
 *	cg_clustersumoff (only if fs_contigsumsize > 0) int32_t counts of
 *			free clusters of 1..fs_contigsumsize blocks (index 0
 *			unused; the last counts clusters that long or longer)
 *	cg_clusteroff	(idem) block map, 1 = whole block free
 *	cg_nextfreeoff	end of the used part
 *
 * ffs_cginit() computes these offsets; ffs_cgcheck() insists on them.
 */
struct cg {
	int32_t	 cg_magic;		/*   0: CG_MAGIC */
	int32_t	 cg_time;		/*   4: last time written */
	int32_t	 cg_cgx;		/*   8: this group's index */
	int32_t	 cg_ncyl;		/*  12: cylinders in this group */
	int32_t	 cg_niblk;		/*  16: inodes in this group */
	int32_t	 cg_ndblk;		/*  20: fragments in this group */
	struct	csum cg_cs;		/*  24: free-space summary */
	int32_t	 cg_rotor;		/*  40: last block allocated */
	int32_t	 cg_frotor;		/*  44: last fragment allocated */
	int32_t	 cg_irotor;		/*  48: last inode allocated */
	int32_t	 cg_frsum[MAXFRAG];	/*  52: free runs by length 1..frag-1 */
	int32_t	 cg_iusedoff;		/*  84: inode map */
	int32_t	 cg_freeoff;		/*  88: fragment free map */
	int32_t	 cg_nextfreeoff;	/*  92: end of maps */
	int32_t	 cg_clustersumoff;	/*  96: cluster counts, or 0 */
	int32_t	 cg_clusteroff;		/* 100: cluster map, or 0 */
	int32_t	 cg_nclusterblks;	/* 104: blocks in the cluster map */
	int32_t	 cg_sparecon[5];	/* 108: reserved, zero */
};					/* 128 bytes, then the maps */

#define cg_chkmagic(cgp)	((cgp)->cg_magic == CG_MAGIC)
#define cg_inosused(cgp) \
	((u_int8_t *)((u_int8_t *)(cgp) + (cgp)->cg_iusedoff))
#define cg_blksfree(cgp) \
	((u_int8_t *)((u_int8_t *)(cgp) + (cgp)->cg_freeoff))
#define cg_clustersfree(cgp) \
	((u_int8_t *)((u_int8_t *)(cgp) + (cgp)->cg_clusteroff))
#define cg_clustersum(cgp) \
	((int32_t *)((u_int8_t *)(cgp) + (cgp)->cg_clustersumoff))

/* Bit maps (4.4BSD has these in <sys/param.h>; ours does not). */
#ifndef NBBY
#define NBBY		8		/* bits per byte */
#endif
#ifndef setbit
#define setbit(a, i)	((a)[(i) / NBBY] |= 1 << ((i) % NBBY))
#define clrbit(a, i)	((a)[(i) / NBBY] &= ~(1 << ((i) % NBBY)))
#define isset(a, i)	((a)[(i) / NBBY] & (1 << ((i) % NBBY)))
#define isclr(a, i)	(((a)[(i) / NBBY] & (1 << ((i) % NBBY))) == 0)
#endif
#ifndef howmany
#define howmany(x, y)	(((x) + ((y) - 1)) / (y))
#endif

/*
 * Upper bound of the bytes a cylinder group block needs; newfs makes
 * sure it fits in one block.
 */
#define CGSIZE(fs) \
	((int32_t)sizeof(struct cg) + howmany((fs)->fs_ipg, NBBY) + \
	howmany((fs)->fs_fpg, NBBY) + \
	((fs)->fs_contigsumsize <= 0 ? 0 : \
	(int32_t)sizeof(int32_t) - 1 + \
	((fs)->fs_contigsumsize + 1) * (int32_t)sizeof(int32_t) + \
	howmany(fragstoblks(fs, (fs)->fs_fpg), NBBY)))

/*
 * Cylinder group addresses, in fragments.  Without staggering a group
 * starts at its base.
 */
#define cgbase(fs, c)	((ufs_daddr_t)((fs)->fs_fpg * (c)))
#define cgstart(fs, c)	cgbase(fs, c)
#define cgsblock(fs, c)	(cgstart(fs, c) + (fs)->fs_sblkno)	/* sb copy */
#define cgtod(fs, c)	(cgstart(fs, c) + (fs)->fs_cblkno)	/* cg block */
#define cgimin(fs, c)	(cgstart(fs, c) + (fs)->fs_iblkno)	/* inodes */
#define cgdmin(fs, c)	(cgstart(fs, c) + (fs)->fs_dblkno)	/* 1st data */

/* Inode number to group, to the fragment holding it, and slot there. */
#define ino_to_cg(fs, x)	((int32_t)((x) / (fs)->fs_ipg))
#define ino_to_fsba(fs, x) \
	((ufs_daddr_t)(cgimin(fs, ino_to_cg(fs, x)) + \
	blkstofrags((fs), (((x) % (fs)->fs_ipg) / INOPB(fs)))))
#define ino_to_fsbo(fs, x)	((int32_t)((x) % INOPB(fs)))

/* Fragment number to group, and offset within the group. */
#define dtog(fs, d)	((int32_t)((d) / (fs)->fs_fpg))
#define dtogd(fs, d)	((int32_t)((d) % (fs)->fs_fpg))

/* Fragment numbers <-> sectors, blocks <-> fragments. */
#define fsbtodb(fs, b)	((b) << (fs)->fs_fsbtodb)
#define dbtofsb(fs, b)	((b) >> (fs)->fs_fsbtodb)
#define blkstofrags(fs, blks)	((blks) << (fs)->fs_fragshift)
#define fragstoblks(fs, frags)	((frags) >> (fs)->fs_fragshift)
#define fragnum(fs, fsb)	((fsb) & ((fs)->fs_frag - 1))	/* in block */
#define blknum(fs, fsb)		((fsb) &~ ((fs)->fs_frag - 1))	/* block start */

/*
 * Byte offsets and sizes.  A file offset may exceed 32 bits, so results
 * that are byte counts are computed in 64 bits; ~fs_bmask is a small
 * positive int and masks 64-bit offsets correctly.
 */
#define blkoff(fs, loc)		((loc) & ~(fs)->fs_bmask)	/* in block */
#define fragoff(fs, loc)	((loc) & ~(fs)->fs_fmask)	/* in frag */
#define lblkno(fs, loc)		((loc) >> (fs)->fs_bshift)	/* logical blk */
#define numfrags(fs, loc)	((loc) >> (fs)->fs_fshift)	/* whole frags */
#define lblktosize(fs, blk)	((int64_t)(blk) << (fs)->fs_bshift)
#define smalllblktosize(fs, blk) ((blk) << (fs)->fs_bshift)	/* int */
#define blkroundup(fs, size) \
	(((size) + (fs)->fs_bsize - 1) & (fs)->fs_bmask)
#define fragroundup(fs, size) \
	(((size) + (fs)->fs_fsize - 1) & (fs)->fs_fmask)

/*
 * Bytes held by logical block lbn of a file of the given size: a full
 * block, except the last block of a file shorter than NDADDR blocks,
 * which holds only the fragments it needs.  4.4BSD's blksize() takes the
 * inode; ours takes its size so that kernel and tools share it.
 */
#define sblksize(fs, size, lbn) \
	(((lbn) >= NDADDR || \
	(int64_t)(size) >= ((int64_t)(lbn) + 1) << (fs)->fs_bshift) ? \
	(fs)->fs_bsize : (int32_t)fragroundup(fs, blkoff(fs, (int64_t)(size))))
#define blksize(fs, size, lbn)	sblksize(fs, size, lbn)

#define NINDIR(fs)	((fs)->fs_nindir)	/* pointers per indirect blk */
#define INOPB(fs)	((fs)->fs_inopb)	/* inodes per block */
#define NSPF(fs)	(1 << (fs)->fs_fsbtodb)	/* sectors per fragment */
#define NSPB(fs)	(NSPF(fs) << (fs)->fs_fragshift)	/* per block */

/*
 * The fs_frag map bits of the block starting at fragment loc (a multiple
 * of fs_frag, so the bits never straddle a byte) of a fragment map.
 */
#define blkmap(fs, map, loc) \
	(((map)[(loc) / NBBY] >> ((loc) % NBBY)) & \
	(0xff >> (NBBY - (fs)->fs_frag)))

/*
 * Pure helpers, ffs/ffs_subr.c: integer code only, linked into the
 * kernel and into newfs, fsck_ffs and dumpfs.  Block numbers h and blkno
 * are in blocks relative to the start of the cylinder group.
 */
int	 ffs_isblock(const struct fs *, const u_int8_t *, ufs_daddr_t);
void	 ffs_setblock(const struct fs *, u_int8_t *, ufs_daddr_t);
void	 ffs_clrblock(const struct fs *, u_int8_t *, ufs_daddr_t);
void	 ffs_fragacct(const struct fs *, int, int32_t [], int);
int	 ffs_clusteracct(const struct fs *, struct cg *, ufs_daddr_t, int);
int32_t	 ffs_cgndblk(const struct fs *, int);
void	 ffs_cginit(const struct fs *, struct cg *, int);
void	 ffs_cgrecount(const struct fs *, struct cg *);
int64_t	 ffs_maxfilesize(int32_t);
const char *ffs_sbcheck(const struct fs *);
const char *ffs_cgcheck(const struct fs *, const struct cg *, int);

#endif /* !_UFS_FS_H_ */
