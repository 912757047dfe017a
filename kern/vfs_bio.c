/*
 * The buffer cache (4.4BSD vfs_bio.c); the protocol is in buf.h.
 *
 * Memory: each buffer's data is allocated to its size (a 1 KB fragment,
 * a 4 KB block, a 64 KB cluster) and the total is held under maxbufspace,
 * which is a tenth of memory unless the kernel command line says
 * "bufcache=KB".  Victims come from EMPTY, then AGE, then LRU; LOCKED
 * buffers are never taken.  A dirty victim is written asynchronously
 * first and the search goes on.
 */
#include "kern/systm.h"
#include "kern/buf.h"
#include "kern/vnode.h"
#include "kern/mount.h"
#include "kern/proc.h"
#include "kern/malloc.h"
#include "kern/uio.h"
#include "kern/syscallargs.h"
#include "kern/i386/cpu.h"

int nbuf;
long bufspace, maxbufspace;
int bqcount[BQUEUES];
struct bqueue bufqueues[BQUEUES];
int locked_queue_count;
long locked_queue_bytes;
static struct buf *buf;			/* the headers */
static LIST_HEAD(bufhashhdr, buf) *bufhashtbl;
static u_int32_t bufhash;
static int needbuffer;			/* someone waits for a free header */

struct bufstats {			/* SYS_bufstats, for the bufq tool */
	int	nbuf;
	long	bufspace, maxbufspace;
	int	bqcount[BQUEUES];
	long	locked_queue_bytes;
};

#define BUFHASH(vp, lbn) \
	(&bufhashtbl[(((u_int32_t)(vp) >> 6) + (u_int32_t)(lbn)) & bufhash])

void
bufinit(void)
{
	struct buf *bp;
	int i, hsize;

	maxbufspace = getkarg_int("bufcache", physmem / 10 / 1024) * 1024;
	if (maxbufspace < 256 * 1024)
		maxbufspace = 256 * 1024;
	nbuf = maxbufspace / 2048;	/* room for small buffers too */
	buf = malloc(nbuf * sizeof(*buf), M_ZERO);
	for (hsize = 1; hsize < nbuf; hsize <<= 1)
		continue;
	bufhash = hsize - 1;
	bufhashtbl = malloc(hsize * sizeof(*bufhashtbl), M_ZERO);
	for (i = 0; i < BQUEUES; i++)
		TAILQ_INIT(&bufqueues[i]);
	for (i = 0; i < nbuf; i++) {
		bp = &buf[i];
		bp->b_flags = B_INVAL;
		bp->b_qindex = QUEUE_EMPTY;
		TAILQ_INSERT_TAIL(&bufqueues[QUEUE_EMPTY], bp, b_freelist);
		bqcount[QUEUE_EMPTY]++;
	}
	printf("buffer cache: %d buffers, %ld KB\n", nbuf, maxbufspace / 1024);
}

/* Take a buffer off its free queue (it is about to become busy). */
void
bremfree(struct buf *bp)
{
	int s = splbio();

	if (bp->b_qindex != QUEUE_NONE) {
		TAILQ_REMOVE(&bufqueues[bp->b_qindex], bp, b_freelist);
		bqcount[bp->b_qindex]--;
		bp->b_qindex = QUEUE_NONE;
	}
	splx(s);
}

static void
binsfree(struct buf *bp, int q, int head)
{
	bp->b_qindex = q;
	if (head)
		TAILQ_INSERT_HEAD(&bufqueues[q], bp, b_freelist);
	else
		TAILQ_INSERT_TAIL(&bufqueues[q], bp, b_freelist);
	bqcount[q]++;
}

/*
 * LFS takes a dirty buffer (B_LOCKED): brelse keeps it on the LOCKED
 * queue, where getnewbuf never looks, until the segment writer has
 * written it (thesis 6.5.2).  locked_queue_count and _bytes count these
 * buffers whether they sit on the queue or are busy with a reader or
 * the writer, which is what the LFS thresholds must see.
 */
void
bsetlocked(struct buf *bp)
{
	int s = splbio();

	if (!(bp->b_flags & B_LOCKED)) {
		bp->b_flags |= B_LOCKED;
		locked_queue_count++;
		locked_queue_bytes += bp->b_bufsize;
	}
	splx(s);
}

void
bclrlocked(struct buf *bp)
{
	int s = splbio();

	if (bp->b_flags & B_LOCKED) {
		bp->b_flags &= ~B_LOCKED;
		locked_queue_count--;
		locked_queue_bytes -= bp->b_bufsize;
	}
	splx(s);
}

