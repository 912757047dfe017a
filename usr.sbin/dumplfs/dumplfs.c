/*
 * dumplfs: print a BSD-LFS file system (sys/ufs/lfs.h) and check it,
 * one `name<TAB>value' per line so that tests and people can grep it.
 *
 *	dumplfs [-sa] special		every superblock copy, the checkpoint
 *					in use and its parameters; then
 *					(without -s) its ifile, the partial
 *					segments of each dirty or active
 *					segment (-a: of every segment), and
 *					a check of the ifile
 *	dumplfs -i inum special		one inode, found through the ifile
 *
 * Finding the checkpoint (thesis 6.1.2): copy 0 is at byte
 * max(LFS_LABELPAD, bsize), so it is looked for at 8, 16, 32 and 64 KB.
 * If it passes lfs_sbcheck, its sboffs say where the other copies are;
 * if not, its sboffs are tried as hints and, failing those, the disk is
 * scanned in 4 KB steps for the first copy that passes and sits where
 * its own sboffs say.  The valid copy with the highest serial number
 * (the first of equals) is the checkpoint used.
 *
 * Exit status 0 when every superblock copy, every summary and data
 * checksum and the ifile check out; 1 otherwise.
 */
#include <sys/types.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/dinode.h"
#include "dumplfs.h"

#define SCANCHUNK	65536		/* bytes read at a time by the scan */

struct dlfs fs;
int bad;
static int fd = -1;

/* A superblock copy as read from the disk. */
struct sbcopy {
	u_int32_t daddr;		/* its block; 0: the copy is unused */
	int	 haveit;		/* it could be read */
	const char *why;		/* what is wrong; NULL: good */
	struct	dlfs sb;
};
static struct sbcopy copies[LFS_NSB];
static const char *copy0why = "not found";	/* when no copy is good */

static void
usage(void)
{

	fprintf(stderr, "usage: dumplfs [-sa] special\n"
	    "       dumplfs -i inumber special\n");
	exit(1);
}

void *
emalloc(size_t n)
{
	void *p;

	if ((p = malloc(n)) == NULL) {
		fprintf(stderr, "dumplfs: out of memory\n");
		exit(1);
	}
	memset(p, 0, n);
	return (p);
}

/* Read len bytes at byte offset off (multiples of 512); 0 on error. */
int
rdbytes(int64_t off, void *buf, size_t len)
{

	if (lseek(fd, (off_t)off, SEEK_SET) < 0 ||
	    read(fd, buf, len) != (ssize_t)len)
		return (0);
	return (1);
}

/* Read block daddr; 0 if it is outside the file system or unreadable. */
int
bread(u_int32_t daddr, void *buf)
{

	if (daddr == LFS_UNUSED_DADDR || daddr >= fs.dlfs_size)
		return (0);
	return (rdbytes((int64_t)daddr * fs.dlfs_bsize, buf, fs.dlfs_bsize));
}

/* Inode ino from the inode block at daddr; 0 if it is not there. */
int
getinode(u_int32_t daddr, u_int32_t ino, struct dinode *dp)
{
	static u_int8_t *blk;
	static u_int32_t cached;
	struct dinode *dip;
	u_int32_t i;

	if (blk == NULL)
		blk = emalloc(fs.dlfs_bsize);
	if (daddr != cached) {
		cached = 0;
		if (!bread(daddr, blk))
			return (0);
		cached = daddr;
	}
	dip = (struct dinode *)blk;
	for (i = 0; i < fs.dlfs_inopb; i++)
		if (dip[i].di_inumber == ino) {
			*dp = dip[i];
			return (1);
		}
	return (0);
}

/* The struct dlfs at byte off; 0 if it cannot be read. */
static int
rdsb(int64_t off, struct dlfs *sb)
{
	u_int8_t sec[512];

	if (!rdbytes(off, sec, sizeof(sec)))
		return (0);
	memcpy(sb, sec, sizeof(*sb));
	return (1);
}

/* Does the copy sb, read at byte off, pass and say it is there? */
static int
goodat(int64_t off, const struct dlfs *sb)
{
	int i;

	if (sb->dlfs_magic != LFS_MAGIC || lfs_sbcheck(sb) != NULL)
		return (0);
	for (i = 0; i < LFS_NSB; i++)
		if (sb->dlfs_sboffs[i] != 0 &&
		    (int64_t)sb->dlfs_sboffs[i] * sb->dlfs_bsize == off)
			return (1);
	return (0);
}

/*
 * The first good copy at a 4 KB step of the disk, read in chunks (and
 * the tail of the disk, if shorter than a chunk, 4 KB at a time).
 */
