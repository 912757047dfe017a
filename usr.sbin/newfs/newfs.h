/*
 * newfs: shared declarations.
 *
 * newfs builds an FFS (or EFS) in four steps, one file each:
 *	newfs.c		options, disk size and geometry (from the label)
 *	mkfs.c		compute the superblock, set up every cylinder group,
 *			zero the inode tables, write the result
 *	fsalloc.c	an in-memory allocator over the cylinder group blocks
 *			(inodes, blocks, fragments) and the disk I/O
 *	fswrite.c	write files, directories and symlinks into the new
 *			file system (root, lost+found, and the -D tree)
 *	proto.c		build the tree to copy from a host directory (-D)
 *			and a proto file (-P)
 *
 * All cylinder group blocks stay in memory until the end; mkfs writes
 * them, then the summary array, then the superblock copies and, last of
 * all, the primary superblock: until that write the disk does not look
 * like a new file system.
 */
#ifndef _NEWFS_H_
#define _NEWFS_H_

#include "lib/fsutil/fsutil.h"

/* Parameters chosen by newfs.c for mkfs.c. */
struct mkfsparams {
	int64_t	 sectors;	/* file system size, 512-byte sectors */
	int	 bsize;		/* block size */
	int	 fsize;		/* fragment size */
	int	 cpg;		/* cylinders per group */
	int	 cpgflag;	/* cpg given by the user: do not adjust */
	int	 nsect;		/* sectors per track */
	int	 ntrak;		/* tracks per cylinder */
	int	 rpm;		/* revolutions per minute */
	int	 rotdelay;	/* ms */
	int	 maxcontig;	/* blocks */
	int	 maxbpg;	/* blocks per file per group, 0 = default */
	int	 density;	/* bytes of data per inode */
	int	 minfree;	/* percent */
	int	 optim;		/* FS_OPTTIME or FS_OPTSPACE */
	int	 efs;		/* set FS_EFS */
};

/*
 * A node of the tree newfs copies into the file system: the root's
 * children come from -D and -P; lost+found is made by mkfs itself.
 */
struct pnode {
	char	*name;		/* entry name ("" for the root) */
	int	 type;		/* IFREG, IFDIR, IFLNK, IFCHR or IFBLK */
	int	 perm;		/* permission bits (07777) */
	u_int32_t uid;
	u_int32_t gid;
	u_int32_t rdev;		/* devices: major << 8 | minor */
	int32_t	 mtime;
	char	*src;		/* IFREG: host file with the contents */
	struct	pnode *primary;	/* IFREG: first name of a hard-linked file */
	int	 nlink;		/* on a primary: names it has in the tree */
	u_int32_t ino;		/* on a primary: its inode, once written */
	char	*target;	/* IFLNK: link target */
	struct	pnode *child;	/* first entry of a directory */
	struct	pnode *next;	/* next entry of the same directory */
};

extern struct fs sblock;	/* the superblock being built */
extern u_int8_t *cgbuf;		/* fs_ncg cylinder group blocks */
extern int Nflag;		/* print the layout, write nothing */
extern int32_t now;		/* time stamp for new inodes */
extern const char *progname;

#ifndef roundup
#define roundup(x, y)	((((x) + ((y) - 1)) / (y)) * (y))
#endif

#define CGP(c)	((struct cg *)(cgbuf + (size_t)(c) * sblock.fs_cgsize))

/* newfs.c */

/* mkfs.c */
void	 mkfs(struct mkfsparams *, const char *, struct pnode *);

/* fsalloc.c */
void	 rdfs(int64_t, int, void *);
void	 wtfs(int64_t, int, const void *);
void	 setdisk(int);
u_int32_t ialloc(int, int);
void	 ialloc_at(u_int32_t, int);
ufs_daddr_t balloc(int, int);
void	 iput(u_int32_t, const struct dinode *);

/* fswrite.c */
void	 write_tree(struct pnode *);

/* proto.c */
struct pnode *newnode(const char *, int, int);
void	 copytree(struct pnode *, const char *);
void	 applyproto(struct pnode *, const char *);

#endif /* !_NEWFS_H_ */
