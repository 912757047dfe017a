/*
 * The ifile of the checkpoint (thesis 6.3.2): read whole into memory
 * through its inode at dlfs_idaddr, following its direct and indirect
 * pointers; printed (CLEANERINFO, every SEGUSE, the allocated IFILE
 * entries, the free list's length); and checked:
 *
 *	- every allocated inode map entry points to an inode block that
 *	  holds an inode with that di_inumber;
 *	- the free list (from dlfs_free through if_nextfree, 0 ends it) is
 *	  acyclic, in range, holds only entries with if_daddr 0, and holds
 *	  every such entry but 0 (never used) and 1 (the ifile, found
 *	  through dlfs_idaddr, whatever its entry says);
 *	- CLEANERINFO's clean and dirty are the counts of SEGUSE_DIRTY
 *	  clear and set, its free_head is dlfs_free, and dlfs_nfiles is
 *	  the count of allocated entries;
 *	- no segment marked clean holds a block the checkpoint needs: the
 *	  ifile's inode block and blocks, every inode block of the inode
 *	  map, and the direct and top-level indirect pointers of every
 *	  inode in them (indirect blocks are not read).
 *
 * Problems are kept and printed at the end, one `ifile<TAB>PROBLEM:'
 * line each, or `ifile<TAB>consistent'.
 */
#include <sys/types.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/lfs_read.h"
#include "dumplfs.h"

#define MAXPROBLEMS	32		/* printed; the rest are counted */

static struct dinode ifino;		/* the ifile's inode */
static u_int8_t *ifbuf;			/* its blocks; NULL: unreadable */
static u_int32_t *ifaddr;		/* where each block is */
static u_int32_t ifnblk;		/* its blocks */
static u_int32_t nent;			/* its IFILE entries */
static u_int8_t *onlist;		/* bit map: entries on the free list */
static int64_t freelen;			/* its length; -1: broken */

static char problems[MAXPROBLEMS][128];
static int nproblems;

void
ifproblem(const char *fmt, ...)
{
	va_list ap;

	bad = 1;
	if (nproblems < MAXPROBLEMS) {
		va_start(ap, fmt);
		vsnprintf(problems[nproblems], sizeof(problems[0]), fmt, ap);
		va_end(ap);
	}
	nproblems++;
}

/*
 * The address of ifile block lbn: direct, then through one, two or three
 * indirect blocks (one cached block per depth).  0 is a hole; -1 an
 * indirect block outside the file system or unreadable.
 */
static int64_t
bmap(u_int32_t lbn)
{
	static u_int8_t *ib[NIADDR];
	static u_int32_t ibaddr[NIADDR];
	u_int64_t span, idx;
	u_int32_t addr;
	int level, d;

	if (lbn < NDADDR)
		return ((u_int32_t)ifino.di_db[lbn]);
	idx = lbn - NDADDR;
	span = 1;
	for (level = 0; level < NIADDR; level++) {
		span *= fs.dlfs_nindir;
		if (idx < span)
			break;
		idx -= span;
	}
	if (level == NIADDR)
		return (-1);
	addr = ifino.di_ib[level];
	for (d = 0; d <= level; d++) {
		span /= fs.dlfs_nindir;
		if (addr == LFS_UNUSED_DADDR)
			return (0);
		if (ib[d] == NULL)
			ib[d] = emalloc(fs.dlfs_bsize);
		if (ibaddr[d] != addr) {
			ibaddr[d] = 0;
			if (!bread(addr, ib[d]))
				return (-1);
			ibaddr[d] = addr;
		}
		addr = ((u_int32_t *)ib[d])[idx / span];
		idx %= span;
	}
	return (addr);
}

/*
 * Walk the free list, marking each entry in onlist; its length, or -1
 * (and a problem) if it is broken.
 */
static int64_t
freewalk(void)
{
	IFILE *ifp;
	u_int32_t ino;
	int64_t n;

	for (ino = fs.dlfs_free, n = 0; ino != 0; ino = ifp->if_nextfree) {
		if ((ifp = ifentry(ino)) == NULL) {
			ifproblem("free list runs out of range: entry %u", ino);
			return (-1);
		}
		if (onlist[ino / 8] & (1 << ino % 8)) {
			ifproblem("free list loops back to entry %u", ino);
			return (-1);
		}
		onlist[ino / 8] |= 1 << ino % 8;
		if (ino == LFS_IFILE_INUM)
			ifproblem("free list holds the ifile's entry");
		if (ifp->if_daddr != LFS_UNUSED_DADDR)
			ifproblem("free list holds allocated inode %u", ino);
		n++;
	}
	return (n);
}