static int
scan(struct dlfs *ref)
{
	u_int8_t *buf;
	int64_t off;
	int i, n;

	buf = emalloc(SCANCHUNK);
	for (off = 0;; off += n) {
		if (rdbytes(off, buf, SCANCHUNK))
			n = SCANCHUNK;
		else if (rdbytes(off, buf, 4096))
			n = 4096;
		else
			break;
		for (i = 0; i < n; i += 4096) {
			if (off + i < LFS_LABELPAD)
				continue;
			memcpy(ref, buf + i, sizeof(*ref));
			if (goodat(off + i, ref)) {
				free(buf);
				return (1);
			}
		}
	}
	free(buf);
	return (0);
}

/*
 * A good copy to take the layout (sboffs) from, in *ref: copy 0, else
 * one that copy 0's sboffs point to, else the first the scan finds.
 */
static int
findlayout(struct dlfs *ref)
{
	static const int64_t probe[] = { LFS_LABELPAD, 16384, 32768, 65536 };
	struct dlfs sb0;
	u_int32_t i;
	int p;

	for (p = 0; p < (int)(sizeof(probe) / sizeof(probe[0])); p++)
		if (rdsb(probe[p], &sb0) && sb0.dlfs_magic == LFS_MAGIC)
			break;
	if (p == (int)(sizeof(probe) / sizeof(probe[0])))
		return (scan(ref));
	if ((copy0why = lfs_sbcheck(&sb0)) == NULL)
		copy0why = "not where its sboffs say";
	if (goodat(probe[p], &sb0)) {
		*ref = sb0;
		return (1);
	}
	/* Hints only: whatever they point to must pass on its own. */
	if (sb0.dlfs_bsize >= 4096 && sb0.dlfs_bsize <= 65536 &&
	    (sb0.dlfs_bsize & (sb0.dlfs_bsize - 1)) == 0)
		for (i = 1; i < LFS_NSB; i++)
			if (sb0.dlfs_sboffs[i] != 0 &&
			    rdsb((int64_t)sb0.dlfs_sboffs[i] * sb0.dlfs_bsize,
			    ref) && goodat((int64_t)sb0.dlfs_sboffs[i] *
			    sb0.dlfs_bsize, ref))
				return (1);
	return (scan(ref));
}

/*
 * Read every copy that ref lists and choose the checkpoint: the good
 * copy with the highest serial.  Returns its index, or -1.
 */
static int
choose(const struct dlfs *ref)
{
	struct sbcopy *c;
	int i, best;

	best = -1;
	for (i = 0; i < LFS_NSB; i++) {
		c = &copies[i];
		c->daddr = ref->dlfs_sboffs[i];
		if (c->daddr == 0)
			continue;
		c->haveit = rdsb((int64_t)c->daddr * ref->dlfs_bsize, &c->sb);
		if (!c->haveit) {
			c->why = "unreadable";
			continue;
		}
		c->why = lfs_sbcheck(&c->sb);
		if (c->why == NULL && memcmp(&c->sb, ref,
		    offsetof(struct dlfs, dlfs_serial)) != 0)
			c->why = "parameters differ from the other copies";
		if (c->why == NULL && i < LFS_NCKP &&
		    c->sb.dlfs_ckpidx != (u_int32_t)i)
			c->why = "wrong checkpoint index";
		if (c->why != NULL)
			bad = 1;
		else if (best < 0 || c->sb.dlfs_serial >
		    copies[best].sb.dlfs_serial)
			best = i;
	}
	return (best);
}

static void
pcopies(int best)
{
	struct sbcopy *c;
	int i;

	for (i = 0; i < LFS_NSB; i++) {
		c = &copies[i];
		printf("sb[%d]\t", i);
		if (c->daddr == 0) {
			printf("unused\n");
			continue;
		}
		printf("block %u", c->daddr);
		if (c->haveit && c->sb.dlfs_magic == LFS_MAGIC)
			printf(" ckpidx %u serial %llu tstamp %lld",
			    c->sb.dlfs_ckpidx,
			    (unsigned long long)c->sb.dlfs_serial,
			    (long long)c->sb.dlfs_tstamp);
		if (c->why == NULL)
			printf(" ok\n");
		else
			printf(" BAD: %s\n", c->why);
	}
	if (best >= 0)
		printf("checkpoint\tsb[%d] serial %llu\n", best,
		    (unsigned long long)fs.dlfs_serial);
	else
		printf("checkpoint\tnone\n");
}

