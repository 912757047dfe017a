/*
 * The mount table: mount, unmount, statfs, getfsstat, syncing every file
 * system (vfs_sync_all), the root file system at boot, and the update
 * daemon that pushes delayed writes to disk every 30 seconds (4.4BSD's
 * "update").
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/file.h"
#include "kern/proc.h"
#include "kern/malloc.h"
#include "kern/syscallargs.h"
#include "kern/conf.h"
#include "kern/uio.h"

struct mntlist mountlist;

#define SYNC_INTERVAL	30		/* seconds between update's syncs */

static const struct vfsops *
vfs_byname(const char *name)
{
	int i;

	/* EFS is FFS whose superblock asks for clustering (FS_EFS). */
	if (strcmp(name, "ufs") == 0 || strcmp(name, "efs") == 0)
		name = "ffs";
	for (i = 0; vfsconf[i]; i++)
		if (strcmp(vfsconf[i]->vfs_name, name) == 0)
			return vfsconf[i];
	return NULL;
}

/*
 * Mount a file system of type ops on directory vp (NULL: the root).
 * On success the mount is on the list and vp covered.
 */
static int
domount(const struct vfsops *ops, struct vnode *vp, const char *path,
    int flags, void *data)
{
	struct mount *mp = malloc(sizeof(*mp), M_WAITOK | M_ZERO);
	int error;

	mp->mnt_op = ops;
	mp->mnt_flag = flags & (MNT_RDONLY | MNT_SYNCHRONOUS | MNT_NOEXEC |
	    MNT_NOSUID | MNT_ASYNC);
	LIST_INIT(&mp->mnt_vnodelist);
	lockinit(&mp->mnt_renamelock, "rename");
	mp->mnt_vnodecovered = vp;
	strlcpy(mp->mnt_stat.f_fstypename, ops->vfs_name, MFSNAMELEN);
	strlcpy(mp->mnt_stat.f_mntonname, path, MNAMELEN);
	if ((error = VFS_MOUNT(mp, path, data)) != 0) {
		free(mp);
		return error;
	}
	if (vp)
		vp->v_mountedhere = mp;
	TAILQ_INSERT_TAIL(&mountlist, mp, mnt_list);
	VFS_STATFS(mp, &mp->mnt_stat);
	return 0;
}

int
sys_mount(struct proc *p, struct mount_args *uap, int *retval)
{
	struct nameidata *nd;
	char type[MFSNAMELEN], *path;
	const struct vfsops *ops;
	struct vnode *vp;
	int error;

	if ((error = suser(p)) != 0)
		return error;
	if ((error = copyinstr(uap->type, type, sizeof(type), NULL)) != 0)
		return error == ENAMETOOLONG ? ENODEV : error;
	if ((ops = vfs_byname(type)) == NULL)
		return ENODEV;
	if (uap->flags & MNT_UPDATE)
		return EOPNOTSUPP;
	nd = malloc(sizeof(*nd), M_WAITOK);
	path = malloc(MAXPATHLEN, M_WAITOK);
	NDINIT(nd, LOOKUP, FOLLOW | LOCKLEAF, UIO_USERSPACE, uap->path);
	if ((error = namei(nd)) != 0)
		goto out;
	vp = nd->ni_vp;
	if (vp->v_type != VDIR)
		error = ENOTDIR;
	else if (vp->v_mountedhere != NULL || (vp->v_flag & VROOT) ||
	    vp->v_usecount > 1)
		error = EBUSY;
	else
		error = copyinstr(uap->path, path, MAXPATHLEN, NULL);
	if (error == 0)
		error = domount(ops, vp, path, uap->flags, uap->data);
	VOP_UNLOCK(vp);
	if (error)
		vrele(vp);		/* a mounted-on vnode keeps its ref */
out:
	free(path);
	free(nd);
	return error;
}

/*
 * Mark mp as being unmounted by curproc, wait out the syncs already under
 * way, and write what is dirty.  A sync that began before the unmount may
 * be asleep inside the file system (an LFS segment write waits for its
 * lock and its I/O); the unmount must not take the vnodes from under it
 * (halt during the update daemon's sync panicked in lfs_writefile on a
 * reclaimed vnode).
 */
static void
unmount_begin(struct mount *mp)
{
	mp->mnt_busy = 1;		/* the update daemon must leave it be */
	mp->mnt_unmounter = curproc;
	while (mp->mnt_syncers > 0)
		tsleep(&mp->mnt_syncers, 0, "mntsync", 0);
	VFS_SYNC(mp, 1);
}

static int
dounmount(struct mount *mp, int flags)
{
	struct vnode *covered = mp->mnt_vnodecovered;
	int error;

	if (mp->mnt_busy)
		return EBUSY;
	unmount_begin(mp);
	if ((error = VFS_UNMOUNT(mp, flags)) != 0) {
		mp->mnt_busy = 0;
		mp->mnt_unmounter = NULL;
		return error;
	}
	TAILQ_REMOVE(&mountlist, mp, mnt_list);
	if (covered) {
		covered->v_mountedhere = NULL;
		vrele(covered);
	}
	free(mp);
	return 0;
}

