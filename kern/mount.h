/*
 * Mounted file systems (4.4BSD).  Each has a vfsops table; the mount
 * list is ordered with the root first.
 *   mount(mp, path, data)      read the superblock from the device named
 *                              in data (struct ufs_args), fill mp
 *   unmount(mp, flags)         flush everything and forget the device
 *   root(mp, &vp)              the root vnode, referenced
 *   statfs(mp, sbp)            fill in space and inode counts
 *   sync(mp, waitfor)          write all dirty data and metadata
 *   vget(mp, ino, &vp)         the vnode of an inode number, referenced
 *   init()                     once at boot, after the buffer cache (may
 *                              be NULL)
 * The kernel's file systems are vfsconf (conf/config.c), the root tried
 * in that order.
 */
#ifndef _KERN_MOUNT_H_
#define _KERN_MOUNT_H_

#include <sys/types.h>
#include <sys/mount.h>
#include "kern/queue.h"
#include "kern/lock.h"

struct vnode;
struct proc;
struct mount;

struct vfsops {
	const char *vfs_name;
	int	(*vfs_mount)(struct mount *, const char *path, void *data);
	int	(*vfs_unmount)(struct mount *, int flags);
	int	(*vfs_root)(struct mount *, struct vnode **);
	int	(*vfs_statfs)(struct mount *, struct statfs *);
	int	(*vfs_sync)(struct mount *, int waitfor);
	int	(*vfs_vget)(struct mount *, ino_t, struct vnode **);
	void	(*vfs_init)(void);
};

struct mount {
	TAILQ_ENTRY(mount) mnt_list;
	const struct vfsops *mnt_op;
	struct vnode *mnt_vnodecovered;	/* the directory it is mounted on */
	LIST_HEAD(, vnode) mnt_vnodelist;
	int	mnt_flag;		/* MNT_* from sys/mount.h */
	int	mnt_busy;		/* being unmounted */
	struct proc *mnt_unmounter;	/* by this process: only it makes
					 * new vnodes meanwhile */
	int	mnt_syncers;		/* syncs under way (vfs_sync_all):
					 * an unmount waits them out */
	void	*mnt_data;		/* the file system's (struct ufsmount) */
	struct lock mnt_renamelock;	/* renames that lock two
					 * directories (ufs/ufs_rename.c) */
	struct statfs mnt_stat;
};

/* kernel-only mnt_flag bits, set by the file system at mount time */
#define MNT_CLUSTERWRITE 0x00200000	/* EFS: vflushbuf pushes whole clusters */

extern TAILQ_HEAD(mntlist, mount) mountlist;
extern const struct vfsops *const vfsconf[];	/* conf/config.c */

#define VFS_MOUNT(mp, path, data)	((mp)->mnt_op->vfs_mount((mp), (path), (data)))
#define VFS_UNMOUNT(mp, flags)		((mp)->mnt_op->vfs_unmount((mp), (flags)))
#define VFS_ROOT(mp, vpp)		((mp)->mnt_op->vfs_root((mp), (vpp)))
#define VFS_STATFS(mp, sbp)		((mp)->mnt_op->vfs_statfs((mp), (sbp)))
#define VFS_SYNC(mp, waitfor)		((mp)->mnt_op->vfs_sync((mp), (waitfor)))
#define VFS_VGET(mp, ino, vpp)		((mp)->mnt_op->vfs_vget((mp), (ino), (vpp)))

int	vfs_mountroot(void);
void	vfs_unmountall(void);
void	vfs_sync_all(void);
void	update_daemon(void *);		/* a kernel process's body */
int	vflush(struct mount *, struct vnode *skipvp, int flags);

#endif
