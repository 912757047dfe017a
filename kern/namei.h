/*
 * Path name lookup (4.4BSD namei).  The caller fills in the operation,
 * flags and path; namei walks the path one component at a time, calling
 * the directory's VOP_LOOKUP, crossing mount points and following
 * symbolic links, and returns the vnodes asked for.
 */
#ifndef _KERN_NAMEI_H_
#define _KERN_NAMEI_H_

#include <sys/types.h>
#include <sys/param.h>

struct vnode;
struct proc;

struct componentname {
	int	cn_nameiop;		/* LOOKUP, CREATE, DELETE, RENAME */
	int	cn_flags;
	struct ucred *cn_cred;
	char	*cn_nameptr;		/* the last component */
	int	cn_namelen;
	int	cn_islast;		/* no more components follow */
	/* UFS directory slot hints, from lookup to create/remove */
	off_t	cn_offset;		/* where the entry is, or goes */
	int	cn_count;		/* size of the slot (or entry to remove) */
	off_t	cn_endoff;		/* end of the used part of the directory */
	ino_t	cn_ino;			/* inode the entry names */
};

struct nameidata {
	const char *ni_dirp;		/* path (kernel copy) */
	int	ni_segflg;		/* path in user or kernel space */
	struct vnode *ni_vp;		/* result */
	struct vnode *ni_dvp;		/* its parent, with WANTPARENT */
	struct componentname ni_cnd;
	char	ni_pnbuf[MAXPATHLEN];	/* path being walked */
	int	ni_loopcnt;		/* symlinks followed */
};

/* operations */
#define LOOKUP		0
#define CREATE		1
#define DELETE		2
#define RENAME		3

/* flags */
#define FOLLOW		0x0001		/* follow a final symlink */
#define NOFOLLOW	0x0000
#define LOCKLEAF	0x0004		/* return ni_vp locked */
#define LOCKPARENT	0x0008		/* return ni_dvp locked */
#define WANTPARENT	0x0010		/* return ni_dvp referenced */

#define NDINIT(ndp, op, flags, seg, path) do {				\
	(ndp)->ni_cnd.cn_nameiop = (op);				\
	(ndp)->ni_cnd.cn_flags = (flags);				\
	(ndp)->ni_segflg = (seg);					\
	(ndp)->ni_dirp = (path);					\
} while (0)

int	namei(struct nameidata *);

#endif
