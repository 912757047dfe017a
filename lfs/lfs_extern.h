/*
 * The kernel's BSD-LFS: the in-core superblock, the partial segment
 * being built, and what the lfs/ files offer each other.  The on-disk
 * format is sys/ufs/lfs.h; which file holds which thesis concept,
 * README's concept table.
 */
#ifndef _LFS_LFS_EXTERN_H_
#define _LFS_LFS_EXTERN_H_

#include <sys/types.h>
#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "ufs/inode.h"
#include "kern/queue.h"
#include "kern/lock.h"

struct proc;
struct txn;
struct segment;
struct lfs_pseg;
struct componentname;
struct vattr;

/*
 * In an in-core block pointer (inode or indirect block): a block that
 * exists in the cache and has no disk address yet.  It never reaches
 * the disk (the writer assigns an address first, and writes 0 for any
 * it did not).  In an IFILE entry: an inode allocated, not yet written.
 */
#define LFS_UNASSIGNED	(-1)

/*
 * What LFS keeps per process, in a table beside the kernel's (struct proc
 * names no file system), indexed by the process's slot; lfs_exit clears a
 * slot as its process goes.
 */
struct lfs_proc {
	int	lp_dirop;		/* dirops it is inside */
	struct txn *lp_txn;		/* its transaction, or NULL */
	int	lp_cleaner;		/* it made a cleaner's call: its writes
					   may use the reserve (lfs_writeroom) */
};
extern struct lfs_proc lfs_proc[];
#define LFS_PROC(p)	(&lfs_proc[(p) - proc])

struct lfs {
	struct dlfs lfs_dlfs;		/* parameters; checkpoint fields kept
					 * current in core */
	u_int32_t lfs_sbaddr;		/* which copy it came from */
	struct vnode *lfs_ivnode;	/* the ifile */
	u_int32_t lfs_maxino;		/* inode numbers the ifile maps */
	struct ufsmount *lfs_ump;
	int	lfs_ronly;

	/* the segment writer (lfs_segment.c) */
	struct lock lfs_seglock;	/* the segment lock (lfs_seglock()):
					 * LFS_ASSERT_SEGLOCK */
	struct segment *lfs_sp;		/* partial segment being built */
	TAILQ_HEAD(, lfs_pseg) lfs_inflight;	/* written, not yet done */
	long	lfs_inflight_bytes;
	u_int32_t lfs_nclean;		/* clean segments */
	u_int32_t lfs_ndirty;		/* segments holding log */
	int64_t	lfs_lastckp;		/* time of the last checkpoint */
	struct dlfs lfs_ckpsb;		/* the checkpoint being written */

	/* accounting (lfs_bio.c); lfs_bfree and lfs_avail are in dlfs */
	int	lfs_nlocked;		/* its buffers charged to lfs_avail */
	int	lfs_nheld;		/* vnodes held until written (VHELD) */

	/* directory operations (thesis 6.3.3, lfs_dirop.c) */
	int	lfs_dirops;		/* dirop_in_progress: how many */
	int	lfs_doneops;		/* one happened since the ifile was
					 * last written */
	int	lfs_writer;		/* LFS_WRITER_*: the gate */

	/* the cleaner (lfs_syscalls.c) */
	int	lfs_cleaners;		/* processes in lfs_segwait */
	u_int32_t lfs_cleanerpass;	/* its passes ended (lfs_segwait) */
	int	lfs_calls;		/* cleaner calls under way */
	int64_t	lfs_cleanerseen;	/* when one last called in */
	u_int64_t lfs_cleanserial;	/* serial after its last write */
	u_int64_t lfs_ckpserial;	/* serial of the last checkpoint */
	int	lfs_unmounting;
	int	lfs_coldin;		/* the writer's fields hold the cold
					 * head (lfs_usehead) */
	int	lfs_coldlost;		/* the hot head took the cold head's
					 * next segment (lfs_pickseg) */
	int	lfs_unnamed;		/* the hot head went to a segment no
					 * summary names: checkpoint */
	u_int32_t lfs_cleanage;		/* su_lastmod for the cleaner's copies:
					 * their data's, not the move's */
	int	lfs_marking;		/* lfs_markv calls marking copies: other
					 * writes leave those to them */

	/* kernel transactions' group commit (lfs_txncommit.c) */
	TAILQ_HEAD(, txn) lfs_txnq;	/* committers waiting for a group */
	int	lfs_ntxnq;
	TAILQ_HEAD(, txn) lfs_txnforce;	/* the group being written */
	struct proc *lfs_txnleader;	/* who writes it */
	u_int32_t lfs_txnseq;		/* committers queued, ever */
	u_int32_t lfs_txnseqdone;	/* ... whose groups are on the disk */
	int	lfs_txncalls;		/* transactions' calls inside it */
	int	lfs_txngone;		/* unmounted by force: none binds */

