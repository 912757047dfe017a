/*
 * Vnode operations shared by every UFS layout (4.4BSD ufs_vnops.c).
 * The contract of each operation is in kern/vnode.h; the layout is
 * reached through the table 6-8 operations (ufs/inode.h), which is how
 * FFS and LFS share this file.
 *
 * Ordering, as in 4.4BSD FFS: a new inode is written before the
 * directory entry that names it, and a removed entry is written before
 * the inode's link count drops to zero on disk, so a crash between the
 * two leaves at worst an unreferenced inode for fsck, never an entry
 * naming a free inode.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/buf.h"
#include "kern/uio.h"
#include "kern/proc.h"
#include "kern/conf.h"
#include "ufs/inode.h"
#include "ufs/ufs_extern.h"
#include <sys/stat.h>

#define LINK_MAX	32767

int
ufs_open(struct vnode *vp, int mode, struct ucred *cred)
{
	return 0;
}

int
ufs_close(struct vnode *vp, int fflag, struct ucred *cred)
{
	if (vp->v_usecount > 1)
		ufs_itimes(VTOI(vp));
	return 0;
}

int
ufs_access(struct vnode *vp, int mode, struct ucred *cred)
{
	struct inode *ip = VTOI(vp);

	if ((mode & VWRITE) && (vp->v_mount->mnt_flag & MNT_RDONLY) &&
	    (vp->v_type == VREG || vp->v_type == VDIR || vp->v_type == VLNK))
		return EROFS;
	return vaccess(ip->i_mode, ip->i_uid, ip->i_gid, mode, cred);
}

int
ufs_getattr(struct vnode *vp, struct vattr *va)
{
	struct inode *ip = VTOI(vp);

	ufs_itimes(ip);
	va->va_type = vp->v_type;
	va->va_mode = ip->i_mode & ~IFMT;
	va->va_nlink = ip->i_nlink;
	va->va_uid = ip->i_uid;
	va->va_gid = ip->i_gid;
	va->va_fsid = ip->i_dev;
	va->va_fileid = ip->i_number;
	va->va_size = ip->i_size;
	va->va_atime.tv_sec = ip->i_din.di_atime;
	va->va_atime.tv_nsec = ip->i_din.di_atimensec;
	va->va_mtime.tv_sec = ip->i_din.di_mtime;
	va->va_mtime.tv_nsec = ip->i_din.di_mtimensec;
	va->va_ctime.tv_sec = ip->i_din.di_ctime;
	va->va_ctime.tv_nsec = ip->i_din.di_ctimensec;
	va->va_flags = ip->i_flags;
	va->va_gen = ip->i_gen;
	va->va_rdev = (vp->v_type == VCHR || vp->v_type == VBLK) ?
	    (dev_t)ip->i_rdev : 0;
	va->va_blocksize = ip->i_ump->um_bsize;
	va->va_bytes = (int64_t)ip->i_blocks * DEV_BSIZE;
	return 0;
}

static int
groupmember(gid_t gid, struct ucred *cred)
{
	int i;

	if (cred->cr_gid == gid)
		return 1;
	for (i = 0; i < cred->cr_ngroups; i++)
		if (cred->cr_groups[i] == gid)
			return 1;
	return 0;
}

int
ufs_setattr(struct vnode *vp, struct vattr *va, struct ucred *cred)
{
	struct inode *ip = VTOI(vp);
	int owner = cred->cr_uid == ip->i_uid || cred->cr_uid == 0;
	int error = 0;

	if (va->va_uid != (uid_t)VNOVAL || va->va_gid != (gid_t)VNOVAL) {
		uid_t uid = va->va_uid == (uid_t)VNOVAL ? ip->i_uid : va->va_uid;
		gid_t gid = va->va_gid == (gid_t)VNOVAL ? ip->i_gid : va->va_gid;

		/* Only root gives files away; owners may pick their group. */
		if (cred->cr_uid != 0 && (uid != ip->i_uid ||
		    cred->cr_uid != ip->i_uid || !groupmember(gid, cred)))
			return EPERM;
		ip->i_uid = uid;
		ip->i_gid = gid;
		if (cred->cr_uid != 0)
			ip->i_mode &= ~(ISUID | ISGID);
		ip->i_flag |= IN_CHANGE;
	}
	if (va->va_flags != (u_int32_t)VNOVAL) {
		/* UF_TXN, on a file whose layout keeps it (lfs_setattr). */
		if (!owner)
			return EPERM;
		if (va->va_flags & ~UF_TXN)
			return EOPNOTSUPP;
		if ((va->va_flags & UF_TXN) && vp->v_type != VREG)
			return EFTYPE;
		ip->i_flags = va->va_flags;
		ip->i_flag |= IN_CHANGE;
	}
	if (va->va_size != (off_t)VNOVAL) {
		if (vp->v_type == VDIR)
			return EISDIR;
		if (vp->v_type == VREG) {
			/*
			 * As ufs_write: past the largest file the layout
			 * addresses, the last block's number would not fit
			 * a daddr_t, and a wrapped one is a small block.
			 */
			if (va->va_size > ip->i_ump->um_maxfilesize)
				return EFBIG;
			if ((error = vn_lock_live(vp)) != 0)
				return error;
			error = UFS_TRUNCATE(ip, va->va_size, cred);
			VOP_UNLOCK(vp);
			if (error)
				return error;
		}
	}
	if (va->va_atime.tv_sec != VNOVAL || va->va_mtime.tv_sec != VNOVAL) {
		/* Anyone who may write the file may set its times to now
		 * (POSIX utimes with no times); other times, only the owner. */
		if (!owner && (!(va->va_vaflags & VA_UTIMES_NULL) ||
		    ufs_access(vp, VWRITE, cred) != 0))
			return EPERM;
		if (va->va_atime.tv_sec != VNOVAL) {
			ip->i_din.di_atime = va->va_atime.tv_sec;
			ip->i_din.di_atimensec = va->va_atime.tv_nsec;
		}
		if (va->va_mtime.tv_sec != VNOVAL) {
			ip->i_din.di_mtime = va->va_mtime.tv_sec;
			ip->i_din.di_mtimensec = va->va_mtime.tv_nsec;
		}
		ip->i_flag &= ~(IN_ACCESS | IN_UPDATE);
		ip->i_flag |= IN_CHANGE | IN_MODIFIED;
	}
	if (va->va_mode != (mode_t)VNOVAL) {
		mode_t mode = va->va_mode & 07777;

		if (!owner)
			return EPERM;
		if (cred->cr_uid != 0) {
			if (vp->v_type != VDIR && (mode & ISVTX))
				return EFTYPE;
			if (!groupmember(ip->i_gid, cred) && (mode & ISGID))
				return EPERM;
		}
		ip->i_mode = (ip->i_mode & IFMT) | mode;
		ip->i_flag |= IN_CHANGE;
	}
	return UFS_UPDATE(ip, 0);
}

