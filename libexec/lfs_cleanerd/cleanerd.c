/*
 * lfs_cleanerd: the user-level cleaner of BSD-LFS (thesis 6.2.5; 4.4BSD
 * libexec/lfs_cleanerd).  mount -t lfs starts one for each read-write
 * LFS; several may run on one file system (the kernel checks every
 * block they move is still live).
 *
 *	usage: lfs_cleanerd [-bgRv] [-c n] [-i secs] [-m min] mountpoint
 *	       lfs_cleanerd -r [-fv] file ...
 *	  -b     cost-benefit: weigh a segment's age against its live
 *	         bytes (BSD-LFS's default), instead of greedy; greedy still
 *	         while a writer waits for space
 *	  -g     greedy: the least utilized segments first (the default)
 *	  -c n   clean n segments now, print the counters and exit
 *	  -i secs how long a quiet file system is left between passes
 *	         (default 30)
 *	  -m min keep at least min clean segments (default: the larger of
 *	         LFS_MINFREESEG + 2 and a sixteenth of the segments; never
 *	         more than half the space not live, in segments), and in
 *	         idle time twice as many
 *	  -R     in idle time, rewrite scattered files in block order
 *	  -r     rewrite these files in block order now if they are
 *	         scattered (-f: whatever their layout), print the counters
 *	         and exit (reorg.c)
 *	  -v     say what it cleans
 *
 * The loop: read the segment usage table through the ifile (the file
 * <mountpoint>/ifile, whose cached blocks are the kernel's current
 * ones), and while fewer than min segments are clean, or the kernel
 * woke it because a writer waits for space, clean the best segment:
 *
 *	greedy  1 - u                 u: live bytes / segment bytes
 *	cost-benefit (thesis 6.2.5, from Sprite LFS)
 *	    (1 - u) * age / (1 + u)   age: seconds since last written
 *
 * (choose.c, which says which segments are candidates at all).
 *
 * Greedy is the default because it measured twice as fast on TPC-B
 * (uniform random updates, where an old segment is no more stable than
 * a young one; Rosenblum and Ousterhout found the same): bench/README.
 * Segments with no live bytes are reclaimed without being read.  Then
 * it sleeps in lfs_segwait until the kernel has work for it (or -i
 * seconds).  A sleep that ends with nothing written meanwhile is idle
 * time: the next pass cleans ahead, to twice min (Sprite's low and high
 * water marks), so a burst of writes finds clean segments waiting
 * instead of a cleaner competing with it for the disk.
 * It exits when the file system is unmounted.
 *
 * Counters (blocks read, blocks handed to the kernel and in how many
 * lfs_markv calls, empty segments reclaimed, segments cleaned) go to
 * /var/run/lfs_cleanerd.DEV after each pass, where lfsstat shows them,
 * and to the standard output at the end with -c.
 */
#include <sys/types.h>
#include <sys/time.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lfs_cleanerd.h"

#define SEGWAIT_SECS	30	/* -i: between passes, when quiet */
#define BATCH		4	/* segments cleaned per checkpoint */

static volatile sig_atomic_t done;
static time_t lastsync;

static void
usage(void)
{
	fprintf(stderr, "usage: lfs_cleanerd [-bgRv] [-c n] [-i secs] [-m min] "
	    "mountpoint\n       lfs_cleanerd -r [-fv] file ...\n");
	exit(1);
}

static void
onsignal(int sig)
{
	done = 1;
}