	struct lfs_stats lfs_stats;	/* thesis 7.2 */
	struct	lfs_rfwstats lfs_rfw;	/* what the mount's roll-forward did */
};

/* lfs_writer: where the segment writer is in the dirop protocol. */
#define LFS_WRITER_IDLE		0	/* dirops may begin */
#define LFS_WRITER_DRAIN	1	/* none may begin; waiting for those
					 * in progress to end */
#define LFS_WRITER_DIROP	2	/* writing the dirop vnodes and the
					 * ifile */

/* The ifile: read-only to everyone but the file system itself. */
#define ISIFILE(vp)	((vp) != NULL && ((vp)->v_flag & VSYSTEM))

/* Only the segment lock's holder may be here. */
#define LFS_ASSERT_SEGLOCK(fs)	KASSERT(lockheld(&(fs)->lfs_seglock))

#define VFSTOLFS(mp)	(VFSTOUFS(mp)->um_lfs)
#define ITOLFS(ip)	((ip)->i_ump->um_lfs)

/*
 * The partial segment being built (lfs_pseg.c, lfs_gather.c), written by
 * lfs_segio.c.
 */
#define LFS_MAXINOBLKS	16		/* inode blocks in a partial segment */
#define LFS_MINPSEG	3		/* summary, a block, an inode block */
#define LFS_DATA	(-1)		/* lfs_gather: data blocks, not a level */

struct segment {
	u_int8_t *sg_sum;		/* the summary being built */
	FINFO	*sg_fip;		/* the open FINFO, or NULL */
	struct inode *sg_ip;		/* whose blocks are being gathered */
	u_int32_t sg_sumused;		/* summary bytes used from the front */
	u_int32_t sg_start;		/* where the summary goes */
	u_int32_t sg_limit;		/* first block past the segment */
	int	sg_open;		/* a partial segment is being built */
	struct buf **sg_bufs;		/* its blocks after the summary */
	int	sg_nbufs;
	int	sg_ngathered;		/* blocks gathered, all this write */
	struct dinode *sg_iblks[LFS_MAXINOBLKS];	/* its inode blocks */
	int	sg_niblks, sg_ninos;
	int	sg_flags;		/* SEGM_* of this write */
	int	sg_dirop;		/* in the dirop pass */
	int	sg_ifile;		/* writing the ifile for pass 2 */
	int	sg_end;			/* closing the write's last partial
					 * segment */
	int	sg_dataonly;		/* its partial segments: data-only
					 * files' blocks (SS_DATAONLY) */
	int	sg_cleancopy;		/* gather only B_CLEANCOPY and
					 * B_REWRITE blocks (the cold head's,
					 * lfs_writecold) */
	struct vnode **sg_vps;		/* pass 1 only these (sg_nvps), or */
	int	sg_nvps;		/* NULL: every dirty vnode */
};

/* The i-th inode written into the open partial segment. */
#define lfs_inoslot(fs, sp, i) \
	(&(sp)->sg_iblks[(i) / (fs)->lfs_dlfs.dlfs_inopb] \
	    [(i) % (fs)->lfs_dlfs.dlfs_inopb])

/* lfs_writeseg's last: is the partial segment it closes this write's last? */
#define LFS_PSEG_MORE		0	/* no: more of this write follow */
#define LFS_PSEG_LAST		1	/* yes (a dirop's or a checkpoint's
					 * commit), if its copy of the ifile
					 * misses no change; else MORE */
#define LFS_PSEG_FINAL		2	/* yes, whatever the ifile */

/* lfs_segwrite flags */
#define SEGM_CKP	0x01		/* a checkpoint: ifile and superblock */
#define SEGM_SYNC	0x02		/* for fsync or sync: counted as such */
#define SEGM_CLEAN	0x04		/* the cleaner's blocks (lfs_markv) */
#define SEGM_UNMOUNT	0x08		/* the last checkpoint: clean */
#define SEGM_TXN	0x10		/* a group of transactions' commit:
					 * one atomic run (lfs_txncommit.c) */
#define SEGM_DATAONLY	0x20		/* a forced write (fsync, commit): the
					 * files it may, data blocks only */
#define SEGM_RESERVE	0x40		/* recovery's or an unmount's: may use
					 * the cleaner's reserve (lfs_writeroom) */

/* A reference to an entry of the ifile (lfs_ifget / lfs_ifput). */
struct lfs_ifref {
	struct buf *ir_bp;
	int	ir_ours;		/* the segment writer already holds it */
};

