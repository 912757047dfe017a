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
 * The superblock copies and the checkpoint are found as
 * lib/fsutil/lfs_read.c says (thesis 6.1.2): the valid copy with the
 * highest serial, of equals one not marked clean.
 *
 * Exit status 0 when every superblock copy, every summary and data
 * checksum and the ifile check out; 1 otherwise.
 */
#include <sys/types.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/dinode.h"
#include "lib/fsutil/lfs_read.h"
#include "dumplfs.h"

struct dlfs fs;
int bad;
static int fd = -1;

/* The superblock copies as read from the disk (copies that ref lists). */
static struct dlfs ref;			/* the layout: a good copy */
static struct dlfs copies[LFS_NSB];
static const char *copywhy[LFS_NSB];	/* what is wrong; NULL: good */

static void
usage(void)
{

	fprintf(stderr, "usage: dumplfs [-sa] special\n"
	    "       dumplfs -i inumber special\n");
	exit(1);
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

	return (lfs_bread(rdbytes, &fs, daddr, buf));
}

static void
pcopies(int best)
{
	const struct dlfs *sb;
	int i;

	for (i = 0; i < LFS_NSB; i++) {
		sb = &copies[i];
		printf("sb[%d]\t", i);
		if (ref.dlfs_sboffs[i] == 0) {
			printf("unused\n");
			continue;
		}
		printf("block %u", ref.dlfs_sboffs[i]);
		if (sb->dlfs_magic == LFS_MAGIC)
			printf(" ckpidx %u serial %llu tstamp %lld",
			    sb->dlfs_ckpidx, (unsigned long long)sb->dlfs_serial,
			    (long long)sb->dlfs_tstamp);
		if (copywhy[i] == NULL)
			printf(" ok\n");
		else
			printf(" BAD: %s\n", copywhy[i]);
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
	printf("ccurseg\t%u\n", fs.dlfs_ccurseg);
	printf("coffset\t%u\n", fs.dlfs_coffset);
	printf("cnextseg\t%u\n", fs.dlfs_cnextseg);
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
	if (!lfs_getinode(rdbytes, &fs, daddr, ino, &di)) {
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
	const char *copy0why;
	char *end;
	long inum;
	int ch, sflag, aflag, iflag, best, i;

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
	if (!lfs_findlayout(rdbytes, &ref, &copy0why)) {
		printf("sb[0]\tBAD: %s\n", copy0why);
		fprintf(stderr, "dumplfs: %s: no valid superblock copy\n",
		    argv[optind]);
		return (1);
	}
	best = lfs_readcopies(rdbytes, &ref, copies, copywhy);
	for (i = 0; i < LFS_NSB; i++)
		if (copywhy[i] != NULL)
			bad = 1;
	if (best < 0) {
		pcopies(best);
		fprintf(stderr, "dumplfs: %s: no valid superblock copy\n",
		    argv[optind]);
		return (1);
	}
	fs = copies[best];
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
