/*
 * fsck_ffs: inodes.
 *
 * ginode() returns a pointer into a one-block cache of the inode table;
 * the pointer is good until the next ginode() of another block.  A
 * caller that changes the inode calls inodirty(), which writes the block
 * back at once.
 *
 * ckinode() walks a file the way the kernel's bmap would: the direct
 * blocks (the last one of a small file only as many fragments as its
 * size needs), then the single, double and triple indirect trees.  For
 * an ADDR scan it calls id_func for every block pointer, indirect blocks
 * included (id_func returning without KEEPON stops the descent into an
 * indirect block); for a DATA scan it hands each directory block to
 * dirscan() in dir.c, which calls id_func for every entry.
 */
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/dir.h"
#include "sys/ufs/fs.h"
#include "fsck.h"

struct inoinfo **inpsort;
int inplast;
int32_t n_files;
static int inpmax;
static struct inoinfo **inpindex;	/* by inode number */

static ufs_daddr_t icacheblk = -1;
static u_int8_t *icache;

struct dinode *
ginode(u_int32_t ino)
{
	ufs_daddr_t blk;

	if (ino < ROOTINO || ino >= maxino)
		errexit("bad inode number %u to ginode", ino);
	blk = ino_to_fsba(&sblock, ino);
	if (icache == NULL)
		icache = emalloc(sblock.fs_bsize);
	if (blk != icacheblk) {
		getblk(blk, sblock.fs_bsize, icache);
		icacheblk = blk;
	}
	return ((struct dinode *)icache + ino_to_fsbo(&sblock, ino));
}

void
inodirty(void)
{

	putblk(icacheblk, sblock.fs_bsize, icache);
}

/*
 * Is the run of cnt fragments at blk a place a file may own: inside the
 * file system, inside one block, and in a group's data area?
 */
int
chkrange(ufs_daddr_t blk, int cnt)
{
	int c;

	if (cnt <= 0 || blk < 0 || blk > maxfsblock - cnt ||
	    fragnum(&sblock, blk) + cnt > sblock.fs_frag)
		return (1);
	c = dtog(&sblock, blk);
	if (blk < cgdmin(&sblock, c)) {
		/* Only the space before the superblock copy, not in cg 0. */
		if (c == 0 || blk + cnt > cgsblock(&sblock, c))
			return (1);
	} else if (blk + cnt > cgbase(&sblock, c + 1))
		return (1);
	return (0);
}

int
ftypeok(const struct dinode *dp)
{

	switch (dp->di_mode & IFMT) {
	case IFDIR:
	case IFREG:
	case IFBLK:
	case IFCHR:
	case IFLNK:
	case IFSOCK:
	case IFIFO:
		return (1);
	default:
		return (0);
	}
}

/* Walk one indirect block of level ilevel (1 = single indirect). */
static int
iblock(struct inodesc *idesc, int ilevel, int64_t isize)
{
	ufs_daddr_t *ap, blk;
	int64_t sizepb;
	int i, n, nif, dirty;
	char msg[80];

	if (idesc->id_type == ADDR) {
		n = (*idesc->id_func)(idesc);
		if ((n & KEEPON) == 0)
			return (n);
	} else if (chkrange(idesc->id_blkno, idesc->id_numfrags))
		return (SKIP);
	blk = idesc->id_blkno;
	ap = emalloc(sblock.fs_bsize);
	getblk(blk, sblock.fs_bsize, ap);
	ilevel--;
	for (sizepb = sblock.fs_bsize, i = 0; i < ilevel; i++)
		sizepb *= NINDIR(&sblock);
	nif = isize <= 0 ? 0 : (int)(howmany(isize, sizepb) <
	    NINDIR(&sblock) ? howmany(isize, sizepb) : NINDIR(&sblock));

	/* Phase 1: pointers past the end of the file must be zero. */
	if (idesc->id_type == ADDR && idesc->id_fix != IGNORE &&
	    nif < NINDIR(&sblock)) {
		for (i = nif, dirty = 0; i < NINDIR(&sblock); i++)
			if (ap[i] != 0)
				dirty = 1;
		if (dirty) {
			snprintf(msg, sizeof(msg), "PARTIALLY TRUNCATED "
			    "INODE I=%u", idesc->id_number);
			if (dofix(idesc, msg)) {
				for (i = nif; i < NINDIR(&sblock); i++)
					ap[i] = 0;
				putblk(blk, sblock.fs_bsize, ap);
			}
		}
	}
	for (i = 0; i < nif; i++, isize -= sizepb) {
		if (ap[i] == 0)
			continue;
		idesc->id_blkno = ap[i];
		if (ilevel == 0)
			n = idesc->id_type == ADDR ?
			    (*idesc->id_func)(idesc) : dirscan(idesc);
		else
			n = iblock(idesc, ilevel, isize);
		if (n & STOP) {
			free(ap);
			return (n);
		}
	}
	free(ap);
	return (KEEPON);
}

