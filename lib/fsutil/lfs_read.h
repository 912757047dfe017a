/*
 * Reading a BSD-LFS from user space, shared by dumplfs and fsck_lfs
 * (lib/fsutil/lfs_read.c).  Each tool opens the device its own way and
 * hands its reader in: rd(off, buf, len) reads len bytes at byte offset
 * off (a multiple of 512) and returns 0 on error.
 */
#ifndef _FSUTIL_LFS_READ_H_
#define _FSUTIL_LFS_READ_H_

struct dlfs;
struct dinode;
struct segsum;

typedef int (*lfs_rdfn)(int64_t off, void *buf, size_t len);

/* Block daddr of fs; 0 if it is outside the file system or unreadable. */
int	 lfs_bread(lfs_rdfn rd, const struct dlfs *fs, u_int32_t daddr,
	    void *buf);

/*
 * The superblock copies and the checkpoint (thesis 6.1.2).
 * lfs_findlayout: a good copy to take the layout (sboffs) from, in *ref;
 * 0 if there is none, and *copy0why says what is wrong with copy 0.
 * lfs_readcopies: every copy ref lists, read into sb[LFS_NSB] and
 * checked (why[i] NULL: good); the index of the checkpoint, or -1.
 */
int	 lfs_findlayout(lfs_rdfn rd, struct dlfs *ref, const char **copy0why);
int	 lfs_readcopies(lfs_rdfn rd, const struct dlfs *ref, struct dlfs *sb,
	    const char **why);

/* Inode ino from the inode block at daddr; 0 if it is not there. */
int	 lfs_getinode(lfs_rdfn rd, const struct dlfs *fs, u_int32_t daddr,
	    u_int32_t ino, struct dinode *dp);

/*
 * A partial segment (thesis 6.2.3): lfs_readpseg reads the summary at
 * daddr into sum (dlfs_bsize bytes) and says what it is; *why names the
 * trouble for LFS_PSEG_UNREAD, _BAD and _LONG (NULL otherwise).
 * lfs_datasum: the checksum of the blocks the summary at daddr covers in
 * *crc, read through blk (dlfs_bsize bytes); 0, or the address of the
 * first block that cannot be read.
 */
#define LFS_PSEG_OK	0	/* a partial segment of the walk */
#define LFS_PSEG_UNREAD	1	/* the summary block cannot be read */
#define LFS_PSEG_ZERO	2	/* a zero block: the log simply ends */
#define LFS_PSEG_BAD	3	/* not a valid summary */
#define LFS_PSEG_SERIAL	4	/* serial not in (prev, last]: not this log */
#define LFS_PSEG_LONG	5	/* runs past the end of its segment */
int	 lfs_readpseg(lfs_rdfn rd, const struct dlfs *fs, u_int32_t daddr,
	    u_int64_t prev, u_int64_t last, void *sum, const char **why);
u_int32_t lfs_datasum(lfs_rdfn rd, const struct dlfs *fs,
	    const struct segsum *ss, u_int32_t daddr, void *blk,
	    u_int32_t *crc);

#endif
