/*
 * mount(2), unmount(2) and statfs(2), in the 4.4BSD shape.
 *   mount(type, dir, flags, data): type is "ffs" (also "ufs"), "efs" or "lfs";
 *   for these data points to a struct ufs_args naming the block device.
 */
#ifndef _SYS_MOUNT_H_
#define _SYS_MOUNT_H_

#include <sys/types.h>

#define MFSNAMELEN	16
#define MNAMELEN	90

typedef struct fsid { int32_t val[2]; } fsid_t;

struct statfs {
	short	f_type;			/* type of file system */
	short	f_flags;		/* copy of mount flags */
	long	f_bsize;		/* fundamental block size */
	long	f_iosize;		/* optimal transfer block size */
	long	f_blocks;		/* total data blocks */
	long	f_bfree;		/* free blocks */
	long	f_bavail;		/* free blocks for non-superuser */
	long	f_files;		/* total inodes */
	long	f_ffree;		/* free inodes */
	fsid_t	f_fsid;
	uid_t	f_owner;		/* who mounted it */
	long	f_spare[4];
	char	f_fstypename[MFSNAMELEN];
	char	f_mntonname[MNAMELEN];
	char	f_mntfromname[MNAMELEN];
};

/* mount flags */
#define MNT_RDONLY	0x0001
#define MNT_SYNCHRONOUS	0x0002
#define MNT_NOEXEC	0x0004
#define MNT_NOSUID	0x0008
#define MNT_ASYNC	0x0040
#define MNT_UPDATE	0x00010000
#define MNT_FORCE	0x00080000	/* unmount: even if busy */

/* getfsstat(2) */
#define MNT_WAIT	1
#define MNT_NOWAIT	2

struct ufs_args {
	char	*fspec;			/* block special device to mount */
};

#endif
