/*
 * Directories (4.4BSD ufs_lookup.c, simplified).
 *
 * A directory is a file of DIRBLKSIZ (512-byte) chunks, each filled
 * exactly by variable-length entries (struct direct); free space is the
 * slack at the end of an entry's record (d_reclen larger than its name
 * needs) or an entry with d_ino 0 at the start of a chunk.
 *
 * ufs_lookup leaves hints in the componentname for the operation that
 * follows while the directory stays locked: for a name found, its offset
 * (cn_offset) and the distance back to the entry before it in the same
 * chunk (cn_count, 0 if it starts the chunk), which dirremove needs to
 * merge it away; for a name to create, the offset of an entry with room
 * to split (cn_count its record length) or, if none has room, the end
 * of the directory (cn_count 0) where direnter adds a chunk.  That last
 * answer is EJUSTRETURN, as in 4.4BSD, never ENOENT: a name that cannot
 * be created (a removed directory) must not look creatable with stale
 * hints left by an earlier lookup.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/namei.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "ufs/inode.h"
#include <sys/stat.h>

/* Is the entry at offset off (within its chunk) well formed? */
static int
dirbad(struct direct *ep, int off)
{
	int chunkleft = DIRBLKSIZ - (off & (DIRBLKSIZ - 1));

	return ep->d_reclen < DIRECTSIZ(0) || (ep->d_reclen & 3) ||
	    ep->d_reclen > chunkleft ||
	    DIRECTSIZ(ep->d_namlen) > ep->d_reclen;
}

/* Said once per directory in core: a damaged one is not a flood. */
static void
dirbad_report(struct inode *dp, off_t off, const char *how)
{
	if (dp->i_flag & IN_DAMAGED)
		return;
	dp->i_flag |= IN_DAMAGED;
	printf("%s: bad dir ino %u at offset %lld: %s\n",
	    dp->i_ump->um_fspec, dp->i_number, (long long)off, how);
}

/*
 * Can directory dp's blocks hold its size?  A directory has no holes:
 * its size is whole DIRBLKSIZ chunks, at most the bytes it has allocated
 * and the file system holds.  A size damaged on the disk (2^31 - 1,
 * 2^63 - 1) would have every lookup walk gigabytes of zeros; such a
 * directory is reported once and refused.  0 or EIO.
 */
int
ufs_dircheck(struct inode *dp)
{
	struct ufsmount *ump = dp->i_ump;
	u_int64_t fsbytes = (u_int64_t)dbtob((off_t)ump->um_nbptr <<
	    ump->um_bptrtodb);

	if ((dp->i_size & (DIRBLKSIZ - 1)) == 0 && dp->i_blocks >= 0 &&
	    dp->i_size <= (u_int64_t)dbtob(dp->i_blocks) &&
	    dp->i_size <= fsbytes)
		return 0;
	if (!(dp->i_flag & IN_DAMAGED)) {
		dp->i_flag |= IN_DAMAGED;
		printf("%s: bad dir ino %u: size %llu, %d blocks\n",
		    ump->um_fspec, dp->i_number,
		    (unsigned long long)dp->i_size, dp->i_blocks);
	}
	return EIO;
}