extern const struct vnodeops lfs_vnodeops;
extern const struct ufs_ops lfs_ufsops;
extern const struct vfsops lfs_vfsops;

/* lfs_alloc.c */
void	*lfs_ifget(struct lfs *, daddr_t lbn, int idx, size_t size,
	    struct lfs_ifref *);
void	lfs_ifput(struct lfs *, struct lfs_ifref *, int changed);
#define LFS_SEGENTRY(fs, sn, r) ((SEGUSE *)lfs_ifget((fs), \
	lfs_seguse_lbn(&(fs)->lfs_dlfs, (sn)), \
	(sn) % (fs)->lfs_dlfs.dlfs_sepb, sizeof(SEGUSE), (r)))
#define LFS_IENTRY(fs, ino, r) ((IFILE *)lfs_ifget((fs), \
	lfs_ifile_lbn(&(fs)->lfs_dlfs, (ino)), \
	(ino) % (fs)->lfs_dlfs.dlfs_ifpb, sizeof(IFILE), (r)))
#define LFS_CLEANERINFO(fs, r) ((CLEANERINFO *)lfs_ifget((fs), 0, 0, \
	sizeof(CLEANERINFO), (r)))
int	lfs_ifind(struct lfs *, ino_t, IFILE *);
int	lfs_valloc(struct inode *pip, int mode, struct ucred *,
	    struct vnode **);
int	lfs_vfree(struct inode *pip, ino_t ino, int mode);

/* lfs_balloc.c */
int	lfs_balloc(struct inode *, daddr_t lbn, int size, struct ucred *,
	    int flags, struct buf **);

/* lfs_bio.c */
int	lfs_bwrite(struct buf *);
int	lfs_bwrite_data(struct buf *);
void	lfs_redirty(struct lfs *, struct buf *);
void	lfs_check(struct vnode *);
int	lfs_reserve(struct lfs *, int nnew, int nwrite, struct ucred *,
	    int wait);
void	lfs_unreserve(struct lfs *, int nblocks);
int	lfs_writeroom(struct lfs *, int wait);
int	lfs_cleaner_fits(struct lfs *, int nblocks);
int32_t	lfs_cleanblocks(struct lfs *);
void	lfs_thresholds(long *startb, long *stopb, int *startn, int *stopn);
#define LFS_STARTWRITE	0		/* lfs_above: which threshold */
#define LFS_STOPACCESS	1
int	lfs_above(int which);
void	lfs_discard(struct lfs *, struct buf *);
void	lfs_undirty(struct lfs *, struct buf *);

/* lfs_delta.c */
int	lfs_deltamax(struct lfs *);
int	lfs_mkdelta(char *at, struct inode *, daddr_t lbn, const char *data,
	    int off, int end, u_int64_t size);
void	lfs_sumdelta(struct lfs *, struct segment *);
int	lfs_putdeltas(struct lfs *, struct segment *, const char *recs, int n);
int	lfs_alllogged(struct buf *);
int	lfs_ondisk(struct buf *);
int	lfs_plandeltas(struct lfs *, struct vnode *, char **recsp);
void	lfs_planned(struct vnode *, int error);
int	lfs_relog(struct lfs *, struct segment *, int *np);

/* lfs_dirop.c */
int	lfs_dirop_begin(struct vnode *, int frees);
void	lfs_dirop_end(struct vnode *);
void	lfs_mark(struct vnode *);
void	lfs_ifile_wait(struct lfs *);
void	lfs_writer_enter(struct lfs *);
void	lfs_writer_leave(struct lfs *);
int	lfs_create(struct vnode *, struct vnode **, struct componentname *,
	    struct vattr *);
int	lfs_mknod(struct vnode *, struct vnode **, struct componentname *,
	    struct vattr *);
int	lfs_mkdir(struct vnode *, struct vnode **, struct componentname *,
	    struct vattr *);
int	lfs_remove(struct vnode *, struct vnode *, struct componentname *);
int	lfs_rmdir(struct vnode *, struct vnode *, struct componentname *);
int	lfs_link(struct vnode *, struct vnode *, struct componentname *);
int	lfs_symlink(struct vnode *, struct vnode **, struct componentname *,
	    struct vattr *, char *);
int	lfs_rename(struct vnode *, struct vnode *, struct componentname *,
	    struct vnode *, struct vnode *, struct componentname *);

/* lfs_inode.c */
int	lfs_update(struct inode *, int waitfor);
int	lfs_truncate(struct inode *, off_t length, struct ucred *);
int	lfs_inactive(struct vnode *);
int	lfs_vdirty(struct vnode *);
void	lfs_checkheld(struct mount *);
void	lfs_blkfree(struct inode *, int32_t *ptr);
int	lfs_restoresize(struct inode *, off_t length);