int
sys_unmount(struct proc *p, struct unmount_args *uap, int *retval)
{
	struct nameidata *nd = malloc(sizeof(*nd), M_WAITOK);
	struct mount *mp;
	struct vnode *vp;
	int error;

	if ((error = suser(p)) != 0)
		goto out;
	NDINIT(nd, LOOKUP, FOLLOW, UIO_USERSPACE, uap->path);
	if ((error = namei(nd)) != 0)
		goto out;
	vp = nd->ni_vp;
	mp = vp->v_mount;
	if (!(vp->v_flag & VROOT))
		error = EINVAL;		/* not a mount point */
	else if (mp == TAILQ_FIRST(&mountlist))
		error = EBUSY;		/* the root stays */
	vrele(vp);
	if (error == 0)
		error = dounmount(mp, uap->flags);
out:
	free(nd);
	return error;
}

/* At shutdown: every file system, the root last. */
void
vfs_unmountall(void)
{
	struct mount *mp, *last;

	for (;;) {
		last = NULL;
		TAILQ_FOREACH(mp, &mountlist, mnt_list)
			last = mp;
		if (last == NULL || last == TAILQ_FIRST(&mountlist) ||
		    dounmount(last, MNT_FORCE) != 0)
			break;
	}
	if ((mp = TAILQ_FIRST(&mountlist)) != NULL) {
		unmount_begin(mp);
		if (VFS_UNMOUNT(mp, MNT_FORCE) == 0)
			TAILQ_REMOVE(&mountlist, mp, mnt_list);
	}
}

/* Start writing every writable file system's dirty data: sync(2), update. */
void
vfs_sync_all(void)
{
	struct mount *mp;

	/* No sleep between the decrement and the next pointer: mp, whose
	 * unmount may be waiting, is still there when it is read. */
	TAILQ_FOREACH(mp, &mountlist, mnt_list)
		if (!mp->mnt_busy && !(mp->mnt_flag & MNT_RDONLY)) {
			mp->mnt_syncers++;
			VFS_SYNC(mp, 0);
			if (--mp->mnt_syncers == 0 && mp->mnt_busy)
				wakeup(&mp->mnt_syncers);
		}
}

/*
 * Every SYNC_INTERVAL seconds (kernel argument syncinterval=N; 0: never,
 * so that benchmarks and crash tests choose when LFS checkpoints).
 */
void
update_daemon(void *arg)
{
	long interval = getkarg_int("syncinterval", SYNC_INTERVAL);

	for (;;) {
		tsleep(&update_daemon, 0, "update",
		    interval > 0 ? interval * hz : 0);
		vfs_sync_all();
	}
}

static int
statfs_out(struct mount *mp, struct statfs *ubuf)
{
	int error;

	if ((error = VFS_STATFS(mp, &mp->mnt_stat)) != 0)
		return error;
	mp->mnt_stat.f_flags = mp->mnt_flag & 0xffff;
	return copyout(&mp->mnt_stat, ubuf, sizeof(struct statfs));
}

int
sys_statfs(struct proc *p, struct statfs_args *uap, int *retval)
{
	struct nameidata *nd = malloc(sizeof(*nd), M_WAITOK);
	struct mount *mp;
	int error;

	NDINIT(nd, LOOKUP, FOLLOW, UIO_USERSPACE, uap->path);
	if ((error = namei(nd)) == 0) {
		mp = nd->ni_vp->v_mount;
		vrele(nd->ni_vp);
		error = mp ? statfs_out(mp, uap->buf) : EINVAL;
	}
	free(nd);
	return error;
}

int
sys_fstatfs(struct proc *p, struct fstatfs_args *uap, int *retval)
{
	struct file *fp;
	struct vnode *vp;
	int error;

	if ((error = getfile(p, uap->fd, &fp)) != 0)
		return error;
	if (fp->f_type != DTYPE_VNODE)
		return EINVAL;
	vp = fp->f_data;
	return vp->v_mount ? statfs_out(vp->v_mount, uap->buf) : EINVAL;
}

int
sys_getfsstat(struct proc *p, struct getfsstat_args *uap, int *retval)
{
	struct mount *mp;
	long max = uap->bufsize / sizeof(struct statfs);
	int count = 0, error;

	TAILQ_FOREACH(mp, &mountlist, mnt_list) {
		if (uap->buf != NULL && count < max) {
			error = statfs_out(mp, uap->buf + count);
			if (error)
				return error;
		}
		count++;
	}
	if (uap->buf != NULL && count > max)
		count = max;
	*retval = count;
	return 0;
}

/* Mount the root: "root=sd0a" on the command line, else sd0a. */
int
vfs_mountroot(void)
{
	const char *name = getkarg("root");
	struct ufs_args args;
	char path[32];
	int error = ENODEV, i;

	if (name == NULL)
		name = "sd0a";
	snprintf(path, sizeof(path), "/dev/%s", name);
	args.fspec = path;
	for (i = 0; vfsconf[i]; i++) {
		error = domount(vfsconf[i], NULL, "/", 0, &args);
		if (error == 0) {
			VFS_ROOT(TAILQ_FIRST(&mountlist), &rootvnode);
			printf("root on %s\n", name);
			return 0;
		}
	}
	return error;
}
