/*
 * newfs's allocator and disk I/O.
 *
 * The cylinder group blocks of the new file system are all in memory
 * (cgbuf), so allocating is flipping bits in them: ffs_cgrecount turns
 * the maps into counts once everything is written.  The policy is the
 * simple part of 4.4BSD's: a directory's inode goes to the group after
 * its parent's (spreading directories over the disk), a file's inode to
 * its directory's group, and a file's blocks to its inode's group, first
 * fit from the group's rotor, moving on to the next group when full.
 * Fragments, for the tail of a small file, come from a partly used block
 * when one has a long enough free run, else from a fresh block, so the
 * fragment counts stay as 4.4BSD's allocator would leave them.
 *
 * Disk I/O is by 512-byte sector number.  With -N nothing is written.
 */
#include <sys/types.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/fs.h"
#include "newfs.h"

static int fsfd = -1;

void
setdisk(int fd)
{

	fsfd = fd;
}

void
rdfs(int64_t sector, int size, void *buf)
{

	if (lseek(fsfd, (off_t)sector * 512, SEEK_SET) < 0 ||
	    read(fsfd, buf, size) != size)
		fatal("read error at sector %lld", (long long)sector);
}

void
wtfs(int64_t sector, int size, const void *buf)
{

	if (Nflag)
		return;
	if (sector < SBLOCK)
		fatal("internal error: write into the boot area");
	if (lseek(fsfd, (off_t)sector * 512, SEEK_SET) < 0 ||
	    write(fsfd, buf, size) != size)
		fatal("write error at sector %lld", (long long)sector);
}

/* Take inode ino (in group c) out of the free map. */
static void
takeinode(int c, u_int32_t ino, int isdir)
{
	struct cg *cgp;

	cgp = CGP(c);
	setbit(cg_inosused(cgp), ino % sblock.fs_ipg);
	cgp->cg_irotor = ino % sblock.fs_ipg;
	if (isdir)
		cgp->cg_cs.cs_ndir++;
}

/*
 * Allocate an inode, preferring group c.  Directories go to the next
 * group after c that has a free inode.
 */
u_int32_t
ialloc(int c, int isdir)
{
	struct cg *cgp;
	int32_t i, n;

	if (isdir)
		c = (c + 1) % sblock.fs_ncg;
	for (n = 0; n < sblock.fs_ncg; n++, c = (c + 1) % sblock.fs_ncg) {
		cgp = CGP(c);
		for (i = 0; i < sblock.fs_ipg; i++) {
			if (isclr(cg_inosused(cgp), i)) {
				takeinode(c, (u_int32_t)(c * sblock.fs_ipg + i),
				    isdir);
				return ((u_int32_t)(c * sblock.fs_ipg + i));
			}
		}
	}
	fatal("out of inodes");
	return (0);
}

/* Allocate a given inode (the root, lost+found). */
void
ialloc_at(u_int32_t ino, int isdir)
{
	int c;

	c = ino_to_cg(&sblock, ino);
	if (isset(cg_inosused(CGP(c)), ino % sblock.fs_ipg))
		fatal("internal error: inode %u already in use", ino);
	takeinode(c, ino, isdir);
}

/*
 * A free run of n fragments inside one partly used block of group c, or
 * -1.  Runs are searched for from the fragment rotor.
 */
static int32_t
fragsearch(struct cg *cgp, int n)
{
	u_int8_t *map;
	int32_t b, nblks, i, d, run, k;

	map = cg_blksfree(cgp);
	nblks = howmany(cgp->cg_ndblk, sblock.fs_frag);
	for (k = 0; k < nblks; k++) {
		b = (fragstoblks(&sblock, cgp->cg_frotor) + k) % nblks;
		d = blkstofrags(&sblock, b);
		if (d + sblock.fs_frag <= cgp->cg_ndblk &&
		    ffs_isblock(&sblock, map, b))
			continue;		/* whole free block: not yet */
		run = 0;
		for (i = 0; i < sblock.fs_frag && d + i < cgp->cg_ndblk; i++) {
			run = isset(map, d + i) ? run + 1 : 0;
			if (run == n)
				return (d + i - n + 1);
		}
	}
	return (-1);
}

/* A free block of group c, from the block rotor, or -1. */
static int32_t
blksearch(struct cg *cgp)
{
	int32_t b, nblks, k;

	nblks = cgp->cg_ndblk / sblock.fs_frag;
	for (k = 0; k < nblks; k++) {
		b = (fragstoblks(&sblock, cgp->cg_rotor) + k) % nblks;
		if (ffs_isblock(&sblock, cg_blksfree(cgp), b))
			return (blkstofrags(&sblock, b));
	}
	return (-1);
}

/*
 * Allocate nfrags fragments (a whole block if nfrags == fs_frag) in one
 * block, preferring group c.  Returns the file system fragment address.
 */
ufs_daddr_t
balloc(int c, int nfrags)
{
	struct cg *cgp;
	int32_t d, i;
	int n;

	for (n = 0; n < sblock.fs_ncg; n++, c = (c + 1) % sblock.fs_ncg) {
		cgp = CGP(c);
		d = -1;
		if (nfrags < sblock.fs_frag)
			d = fragsearch(cgp, nfrags);
		if (d < 0)
			d = blksearch(cgp);
		if (d < 0)
			continue;
		for (i = 0; i < nfrags; i++)
			clrbit(cg_blksfree(cgp), d + i);
		if (nfrags == sblock.fs_frag)
			cgp->cg_rotor = d;
		else
			cgp->cg_frotor = d;
		return (cgbase(&sblock, c) + d);
	}
	fatal("file system full");
	return (0);
}

/* Write inode ino: read-modify-write of the sector holding it. */
void
iput(u_int32_t ino, const struct dinode *dp)
{
	u_int8_t sec[512];
	int64_t byte, sector;

	byte = (int64_t)ino_to_fsba(&sblock, ino) * sblock.fs_fsize +
	    (int64_t)ino_to_fsbo(&sblock, ino) * sizeof(struct dinode);
	sector = byte / 512;
	if (Nflag)
		return;
	rdfs(sector, sizeof(sec), sec);
	memcpy(sec + byte % 512, dp, sizeof(*dp));
	wtfs(sector, sizeof(sec), sec);
}
