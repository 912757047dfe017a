/*
 * struct stat and file mode bits, laid out as in 4.4BSD.
 */
#ifndef _SYS_STAT_H_
#define _SYS_STAT_H_

#include <sys/types.h>
#include <sys/time.h>

struct stat {
	dev_t	  st_dev;		/* device holding the inode */
	ino_t	  st_ino;		/* inode number */
	mode_t	  st_mode;		/* type and permissions */
	nlink_t	  st_nlink;		/* number of hard links */
	uid_t	  st_uid;
	gid_t	  st_gid;
	dev_t	  st_rdev;		/* device type, for special files */
	struct timespec st_atimespec;	/* last access */
	struct timespec st_mtimespec;	/* last data modification */
	struct timespec st_ctimespec;	/* last inode change */
	off_t	  st_size;		/* file size in bytes */
	int64_t	  st_blocks;		/* 512-byte blocks allocated */
	u_int32_t st_blksize;		/* optimal I/O size */
	u_int32_t st_flags;
	u_int32_t st_gen;
	int32_t	  st_lspare;
	int64_t	  st_qspare[2];
};
#define st_atime st_atimespec.tv_sec
#define st_mtime st_mtimespec.tv_sec
#define st_ctime st_ctimespec.tv_sec

#define S_IFMT	 0170000		/* type of file */
#define S_IFIFO	 0010000		/* named pipe (fifo) */
#define S_IFCHR	 0020000		/* character special */
#define S_IFDIR	 0040000		/* directory */
#define S_IFBLK	 0060000		/* block special */
#define S_IFREG	 0100000		/* regular */
#define S_IFLNK	 0120000		/* symbolic link */
#define S_IFSOCK 0140000		/* socket */
#define S_ISUID	 0004000
#define S_ISGID	 0002000
#define S_ISVTX	 0001000
#define S_IRWXU	 0000700
#define S_IRUSR	 0000400
#define S_IWUSR	 0000200
#define S_IXUSR	 0000100
#define S_IRWXG	 0000070
#define S_IRGRP	 0000040
#define S_IWGRP	 0000020
#define S_IXGRP	 0000010
#define S_IRWXO	 0000007
#define S_IROTH	 0000004
#define S_IWOTH	 0000002
#define S_IXOTH	 0000001

#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)	(((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m)	(((m) & S_IFMT) == S_IFBLK)
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#define S_ISFIFO(m)	(((m) & S_IFMT) == S_IFIFO)
#define S_ISLNK(m)	(((m) & S_IFMT) == S_IFLNK)
#define S_ISSOCK(m)	(((m) & S_IFMT) == S_IFSOCK)

/* st_flags, set by chflags(2): the only one this system has. */
#define UF_TXN		0x00000020	/* (DI_TXN on disk) transaction-
					 * protected: reads and
					 * writes are page-locked, dirty pages
					 * kept until commit (BSD-LFS only) */

#endif
