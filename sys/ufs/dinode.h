/*
 * The on-disk inode (4.4BSD layout, 128 bytes), shared by FFS, EFS and
 * LFS: the kernel's UFS layer, newfs, fsck_ffs, dumpfs and the host-side
 * image reader (tests/ffsimage.py) all read this one definition.
 *
 * Block pointers are in fragments of the file system (ufs_daddr_t).
 * NDADDR direct pointers map the first blocks of a file; NIADDR indirect
 * pointers map single, double and triple indirect blocks.  Only the last
 * block of a file shorter than NDADDR blocks may be a run of fragments.
 *
 * This header includes nothing: the includer provides the fixed-width BSD
 * types (u_int16_t, int32_t, u_int64_t ...) from its own <sys/types.h>.
 */
#ifndef _UFS_DINODE_H_
#define _UFS_DINODE_H_

#ifndef _UFS_DADDR_T_
#define _UFS_DADDR_T_
typedef int32_t	ufs_daddr_t;		/* fragment address on the disk */
#endif

/*
 * Inode 0 is never used (it marks an empty directory slot), inode 1 is
 * reserved (WINO; the LFS ifile also lives there), inode 2 is the root.
 * newfs creates lost+found at inode 3 by convention.
 */
#define WINO		((u_int32_t)1)
#define ROOTINO		((u_int32_t)2)
#define LOSTFOUNDINO	((u_int32_t)3)

#define NDADDR	12			/* direct addresses in inode */
#define NIADDR	3			/* indirect addresses in inode */

/*
 * A symbolic link whose target is shorter than MAXSYMLINKLEN bytes keeps
 * the target in the block pointers (a "fast" link, di_shortlink) and owns
 * no data block; longer targets live in an ordinary data block.
 */
#define MAXSYMLINKLEN	((NDADDR + NIADDR) * (int)sizeof(ufs_daddr_t))

struct dinode {
	u_int16_t	di_mode;	/*   0: IFMT and permissions */
	int16_t		di_nlink;	/*   2: directory entries */
	union {
		u_int32_t inumber;	/*   4: LFS: the inode's own number */
		u_int16_t oldids[2];	/*      4.3BSD uid/gid, unused */
	} di_u;
	u_int64_t	di_size;	/*   8: file size in bytes */
	int32_t		di_atime;	/*  16: last access */
	int32_t		di_atimensec;	/*  20 */
	int32_t		di_mtime;	/*  24: last modified */
	int32_t		di_mtimensec;	/*  28 */
	int32_t		di_ctime;	/*  32: last inode change */
	int32_t		di_ctimensec;	/*  36 */
	ufs_daddr_t	di_db[NDADDR];	/*  40: direct blocks */
	ufs_daddr_t	di_ib[NIADDR];	/*  88: indirect blocks */
	u_int32_t	di_flags;	/* 100: chflags(2) flags */
	int32_t		di_blocks;	/* 104: 512-byte sectors held */
	int32_t		di_gen;		/* 108: generation number */
	u_int32_t	di_uid;		/* 112: file owner */
	u_int32_t	di_gid;		/* 116: file group */
	int32_t		di_spare[2];	/* 120: reserved */
};								/* 128 bytes */

/* di_flags: transaction protection, chflags(2)'s UF_TXN (sys/stat.h). */
#define DI_TXN		0x00000020

#define di_inumber	di_u.inumber
#define di_rdev		di_db[0]	/* device number of IFCHR/IFBLK */
#define di_shortlink	di_db		/* fast symlink target */

/* File types and permission bits of di_mode (as in 4.4BSD). */
#define IFMT		0170000		/* mask of file type */
#define IFIFO		0010000		/* named pipe (fifo) */
#define IFCHR		0020000		/* character device */
#define IFDIR		0040000		/* directory file */
#define IFBLK		0060000		/* block device */
#define IFREG		0100000		/* regular file */
#define IFLNK		0120000		/* symbolic link */
#define IFSOCK		0140000		/* UNIX domain socket */
#define IFWHT		0160000		/* whiteout (reserved) */

#define ISUID		04000		/* set user id on execution */
#define ISGID		02000		/* set group id on execution */
#define ISVTX		01000		/* sticky bit */
#define IREAD		0400		/* owner permissions */
#define IWRITE		0200
#define IEXEC		0100

#endif /* !_UFS_DINODE_H_ */