/* Read the ifile into memory; 0 (and a problem noted) if it cannot be. */
int
ifile_read(void)
{
	u_int32_t lbn, minblk;
	int64_t a;

	if (!lfs_getinode(rdbytes, &fs, fs.dlfs_idaddr, LFS_IFILE_INUM,
	    &ifino)) {
		ifproblem("the ifile's inode is not in block %u",
		    fs.dlfs_idaddr);
		return (0);
	}
	if ((ifino.di_mode & IFMT) != IFREG)
		ifproblem("the ifile is not a regular file (mode %o)",
		    ifino.di_mode);
	if (ifino.di_size % fs.dlfs_bsize != 0)
		ifproblem("ifile size %llu is not whole blocks",
		    (unsigned long long)ifino.di_size);
	minblk = fs.dlfs_cleansz + fs.dlfs_segtabsz + 1;
	if (ifino.di_size < (u_int64_t)minblk * fs.dlfs_bsize ||
	    ifino.di_size / fs.dlfs_bsize > fs.dlfs_size ||
	    ifino.di_size > (size_t)-1 / 2) {
		ifproblem("ifile size %llu out of range",
		    (unsigned long long)ifino.di_size);
		return (0);
	}
	ifnblk = ifino.di_size / fs.dlfs_bsize;
	ifbuf = malloc((size_t)ifnblk * fs.dlfs_bsize);
	ifaddr = malloc((size_t)ifnblk * sizeof(*ifaddr));
	if (ifbuf == NULL || ifaddr == NULL) {
		ifproblem("no memory for an ifile of %u blocks", ifnblk);
		free(ifbuf);
		free(ifaddr);
		ifbuf = NULL;
		return (0);
	}
	for (lbn = 0; lbn < ifnblk; lbn++) {
		a = bmap(lbn);
		ifaddr[lbn] = a > 0 ? (u_int32_t)a : 0;
		if (a > 0 && bread(ifaddr[lbn],
		    ifbuf + (size_t)lbn * fs.dlfs_bsize))
			continue;
		memset(ifbuf + (size_t)lbn * fs.dlfs_bsize, 0, fs.dlfs_bsize);
		if (a < 0)
			ifproblem("ifile block %u: bad indirect block", lbn);
		else if (a == 0)
			ifproblem("ifile block %u is a hole", lbn);
		else
			ifproblem("ifile block %u at %u: outside the file "
			    "system or unreadable", lbn, ifaddr[lbn]);
	}
	nent = (ifnblk - fs.dlfs_cleansz - fs.dlfs_segtabsz) * fs.dlfs_ifpb;
	onlist = emalloc(nent / 8 + 1);
	freelen = freewalk();
	return (1);
}

/* Segment sn's SEGUSE, or NULL without an ifile. */
SEGUSE *
seguse(u_int32_t sn)
{

	if (ifbuf == NULL || sn >= fs.dlfs_nseg)
		return (NULL);
	return ((SEGUSE *)(ifbuf + (size_t)lfs_seguse_lbn(&fs, sn) *
	    fs.dlfs_bsize) + sn % fs.dlfs_sepb);
}

/* Inode ino's IFILE entry, or NULL if there is none. */
IFILE *
ifentry(u_int32_t ino)
{

	if (ifbuf == NULL || ino >= nent)
		return (NULL);
	return ((IFILE *)(ifbuf + (size_t)lfs_ifile_lbn(&fs, ino) *
	    fs.dlfs_bsize) + ino % fs.dlfs_ifpb);
}

static int
segclean(u_int32_t daddr)
{
	SEGUSE *sup = seguse(lfs_dtosn(&fs, daddr));

	return (sup != NULL && (sup->su_flags & SEGUSE_DIRTY) == 0);
}

/* SEGUSE flags as words; "clean" when the segment holds no log. */
static const char *
flagwords(u_int32_t f)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%s%s%s%s",
	    (f & SEGUSE_DIRTY) ? "dirty" : "clean",
	    (f & SEGUSE_ACTIVE) ? ",active" : "",
	    (f & SEGUSE_SUPERBLOCK) ? ",superblock" : "",
	    (f & SEGUSE_CLEANING) ? ",cleaning" : "");
	return (buf);
}

void
ifile_print(void)
{
	CLEANERINFO *ci;
	SEGUSE *sup;
	IFILE *ifp;
	u_int32_t sn, ino, nalloc;
	int i;

	printf("\nifile:\n");
	if (ifbuf == NULL) {
		printf("ifile\tunreadable\n");
		return;
	}
	printf("ifile\tinode in block %u, %u blocks, %llu bytes\n",
	    fs.dlfs_idaddr, ifnblk, (unsigned long long)ifino.di_size);
	printf("ifile_db\t");
	for (i = 0; i < NDADDR; i++)
		printf("%s%d", i ? " " : "", ifino.di_db[i]);
	printf("\nifile_ib\t");
	for (i = 0; i < NIADDR; i++)
		printf("%s%d", i ? " " : "", ifino.di_ib[i]);
	printf("\n");
	ci = (CLEANERINFO *)ifbuf;
	printf("ci_clean\t%u\n", ci->clean);
	printf("ci_dirty\t%u\n", ci->dirty);
	printf("ci_bfree\t%d\n", ci->bfree);
	printf("ci_avail\t%d\n", ci->avail);
	printf("ci_free_head\t%u\n", ci->free_head);
	for (sn = 0; sn < fs.dlfs_nseg; sn++) {
		sup = seguse(sn);
		printf("segment\t%u %s nbytes %u nsums %u ninos %u "
		    "lastmod %u\n", sn, flagwords(sup->su_flags),
		    sup->su_nbytes, sup->su_nsums, sup->su_ninos,
		    sup->su_lastmod);
	}
	for (ino = 0, nalloc = 0; ino < nent; ino++) {
		ifp = ifentry(ino);
		if (ifp->if_daddr == LFS_UNUSED_DADDR)
			continue;
		printf("inomap\t%u version %u daddr %u\n", ino,
		    ifp->if_version, ifp->if_daddr);
		nalloc++;
	}
	printf("inomap_entries\t%u\n", nent);
	printf("inomap_allocated\t%u\n", nalloc);
	printf("freelist\t%lld\n", (long long)freelen);
}