/* What lfs_rfw_scan found after the checkpoint (lfs_rfw.c). */
struct lfs_rfwpseg {
	u_int32_t p_daddr;		/* where its summary is */
	u_int32_t p_nblocks;		/* the blocks after it */
	u_int32_t p_ifblk;		/* the block holding the ifile inode,
					 * or 0 */
};

struct lfs_rfw {
	struct lfs_rfwpseg *rf_psegs;	/* valid partial segments, in log
					 * order */
	int	rf_nalloc;		/* allocated */
	int	rf_nvalid;		/* valid */
	int	rf_naccept;		/* ... of which rolled forward */
	int	rf_ndiscard;		/* ... an unfinished dirop */
	int	rf_base;		/* first one the ifile does not cover */
	u_int32_t rf_idaddr;		/* the newest ifile inode, or 0 */
	u_int64_t rf_serial;		/* the last accepted one's serial */
	u_int32_t rf_lastpseg;		/* ... its address */
	struct lfs_rfwhead {		/* each log head after the last it
					 * wrote that was accepted: */
		u_int32_t h_end;	/* where it goes on (0: cold head
					 * not started) */
		u_int32_t h_curseg, h_nextseg;	/* its segment, the next */
	} rf_hot, rf_cold;
};

/* lfs_rfw.c */
int	lfs_rfw_scan(struct lfs *, struct lfs_rfw *);
int	lfs_rfw_apply(struct lfs *, u_int32_t daddr);
int	lfs_rollforward(struct lfs *, struct lfs_rfw *);
void	lfs_rfw_free(struct lfs_rfw *);
/* ... its parts that lfs_rfwdata.c uses too */
int	lfs_rfw_read(struct lfs *, u_int32_t daddr, int n, struct buf **);
void	lfs_rfw_done(struct buf *);
void	lfs_rfw_totals(struct lfs *);
/* lfs_rfwdata.c: the blocks of forced writes, the DELTAs of commits */
int	lfs_rfw_blocks(struct lfs *, struct lfs_rfw *);

/* lfs_segment.c */
void	lfs_seglock(struct lfs *);
void	lfs_segunlock(struct lfs *);
int	lfs_segwrite(struct mount *, int flags);
int	lfs_segwrite_vnodes(struct mount *, int flags, struct vnode **, int n);
struct segment *lfs_segalloc(struct lfs *);
void	lfs_segfree(struct segment *);

/* lfs_pseg.c */
int	lfs_initseg(struct lfs *, struct segment *, u_int32_t need);
void	lfs_endfinfo(struct lfs *, struct segment *);
void	lfs_writeseg(struct lfs *, struct segment *, int last);
int	lfs_needroom(struct lfs *, struct segment *, int nb, int sum,
	    int iblk);

/* lfs_gather.c */
int	lfs_gather(struct lfs *, struct segment *, struct inode *, int level);
int	lfs_cantake(struct buf *);
int	lfs_dataonly(struct lfs *, struct segment *, struct vnode *);
int	lfs_writedata(struct lfs *, struct segment *, struct vnode *);
int	lfs_writefile(struct lfs *, struct segment *, struct vnode *);

/* lfs_seguse.c */
void	lfs_seguse_add(struct lfs *, u_int32_t daddr, int32_t bytes);
int	lfs_newseg(struct lfs *);
int	lfs_pickseg(struct lfs *);
int	lfs_usehead(struct lfs *, int cold);
int	lfs_pickcold(struct lfs *);
int	lfs_isheadseg(struct lfs *, u_int32_t sn);
void	lfs_clearactive(struct lfs *);

/* lfs_segio.c */
void	lfs_startio(struct lfs *, struct segment *, struct lfs_pseg *,
	    int nblocks);
struct lfs_pseg *lfs_pseg_alloc(int nbufs);
void	lfs_pseg_add(struct lfs_pseg *, int i, struct buf *);
void	lfs_drain(struct lfs *, int all);
long	lfs_inflight_max(void);
int64_t	lfs_time(void);
int	lfs_writesuper(struct lfs *, struct dlfs *);
void	lfs_devinval(struct lfs *, u_int32_t daddr, int n);

/* lfs_syscalls.c */
int	lfs_fsidmount(const fsid_t *ufsid, struct mount **, int rw);
void	lfs_fsidrele(struct mount *);

/* lfs_vfsops.c */
int	lfs_vget(struct mount *, ino_t, struct vnode **);
int	lfs_fsdirty(struct mount *);
int	lfs_vcreate(struct mount *, ino_t, u_int32_t version,
	    struct vnode **);

#endif