int
ckinode(struct dinode *dp, struct inodesc *idesc)
{
	struct dinode dino;
	int64_t remsize, sizepb;
	int i, ndb, ret, mode;

	dino = *dp;		/* id_func may ginode() other inodes */
	if (idesc->id_fix != IGNORE)
		idesc->id_fix = DONTKNOW;
	idesc->id_entryno = 0;
	idesc->id_filesize = idesc->id_dirsize = dino.di_size;
	mode = dino.di_mode & IFMT;
	if (mode == IFBLK || mode == IFCHR || (mode == IFLNK &&
	    dino.di_size < (u_int64_t)sblock.fs_maxsymlinklen))
		return (KEEPON);	/* no blocks */
	ndb = (int)howmany(dino.di_size, (u_int64_t)sblock.fs_bsize);
	for (i = 0; i < NDADDR; i++) {
		idesc->id_numfrags = numfrags(&sblock,
		    sblksize(&sblock, dino.di_size, i));
		if (i >= ndb)
			idesc->id_numfrags = sblock.fs_frag;
		if (dino.di_db[i] == 0) {
			/* A hole; in a directory it reads as empty chunks. */
			if (idesc->id_type == DATA)
				idesc->id_filesize -= sblock.fs_bsize;
			continue;
		}
		idesc->id_blkno = dino.di_db[i];
		if (idesc->id_type == ADDR)
			ret = (*idesc->id_func)(idesc);
		else
			ret = dirscan(idesc);
		if (ret & STOP)
			return (ret);
	}
	idesc->id_numfrags = sblock.fs_frag;
	remsize = (int64_t)dino.di_size - lblktosize(&sblock, NDADDR);
	sizepb = sblock.fs_bsize;
	for (i = 0; i < NIADDR; i++) {
		sizepb *= NINDIR(&sblock);
		if (dino.di_ib[i] != 0) {
			idesc->id_blkno = dino.di_ib[i];
			ret = iblock(idesc, i + 1, remsize);
			if (ret & STOP)
				return (ret);
		}
		remsize -= sizepb;
	}
	return (KEEPON);
}

/* " I=5  OWNER=0 MODE=100644\nSIZE=12 MTIME=Jan  1 12:00 2024 " */
void
pinode(u_int32_t ino)
{
	struct dinode *dp;
	time_t t;
	char *p;

	printf(" I=%u ", ino);
	if (ino < ROOTINO || ino >= maxino)
		return;
	dp = ginode(ino);
	printf(" OWNER=%u MODE=%o\n", dp->di_uid, dp->di_mode);
	if (preen)
		printf("%s: ", cdevname);
	printf("SIZE=%llu ", (unsigned long long)dp->di_size);
	t = dp->di_mtime;
	p = ctime(&t);
	if (p != NULL && strlen(p) >= 24)
		printf("MTIME=%12.12s %4.4s ", p + 4, p + 20);
}

/* Block blk of inode ino is BAD or DUP: the inode must be cleared. */
void
blkerror(u_int32_t ino, const char *type, ufs_daddr_t blk)
{

	pfatal("%d %s I=%u", blk, type, ino);
	printf("\n");
	if (statemap[ino] == FSTATE)
		statemap[ino] = FCLEAR;
	else if (statemap[ino] == DSTATE)
		statemap[ino] = DCLEAR;
}

