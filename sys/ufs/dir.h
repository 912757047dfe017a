/*
 * UFS directories (4.4BSD format), shared by FFS, EFS and LFS.
 *
 * A directory is a file of DIRBLKSIZ-byte chunks.  Each chunk holds
 * variable-length entries, struct direct, and no entry crosses a chunk
 * boundary, so a chunk is written to disk atomically (one sector).  The
 * d_reclen of the last entry of a chunk runs to the end of the chunk; an
 * entry with d_ino == 0 is free space (only the first entry of a chunk is
 * ever empty that way, others are absorbed into the previous d_reclen).
 *
 * The layout is exactly struct dirent of <sys/dirent.h>: getdirentries(2)
 * hands directory blocks to user programs unchanged.
 *
 * This header includes nothing (see dinode.h).
 */
#ifndef _UFS_DIR_H_
#define _UFS_DIR_H_

#define DIRBLKSIZ	512		/* one sector: written atomically */

#ifndef MAXNAMLEN
#define MAXNAMLEN	255
#endif

struct direct {
	u_int32_t d_ino;		/* inode number; 0 = free space */
	u_int16_t d_reclen;		/* bytes from here to next entry */
	u_int8_t  d_type;		/* DT_ file type, as in <sys/dirent.h> */
	u_int8_t  d_namlen;		/* length of d_name, NUL excluded */
	char	  d_name[MAXNAMLEN + 1];	/* NUL-terminated name */
};

/*
 * File types in d_type: the same values as <sys/dirent.h> (and glibc),
 * defined here only if the includer has not seen them already.
 */
#ifndef DT_UNKNOWN
#define DT_UNKNOWN	 0
#define DT_FIFO		 1
#define DT_CHR		 2
#define DT_DIR		 4
#define DT_BLK		 6
#define DT_REG		 8
#define DT_LNK		10
#define DT_SOCK		12
#endif
#ifndef DT_WHT
#define DT_WHT		14
#endif

/* Convert between di_mode file types and d_type values. */
#define IFTODT(mode)	(((mode) & 0170000) >> 12)
#define DTTOIF(dirtype)	((dirtype) << 12)

/*
 * Bytes used by an entry with a name of namlen characters: the fixed
 * header (8 bytes) plus the name and its NUL rounded up to 4 bytes.
 */
#define DIRECTSIZ(namlen) \
	((sizeof(struct direct) - (MAXNAMLEN + 1)) + (((namlen) + 1 + 3) & ~3))

/*
 * The first two entries of every directory, "." and "..", as newfs and
 * mkdir write them.
 */
struct dirtemplate {
	u_int32_t	dot_ino;
	int16_t		dot_reclen;
	u_int8_t	dot_type;
	u_int8_t	dot_namlen;
	char		dot_name[4];	/* "." padded to 4 bytes */
	u_int32_t	dotdot_ino;
	int16_t		dotdot_reclen;
	u_int8_t	dotdot_type;
	u_int8_t	dotdot_namlen;
	char		dotdot_name[4];	/* ".." padded to 4 bytes */
};

#endif /* !_UFS_DIR_H_ */
