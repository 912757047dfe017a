/*
 * Reorganizing (thesis 6.2.5 and 8.1): a file updated in place a page
 * at a time has its pages all over the log, and a sequential read of it
 * pays a seek for each one.  The cleaner can put such a file back in
 * order with the calls it cleans with: lfs_bmapv says where each block
 * of the file lives, and if the runs of consecutive blocks are short
 * (fewer than REORG_RUN blocks on average) the blocks are read from the
 * raw device and handed to lfs_markv a segment's worth at a time, in
 * block order.  The kernel writes them to the cold log head, contiguous
 * and sorted (lfs_gather), and their old copies are dead: the segments
 * they were in come to the cleaner emptier.
 *
 *	lfs_cleanerd -r file ...   reorganize these files now (-f: even
 *	                           if they are not scattered)
 *	lfs_cleanerd -R mnt        as a daemon, also reorganize scattered
 *	                           files when the file system is idle
 *	                           (lfs_segwait timed out), at most
 *	                           REORG_IDLE segments' worth each time
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/mount.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lfs_cleanerd.h"

#define REORG_RUN	8	/* blocks per run below which a file is
				 * scattered (32 KB: two runs per EFS
				 * cluster) */
#define REORG_IDLE	4	/* segments' worth moved per idle period */

/* The file's version, from its IFILE entry (lfs_bmapv checks it). */
static int
version(struct cleaner *c, ino_t ino, u_int32_t *vp)
{
	struct dlfs *fs = &c->sb;
	IFILE ife;
	off_t off = (off_t)lfs_ifile_lbn(fs, ino) * fs->dlfs_bsize +
	    (off_t)(ino % fs->dlfs_ifpb) * sizeof(IFILE);

	if (lseek(c->ifd, off, SEEK_SET) != off ||
	    read(c->ifd, &ife, sizeof(ife)) != (ssize_t)sizeof(ife))
		return -1;
	*vp = ife.if_version;
	return 0;
}

/* Where blocks first..first+n-1 of the file live now (c->bi). */
static int
where(struct cleaner *c, ino_t ino, u_int32_t vers, int32_t first, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		memset(&c->bi[i], 0, sizeof(c->bi[i]));
		c->bi[i].bi_inode = ino;
		c->bi[i].bi_lbn = first + i;
		c->bi[i].bi_version = vers;
	}
	return lfs_bmapv(&c->fsid, c->bi, n);
}

/*
 * Read the live blocks of c->bi[0..n-1] into c->seg (one read for each
 * run of consecutive addresses) and drop the holes: how many are left.
 */
static int
readblocks(struct cleaner *c, int n)
{
	size_t bsize = c->sb.dlfs_bsize;
	int i, j, live = 0;

	for (i = 0; i < n; i++)
		if (c->bi[i].bi_daddr != 0)
			c->bi[live++] = c->bi[i];
	for (i = 0; i < live; i = j) {
		off_t off = (off_t)c->bi[i].bi_daddr * bsize;
		size_t len;

		for (j = i + 1; j < live &&
		    c->bi[j].bi_daddr == c->bi[j - 1].bi_daddr + 1; j++)
			continue;
		len = (size_t)(j - i) * bsize;
		if (lseek(c->rfd, off, SEEK_SET) != off ||
		    read(c->rfd, c->seg + (size_t)i * bsize, len) !=
		    (ssize_t)len)
			return -1;
	}
	for (i = 0; i < live; i++) {
		c->bi[i].bi_bp = c->seg + (size_t)i * bsize;
		/* The copy keeps its data's age (cost-benefit). */
		c->bi[i].bi_segcreate = seguse(c,
		    lfs_dtosn(&c->sb, c->bi[i].bi_daddr))->su_lastmod;
	}
	c->blocks_read += live;
	return live;
}

/* How many runs of consecutive addresses the file's blocks are in. */
static long
countruns(struct cleaner *c, ino_t ino, u_int32_t vers, int32_t nblk,
    long *blocks)
{
	u_int32_t prev = 0;
	int32_t lbn;
	int chunk = c->sb.dlfs_ssize, n, i;
	long runs = 0;

	*blocks = 0;
	for (lbn = 0; lbn < nblk; lbn += n) {
		n = nblk - lbn < chunk ? nblk - lbn : chunk;
		if (where(c, ino, vers, lbn, n) < 0)
			return -1;
		for (i = 0; i < n; i++) {
			u_int32_t a = c->bi[i].bi_daddr;

			if (a == 0)
				continue;	/* a hole, or not yet written */
			++*blocks;
			if (a != prev + 1)
				runs++;
			prev = a;
		}
	}
	return runs;
}