/* The superblock's parameters, from the first copy on the raw device. */
static void
readsb(struct cleaner *c)
{
	static u_int8_t buf[LFS_SBPAD];
	off_t off;
	const char *why = "no superblock";

	for (off = LFS_LABELPAD; off <= 65536; off <<= 1) {
		if (lseek(c->rfd, off, SEEK_SET) != off ||
		    read(c->rfd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			err(1, "/dev/r%s", c->devname);
		memcpy(&c->sb, buf, sizeof(c->sb));
		if ((why = lfs_sbcheck(&c->sb)) == NULL &&
		    off == (off_t)(c->sb.dlfs_bsize > LFS_LABELPAD ?
		    c->sb.dlfs_bsize : LFS_LABELPAD))
			return;
	}
	errx(1, "/dev/r%s: %s", c->devname, why ? why : "no superblock");
}

static void
setup(struct cleaner *c)
{
	struct statfs sfs;
	char path[MNAMELEN + 16];
	const char *dev;

	if (statfs(c->mnt, &sfs) < 0)
		err(1, "%s", c->mnt);
	if (strcmp(sfs.f_fstypename, "lfs") != 0)
		errx(1, "%s: not an LFS (%s)", c->mnt, sfs.f_fstypename);
	c->fsid = sfs.f_fsid;
	dev = strncmp(sfs.f_mntfromname, "/dev/", 5) == 0 ?
	    sfs.f_mntfromname + 5 : sfs.f_mntfromname;
	strlcpy(c->devname, dev, sizeof(c->devname));
	snprintf(path, sizeof(path), "/dev/r%s", c->devname);
	if ((c->rfd = open(path, O_RDONLY)) < 0)
		err(1, "%s", path);
	snprintf(path, sizeof(path), "%s/ifile", c->mnt);
	if ((c->ifd = open(path, O_RDONLY)) < 0)
		err(1, "%s", path);
	readsb(c);
	c->segtab = malloc((size_t)c->sb.dlfs_segtabsz * c->sb.dlfs_bsize);
	/* A segment's worth of live blocks gathered, and the next segment. */
	c->seg = malloc(2 * (size_t)c->sb.dlfs_ssize * c->sb.dlfs_bsize);
	/* At most every block of the segment, and 128-byte inodes. */
	c->maxbi = c->sb.dlfs_ssize * (1 + c->sb.dlfs_inopb);
	c->bi = malloc(2 * c->maxbi * sizeof(*c->bi));
	c->now = malloc(c->maxbi * sizeof(*c->now));
	if (c->segtab == NULL || c->seg == NULL || c->bi == NULL ||
	    c->now == NULL)
		err(1, "malloc");
}

/* The segment usage table, current (through the kernel's cache). */
int
readsegtab(struct cleaner *c)
{
	off_t off = (off_t)c->sb.dlfs_cleansz * c->sb.dlfs_bsize;
	size_t len = (size_t)c->sb.dlfs_segtabsz * c->sb.dlfs_bsize;

	if (lseek(c->ifd, off, SEEK_SET) != off ||
	    read(c->ifd, c->segtab, len) != (ssize_t)len)
		return -1;
	return 0;
}

/*
 * The best segment to clean now, or -1: none worth it (choose.c).  When
 * pressed (a writer waits for space), greedy even with -b: the segment
 * that frees the most for what moving it costs now.  Cost-benefit's old,
 * full segments free little each; on a disk 90% full it spent the clean
 * segments on them until its own next batch no longer fit (bench.cleaner).
 */
static long
choose(struct cleaner *c, u_int32_t *nclean, int pressed)
{
	struct segscan scan;
	long sn;

	sn = choose_segment(&c->sb, (const SEGUSE *)c->segtab,
	    c->costbenefit && !pressed, time(NULL), &scan);
	*nclean = scan.nclean;
	c->freesegs = scan.freesegs;
	c->activegain = scan.activegain;
	return sn;
}

static void
report(struct cleaner *c, FILE *f)
{
	int i;

	fprintf(f, "blocks_read\t%lu\nblocks_moved\t%lu\nmarkv_calls\t%lu\n"
	    "segs_empty\t%lu\nsegs_cleaned\t%lu\nfiles_reorg\t%lu\n",
	    c->blocks_read, c->blocks_moved, c->markv_calls, c->segs_empty,
	    c->segs_cleaned, c->files_reorg);
	/* The segments cleaned by how full they were: 0-10% live ... */
	for (i = 0; i < 10; i++)
		fprintf(f, "util%d0\t%lu\n", i, c->util[i]);
}

/*
 * Written whole to a new file and renamed over the old one, so that
 * lfsstat, reading it at any moment, finds all of one report (it found
 * the file empty, truncated by a rewrite under way).
 */
static void
savecounters(struct cleaner *c)
{
	char path[64], tmp[72];
	FILE *f;

	snprintf(path, sizeof(path), "/var/run/lfs_cleanerd.%s", c->devname);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	if ((f = fopen(tmp, "w")) == NULL)
		return;
	fprintf(f, "pid\t%d\n", (int)getpid());
	report(c, f);
	if (fclose(f) == 0)
		rename(tmp, path);
	else
		unlink(tmp);
}

/*
 * Clean until min segments are clean (at least one more if urgent), or
 * n segments with -c, in batches of up to BATCH segments (fewer if their
 * live blocks fill a segment): the live blocks of all are moved at once,
 * then all are reclaimed, so the checkpoint lfs_segclean needs first is
 * written once a batch.  A batch the kernel has no room to move is tried
 * again as one segment, the least live: freeing one is how room comes
 * back.  Returns how many it reclaimed.
 */
static int
pass(struct cleaner *c, u_int32_t min, int urgent, int n)
{
	u_int32_t nclean, tries, want;
	long batch[BATCH], sn;
	int got = 0, synced = 0, nb, freed, i, maxnb = BATCH;
	int pressed = urgent;	/* greedy for this whole pass */

	for (tries = 0; tries < c->sb.dlfs_nseg && !done; tries++) {
		if (readsegtab(c) < 0)
			return -1;
		sn = choose(c, &nclean, pressed);
		/* Gather at most half of what is free into clean segments. */
		if (min > c->freesegs / 2 && c->freesegs / 2 >= 
		    c->sb.dlfs_minfreeseg + 1)
			min = c->freesegs / 2;
		if (n > 0 ? got >= n : (nclean >= min && !urgent))
			break;
		if (sn < 0 && (nclean < min || urgent) && !synced &&
		    c->activegain && time(NULL) - lastsync >= 10) {
			/* Segments written since the last checkpoint stay
			 * ACTIVE: a checkpoint lets them be cleaned.  At most
			 * one each 10 s, even when a writer waits: each costs
			 * ifile and inode blocks, and a stream of them on a
			 * full log takes the room promised to cached data. */
			sync();
			synced = 1;
			lastsync = time(NULL);
			continue;
		}
		if (sn < 0)
			break;
		want = n > 0 ? n - got : (nclean < min ? min - nclean : 1);
		for (nb = 0; sn >= 0 && nb < maxnb && nb < (int)want;) {
			if (c->verbose)
				printf("lfs_cleanerd: segment %ld (%u live "
				    "bytes)\n", sn, seguse(c, sn)->su_nbytes);
			if (gather_segment(c, sn) == 0)
				batch[nb++] = sn;
			else if (errno == ENOENT)
				return -1;	/* the file system is gone */
			/* Chosen once a pass: mark it as if busy. */
			seguse(c, sn)->su_flags |= SEGUSE_ACTIVE |
			    SEGUSE_CLEANING;
			if (!batch_has_room(c))
				break;
			sn = choose(c, &nclean, pressed);
		}
		if (move_batch(c) < 0)
			return -1;		/* the file system is gone */
		for (i = freed = 0; i < nb; i++)
			if (reclaim_segment(c, batch[i]) == 0) {
				freed++;
				urgent = 0;
			}
		got += freed;
		if (freed == 0 && nb > 1 && c->nospace) {
			maxnb = 1;	/* too big to move: one segment */
			pressed = 1;
			continue;
		}
		if (freed == 0)
			break;		/* nothing could be moved */
	}
	savecounters(c);
	return got;
}

int
main(int argc, char *argv[])
{
	struct cleaner cl;
	struct timeval tv, t0, t1;
	struct lfs_stats st0, st1;
	struct statfs sfs;
	u_int32_t min = 0;
	int ch, count = 0, urgent = 0, reorg = 0, idlereorg = 0, force = 0;
	int idle = 0, wait = SEGWAIT_SECS;

	memset(&cl, 0, sizeof(cl));
	while ((ch = getopt(argc, argv, "bc:fgi:m:rRv")) != -1) {
		switch (ch) {
		case 'b':
			cl.costbenefit = 1;
			break;
		case 'f':
			force = 1;
			break;
		case 'r':
			reorg = 1;
			break;
		case 'R':
			idlereorg = 1;
			break;
		case 'c':
			count = atoi(optarg);
			if (count <= 0)
				usage();
			break;
		case 'g':
			cl.costbenefit = 0;
			break;
		case 'i':
			wait = atoi(optarg);
			if (wait <= 0)
				usage();
			break;
		case 'm':
			min = atoi(optarg);
			break;
		case 'v':
			cl.verbose = 1;
			break;
		default:
			usage();
		}
	}
	if (reorg) {
		/* The files' file system is the one to work on. */
		if (argc == optind || count > 0 || idlereorg)
			usage();
		if (statfs(argv[optind], &sfs) < 0)
			err(1, "%s", argv[optind]);
		cl.mnt = sfs.f_mntonname;
		setup(&cl);
		ch = reorganize(&cl, argv + optind, argc - optind, force);
		report(&cl, stdout);
		return ch < 0;
	}
	if (argc - optind != 1 || force)
		usage();
	cl.mnt = argv[optind];
	setup(&cl);
	if (min == 0) {
		min = cl.sb.dlfs_nseg / 16;
		if (min < cl.sb.dlfs_minfreeseg + 2)
			min = cl.sb.dlfs_minfreeseg + 2;
	}
	if (count > 0) {
		if (pass(&cl, min, 0, count) < 0)
			err(1, "%s/ifile", cl.mnt);
		report(&cl, stdout);
		return 0;
	}
	signal(SIGTERM, onsignal);
	signal(SIGINT, onsignal);
	chdir("/");
	while (!done) {
		if (pass(&cl, idle ? 2 * min : min, urgent, 0) < 0)
			break;		/* the ifile is gone: unmounted */
		tv.tv_sec = wait;
		tv.tv_usec = 0;
		if (lfsstats(&cl.fsid, &st0, 0) < 0)
			st0.blocks = ~0ULL;
		gettimeofday(&t0, NULL);
		if (lfs_segwait(&cl.fsid, &tv) < 0) {
			if (errno == EBUSY) {
				sleep(1);	/* an unmount is being tried */
				continue;
			}
			if (errno != EINTR)
				break;		/* unmounted */
		}
		gettimeofday(&t1, NULL);
		/* Woken before the timeout: a writer is waiting for space. */
		urgent = (t1.tv_sec - t0.tv_sec) * 1000000LL +
		    (t1.tv_usec - t0.tv_usec) < wait * 1000000LL - 500000;
		/* Idle: nothing at all written while it slept. */
		idle = !urgent && !done && lfsstats(&cl.fsid, &st1, 0) == 0 &&
		    st1.blocks == st0.blocks;
		if (idle && idlereorg)
			reorganize_idle(&cl);
	}
	savecounters(&cl);
	return 0;
}