/* Is the block of inode ino at daddr in a clean segment? */
static void
notclean(u_int32_t daddr, const char *what, u_int32_t ino)
{

	if (daddr == LFS_UNUSED_DADDR)
		return;
	if (daddr >= fs.dlfs_size)
		ifproblem("inode %u: %s %u outside the file system", ino,
		    what, daddr);
	else if (segclean(daddr))
		ifproblem("inode %u: %s %u in clean segment %u", ino, what,
		    daddr, lfs_dtosn(&fs, daddr));
}

/* The block pointers of an inode, where it has any. */
static void
checkptrs(const struct dinode *dp, u_int32_t ino)
{
	int i, ftype = dp->di_mode & IFMT;

	if (ftype == IFCHR || ftype == IFBLK || (ftype == IFLNK &&
	    dp->di_size < (u_int64_t)fs.dlfs_maxsymlinklen))
		return;
	for (i = 0; i < NDADDR; i++)
		notclean(dp->di_db[i], "block", ino);
	for (i = 0; i < NIADDR; i++)
		notclean(dp->di_ib[i], "indirect block", ino);
}

static void
checkmap(void)
{
	struct dinode di;
	IFILE *ifp;
	u_int32_t ino, nalloc, nlost, firstlost;

	nalloc = nlost = firstlost = 0;
	for (ino = 0; ino < nent; ino++) {
		ifp = ifentry(ino);
		if (ifp->if_daddr == LFS_UNUSED_DADDR) {
			if (ino > LFS_IFILE_INUM &&
			    !(onlist[ino / 8] & (1 << ino % 8)) &&
			    nlost++ == 0)
				firstlost = ino;
			continue;
		}
		nalloc++;
		if (ino == 0) {
			ifproblem("entry 0 is allocated");
			continue;
		}
		notclean(ifp->if_daddr, "inode block", ino);
		if (!lfs_getinode(rdbytes, &fs, ifp->if_daddr, ino, &di))
			ifproblem("inode %u: not in block %u", ino,
			    ifp->if_daddr);
		else if (ino != LFS_IFILE_INUM)
			checkptrs(&di, ino);
	}
	if (nlost != 0)
		ifproblem("%u free entries not on the free list (first %u)",
		    nlost, firstlost);
	if (nalloc != fs.dlfs_nfiles)
		ifproblem("%u entries allocated, superblock nfiles %u",
		    nalloc, fs.dlfs_nfiles);
}

void
ifile_check(void)
{
	CLEANERINFO *ci;
	SEGUSE *sup;
	u_int32_t sn, nclean, ndirty, lbn;
	int i;

	if (ifbuf != NULL) {
		ci = (CLEANERINFO *)ifbuf;
		for (sn = nclean = ndirty = 0; sn < fs.dlfs_nseg; sn++) {
			sup = seguse(sn);
			if (sup->su_flags & SEGUSE_DIRTY)
				ndirty++;
			else
				nclean++;
		}
		if (ci->clean != nclean || ci->dirty != ndirty)
			ifproblem("CLEANERINFO clean %u dirty %u, SEGUSE "
			    "flags count %u and %u", ci->clean, ci->dirty,
			    nclean, ndirty);
		if (ci->free_head != fs.dlfs_free)
			ifproblem("CLEANERINFO free_head %u, superblock "
			    "free %u", ci->free_head, fs.dlfs_free);
		notclean(fs.dlfs_idaddr, "inode block", LFS_IFILE_INUM);
		checkptrs(&ifino, LFS_IFILE_INUM);
		for (lbn = NDADDR; lbn < ifnblk; lbn++)
			notclean(ifaddr[lbn], "block", LFS_IFILE_INUM);
		checkmap();
	}
	for (i = 0; i < nproblems && i < MAXPROBLEMS; i++)
		printf("ifile\tPROBLEM: %s\n", problems[i]);
	if (nproblems > MAXPROBLEMS)
		printf("ifile\tPROBLEM: ... and %d more\n",
		    nproblems - MAXPROBLEMS);
	if (nproblems == 0)
		printf("ifile\tconsistent\n");
}
