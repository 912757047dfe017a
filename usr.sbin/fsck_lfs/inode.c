/*
 * The ifile in memory, and pass 3: the inodes (thesis 6.3.2).
 *
 * The ifile's inode is where the checkpoint says (dlfs_idaddr); its
 * blocks are read whole into ifbuf: CLEANERINFO, the SEGUSE table, the
 * IFILE entries.  Every entry with an address names an inode block that
 * must hold a dinode with that di_inumber and di_gen equal to the
 * entry's version, with a sane mode.  Each inode's block pointers
 * (direct, then the indirect trees) must be in the file system, not in a
 * summary, a superblock copy or an inode block, claimed by no other
 * inode; di_blocks must count them, and none may lie past the size.
 *
 * Indirect blocks carry the negative logical block numbers of UFS
 * (ufs/ufs_bmap.c): a block at height h whose first data block is F is
 * lbn -(F + h), so the single indirect block is -NDADDR.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/lfs_read.h"
#include "fsck_lfs.h"

#define MAXLBN	0x7fffffffLL		/* lbns are int32_t */

struct inoinfo *inos;
u_int32_t nent;
struct dinode ifino;
u_int8_t *ifbuf;
u_int32_t ifnblk;
u_int32_t *owner;
int64_t *live;
int64_t nlive;
u_int32_t nalloc;
struct dirtyblk *dirtyblks;

/*
 * Block lbn of inode ino, at daddr: the repaired copy if there is one,
 * else read into a new buffer.  NULL if unreadable.  The caller frees a
 * buffer it was given when fileblk(..) != a dirty block's data: use
 * fileblk_put().
 */
u_int8_t *
fileblk(u_int32_t ino, int32_t lbn, u_int32_t daddr)
{
	struct dirtyblk *db;
	u_int8_t *buf;

	if ((db = dirtyblk(ino, lbn)) != NULL)
		return (db->db_data);
	buf = emalloc(fs.dlfs_bsize);
	if (!bread(daddr, buf)) {
		free(buf);
		return (NULL);
	}
	return (buf);
}

static void
fileblk_put(u_int32_t ino, int32_t lbn, u_int8_t *buf)
{

	if (dirtyblk(ino, lbn) == NULL)
		free(buf);
}

/* Does an inode of this mode and size own blocks? */
static int
hasblocks(const struct dinode *dp)
{
	int ftype = dp->di_mode & IFMT;

	return (ftype == IFREG || ftype == IFDIR || (ftype == IFLNK &&
	    dp->di_size >= (u_int64_t)fs.dlfs_maxsymlinklen));
}

/*
 * Adopt buf as the repaired copy of block lbn of inode ino (at daddr
 * now), to be written by write.c; a block already dirty stays as it is.
 */
void
mkdirty(u_int32_t ino, int32_t lbn, u_int32_t daddr, u_int8_t *buf)
{
	struct dirtyblk *db;

	for (db = dirtyblks; db != NULL; db = db->db_next)
		if (db->db_ino == ino && db->db_lbn == lbn)
			return;
	db = emalloc(sizeof(*db));
	db->db_ino = ino;
	db->db_lbn = lbn;
	db->db_daddr = daddr;
	db->db_data = buf;
	db->db_next = dirtyblks;
	dirtyblks = db;
	inos[ino].is_flags |= IF_DIRTY;	/* a pointer of it will change */
}

/* The dirty copy of block lbn of ino, or NULL. */
struct dirtyblk *
dirtyblk(u_int32_t ino, int32_t lbn)
{
	struct dirtyblk *db;

	for (db = dirtyblks; db != NULL; db = db->db_next)
		if (db->db_ino == ino && db->db_lbn == lbn)
			return (db);
	return (NULL);
}

/*
 * The indirect block *ptr at height h, first data block first: fn on it,
 * then (if fn left *ptr nonzero and it can be read) on what it points to.
 * 1 if *ptr is to change in its parent: fn kept a change of it, or the
 * block itself changed (a pointer in it did), so it becomes a dirty
 * block and moves when write.c writes it.
 */