int
ufs_lookup(struct vnode *vdp, struct vnode **vpp, struct componentname *cnp)
{
	struct inode *dp = VTOI(vdp);
	int namlen = cnp->cn_namelen, need = DIRECTSIZ(namlen);
	int op = cnp->cn_islast ? cnp->cn_nameiop : LOOKUP;
	off_t off, slotoff = -1, prevoff = -1;
	int slotlen = 0, error, bsize = dp->i_ump->um_bsize;
	struct buf *bp = NULL;
	ino_t ino = 0;
	char *base = NULL;

	KASSERT(VOP_ISLOCKED(vdp));
	*vpp = NULL;
	if ((error = VOP_ACCESS(vdp, VEXEC, cnp->cn_cred)) != 0)
		return error;
	if ((error = ufs_dircheck(dp)) != 0)
		return error;
	if (namlen == 1 && cnp->cn_nameptr[0] == '.') {
		vref(vdp);
		*vpp = vdp;
		return 0;
	}
	for (off = 0; off < (off_t)dp->i_size; ) {
		struct direct *ep;

		if ((off & (bsize - 1)) == 0 || bp == NULL) {
			if (bp)
				brelse(bp);
			if ((error = UFS_BLKATOFF(dp, off, 1, &base, &bp)) != 0)
				return error;
			base -= off & (bsize - 1);
		}
		if ((off & (DIRBLKSIZ - 1)) == 0)
			prevoff = -1;
		ep = (struct direct *)(base + (off & (bsize - 1)));
		if (dirbad(ep, off)) {
			dirbad_report(dp, off, "mangled entry");
			off = (off | (DIRBLKSIZ - 1)) + 1;	/* skip chunk */
			continue;
		}
		if (ep->d_ino != 0 && ep->d_namlen == namlen &&
		    memcmp(ep->d_name, cnp->cn_nameptr, namlen) == 0) {
			ino = ep->d_ino;
			cnp->cn_offset = off;
			cnp->cn_count = prevoff < 0 ? 0 : off - prevoff;
			break;
		}
		/* Remember the first entry with room for the new name. */
		if (slotoff < 0 && (op == CREATE || op == RENAME)) {
			int used = ep->d_ino ? DIRECTSIZ(ep->d_namlen) : 0;

			if (ep->d_reclen - used >= need) {
				slotoff = off;
				slotlen = ep->d_reclen;
			}
		}
		prevoff = off;
		off += ep->d_reclen;
	}
	if (bp)
		brelse(bp);

	if (ino == 0) {
		if (op != CREATE && op != RENAME)
			return ENOENT;
		if ((error = VOP_ACCESS(vdp, VWRITE, cnp->cn_cred)) != 0)
			return error;
		if (vdp->v_mount->mnt_flag & MNT_RDONLY)
			return EROFS;
		if (dp->i_nlink <= 0)
			return ENOENT;		/* a removed directory */
		if (slotoff >= 0) {
			cnp->cn_offset = slotoff;
			cnp->cn_count = slotlen;
		} else {
			cnp->cn_offset = roundup(dp->i_size, DIRBLKSIZ);
			cnp->cn_count = 0;
		}
		return EJUSTRETURN;	/* absent, and the hints are set */
	}
	cnp->cn_ino = ino;
	if (op == DELETE || op == RENAME) {
		if ((error = VOP_ACCESS(vdp, VWRITE, cnp->cn_cred)) != 0)
			return error;
	}
	if (ino == dp->i_number) {
		vref(vdp);
		*vpp = vdp;
		return 0;
	}
	if ((error = UFS_VGET(dp, ino, vpp)) != 0)
		return error;
	/* The sticky bit: only the owner may remove or rename an entry. */
	if ((op == DELETE || op == RENAME) && (dp->i_mode & ISVTX) &&
	    cnp->cn_cred->cr_uid != 0 &&
	    cnp->cn_cred->cr_uid != dp->i_uid &&
	    cnp->cn_cred->cr_uid != VTOI(*vpp)->i_uid) {
		vrele(*vpp);
		*vpp = NULL;
		return EPERM;
	}
	return 0;
}

static void
dirfill(struct direct *ep, struct inode *ip, struct componentname *cnp)
{
	ep->d_ino = ip->i_number;
	ep->d_type = IFTODT(ip->i_mode);
	ep->d_namlen = cnp->cn_namelen;
	memcpy(ep->d_name, cnp->cn_nameptr, cnp->cn_namelen);
	/* NUL-pad the name to the entry's 4-byte boundary. */
	memset(ep->d_name + cnp->cn_namelen, 0, DIRECTSIZ(cnp->cn_namelen) -
	    offsetof(struct direct, d_name) - cnp->cn_namelen);
}

