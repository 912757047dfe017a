/*
 * The buffer cache, in the 4.4BSD shape.
 *
 * A buffer caches one logical block of a vnode (or of a device).  It is
 * found by (vnode, lblkno) in a hash table, and when not busy it sits on
 * exactly one of four free queues:
 *   LOCKED  dirty buffers that must not be written until their file system
 *           says so (LFS keeps its dirty blocks here until the segment
 *           writer takes them: thesis 6.5.2);
 *   LRU     buffers with useful data, least recently used first;
 *   AGE     buffers whose data is unlikely to be reused (reused first);
 *   EMPTY   headers without memory.
 * The rules a caller keeps: getblk/bread return the buffer B_BUSY (owned
 * by the caller); the caller then releases it exactly once, with brelse
 * (unchanged), bdwrite (dirty, write later), bawrite (write now, do not
 * wait) or bwrite (write now and wait); after that it must not touch it.
 * b_blkno is the device address in DEV_BSIZE sectors, set by VOP_BMAP
 * for file blocks; b_lblkno is the logical block (negative for indirect
 * blocks, thesis 6.3.1.2).
 */
#ifndef _KERN_BUF_H_
#define _KERN_BUF_H_

#include <sys/types.h>
#include "kern/queue.h"

struct vnode;

struct buf {
	LIST_ENTRY(buf) b_hash;		/* hash chain */
	LIST_ENTRY(buf) b_vnbufs;	/* the vnode's clean or dirty list */
	TAILQ_ENTRY(buf) b_freelist;	/* free queue, when not busy */
	TAILQ_ENTRY(buf) b_actq;	/* device queue (disksort) */
	volatile long b_flags;		/* B_* below */
	int	b_qindex;		/* which free queue, or QUEUE_NONE */
	int	b_error;		/* errno when B_ERROR */
	long	b_bufsize;		/* memory allocated at b_data */
	long	b_bcount;		/* bytes of valid data / to transfer */
	long	b_resid;		/* bytes not transferred */
	dev_t	b_dev;			/* device of the I/O */
	caddr_t	b_data;			/* the data (kernel direct map) */
	daddr_t	b_lblkno;		/* logical block in the vnode */
	daddr_t	b_blkno;		/* physical sector on b_dev */
	daddr_t	b_pblkno;		/* sector relative to the disk start */
	struct vnode *b_vp;		/* the vnode it belongs to */
	void	(*b_iodone)(struct buf *);	/* B_CALL: called by biodone */
	void	*b_private;		/* for b_iodone */
	void	*b_fsdata;		/* its file system's (malloc'd): freed
					 * when the buffer leaves its block */
	u_int64_t b_start_us;		/* when the driver started it */
	/*
	 * The bytes write(2) changed since the block was last as the disk
	 * has it (ufs_write), and of those, the ones LFS's fsync logged
	 * instead of writing the block (lfs_delta.c): valid with B_DELTAOK
	 * and B_LOGGED.  Empty when end <= off.
	 */
	int	b_dirtyoff, b_dirtyend;
	int	b_logoff, b_logend;
};

#define B_AGE		0x00000001	/* put on AGE queue when released */
#define B_ASYNC		0x00000004	/* do not wait for the I/O */
#define B_BUSY		0x00000010	/* owned by someone */
#define B_CACHE		0x00000020	/* found in the cache with data */
#define B_CALL		0x00000040	/* call b_iodone from biodone */
#define B_DELWRI	0x00000080	/* dirty: write before reuse */
#define B_DELTAOK	0x00000100	/* LFS: b_dirtyoff..end is all that
					 * differs from the disk's copy */
#define B_LOGGED	0x00000400	/* LFS: b_logoff..end are in the log,
					 * not in the disk's copy */
#define B_DELTAPLAN	0x00001000	/* LFS: the forced write under way
					 * logs it as a DELTA */
#define B_DONE		0x00000200	/* I/O completed */
#define B_ERROR		0x00000800	/* I/O error, see b_error */
#define B_INVAL		0x00002000	/* does not hold valid data */
#define B_LOCKED	0x00004000	/* stays on the LOCKED queue */
#define B_NOCACHE	0x00008000	/* do not cache after release */
#define B_READ		0x00100000	/* read (else write) */
#define B_WANTED	0x00800000	/* someone sleeps for it */
#define B_WRITEINPROG	0x01000000	/* write in progress */
#define B_SYNC		0x02000000	/* synchronous I/O (for counters) */
#define B_RAW		0x04000000	/* raw device I/O (physio) */
#define B_GATHERED	0x08000000	/* LFS: taken by the segment writer */
#define B_CLEANCOPY	0x20000000	/* LFS: the cleaner's copy of a live
					 * block, for the cold log head */
#define B_TXN		0x10000000	/* LFS: a running transaction's dirty
					 * page, kept until it commits */
#define B_REWRITE	0x40000000	/* LFS: replaces a block the disk has:
					 * for the cold log head */
#define B_WRITE		0x00000000

#define QUEUE_NONE	(-1)
#define QUEUE_LOCKED	0
#define QUEUE_LRU	1
#define QUEUE_AGE	2
#define QUEUE_EMPTY	3
#define BQUEUES		4

#define MAXBSIZE	65536		/* largest buffer; also MAXPHYS */
#define MAXPHYS		65536		/* largest single transfer */

extern int nbuf;			/* buffer headers */
extern long bufspace;			/* bytes of buffer memory in use */
extern long maxbufspace;		/* limit on bufspace */
extern int bqcount[BQUEUES];		/* buffers on each free queue */
extern TAILQ_HEAD(bqueue, buf) bufqueues[BQUEUES];
extern int locked_queue_count;		/* B_LOCKED buffers (thesis 6.5.2) */
extern long locked_queue_bytes;		/* and their memory */

void	bufinit(void);
struct buf *getblk(struct vnode *, daddr_t lblkno, int size);
struct buf *geteblk(int size);
struct buf *incore(struct vnode *, daddr_t lblkno);
int	bread(struct vnode *, daddr_t lblkno, int size, struct buf **);
int	breada(struct vnode *, daddr_t lblkno, int size, daddr_t rablkno,
	    int rasize, struct buf **);
int	bwrite(struct buf *);
void	bawrite(struct buf *);
void	bawrite_delayed(struct buf *);
void	bdwrite(struct buf *);
void	brelse(struct buf *);
void	bsetlocked(struct buf *);
void	bclrlocked(struct buf *);
void	biostart(struct buf *, int rw);
void	biodone(struct buf *);
int	biowait(struct buf *);
void	allocbuf(struct buf *, int size);
void	bremfree(struct buf *);
void	bgetvp(struct vnode *, struct buf *);
void	brelvp(struct buf *);
void	reassignbuf(struct buf *, struct vnode *);

/* the device queue, sorted for the elevator (4.4BSD disksort) */
struct buf_queue {
	TAILQ_HEAD(, buf) bq_head;
	daddr_t	bq_lastpos;		/* where the arm was sent last */
};
void	bufq_init(struct buf_queue *);
void	disksort(struct buf_queue *, struct buf *);
struct buf *bufq_first(struct buf_queue *);
void	bufq_remove(struct buf_queue *, struct buf *);

#endif