static int
walkind(u_int32_t ino, u_int32_t *ptr, int h, int64_t first, blkfn fn,
    void *arg)
{
	u_int32_t *ib, i;
	int64_t span;
	int32_t lbn = (int32_t)-(first + h);
	int kept, changed = 0;

	kept = fn(ino, lbn, ptr, arg);
	if (*ptr == LFS_UNUSED_DADDR ||
	    (ib = (u_int32_t *)fileblk(ino, lbn, *ptr)) == NULL)
		return (kept);
	for (span = 1, i = 0; i < (u_int32_t)h; i++)
		span *= fs.dlfs_nindir;
	for (i = 0; i < fs.dlfs_nindir; i++) {
		if (ib[i] == LFS_UNUSED_DADDR || first + i * span > MAXLBN)
			continue;
		if (h == 0)
			changed |= fn(ino, (int32_t)(first + i), &ib[i], arg);
		else
			changed |= walkind(ino, &ib[i], h - 1,
			    first + i * span, fn, arg);
	}
	if (changed) {
		mkdirty(ino, lbn, *ptr, (u_int8_t *)ib);
		return (1);
	}
	fileblk_put(ino, lbn, (u_int8_t *)ib);
	return (kept);
}

/*
 * fn(ino, lbn, &pointer, arg) on every block pointer of dp that is not a
 * hole, data blocks and indirect blocks alike.  fn may zero an indirect
 * pointer to keep the walk out of it; a change fn returns 1 for is kept:
 * in dp, or in an indirect block that becomes dirty (with every indirect
 * block above it).  The ifile's dinode is not inos[]'s: nothing is kept
 * for it (write.c rewrites the ifile whole).
 */
void
walkfile(u_int32_t ino, struct dinode *dp, blkfn fn, void *arg)
{
	u_int32_t ptr;
	int64_t first, span;
	int i;

	if (!hasblocks(dp))
		return;
	for (i = 0; i < NDADDR; i++)
		if ((ptr = dp->di_db[i]) != LFS_UNUSED_DADDR &&
		    fn(ino, i, &ptr, arg))
			dp->di_db[i] = ptr;
	first = NDADDR;
	span = fs.dlfs_nindir;
	for (i = 0; i < NIADDR && first <= MAXLBN; i++) {
		if ((ptr = dp->di_ib[i]) != LFS_UNUSED_DADDR &&
		    walkind(ino, &ptr, i, first, fn, arg))
			dp->di_ib[i] = ptr;
		first += span;
		span *= fs.dlfs_nindir;
	}
}

/* ifile_read's walk: where each ifile block is. */
static int
ifaddrs(u_int32_t ino, int32_t lbn, u_int32_t *ptr, void *arg)
{
	u_int32_t *addr = arg;

	if (lbn >= 0 && (u_int32_t)lbn < ifnblk)
		addr[lbn] = *ptr;
	return (0);
}

/*
 * Read the checkpoint's ifile into memory and size the model; 0 if it
 * cannot be read at all (its inode, its size).
 */
int
ifile_read(void)
{
	u_int32_t lbn, minblk, *addr;

	if (!lfs_getinode(rdbytes, &fs, fs.dlfs_idaddr, LFS_IFILE_INUM,
	    &ifino))
		return (0);
	minblk = fs.dlfs_cleansz + fs.dlfs_segtabsz + 1;
	if ((ifino.di_mode & IFMT) != IFREG ||
	    ifino.di_size % fs.dlfs_bsize != 0 ||
	    ifino.di_size < (u_int64_t)minblk * fs.dlfs_bsize ||
	    ifino.di_size / fs.dlfs_bsize > fs.dlfs_size ||
	    ifino.di_size / fs.dlfs_bsize > 0x1000000)
		return (0);
	ifnblk = ifino.di_size / fs.dlfs_bsize;
	ifbuf = emalloc((size_t)ifnblk * fs.dlfs_bsize);
	addr = emalloc(ifnblk * sizeof(*addr));
	walkfile(LFS_IFILE_INUM, &ifino, ifaddrs, addr);
	for (lbn = 0; lbn < ifnblk; lbn++)
		if (!bread(addr[lbn], ifbuf + (size_t)lbn * fs.dlfs_bsize)) {
			problem(NOFIX, "ifile block %u at %u: a hole or "
			    "unreadable", lbn, addr[lbn]);
			memset(ifbuf + (size_t)lbn * fs.dlfs_bsize, 0,
			    fs.dlfs_bsize);
		}
	free(addr);
	nent = (ifnblk - fs.dlfs_cleansz - fs.dlfs_segtabsz) * fs.dlfs_ifpb;
	inos = emalloc(nent * sizeof(*inos));
	owner = emalloc((size_t)fs.dlfs_size * sizeof(*owner));
	live = emalloc(fs.dlfs_nseg * sizeof(*live));
	return (1);
}