/* Add the entry for ip to dvp, where ufs_lookup said it fits. */
int
ufs_direnter(struct inode *ip, struct vnode *dvp, struct componentname *cnp)
{
	struct inode *dp = VTOI(dvp);
	int bsize = dp->i_ump->um_bsize, error;
	struct direct *ep, *nep;
	struct buf *bp;
	char *res;

	KASSERT(VOP_ISLOCKED(dvp));
	if (cnp->cn_count == 0) {
		/* No room: a new chunk at the end of the directory. */
		off_t off = cnp->cn_offset;

		error = UFS_BALLOC(dp, off / bsize, (off % bsize) + DIRBLKSIZ,
		    cnp->cn_cred, B_CLRBUF, &bp);
		if (error)
			return error;
		dp->i_size = off + DIRBLKSIZ;
		dp->i_flag |= IN_CHANGE | IN_UPDATE;
		ep = (struct direct *)(bp->b_data + (off % bsize));
		memset(ep, 0, DIRBLKSIZ);
		dirfill(ep, ip, cnp);
		ep->d_reclen = DIRBLKSIZ;
		return UFS_BWRITE(dp, bp, UFS_WSYNC);
	}
	if ((error = UFS_BLKATOFF(dp, cnp->cn_offset, 1, &res, &bp)) != 0)
		return error;
	ep = (struct direct *)res;
	if (ep->d_ino == 0) {
		int reclen = ep->d_reclen;

		dirfill(ep, ip, cnp);
		ep->d_reclen = reclen;
	} else {
		int used = DIRECTSIZ(ep->d_namlen);

		nep = (struct direct *)(res + used);
		dirfill(nep, ip, cnp);
		nep->d_reclen = ep->d_reclen - used;
		ep->d_reclen = used;
	}
	dp->i_flag |= IN_CHANGE | IN_UPDATE;
	return UFS_BWRITE(dp, bp, UFS_WSYNC);
}

/* Remove the entry ufs_lookup found (DELETE or RENAME). */
int
ufs_dirremove(struct vnode *dvp, struct componentname *cnp)
{
	struct inode *dp = VTOI(dvp);
	struct direct *ep;
	struct buf *bp;
	char *res;
	int error;

	KASSERT(VOP_ISLOCKED(dvp));
	if (cnp->cn_count == 0) {
		/* First in its chunk: mark it empty. */
		error = UFS_BLKATOFF(dp, cnp->cn_offset, 1, &res, &bp);
		if (error)
			return error;
		((struct direct *)res)->d_ino = 0;
	} else {
		/* Give its space to the entry before it. */
		error = UFS_BLKATOFF(dp, cnp->cn_offset - cnp->cn_count, 1,
		    &res, &bp);
		if (error)
			return error;
		ep = (struct direct *)res;
		ep->d_reclen += ((struct direct *)(res + cnp->cn_count))->d_reclen;
	}
	dp->i_flag |= IN_CHANGE | IN_UPDATE;
	return UFS_BWRITE(dp, bp, UFS_WSYNC);
}

/* Point the entry ufs_lookup found at ip instead (rename over a file). */
int
ufs_dirrewrite(struct inode *dp, struct inode *ip, struct componentname *cnp)
{
	struct direct *ep;
	struct buf *bp;
	char *res;
	int error;

	KASSERT(VOP_ISLOCKED(ITOV(dp)));
	if ((error = UFS_BLKATOFF(dp, cnp->cn_offset, 1, &res, &bp)) != 0)
		return error;
	ep = (struct direct *)res;
	ep->d_ino = ip->i_number;
	ep->d_type = IFTODT(ip->i_mode);
	dp->i_flag |= IN_CHANGE | IN_UPDATE;
	return UFS_BWRITE(dp, bp, UFS_WSYNC);
}

/* Does the directory hold only "." and ".."?  (1 yes, 0 no) */
int
ufs_dirempty(struct inode *ip)
{
	int bsize = ip->i_ump->um_bsize;
	struct buf *bp = NULL;
	char *base = NULL;
	off_t off;

	KASSERT(VOP_ISLOCKED(ITOV(ip)));
	if (ufs_dircheck(ip) != 0)
		return 0;		/* damaged: not to be removed */
	for (off = 0; off < (off_t)ip->i_size;) {
		struct direct *ep;

		if ((off & (bsize - 1)) == 0 || bp == NULL) {
			if (bp)
				brelse(bp);
			if (UFS_BLKATOFF(ip, off, 1, &base, &bp) != 0)
				return 0;
			base -= off & (bsize - 1);
		}
		ep = (struct direct *)(base + (off & (bsize - 1)));
		if (dirbad(ep, off)) {
			brelse(bp);
			return 0;
		}
		if (ep->d_ino != 0 && !(ep->d_namlen == 1 &&
		    ep->d_name[0] == '.') && !(ep->d_namlen == 2 &&
		    ep->d_name[0] == '.' && ep->d_name[1] == '.')) {
			brelse(bp);
			return 0;
		}
		off += ep->d_reclen;
	}
	if (bp)
		brelse(bp);
	return 1;
}