/* Associate a buffer with a vnode (on its clean list). */
void
bgetvp(struct vnode *vp, struct buf *bp)
{
	KASSERT(bp->b_vp == NULL);
	bp->b_vp = vp;
	if (vp->v_type == VBLK || vp->v_type == VCHR)
		bp->b_dev = vp->v_rdev;
	LIST_INSERT_HEAD(&vp->v_cleanblkhd, bp, b_vnbufs);
}

void
brelvp(struct buf *bp)
{
	if (bp->b_vp == NULL)
		return;
	if (bp->b_vnbufs.le_prev != NULL)
		LIST_REMOVE(bp, b_vnbufs);
	bp->b_vp = NULL;
	free(bp->b_fsdata);
	bp->b_fsdata = NULL;
}

/* Move a buffer to its vnode's dirty or clean list, as its state says. */
void
reassignbuf(struct buf *bp, struct vnode *vp)
{
	if (bp->b_vnbufs.le_prev != NULL)
		LIST_REMOVE(bp, b_vnbufs);
	if (bp->b_flags & B_DELWRI)
		LIST_INSERT_HEAD(&vp->v_dirtyblkhd, bp, b_vnbufs);
	else
		LIST_INSERT_HEAD(&vp->v_cleanblkhd, bp, b_vnbufs);
}

/* Give a buffer exactly size bytes of data, keeping what fits. */
void
allocbuf(struct buf *bp, int size)
{
	int want = size <= 2048 ? size : (int)round_page(size);
	caddr_t data;

	KASSERT(size > 0 && size <= MAXBSIZE);
	if (want != bp->b_bufsize) {
		data = malloc(want, M_WAITOK);
		if (bp->b_data != NULL) {
			memcpy(data, bp->b_data, MIN(bp->b_bufsize, want));
			free(bp->b_data);
		}
		bufspace += want - bp->b_bufsize;
		if (bp->b_flags & B_LOCKED)
			locked_queue_bytes += want - bp->b_bufsize;
		bp->b_data = data;
		bp->b_bufsize = want;
	}
	bp->b_bcount = size;
}

static void
bfreemem(struct buf *bp)
{
	if (bp->b_data != NULL) {
		free(bp->b_data);
		bufspace -= bp->b_bufsize;
	}
	bp->b_data = NULL;
	bp->b_bufsize = 0;
	bp->b_bcount = 0;
}

struct buf *
incore(struct vnode *vp, daddr_t lblkno)
{
	struct buf *bp;

	LIST_FOREACH(bp, BUFHASH(vp, lblkno), b_hash)
		if (bp->b_vp == vp && bp->b_lblkno == lblkno &&
		    !(bp->b_flags & B_INVAL))
			return bp;
	return NULL;
}

/*
 * A free buffer header, busy and with no identity, or NULL if the caller
 * must wait and retry (a dirty victim was sent to disk meanwhile).
 */
static struct buf *
getnewbuf(int size)
{
	struct buf *bp;
	int s = splbio();

	for (;;) {
		if ((bp = TAILQ_FIRST(&bufqueues[QUEUE_EMPTY])) == NULL &&
		    (bp = TAILQ_FIRST(&bufqueues[QUEUE_AGE])) == NULL &&
		    (bp = TAILQ_FIRST(&bufqueues[QUEUE_LRU])) == NULL) {
			/* Everything is busy or LOCKED: wait for a release. */
			needbuffer = 1;
			tsleep(&needbuffer, 0, "getnewbuf", 0);
			splx(s);
			return NULL;
		}
		if (bp->b_flags & B_DELWRI) {
			splx(s);
			bawrite_delayed(bp);
			return NULL;
		}
		bremfree(bp);
		bp->b_flags |= B_BUSY;
		break;
	}
	splx(s);
	if (bp->b_vp != NULL) {
		LIST_REMOVE(bp, b_hash);
		brelvp(bp);
	}
	bp->b_flags = B_BUSY;
	bp->b_error = 0;
	bp->b_resid = 0;
	bp->b_iodone = NULL;
	/* Keep the cache under its size: shed memory of idle buffers. */
	while (bufspace + size > maxbufspace) {
		struct buf *vb;

		s = splbio();
		if ((vb = TAILQ_FIRST(&bufqueues[QUEUE_AGE])) == NULL)
			vb = TAILQ_FIRST(&bufqueues[QUEUE_LRU]);
		if (vb == NULL || (vb->b_flags & B_DELWRI)) {
			if (vb != NULL) {
				splx(s);
				bawrite_delayed(vb);
				continue;
			}
			splx(s);
			break;
		}
		bremfree(vb);
		splx(s);
		if (vb->b_vp != NULL) {
			LIST_REMOVE(vb, b_hash);
			brelvp(vb);
		}
		bfreemem(vb);
		vb->b_flags = B_INVAL;
		s = splbio();
		binsfree(vb, QUEUE_EMPTY, 0);
		splx(s);
	}
	return bp;
}