static void
dumpsb(void)
{
	int i;

	printf("magic\t%x\n", fs.dlfs_magic);
	printf("version\t%u\n", fs.dlfs_version);
	printf("size\t%u\n", fs.dlfs_size);
	printf("ssize\t%u\n", fs.dlfs_ssize);
	printf("nseg\t%u\n", fs.dlfs_nseg);
	printf("dsize\t%u\n", fs.dlfs_dsize);
	printf("bsize\t%u\n", fs.dlfs_bsize);
	printf("bshift\t%u\n", fs.dlfs_bshift);
	printf("fsbtodb\t%u\n", fs.dlfs_fsbtodb);
	printf("sumsize\t%u\n", fs.dlfs_sumsize);
	printf("nindir\t%u\n", fs.dlfs_nindir);
	printf("inopb\t%u\n", fs.dlfs_inopb);
	printf("ifpb\t%u\n", fs.dlfs_ifpb);
	printf("sepb\t%u\n", fs.dlfs_sepb);
	printf("cleansz\t%u\n", fs.dlfs_cleansz);
	printf("segtabsz\t%u\n", fs.dlfs_segtabsz);
	printf("minfree\t%u%%\n", fs.dlfs_minfree);
	printf("minfreeseg\t%u\n", fs.dlfs_minfreeseg);
	printf("maxfilesize\t%llu\n",
	    (unsigned long long)fs.dlfs_maxfilesize);
	printf("maxsymlinklen\t%d\n", fs.dlfs_maxsymlinklen);
	printf("sboffs\t");
	for (i = 0; i < LFS_NSB; i++)
		printf("%s%u", i ? " " : "", fs.dlfs_sboffs[i]);
	printf("\n");
	printf("serial\t%llu\n", (unsigned long long)fs.dlfs_serial);
	printf("tstamp\t%lld\n", (long long)fs.dlfs_tstamp);
	printf("idaddr\t%u\n", fs.dlfs_idaddr);
	printf("free\t%u\n", fs.dlfs_free);
	printf("bfree\t%d\n", fs.dlfs_bfree);
	printf("avail\t%d\n", fs.dlfs_avail);
	printf("nfiles\t%u\n", fs.dlfs_nfiles);
	printf("curseg\t%u\n", fs.dlfs_curseg);
	printf("offset\t%u\n", fs.dlfs_offset);
	printf("nextseg\t%u\n", fs.dlfs_nextseg);
	printf("lastpseg\t%u\n", fs.dlfs_lastpseg);
	printf("clean\t%u\n", fs.dlfs_clean);
	printf("ckpidx\t%u\n", fs.dlfs_ckpidx);
	printf("fsmnt\t%.*s\n", LFS_MAXMNTLEN, fs.dlfs_fsmnt);
}

/* -i: one inode, where the inode map (or, for the ifile, the
 * checkpoint) says it is. */
static int
dumpino(u_int32_t ino)
{
	struct dinode di;
	IFILE *ifp;
	u_int32_t daddr;

	ifp = ifentry(ino);
	daddr = ino == LFS_IFILE_INUM ? fs.dlfs_idaddr :
	    ifp != NULL ? ifp->if_daddr : 0;
	if (ino != LFS_IFILE_INUM && ifp == NULL) {
		fprintf(stderr, "dumplfs: inode %u out of range\n", ino);
		return (1);
	}
	if (daddr == LFS_UNUSED_DADDR) {
		fprintf(stderr, "dumplfs: inode %u is free\n", ino);
		return (1);
	}
	if (!getinode(daddr, ino, &di)) {
		fprintf(stderr, "dumplfs: inode %u is not in block %u\n",
		    ino, daddr);
		return (1);
	}
	printf("inode\t%u\n", ino);
	printf("daddr\t%u\n", daddr);
	if (ifp != NULL)
		printf("version\t%u\n", ifp->if_version);
	fs_printdinode(&di, fs.dlfs_maxsymlinklen);
	return (0);
}

int
main(int argc, char *argv[])
{
	struct dlfs ref;
	char *end;
	long inum;
	int ch, sflag, aflag, iflag, best;

	sflag = aflag = iflag = 0;
	inum = 0;
	while ((ch = getopt(argc, argv, "sai:")) != -1) {
		switch (ch) {
		case 's':
			sflag = 1;
			break;
		case 'a':
			aflag = 1;
			break;
		case 'i':
			iflag = 1;
			inum = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || inum < 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 1)
		usage();
	if ((fd = open(argv[optind], O_RDONLY)) < 0) {
		fprintf(stderr, "dumplfs: %s: cannot open\n", argv[optind]);
		return (1);
	}
	if (!findlayout(&ref)) {
		printf("sb[0]\tBAD: %s\n", copy0why);
		fprintf(stderr, "dumplfs: %s: no valid superblock copy\n",
		    argv[optind]);
		return (1);
	}
	best = choose(&ref);
	if (best < 0) {
		pcopies(best);
		fprintf(stderr, "dumplfs: %s: no valid superblock copy\n",
		    argv[optind]);
		return (1);
	}
	fs = copies[best].sb;
	if (iflag) {
		if (!ifile_read() && inum != LFS_IFILE_INUM) {
			fprintf(stderr, "dumplfs: %s: the ifile cannot be "
			    "read\n", argv[optind]);
			return (1);
		}
		return (dumpino((u_int32_t)inum));
	}
	pcopies(best);
	dumpsb();
	if (sflag)
		return (bad);
	ifile_read();
	ifile_print();
	log_walk(aflag);
	ifile_check();
	return (bad);
}