/*
 * Rewrite the file open on fd in block order if it is scattered (or
 * force): the blocks moved, or -1 (errno).  At most about limit blocks
 * move (0: no limit).
 */
static long
reorg_fd(struct cleaner *c, int fd, const char *name, int force,
    long limit)
{
	struct statfs sfs;
	struct stat st;
	u_int32_t vers;
	int32_t nblk, lbn;
	int chunk = c->sb.dlfs_ssize, n, live;
	long runs, blocks, moved = 0;

	if (fstat(fd, &st) < 0 || fstatfs(fd, &sfs) < 0)
		return -1;
	if (sfs.f_fsid.val[0] != c->fsid.val[0] ||
	    sfs.f_fsid.val[1] != c->fsid.val[1]) {
		errno = EXDEV;		/* not on this file system */
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_ino == LFS_IFILE_INUM)
		return 0;
	nblk = (int32_t)((st.st_size + c->sb.dlfs_bsize - 1) /
	    c->sb.dlfs_bsize);
	if (nblk < 2 || version(c, st.st_ino, &vers) < 0)
		return 0;
	if ((runs = countruns(c, st.st_ino, vers, nblk, &blocks)) < 0)
		return -1;
	if (c->verbose)
		printf("lfs_cleanerd: %s: %ld blocks in %ld runs\n", name,
		    blocks, runs);
	if (blocks < 2 || (!force && runs * REORG_RUN <= blocks))
		return 0;
	if (readsegtab(c) < 0)
		return -1;
	for (lbn = 0; lbn < nblk && (limit == 0 || moved < limit);
	    lbn += n) {
		n = nblk - lbn < chunk ? nblk - lbn : chunk;
		if (where(c, st.st_ino, vers, lbn, n) < 0 ||
		    (live = readblocks(c, n)) < 0)
			return -1;
		/* EBUSY: a running transaction keeps its pages; the rest
		 * moved. */
		if (live > 0 && lfs_markv(&c->fsid, c->bi, live) < 0 &&
		    errno != EBUSY)
			return -1;
		moved += live;
	}
	c->blocks_moved += moved;
	c->files_reorg++;
	if (c->verbose && (runs = countruns(c, st.st_ino, vers, nblk,
	    &blocks)) >= 0)
		printf("lfs_cleanerd: %s: rewritten, %ld blocks in %ld "
		    "runs\n", name, blocks, runs);
	return moved;
}

/* lfs_cleanerd -r: each file now. */
int
reorganize(struct cleaner *c, char **files, int nfiles, int force)
{
	int i, fd, bad = 0;

	for (i = 0; i < nfiles; i++) {
		if ((fd = open(files[i], O_RDONLY)) < 0) {
			warn("%s", files[i]);
			bad = 1;
			continue;
		}
		if (reorg_fd(c, fd, files[i], force, 0) < 0) {
			warn("%s", files[i]);
			bad = 1;
		}
		close(fd);
	}
	return bad ? -1 : 0;
}

/* The scattered files under dir, until budget blocks have moved. */
static long
reorg_tree(struct cleaner *c, const char *dir, dev_t dev, long budget)
{
	char path[1024];
	struct dirent *de;
	struct stat st;
	long moved = 0, m;
	DIR *d;
	int fd;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while (moved < budget && (de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st) < 0 || st.st_dev != dev)
			continue;
		if (S_ISDIR(st.st_mode))
			moved += reorg_tree(c, path, dev, budget - moved);
		else if (S_ISREG(st.st_mode) &&
		    (fd = open(path, O_RDONLY)) >= 0) {
			if ((m = reorg_fd(c, fd, path, 0, budget - moved)) > 0)
				moved += m;
			close(fd);
		}
	}
	closedir(d);
	return moved;
}

/* lfs_cleanerd -R, in idle time. */
void
reorganize_idle(struct cleaner *c)
{
	struct stat st;

	if (stat(c->mnt, &st) == 0)
		reorg_tree(c, c->mnt, st.st_dev,
		    (long)REORG_IDLE * c->sb.dlfs_ssize);
}