/* The buffer for (vp, lblkno), busy, with size bytes; maybe not read. */
struct buf *
getblk(struct vnode *vp, daddr_t lblkno, int size)
{
	struct buf *bp;
	int s;

	for (;;) {
		s = splbio();
		if ((bp = incore(vp, lblkno)) != NULL) {
			if (bp->b_flags & B_BUSY) {
				bp->b_flags |= B_WANTED;
				tsleep(bp, 0, "getblk", 0);
				splx(s);
				continue;
			}
			bremfree(bp);
			bp->b_flags |= B_BUSY | B_CACHE;
			splx(s);
			if (bp->b_bcount != size)
				allocbuf(bp, size);
			return bp;
		}
		splx(s);
		if ((bp = getnewbuf(size)) == NULL)
			continue;
		/* It may have appeared while getnewbuf slept. */
		if (incore(vp, lblkno) != NULL) {
			bp->b_flags |= B_INVAL;
			brelse(bp);
			continue;
		}
		bp->b_lblkno = lblkno;
		bp->b_blkno = lblkno;
		bgetvp(vp, bp);
		LIST_INSERT_HEAD(BUFHASH(vp, lblkno), bp, b_hash);
		allocbuf(bp, size);
		return bp;
	}
}

/* A buffer with no identity, for temporary use (raw I/O, scratch). */
struct buf *
geteblk(int size)
{
	struct buf *bp;

	while ((bp = getnewbuf(size)) == NULL)
		continue;
	bp->b_flags |= B_INVAL;
	allocbuf(bp, size);
	return bp;
}

/*
 * Ready a busy buffer for a read (rw = B_READ) or a write: its flags,
 * the vnode's count of writes in progress, the process's counters.  The
 * caller then starts the I/O, alone (VOP_STRATEGY) or with its
 * neighbours in one transfer (vfs_cluster.c).
 */
void
biostart(struct buf *bp, int rw)
{
	int s;

	if (rw == B_READ) {
		bp->b_flags |= B_READ;
		bp->b_flags &= ~(B_DONE | B_ERROR | B_INVAL);
		if (curproc)
			curproc->p_ru.ru_inblock++;
		return;
	}
	s = splbio();
	if (bp->b_flags & B_DELWRI) {
		bp->b_flags &= ~B_DELWRI;
		reassignbuf(bp, bp->b_vp);
	}
	bp->b_flags &= ~(B_READ | B_DONE | B_ERROR);
	bp->b_flags |= B_WRITEINPROG;
	if (!(bp->b_flags & B_ASYNC))
		bp->b_flags |= B_SYNC;
	bp->b_vp->v_numoutput++;
	splx(s);
	if (curproc)
		curproc->p_ru.ru_oublock++;
}

static void
bstartread(struct buf *bp)
{
	biostart(bp, B_READ);
	VOP_STRATEGY(bp);
}

int
bread(struct vnode *vp, daddr_t lblkno, int size, struct buf **bpp)
{
	struct buf *bp = getblk(vp, lblkno, size);

	*bpp = bp;
	if (bp->b_flags & (B_DONE | B_DELWRI))
		return 0;
	bstartread(bp);
	return biowait(bp);
}

/* bread, and start reading rablkno too without waiting for it. */
int
breada(struct vnode *vp, daddr_t lblkno, int size, daddr_t rablkno,
    int rasize, struct buf **bpp)
{
	struct buf *bp, *rabp;
	int readit = 0;

	bp = *bpp = getblk(vp, lblkno, size);
	if (!(bp->b_flags & (B_DONE | B_DELWRI))) {
		bstartread(bp);
		readit = 1;
	}
	if (incore(vp, rablkno) == NULL) {
		rabp = getblk(vp, rablkno, rasize);
		if (rabp->b_flags & (B_DONE | B_DELWRI))
			brelse(rabp);
		else {
			rabp->b_flags |= B_ASYNC;
			bstartread(rabp);
		}
	}
	return readit ? biowait(bp) : 0;
}