/*
 * A new inode of the given mode named by cnp in dvp (locked): allocate,
 * write it, then enter it in the directory.  Returns it referenced.
 */
static int
ufs_makeinode(int mode, struct vnode *dvp, struct vnode **vpp,
    struct componentname *cnp, dev_t rdev)
{
	struct inode *dp = VTOI(dvp), *ip;
	struct vnode *tvp;
	int error;

	*vpp = NULL;
	if ((mode & IFMT) == 0)
		mode |= IFREG;
	if ((error = UFS_VALLOC(dp, mode, cnp->cn_cred, &tvp)) != 0)
		return error;
	ip = VTOI(tvp);
	ip->i_gid = dp->i_gid;
	ip->i_uid = cnp->cn_cred->cr_uid;
	ip->i_mode = mode;
	ip->i_nlink = 1;
	if ((mode & IFMT) == IFCHR || (mode & IFMT) == IFBLK)
		ip->i_rdev = rdev;
	/* A non-member cannot create set-group-id files in the group. */
	if ((ip->i_mode & ISGID) && !groupmember(ip->i_gid, cnp->cn_cred) &&
	    cnp->cn_cred->cr_uid != 0)
		ip->i_mode &= ~ISGID;
	ip->i_flag |= IN_ACCESS | IN_CHANGE | IN_UPDATE;
	ufs_vinit(tvp);
	if ((error = UFS_UPDATE(ip, 1)) != 0 ||
	    (error = ufs_direnter(ip, dvp, cnp)) != 0) {
		ip->i_nlink = 0;
		ip->i_flag |= IN_CHANGE;
		vrele(tvp);
		return error;
	}
	*vpp = tvp;
	return 0;
}

