/*
 * The UFS vnode operations each layout puts in its vnode table.
 */
#ifndef _UFS_EXTERN_H_
#define _UFS_EXTERN_H_

#include "kern/vnode.h"
#include "ufs/inode.h"

#define MAKEIMODE(type, mode)	(vttoif(type) | ((mode) & 07777))

int	ufs_open(struct vnode *, int, struct ucred *);
int	ufs_close(struct vnode *, int, struct ucred *);
int	ufs_access(struct vnode *, int, struct ucred *);
int	ufs_getattr(struct vnode *, struct vattr *);
int	ufs_setattr(struct vnode *, struct vattr *, struct ucred *);
int	ufs_create(struct vnode *, struct vnode **, struct componentname *, struct vattr *);
int	ufs_mknod(struct vnode *, struct vnode **, struct componentname *, struct vattr *);
int	ufs_remove(struct vnode *, struct vnode *, struct componentname *);
int	ufs_link(struct vnode *, struct vnode *, struct componentname *);
int	ufs_rename(struct vnode *, struct vnode *, struct componentname *,
	    struct vnode *, struct vnode *, struct componentname *);
int	ufs_mkdir(struct vnode *, struct vnode **, struct componentname *, struct vattr *);
int	ufs_rmdir(struct vnode *, struct vnode *, struct componentname *);
int	ufs_symlink(struct vnode *, struct vnode **, struct componentname *, struct vattr *, char *);
int	ufs_readdir(struct vnode *, struct uio *, struct ucred *);
int	ufs_readlink(struct vnode *, struct uio *, struct ucred *);
int	ufs_strategy(struct buf *);
int	ufs_ioctl(struct vnode *, u_long, caddr_t, int, struct ucred *);

extern const struct vnodeops ufs_specops;	/* ufs_specops.c */

/* A rename in progress (ufs_rename.c), for layouts that wrap it (LFS). */
struct ufs_rename {
	struct vnode *r_fdvp, *r_fvp, *r_tdvp;	/* the caller's references */
	struct componentname *r_fcnp, *r_tcnp;
	struct vnode *r_xvp;		/* what the target name names, or NULL */
	int	r_isdir;		/* a directory is moved */
	int	r_held;			/* the locks taken */
};
int	ufs_rename_lock(struct ufs_rename *, struct vnode *fdvp,
	    struct vnode *fvp, struct componentname *, struct vnode *tdvp,
	    struct vnode *tvp, struct componentname *);
int	ufs_rename_apply(struct ufs_rename *);
void	ufs_rename_unlock(struct ufs_rename *);

#endif