/* Segment sn's SEGUSE (sn < nseg). */
SEGUSE *
seguse(u_int32_t sn)
{

	return ((SEGUSE *)(ifbuf + (size_t)lfs_seguse_lbn(&fs, sn) *
	    fs.dlfs_bsize) + sn % fs.dlfs_sepb);
}

/* Inode ino's IFILE entry, or NULL if there is none. */
IFILE *
ifentry(u_int32_t ino)
{

	if (ino >= nent)
		return (NULL);
	return ((IFILE *)(ifbuf + (size_t)lfs_ifile_lbn(&fs, ino) *
	    fs.dlfs_bsize) + ino % fs.dlfs_ifpb);
}

/* Inode ino is free now: its entry at the head of the free list. */
void
freeino(u_int32_t ino)
{
	IFILE *ifp = ifentry(ino);

	ifp->if_daddr = LFS_UNUSED_DADDR;
	ifp->if_version++;
	ifp->if_nextfree = fs.dlfs_free;
	fs.dlfs_free = ino;
	inos[ino].is_state = IS_FREE;
	inos[ino].is_flags = 0;
}

/*
 * pass 3's walk: one block pointer of an inode.  A pointer outside the
 * file system, into the log's own blocks, to a block another inode has
 * already, or past the size is cleared by -y: the block becomes a hole.
 * The ifile's are not repaired here (it is read already).  Without -y a
 * bad indirect pointer is zeroed only to keep the walk out.
 */
static int
checkblk(u_int32_t ino, int32_t lbn, u_int32_t *ptr, void *arg)
{
	struct inoinfo *ip = &inos[ino];
	u_int32_t daddr = *ptr, own;
	int64_t *lastlbn = arg;
	int fix = ino == LFS_IFILE_INUM ? NOFIX : FIX;
	char why[48];

	if (daddr < lfs_sbfirstblock(&fs, 0) || daddr >= fs.dlfs_size)
		snprintf(why, sizeof(why), "out of range");
	else if ((own = owner[daddr]) != OWN_NONE && own != OWN_GAP)
		snprintf(why, sizeof(why), own == OWN_SUMMARY ? "is a summary" :
		    own == OWN_SUPER ? "is a superblock copy" :
		    own == OWN_INOBLK ? "is an inode block" :
		    "also claimed by inode %u", own);
	else if (lbn >= 0 && lbn > *lastlbn)
		snprintf(why, sizeof(why), "past its size %llu",
		    (unsigned long long)ip->is_di.di_size);
	else {
		owner[daddr] = ino;
		ip->is_nblocks++;
		return (0);
	}
	if (problem(fix, "inode %u: block %u (lbn %d) %s", ino, daddr, lbn,
	    why)) {
		*ptr = LFS_UNUSED_DADDR;
		ip->is_flags |= IF_DIRTY;
		return (1);
	}
	ip->is_flags |= IF_BADPTR;
	*ptr = LFS_UNUSED_DADDR;
	return (0);
}

/* Is the mode one a file can have? */
static int
goodmode(u_int16_t mode)
{

	switch (mode & IFMT) {
	case IFIFO: case IFCHR: case IFDIR: case IFBLK:
	case IFREG: case IFLNK: case IFSOCK:
		return (1);
	}
	return (0);
}

