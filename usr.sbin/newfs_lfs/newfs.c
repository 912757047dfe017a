/*
 * newfs_lfs: make a BSD-LFS file system (thesis chapter 6).
 *
 *	newfs_lfs [-N] [-b bsize] [-s segsize] [-m minfree]
 *	    [-M minfreeseg] [-S sectors] special
 *
 * This file decides the parameters: 4 KB blocks, 1 MB segments (-s in
 * bytes, or with a k or m suffix), 10% of the blocks kept from users and
 * LFS_MINFREESEG segments kept for the cleaner (thesis 6.2.5), and the
 * partition's size (or its first -S sectors): from the kernel's label on
 * a guest disk device, from the label's partition 'a' in an image file,
 * else from the size of the image file (lib/fsutil/partition.c, shared
 * with newfs).  lfs.c does the rest.  The first LFS_LABELPAD bytes (boot
 * area and label) are never written.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/disklabel.h"
#include "sys/ufs/dinode.h"
#include "sys/ufs/lfs.h"
#include "lib/fsutil/partition.h"
#include "newfs_lfs.h"

int Nflag;
static int fsfd = -1;

static void
usage(void)
{

	fprintf(stderr, "usage: newfs_lfs [-N] [-b bsize] [-s segsize] "
	    "[-m minfree] [-M minfreeseg] [-S sectors] special\n");
	exit(1);
}

/* Write len bytes at byte offset off (both multiples of 512). */
void
wtfs(int64_t off, size_t len, const void *buf)
{

	if (Nflag)
		return;
	if (off < LFS_LABELPAD)
		fatal("internal error: write into the boot area");
	if (lseek(fsfd, (off_t)off, SEEK_SET) < 0 ||
	    write(fsfd, buf, len) != (ssize_t)len)
		fatal("write error at byte %lld", (long long)off);
}

/*
 * A size option: decimal, with an optional k or m suffix (KB, MB),
 * within [min, max] bytes.
 */
static u_int32_t
number(const char *arg, const char *what, long long min, long long max)
{
	char *end;
	long long v;

	v = strtoll(arg, &end, 10);
	if (end != arg && (*end == 'k' || *end == 'K')) {
		v *= 1024;
		end++;
	} else if (end != arg && (*end == 'm' || *end == 'M')) {
		v *= 1024 * 1024;
		end++;
	}
	if (*arg == '\0' || *end != '\0' || v < min || v > max)
		fatal("%s: bad %s (must be %lld..%lld)", arg, what, min, max);
	return ((u_int32_t)v);
}

/* The partition's size in sectors, or 0 if it cannot be told. */
static int64_t
partsize(int fd, const char *special)
{
	struct disklabel label;
	int haslabel;

	return (fs_partition(fd, special, &label, &haslabel));
}

int
main(int argc, char *argv[])
{
	struct lfsparams p;
	const char *special;
	char *seg;
	int64_t limit = 0;
	int ch;

	memset(&p, 0, sizeof(p));
	p.bsize = LFS_DEFBSIZE;
	p.minfree = 10;
	p.minfreeseg = LFS_MINFREESEG;
	seg = NULL;
	while ((ch = getopt(argc, argv, "Nb:s:m:M:S:")) != -1) {
		switch (ch) {
		case 'N':
			Nflag = 1;
			break;
		case 'b':
			p.bsize = number(optarg, "block size", 4096, 65536);
			if ((p.bsize & (p.bsize - 1)) != 0)
				fatal("%s: block size must be a power of 2",
				    optarg);
			break;
		case 's':
			seg = optarg;
			break;
		case 'm':
			p.minfree = number(optarg, "free space %", 0, 50);
			break;
		case 'S':
			limit = number(optarg, "size in sectors", 1,
			    0x7fffffffLL);
			break;
		case 'M':
			p.minfreeseg = number(optarg, "cleaner reserve",
			    LFS_MINFREESEG, 65535);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();
	special = argv[0];

	/* The segment size depends on the block size: parse it last. */
	p.segbytes = LFS_DEFSEGSIZE;
	if (seg != NULL) {
		p.segbytes = number(seg, "segment size", 8LL * p.bsize,
		    65535LL * p.bsize);
		if (p.segbytes % p.bsize != 0)
			fatal("%s: segment size must be a multiple of the "
			    "block size (%u)", seg, p.bsize);
	}

	fsfd = open(special, Nflag ? O_RDONLY : O_RDWR);
	if (fsfd < 0)
		fatal("%s: cannot open", special);
	p.sectors = partsize(fsfd, special);
	if (p.sectors == 0)
		fatal("%s: cannot tell the size of the partition", special);
	if (limit != 0 && limit < p.sectors)
		p.sectors = limit;	/* -S: only the start of it */
	make_lfs(&p, special);
	close(fsfd);
	return (0);
}
