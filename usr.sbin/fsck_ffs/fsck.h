/*
 * fsck_ffs: shared declarations.
 *
 * The checker works as 4.4BSD's fsck, in the five phases of the thesis'
 * table 6-2, one file each:
 *
 *	pass1.c	 Phase 1: read every inode; check its type, size and block
 *		 pointers; claim its blocks in an in-memory block map (a
 *		 block claimed twice is a DUP, one outside the file system is
 *		 BAD); remember each directory's blocks (struct inoinfo).
 *	pass1b.c Phase 1b: if there were DUPs, find the first claimants.
 *	pass2.c	 Phase 2: read every directory, in disk order: check "."
 *		 and "..", remove entries that point at unallocated or
 *		 cleared inodes, count the references each inode receives.
 *	pass3.c	 Phase 3: reconnect directories that cannot be reached
 *		 from the root to lost+found.
 *	pass4.c	 Phase 4: compare each inode's link count with the
 *		 references counted; reconnect or clear unreferenced files.
 *	pass5.c	 Phase 5: rebuild each cylinder group's maps and counts
 *		 from what phases 1-4 found and compare with the disk.
 *
 * Helpers: setup.c (superblock, -b), utilities.c (I/O, questions, the
 * block map), inode.c (inode access, walking a file's blocks), dir.c
 * (directory scans and edits, lost+found).
 *
 * Inode states (statemap), as 4.4BSD:
 *	USTATE	not allocated
 *	FSTATE	allocated, not a directory
 *	DSTATE	directory, not (yet) reached from the root
 *	DFOUND	directory reached from the root
 *	DCLEAR	directory to be cleared (bad or duplicate blocks, size 0)
 *	FCLEAR	file to be cleared (bad or duplicate blocks)
 * lncntp[ino] starts as the inode's link count; every reference found
 * takes one off, so at phase 4 it is what the link count is off by.
 *
 * I/O is write-through: every change goes to the disk at once, so there
 * is no cache to flush and no ordering to get wrong.  With -n the file
 * system is opened read-only and nothing is written.
 */
#ifndef _FSCK_H_
#define _FSCK_H_

#include "lib/fsutil/fsutil.h"

#define USTATE	01
#define FSTATE	02
#define DSTATE	03
#define DFOUND	04
#define DCLEAR	05
#define FCLEAR	06

#define EEXIT	8		/* exit status: problems remain */
#define MAXBAD	10		/* bad blocks tolerated per inode */
#define MAXDUP	10		/* duplicate blocks tolerated per inode */
#define MAXPATH	1024

#ifndef roundup
#define roundup(x, y)	((((x) + ((y) - 1)) / (y)) * (y))
#endif

/* What a scan does with each block or directory entry. */
struct inodesc {
	int	 id_type;		/* ADDR: blocks, DATA: dir entries */
	int	(*id_func)(struct inodesc *);
	u_int32_t id_number;		/* inode being scanned */
	u_int32_t id_parent;		/* its parent, or the inode to enter */
	ufs_daddr_t id_blkno;		/* current block */
	int	 id_numfrags;		/* fragments in current block */
	int64_t	 id_filesize;		/* DATA: bytes of directory left */
	int64_t	 id_dirsize;		/* DATA: size of the directory */
	int	 id_loc;		/* DATA: offset of the entry in block */
	int	 id_entryno;		/* entries seen, or fragments counted */
	struct	direct *id_dirp;	/* DATA: current entry */
	char	*id_name;		/* name to find, make or return */
	int	 id_fix;		/* DONTKNOW, NOFIX, FIX or IGNORE */
};
#define ADDR	1
#define DATA	2

/* Scan function results (bits). */
#define STOP	0x01		/* stop the scan */
#define SKIP	0x02		/* do not descend into this block */
#define KEEPON	0x04		/* go on */
#define ALTERED	0x08		/* the entry (block) was changed */
#define FOUND	0x10		/* findino/findname succeeded */

/* id_fix: a question asked once per scan. */
#define DONTKNOW 0
#define NOFIX	1
#define FIX	2
#define IGNORE	3		/* lookups: never ask, skip bad entries */