/* One inode map entry: is its inode there and sane? */
static void
checkino(u_int32_t ino)
{
	struct inoinfo *ip = &inos[ino];
	IFILE *ifp = ifentry(ino);
	struct dinode *dp = &ip->is_di;
	int64_t lastlbn;
	u_int32_t sectors;

	ip->is_daddr = ino == LFS_IFILE_INUM ? fs.dlfs_idaddr : ifp->if_daddr;
	if (ino == LFS_IFILE_INUM && ifp->if_daddr != fs.dlfs_idaddr &&
	    problem(FIX, "inode map entry 1: daddr %u, the ifile's inode is "
	    "at %u", ifp->if_daddr, fs.dlfs_idaddr))
		ifp->if_daddr = fs.dlfs_idaddr;
	if (ip->is_daddr == LFS_UNUSED_DADDR)
		return;
	if (ino == 0) {
		if (problem(FIX, "inode map entry 0 is allocated"))
			ifp->if_daddr = LFS_UNUSED_DADDR;
		return;
	}
	ip->is_state = IS_BAD;
	if (!lfs_getinode(rdbytes, &fs, ip->is_daddr, ino, dp)) {
		problem(FIX, "inode %u: not in inode block %u", ino,
		    ip->is_daddr);
		return;
	}
	if (owner[ip->is_daddr] == OWN_GAP)	/* a broken summary's */
		owner[ip->is_daddr] = OWN_INOBLK;
	if (owner[ip->is_daddr] != OWN_INOBLK) {
		problem(FIX, "inode %u: block %u is not an inode block of "
		    "the log", ino, ip->is_daddr);
		return;
	}
	if (dp->di_gen != (int32_t)ifp->if_version) {
		problem(FIX, "inode %u: generation %d, inode map version %u",
		    ino, dp->di_gen, ifp->if_version);
		return;
	}
	if (!goodmode(dp->di_mode)) {
		problem(FIX, "inode %u: bad mode %o", ino, dp->di_mode);
		return;
	}
	/* Transaction protection is the one flag, and for files only. */
	if ((dp->di_flags & ~DI_TXN) || ((dp->di_flags & DI_TXN) &&
	    (dp->di_mode & IFMT) != IFREG)) {
		if (problem(FIX, "inode %u: flags %#x (%s)", ino,
		    (unsigned)dp->di_flags, (dp->di_flags & ~DI_TXN) ?
		    "unknown" : "txn on a file that is not regular")) {
			dp->di_flags = 0;
			ip->is_flags |= IF_DIRTY;
		}
	}
	if ((dp->di_mode & IFMT) == IFDIR && dp->di_size % DIRBLKSIZ != 0 &&
	    problem(FIX, "directory %u: size %llu is not whole directory "
	    "blocks", ino, (unsigned long long)dp->di_size)) {
		dp->di_size += DIRBLKSIZ - dp->di_size % DIRBLKSIZ;
		ip->is_flags |= IF_DIRTY;
	}
	ip->is_state = IS_ALLOC;
	lastlbn = dp->di_size == 0 ? -1 :
	    (int64_t)((dp->di_size - 1) >> fs.dlfs_bshift);
	walkfile(ino, dp, checkblk, &lastlbn);
	sectors = ip->is_nblocks << fs.dlfs_fsbtodb;
	if ((u_int32_t)dp->di_blocks != sectors &&
	    !(ip->is_flags & IF_BADPTR) &&
	    problem(FIX, "inode %u: di_blocks %d, %u blocks (%u sectors)",
	    ino, dp->di_blocks, ip->is_nblocks, sectors)) {
		dp->di_blocks = sectors;
		ip->is_flags |= IF_DIRTY;
	}
}

/*
 * Pass 3: every inode of the map.  A mapped inode that is not there or
 * not sane is IS_BAD: -y frees it (pass 4 then drops the entries that
 * name it).
 */
void
pass3(void)
{
	u_int32_t ino;

	for (ino = 0; ino < nent; ino++)
		checkino(ino);
	if (inos[LFS_IFILE_INUM].is_state != IS_ALLOC)
		problem(NOFIX, "the ifile's inode is not sane");
	for (ino = ROOTINO; ino < nent; ino++)
		if (inos[ino].is_state == IS_BAD && yflag)
			freeino(ino);
}

/* account's walk: a live block. */
static int
countblk(u_int32_t ino, int32_t lbn, u_int32_t *ptr, void *arg)
{

	if (*ptr < fs.dlfs_size) {
		live[lfs_dtosn(&fs, *ptr)] += fs.dlfs_bsize;
		inos[ino].is_nblocks++;
		nlive++;
	}
	return (0);
}

/*
 * What the model holds live, counted as the kernel counts it (thesis
 * 6.2.2, lfs_updatemeta and lfs_mapinodes): bsize for every data and
 * indirect block of every file, the ifile's too, in the segment holding
 * it, and sizeof(struct dinode) for every inode in the segment of its
 * map address (the ifile's: dlfs_idaddr).  Also nlive and nalloc.
 */
void
account(void)
{
	struct inoinfo *ip;
	u_int32_t ino;

	memset(live, 0, fs.dlfs_nseg * sizeof(*live));
	nlive = 0;
	nalloc = 0;
	for (ino = 0; ino < nent; ino++) {
		ip = &inos[ino];
		if (ip->is_state == IS_FREE || ino == 0)
			continue;
		nalloc++;
		if (ip->is_daddr < fs.dlfs_size)
			live[lfs_dtosn(&fs, ip->is_daddr)] +=
			    sizeof(struct dinode);
		if (ip->is_state != IS_ALLOC)
			continue;
		ip->is_nblocks = 0;
		walkfile(ino, &ip->is_di, countblk, NULL);
	}
}