int
ufs_create(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va)
{
	return ufs_makeinode(MAKEIMODE(va->va_type, va->va_mode), dvp, vpp,
	    cnp, 0);
}

int
ufs_mknod(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va)
{
	return ufs_makeinode(MAKEIMODE(va->va_type, va->va_mode), dvp, vpp,
	    cnp, va->va_rdev);
}

int
ufs_remove(struct vnode *dvp, struct vnode *vp, struct componentname *cnp)
{
	struct inode *ip = VTOI(vp);
	int error;

	if ((error = ufs_dirremove(dvp, cnp)) == 0) {
		ip->i_nlink--;
		ip->i_flag |= IN_CHANGE;
	}
	return error;
}

int
ufs_link(struct vnode *dvp, struct vnode *vp, struct componentname *cnp)
{
	struct inode *ip = VTOI(vp);
	int error;

	KASSERT(VOP_ISLOCKED(vp));
	if (ip->i_nlink >= LINK_MAX)
		return EMLINK;
	ip->i_nlink++;
	ip->i_flag |= IN_CHANGE;
	if ((error = UFS_UPDATE(ip, 1)) == 0)
		error = ufs_direnter(ip, dvp, cnp);
	if (error) {
		ip->i_nlink--;
		ip->i_flag |= IN_CHANGE;
	}
	return error;
}

int
ufs_mkdir(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va)
{
	struct inode *dp = VTOI(dvp), *ip;
	struct dirtemplate dirt;
	struct vnode *tvp;
	struct buf *bp;
	int error;

	*vpp = NULL;
	if (dp->i_nlink >= LINK_MAX)
		return EMLINK;
	error = UFS_VALLOC(dp, IFDIR | (va->va_mode & 07777), cnp->cn_cred,
	    &tvp);
	if (error)
		return error;
	ip = VTOI(tvp);
	ip->i_uid = cnp->cn_cred->cr_uid;
	ip->i_gid = dp->i_gid;
	ip->i_mode = IFDIR | (va->va_mode & 07777);
	ip->i_nlink = 2;
	ip->i_flag |= IN_ACCESS | IN_CHANGE | IN_UPDATE;
	ufs_vinit(tvp);
	if ((error = UFS_UPDATE(ip, 1)) != 0)
		goto bad;
	/* The parent gains a link ("..") before the child is written. */
	dp->i_nlink++;
	dp->i_flag |= IN_CHANGE;
	if ((error = UFS_UPDATE(dp, 1)) != 0)
		goto badparent;
	memset(&dirt, 0, sizeof(dirt));
	dirt.dot_ino = ip->i_number;
	dirt.dot_reclen = DIRECTSIZ(1);
	dirt.dot_type = DT_DIR;
	dirt.dot_namlen = 1;
	dirt.dot_name[0] = '.';
	dirt.dotdot_ino = dp->i_number;
	dirt.dotdot_reclen = DIRBLKSIZ - DIRECTSIZ(1);
	dirt.dotdot_type = DT_DIR;
	dirt.dotdot_namlen = 2;
	dirt.dotdot_name[0] = dirt.dotdot_name[1] = '.';
	error = UFS_BALLOC(ip, 0, DIRBLKSIZ, cnp->cn_cred, B_CLRBUF, &bp);
	if (error)
		goto badparent;
	ip->i_size = DIRBLKSIZ;
	ip->i_flag |= IN_CHANGE | IN_UPDATE;
	memcpy(bp->b_data, &dirt, sizeof(dirt));
	if ((error = UFS_BWRITE(ip, bp, UFS_WSYNC)) != 0)
		goto badparent;
	if ((error = ufs_direnter(ip, dvp, cnp)) != 0)
		goto badparent;
	*vpp = tvp;
	return 0;
badparent:
	dp->i_nlink--;
	dp->i_flag |= IN_CHANGE;
bad:
	ip->i_nlink = 0;
	ip->i_flag |= IN_CHANGE;
	vrele(tvp);
	return error;
}

