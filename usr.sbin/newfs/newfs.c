/*
 * newfs: make an FFS (or, with -E, an EFS) file system.
 *
 *	newfs [-NE] [-b bsize] [-f fsize] [-c cpg] [-d rotdelay]
 *	    [-a maxcontig] [-e maxbpg] [-i bytes-per-inode] [-m minfree]
 *	    [-o time|space] [-s sectors] [-D dir [-P protofile]] special
 *
 * This file decides the parameters: defaults as 4.4BSD's newfs (4 KB
 * blocks of 1 KB fragments, 16 cylinders per group, rotdelay 4 ms,
 * maxcontig 1), the disk's geometry from its label (else 32 sectors of
 * 16 tracks), and its size from -s, the label's partition 'a', or the
 * size of the image file.  -E asks for the clustering mode of McVoy and
 * Kleiman: FS_EFS, no rotational gap, 64 KB of contiguous blocks.
 * mkfs.c does the rest.  The first 8 KB (boot area and label) are never
 * written.
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
#include "sys/ufs/fs.h"
#include "lib/fsutil/partition.h"
#include "newfs.h"

#define DFL_BSIZE	4096
#define DFL_FSIZE	1024
#define DFL_CPG		16		/* cylinders per group */
#define DFL_NSECT	32		/* geometry when there is no label */
#define DFL_NTRAK	16
#define DFL_RPM		3600
#define DFL_ROTDELAY	4		/* ms, 4.4BSD's ROTDELAY */
#define DFL_DENSITY	4096		/* bytes per inode: 4 fragments */
#define EFS_MAXIO	65536		/* EFS clusters: one 64 KB transfer */

const char *progname = "newfs";
int Nflag;

static void
usage(void)
{

	fprintf(stderr,
	    "usage: newfs [-NE] [-b bsize] [-f fsize] [-c cpg] "
	    "[-d rotdelay]\n"
	    "\t[-a maxcontig] [-e maxbpg] [-i bytes-per-inode] "
	    "[-m minfree]\n"
	    "\t[-o time|space] [-s sectors] [-D dir [-P protofile]] "
	    "special\n");
	exit(1);
}

/* A decimal option argument within [min, max]. */
static int
number(const char *arg, const char *what, long min, long max)
{
	char *end;
	long v;

	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || v < min || v > max)
		fatal("%s: bad %s (must be %ld..%ld)", arg, what, min, max);
	return ((int)v);
}

int
main(int argc, char *argv[])
{
	struct mkfsparams p;
	struct disklabel label;
	struct pnode *root;
	const char *special, *protodir, *protofile;
	int ch, fd, haslabel, dflag, aflag;
	int64_t sectors;

	memset(&p, 0, sizeof(p));
	p.bsize = DFL_BSIZE;
	p.fsize = DFL_FSIZE;
	p.cpg = DFL_CPG;
	p.rotdelay = DFL_ROTDELAY;
	p.maxcontig = 1;
	p.density = DFL_DENSITY;
	p.minfree = MINFREE;
	p.optim = DEFAULTOPT;
	protodir = protofile = NULL;
	dflag = aflag = 0;
	while ((ch = getopt(argc, argv, "NEb:f:c:d:a:e:i:m:o:s:D:P:")) != -1) {
		switch (ch) {
		case 'N':
			Nflag = 1;
			break;
		case 'E':
			p.efs = 1;
			break;
		case 'b':
			p.bsize = number(optarg, "block size", MINBSIZE,
			    FS_MAXBSIZE);
			break;
		case 'f':
			p.fsize = number(optarg, "fragment size", 512,
			    FS_MAXBSIZE);
			break;
		case 'c':
			p.cpg = number(optarg, "cylinders per group", 1, 10000);
			p.cpgflag = 1;
			break;
		case 'd':
			p.rotdelay = number(optarg, "rotdelay", 0, 1000);
			dflag = 1;
			break;
		case 'a':
			p.maxcontig = number(optarg, "maxcontig", 0, 1024);
			aflag = 1;
			break;
		case 'e':
			p.maxbpg = number(optarg, "maxbpg", 1, 1 << 30);
			break;
		case 'i':
			p.density = number(optarg, "bytes per inode", 512,
			    1 << 30);
			break;
		case 'm':
			p.minfree = number(optarg, "free space %", 0, 99);
			break;
		case 'o':
			if (strcmp(optarg, "time") == 0)
				p.optim = FS_OPTTIME;
			else if (strcmp(optarg, "space") == 0)
				p.optim = FS_OPTSPACE;
			else
				fatal("%s: unknown optimization preference: "
				    "use `space' or `time'", optarg);
			break;
		case 's':
			p.sectors = number(optarg, "size in sectors", 64,
			    0x7fffffff);
			break;
		case 'D':
			protodir = optarg;
			break;
		case 'P':
			protofile = optarg;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1 || (protofile != NULL && protodir == NULL))
		usage();
	special = argv[0];

	if (p.efs) {
		/*
		 * EFS (thesis 7.1, after McVoy and Kleiman, "Extent-like
		 * Performance from a UNIX File System", USENIX Winter 1991):
		 * clusters of maxcontig = 64 KB / bsize contiguous blocks,
		 * each moved in one I/O, and no rotational gap unless -d
		 * asks for one.
		 */
		if (!dflag)
			p.rotdelay = 0;
		if (!aflag)
			p.maxcontig = EFS_MAXIO / p.bsize;
	}

	fd = open(special, Nflag ? O_RDONLY : O_RDWR);
	if (fd < 0)
		fatal("%s: cannot open", special);
	sectors = fs_partition(fd, special, &label, &haslabel);
	if (haslabel) {
		p.nsect = label.d_nsectors;
		p.ntrak = label.d_ntracks;
		p.rpm = label.d_rpm;
	}
	if (p.nsect <= 0 || p.ntrak <= 0) {
		p.nsect = DFL_NSECT;
		p.ntrak = DFL_NTRAK;
	}
	if (p.rpm <= 0)
		p.rpm = DFL_RPM;
	if (p.sectors == 0)
		p.sectors = sectors;
	if (p.sectors == 0)
		fatal("%s: cannot tell the size; give it with -s", special);

	root = newnode("", IFDIR, 0755);
	if (protodir != NULL)
		copytree(root, protodir);
	if (protofile != NULL)
		applyproto(root, protofile);

	setdisk(fd);
	mkfs(&p, special, root);
	close(fd);
	return (0);
}
