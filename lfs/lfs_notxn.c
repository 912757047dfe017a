/*
 * The kernel without transactions (-DNOTXN, build/kernel-notxn): what
 * the callers of the lfs_txn*.c files still reach when TXN_PROTECTED is
 * never true, so bench/txn.py can measure what the transaction code
 * costs programs that do not use it (thesis 5.3: "1-2%").  No file can
 * be protected and the calls say ENOSYS.
 */
#include "kern/systm.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/buf.h"
#include "kern/proc.h"
#include "kern/syscallargs.h"
#include "ufs/inode.h"
#include "lfs/lfs_extern.h"
#include "lfs/lfs_txn.h"

void
txn_exit(struct proc *p)
{
}

void
txn_init(void)
{
}

void
txn_page_gone(struct buf *bp)
{
}

void
txn_release_pages(struct lfs *fs)
{
}

int
txn_page_pinned(struct buf *bp)
{
	return 0;
}

int
txn_page_logged(struct buf *bp)
{
	return 0;
}

void
txn_page_written(struct buf *bp)
{
}

int
txn_logdeltas(struct lfs *fs, struct segment *sp)
{
	return 0;
}

void
txn_group_issued(struct lfs *fs)
{
}

int
txn_page_relog(struct buf *bp, int *lo, int *hi, const char **data,
    u_int64_t *size)
{
	return 0;
}

int
txn_unmount(struct lfs *fs, int force)
{
	return 0;
}

int
txn_setflags(struct vnode *vp, u_int32_t flags)
{
	return (flags & UF_TXN) ? EOPNOTSUPP : 0;
}

int
sys_txn_begin(struct proc *p, void *uap, int *retval)
{
	return ENOSYS;
}

int
sys_txn_commit(struct proc *p, void *uap, int *retval)
{
	return ENOSYS;
}

int
sys_txn_abort(struct proc *p, void *uap, int *retval)
{
	return ENOSYS;
}

int
sys_txn_detect(struct proc *p, void *uap, int *retval)
{
	return ENOSYS;
}

int
sys_txnstats(struct proc *p, struct txnstats_args *uap, int *retval)
{
	return ENOSYS;
}