int
ufs_rmdir(struct vnode *dvp, struct vnode *vp, struct componentname *cnp)
{
	struct inode *ip = VTOI(vp), *dp = VTOI(dvp);
	int error;

	if (ip->i_nlink != 2 || !ufs_dirempty(ip))
		return ENOTEMPTY;
	if ((error = ufs_dirremove(dvp, cnp)) != 0)
		return error;
	dp->i_nlink--;
	dp->i_flag |= IN_CHANGE;
	ip->i_nlink -= 2;
	ip->i_flag |= IN_CHANGE;
	return UFS_TRUNCATE(ip, 0, cnp->cn_cred);
}

int
ufs_symlink(struct vnode *dvp, struct vnode **vpp, struct componentname *cnp,
    struct vattr *va, char *target)
{
	struct inode *ip;
	int error, len = strlen(target);

	error = ufs_makeinode(IFLNK | (va->va_mode & 07777), dvp, vpp, cnp, 0);
	if (error)
		return error;
	ip = VTOI(*vpp);
	if (len < ip->i_ump->um_maxsymlinklen) {
		/* A short link lives in the inode's block pointers. */
		memcpy(ip->i_shortlink, target, len);
		ip->i_size = len;
		ip->i_flag |= IN_CHANGE | IN_UPDATE;
		return UFS_UPDATE(ip, 0);
	}
	return vn_rdwr(UIO_WRITE, *vpp, target, len, 0, UIO_SYSSPACE,
	    IO_UNIT, cnp->cn_cred, NULL);
}

int
ufs_readlink(struct vnode *vp, struct uio *uio, struct ucred *cred)
{
	struct inode *ip = VTOI(vp);
	int len = ip->i_size;

	if (len < ip->i_ump->um_maxsymlinklen && ip->i_blocks == 0)
		return uiomove(ip->i_shortlink, len, uio);
	return VOP_READ(vp, uio, 0, cred);
}

/* Whole directory chunks, as they are on disk (struct dirent). */
int
ufs_readdir(struct vnode *vp, struct uio *uio, struct ucred *cred)
{
	struct inode *ip = VTOI(vp);
	int bsize = ip->i_ump->um_bsize, error = 0;
	struct buf *bp;
	char *res;

	if (uio->uio_resid < DIRBLKSIZ || (uio->uio_offset & (DIRBLKSIZ - 1)))
		return EINVAL;
	if ((error = vn_lock_live(vp)) != 0)
		return error;
	if ((error = ufs_dircheck(ip)) != 0) {
		VOP_UNLOCK(vp);
		return error;
	}
	while (uio->uio_resid >= DIRBLKSIZ &&
	    uio->uio_offset < (off_t)ip->i_size) {
		int n = MIN(bsize - (uio->uio_offset & (bsize - 1)),
		    uio->uio_resid & ~(DIRBLKSIZ - 1));

		n = MIN(n, (off_t)ip->i_size - uio->uio_offset);
		error = UFS_BLKATOFF(ip, uio->uio_offset, 1, &res, &bp);
		if (error != 0)
			break;
		error = uiomove(res, n, uio);
		brelse(bp);
		if (error)
			break;
	}
	ip->i_flag |= IN_ACCESS;
	VOP_UNLOCK(vp);
	return error;
}

/* Map a file block to the disk if needed and pass it to the driver. */
int
ufs_strategy(struct buf *bp)
{
	struct inode *ip = VTOI(bp->b_vp);
	struct vnode *devvp = ip->i_ump->um_devvp;
	int error;

	if (bp->b_blkno == bp->b_lblkno) {
		error = ufs_bmaparray(bp->b_vp, bp->b_lblkno, &bp->b_blkno,
		    NULL);
		if (error) {
			bp->b_error = error;
			bp->b_flags |= B_ERROR;
			biodone(bp);
			return error;
		}
		if (bp->b_blkno == -1) {	/* a hole reads as zeros */
			memset(bp->b_data, 0, bp->b_bcount);
			biodone(bp);
			return 0;
		}
	}
	bp->b_dev = devvp->v_rdev;
	bdevsw[major(bp->b_dev)].d_strategy(bp);
	return 0;
}

int
ufs_ioctl(struct vnode *vp, u_long cmd, caddr_t data, int fflag,
    struct ucred *cred)
{
	return ENOTTY;
}