/* What phase 1 remembers of a directory. */
struct inoinfo {
	u_int32_t i_number;		/* the directory's inode */
	u_int32_t i_parent;		/* entry found in a directory, or 0 */
	u_int32_t i_dotdot;		/* its "..", 0 unknown, -1 unfixable */
	int64_t	 i_isize;		/* size */
	ufs_daddr_t i_blks[NDADDR + NIADDR];	/* block pointers */
};

/* A block claimed more than once; count = claims beyond the first. */
struct dup {
	ufs_daddr_t blkno;
	int	 count;
};

extern struct fs sblock;
extern char	*cdevname;		/* the device being checked */
extern int	 nflag, yflag, preen;
extern int	 fsreadfd, fswritefd;	/* fswritefd < 0: read-only */
extern int	 bflag;			/* sector of -b superblock, or 0 */
extern int	 fsmodified;		/* something was written */
extern int	 resolved;		/* every problem was fixed */
extern int	 sbdirty_flag;
extern u_int32_t maxino;		/* fs_ncg * fs_ipg */
extern int32_t	 maxfsblock;		/* fs_size */
extern u_int8_t *blockmap;		/* 1 bit per fragment: used */
extern u_int8_t *statemap;		/* per inode: USTATE ... */
extern u_int8_t *typemap;		/* per inode: DT_ type */
extern int32_t	*lncntp;		/* per inode: link count minus refs */
extern struct inoinfo **inpsort;	/* directories, phase 2 order */
extern int	 inplast;		/* entries in inpsort */
extern struct	dup *duplist;
extern int	 ndups;
extern int32_t	 n_files;		/* allocated inodes */
extern u_int32_t lfdir;			/* lost+found, 0 if not known */
extern int32_t	 now;

#define testbmap(b)	isset(blockmap, (b))
#define setbmap(b)	setbit(blockmap, (b))
#define clrbmap(b)	clrbit(blockmap, (b))

/* setup.c */
int	 setup(const char *);
void	 ckfini(void);

/* utilities.c */
void	 pfatal(const char *, ...);
void	 pwarn(const char *, ...);
void	 errexit(const char *, ...);
int	 reply(const char *);
int	 dofix(struct inodesc *, const char *);
void	 getblk(ufs_daddr_t, int, void *);
void	 putblk(ufs_daddr_t, int, const void *);
void	 putbytes(int64_t, int, const void *);
void	 sbdirty(void);
ufs_daddr_t allocblk(int);
void	 freeblk(ufs_daddr_t, int);
int	 dupcount(ufs_daddr_t);
void	 adddup(ufs_daddr_t);

/* inode.c */
struct dinode *ginode(u_int32_t);
void	 inodirty(void);
int	 ckinode(struct dinode *, struct inodesc *);
int	 chkrange(ufs_daddr_t, int);
int	 ftypeok(const struct dinode *);
void	 pinode(u_int32_t);
void	 blkerror(u_int32_t, const char *, ufs_daddr_t);
void	 cacheino(const struct dinode *, u_int32_t);
struct inoinfo *getinoinfo(u_int32_t);
void	 clri(struct inodesc *, const char *, int);
void	 freeino(u_int32_t);
u_int32_t allocino(u_int32_t, int);
int	 pass4check(struct inodesc *);

/* dir.c */
int	 dirscan(struct inodesc *);
void	 fileerror(u_int32_t, u_int32_t, const char *);
void	 direrror(u_int32_t, const char *);
void	 getpathname(char *, u_int32_t, u_int32_t);
void	 adjust(struct inodesc *, int);
int	 linkup(u_int32_t, u_int32_t);
int	 changeino(u_int32_t, const char *, u_int32_t);
int	 makeentry(u_int32_t, u_int32_t, const char *);
u_int32_t allocdir(u_int32_t, u_int32_t, int);
u_int32_t lookupname(u_int32_t, const char *);
void	 propagate(void);

/* the phases */
void	 pass1(void);
void	 pass1b(void);
void	 pass2(void);
void	 pass3(void);
void	 pass4(void);
void	 pass5(void);

#endif /* !_FSCK_H_ */