/* Remember a directory's size and blocks for phase 2. */
void
cacheino(const struct dinode *dp, u_int32_t ino)
{
	struct inoinfo *inp;

	if (inpindex == NULL)
		inpindex = emalloc(maxino * sizeof(*inpindex));
	if ((inp = inpindex[ino]) == NULL) {
		inp = emalloc(sizeof(*inp));
		inpindex[ino] = inp;
		if (inplast == inpmax) {
			inpmax = inpmax ? 2 * inpmax : 256;
			inpsort = realloc(inpsort, inpmax * sizeof(*inpsort));
			if (inpsort == NULL)
				errexit("out of memory");
		}
		inpsort[inplast++] = inp;
	}
	inp->i_number = ino;
	inp->i_parent = ino == ROOTINO ? ROOTINO : 0;
	inp->i_dotdot = 0;
	inp->i_isize = dp->di_size;
	memcpy(inp->i_blks, dp->di_db, NDADDR * sizeof(ufs_daddr_t));
	memcpy(inp->i_blks + NDADDR, dp->di_ib, NIADDR * sizeof(ufs_daddr_t));
}

struct inoinfo *
getinoinfo(u_int32_t ino)
{

	if (inpindex == NULL || ino >= maxino || inpindex[ino] == NULL)
		errexit("cannot find inode %u", ino);
	return (inpindex[ino]);
}

/*
 * ADDR scan that gives back the blocks of an inode being cleared.  A run
 * phase 1 found BAD (say a fragment run its size made a whole block,
 * into the next block) had its fragments claimed one by one where they
 * were in range: they go back the same way, and nothing below it is
 * read.
 */
int
pass4check(struct inodesc *idesc)
{
	int res = KEEPON;

	if (chkrange(idesc->id_blkno, idesc->id_numfrags))
		res = SKIP;
	freeblk(idesc->id_blkno, idesc->id_numfrags);
	return (res);
}

static void
zapino(u_int32_t ino)
{
	struct inodesc idesc;
	struct dinode *dp;

	memset(&idesc, 0, sizeof(idesc));
	idesc.id_type = ADDR;
	idesc.id_func = pass4check;
	idesc.id_number = ino;
	idesc.id_fix = IGNORE;
	dp = ginode(ino);
	(void)ckinode(dp, &idesc);
	dp = ginode(ino);
	memset(dp, 0, sizeof(*dp));
	inodirty();
	statemap[ino] = USTATE;
	n_files--;
}

/*
 * Clear inode idesc->id_number and free its blocks, after asking.  With
 * flag, say first what it is ("UNREF FILE I=...").
 */
void
clri(struct inodesc *idesc, const char *type, int flag)
{
	struct dinode *dp;

	dp = ginode(idesc->id_number);
	if (flag) {
		pwarn("%s %s", type,
		    (dp->di_mode & IFMT) == IFDIR ? "DIR" : "FILE");
		pinode(idesc->id_number);
	}
	if (preen || reply("CLEAR") == 1) {
		if (preen)
			printf(" (CLEARED)\n");
		zapino(idesc->id_number);
	}
}

void
freeino(u_int32_t ino)
{

	zapino(ino);
}

/*
 * Allocate an inode (request, or the first free one from the root on)
 * with one zeroed fragment, for the directories fsck makes.
 */
u_int32_t
allocino(u_int32_t request, int type)
{
	struct dinode *dp;
	ufs_daddr_t blkno;
	u_int8_t *buf;
	u_int32_t ino;

	if (request == 0)
		request = ROOTINO;
	else if (statemap[request] != USTATE)
		return (0);
	for (ino = request; ino < maxino; ino++)
		if (statemap[ino] == USTATE)
			break;
	if (ino >= maxino || (type & IFMT) != IFDIR)
		return (0);
	if ((blkno = allocblk(1)) == 0)
		return (0);
	buf = emalloc(sblock.fs_fsize);
	putblk(blkno, sblock.fs_fsize, buf);
	free(buf);
	dp = ginode(ino);
	memset(dp, 0, sizeof(*dp));
	dp->di_db[0] = blkno;
	dp->di_mode = type;
	dp->di_atime = dp->di_mtime = dp->di_ctime = now;
	dp->di_size = sblock.fs_fsize;
	dp->di_blocks = NSPF(&sblock);
	inodirty();
	statemap[ino] = DSTATE;
	typemap[ino] = IFTODT(type);
	n_files++;
	return (ino);
}
