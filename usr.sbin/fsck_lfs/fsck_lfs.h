/*
 * fsck_lfs: shared declarations (thesis 6.2.4: the file system check an
 * LFS still wants, though roll-forward makes it rare).
 *
 *	main.c		options, disk I/O, the problem list, the passes in
 *			order and the re-check when the checkpoint moves
 *	super.c		pass 1: the superblock copies and the checkpoint
 *	log.c		pass 2: summaries and data checksums of the log
 *	inode.c		the ifile in memory; pass 3: inodes and their blocks
 *	dir.c		pass 4: directories, reachability, link counts
 *	segs.c		passes 5-7: segment usage, free list, totals
 *	write.c		repair: the changes as new partial segments and a
 *			new checkpoint, written the way the kernel would
 *
 * The model: the checkpoint's ifile whole in memory, and for every
 * inode number its dinode (struct inoinfo).  A repair edits the model
 * (marking what it changed dirty) and write.c appends it to the log;
 * nothing on disk is ever overwritten but the superblock copies.
 */
#ifndef _FSCK_LFS_H_
#define _FSCK_LFS_H_

#include "lib/fsutil/fsutil.h"

/* Exit statuses. */
#define FSCK_OK		0		/* consistent, or all repaired */
#define FSCK_PROBLEMS	1		/* problems found or left */
#define FSCK_FAIL	2		/* usage, or cannot read the fs */

/* Inode states (struct inoinfo's is_state). */
#define IS_FREE		0		/* if_daddr 0 */
#define IS_ALLOC	1		/* its dinode found and sane */
#define IS_BAD		2		/* mapped, but no sane dinode there */

/* Inode flags (is_flags). */
#define IF_REACHED	0x01		/* pass 4 found it from the root */
#define IF_DIRTY	0x02		/* repaired: write.c writes it */
#define IF_BADPTR	0x04		/* holds a bad block pointer */

struct inoinfo {
	struct	dinode is_di;		/* the inode (for IS_ALLOC) */
	u_int32_t is_daddr;		/* its inode block (the map's) */
	u_int32_t is_parent;		/* pass 4: the directory naming it */
	int32_t	is_nentries;		/* pass 4: directory entries naming it */
	u_int32_t is_nblocks;		/* pass 3: blocks it points to */
	u_int8_t is_state;
	u_int8_t is_flags;
};

/* A file block a repair changed (directory or indirect), to be written. */
struct dirtyblk {
	u_int32_t db_ino;
	int32_t	db_lbn;
	u_int32_t db_daddr;		/* where it is now (new, once placed) */
	u_int8_t *db_data;
	struct	dirtyblk *db_next;
};

/* Owners of blocks that are no file's, in the block owner map. */
#define OWN_NONE	0
#define OWN_SUMMARY	0xffffffffu	/* a partial segment's summary */
#define OWN_SUPER	0xfffffffeu	/* a superblock copy */
#define OWN_INOBLK	0xfffffffdu	/* an inode block of the log */
#define OWN_GAP		0xfffffffcu	/* after a broken summary: unknown */

extern struct dlfs fs;			/* the checkpoint checked */
extern const char *special;
extern int yflag, qflag, fflag;
extern int64_t now;

extern struct inoinfo *inos;		/* [nent] */
extern u_int32_t nent;			/* IFILE entries */
extern struct dinode ifino;		/* the ifile's inode */
extern u_int8_t *ifbuf;			/* its blocks, in memory */
extern u_int32_t ifnblk;		/* ... how many */
extern u_int32_t *owner;		/* [dlfs_size]: inode owning a block */
extern int64_t *live;			/* [nseg]: live bytes counted */
extern int64_t nlive;			/* live file blocks counted */
extern u_int32_t nalloc;		/* allocated inodes counted */
extern struct dirtyblk *dirtyblks;
extern u_int8_t *segbroken;		/* [nseg]: segments -y cleans */

/* main.c */
int	 bread(u_int32_t, void *);
int	 rdbytes(int64_t, void *, size_t);
int	 bwrite(u_int32_t, const void *, size_t);
int	 problem(int, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	 note(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
#define NOFIX	0			/* problem(): not repairable here */
#define FIX	1			/* ... repaired by -y */

/* super.c */
int	 pass1(int);
u_int64_t sb_newest(void);
int	 sb_writeall(void);

/* log.c */
void	 pass2(void);
int	 sumfix_write(void);

/* inode.c */
int	 ifile_read(void);
IFILE	*ifentry(u_int32_t);
SEGUSE	*seguse(u_int32_t);
u_int8_t *fileblk(u_int32_t, int32_t, u_int32_t);
void	 mkdirty(u_int32_t, int32_t, u_int32_t, u_int8_t *);
struct dirtyblk *dirtyblk(u_int32_t, int32_t);
/* A walk's function on one block pointer: 1 keeps a change of it. */
typedef int (*blkfn)(u_int32_t, int32_t, u_int32_t *, void *);
void	 walkfile(u_int32_t, struct dinode *, blkfn, void *);
void	 pass3(void);
void	 account(void);
void	 freeino(u_int32_t);

/* dir.c */
void	 pass4(void);

/* segs.c */
void	 pass5(void);
void	 pass6(void);
void	 pass7(void);
int64_t	 availblocks(void);
int	 headseg(u_int32_t);
u_int32_t pickseg(u_int32_t, int (*)(u_int32_t));
void	 fixnextseg(void);
void	 fixcnextseg(void);
void	 recount(void);

/* write.c */
extern u_int32_t nmoved;		/* broken segments the repair emptied */
extern u_int32_t ndeferred;		/* ... left for want of room */
int	 writelog(int);

#endif /* !_FSCK_LFS_H_ */