int
bwrite(struct buf *bp)
{
	int error, async = bp->b_flags & B_ASYNC;

	biostart(bp, B_WRITE);
	VOP_STRATEGY(bp);
	if (async)
		return 0;
	error = biowait(bp);
	brelse(bp);
	return error;
}

void
bawrite(struct buf *bp)
{
	bp->b_flags |= B_ASYNC;
	bwrite(bp);
}

/*
 * Start writing a delayed-write buffer that is not busy (sync, or the
 * cache shedding it): on a clustering file system together with the
 * dirty blocks contiguous with it on disk, as cluster_push does, else
 * alone.  A file's last partial cluster, left behind when its writer
 * moved on, then goes in one transfer instead of one a block.
 */
void
bawrite_delayed(struct buf *bp)
{
	struct vnode *vp = bp->b_vp;
	int s;

	if (vp != NULL && vp->v_mount != NULL &&
	    (vp->v_mount->mnt_flag & MNT_CLUSTERWRITE)) {
		cluster_push(vp, bp);
		return;
	}
	s = splbio();
	bremfree(bp);
	bp->b_flags |= B_BUSY;
	splx(s);
	bawrite(bp);
}

/* Mark dirty and release: the write happens later (sync, reuse). */
void
bdwrite(struct buf *bp)
{
	int s = splbio();

	if (!(bp->b_flags & B_DELWRI)) {
		bp->b_flags |= B_DELWRI;
		reassignbuf(bp, bp->b_vp);
	}
	bp->b_flags |= B_DONE;
	splx(s);
	brelse(bp);
}

void
brelse(struct buf *bp)
{
	int s = splbio();

	KASSERT(bp->b_flags & B_BUSY);
	if (needbuffer) {
		needbuffer = 0;
		wakeup(&needbuffer);
	}
	if (bp->b_flags & B_WANTED) {
		bp->b_flags &= ~B_WANTED;
		wakeup(bp);
	}
	if (bp->b_flags & (B_NOCACHE | B_INVAL | B_ERROR)) {
		if (bp->b_flags & B_DELWRI) {
			bp->b_flags &= ~B_DELWRI;
			if (bp->b_vp)
				reassignbuf(bp, bp->b_vp);
		}
		bp->b_flags |= B_INVAL;
		bclrlocked(bp);
		if (bp->b_vp != NULL) {
			LIST_REMOVE(bp, b_hash);
			brelvp(bp);
		}
		if (bp->b_bufsize == 0)
			binsfree(bp, QUEUE_EMPTY, 0);
		else
			binsfree(bp, QUEUE_AGE, 1);
	} else if (bp->b_flags & B_LOCKED)
		binsfree(bp, QUEUE_LOCKED, 0);
	else if (bp->b_flags & B_AGE)
		binsfree(bp, QUEUE_AGE, 0);
	else
		binsfree(bp, QUEUE_LRU, 0);
	bp->b_flags &= ~(B_BUSY | B_ASYNC | B_AGE | B_NOCACHE | B_SYNC |
	    B_WRITEINPROG | B_CACHE | B_RAW);
	splx(s);
}

/* I/O finished (called by drivers, at interrupt level). */
void
biodone(struct buf *bp)
{
	KASSERT(!(bp->b_flags & B_DONE));
	bp->b_flags |= B_DONE;
	if (!(bp->b_flags & B_READ))
		vwakeup(bp);
	if (bp->b_flags & B_CALL) {
		bp->b_flags &= ~B_CALL;
		bp->b_iodone(bp);
	} else if (bp->b_flags & B_ASYNC)
		brelse(bp);
	else
		wakeup(bp);
}

int
biowait(struct buf *bp)
{
	int s = splbio();

	while (!(bp->b_flags & B_DONE))
		tsleep(bp, 0, "biowait", 0);
	splx(s);
	if (bp->b_flags & B_ERROR)
		return bp->b_error ? bp->b_error : EIO;
	return 0;
}

/* bufstats(buf): copy out the queue counts and the space in use. */
int
sys_bufstats(struct proc *p, struct bufstats_args *uap, int *retval)
{
	struct bufstats bs;
	int i;

	bs.nbuf = nbuf;
	bs.bufspace = bufspace;
	bs.maxbufspace = maxbufspace;
	for (i = 0; i < BQUEUES; i++)
		bs.bqcount[i] = bqcount[i];
	bs.locked_queue_bytes = locked_queue_bytes;
	return copyout(&bs, uap->buf, sizeof(bs));
}
