/*
 * disklabel: read or write the disk label (sys/disklabel.h).
 *
 *	disklabel special
 *		print the label, or say that the disk has none (the kernel
 *		then uses its default: 'a' and 'c' are the whole disk)
 *	disklabel -w [-n nsect] [-t ntrak] [-c ncyl] [-r rpm] special
 *	    [disktype [packname]]
 *		write a label whose partitions 'a' and 'c' cover the whole
 *		disk; the geometry comes from the flags, else 32 sectors
 *		per track and 16 tracks per cylinder, and the size from
 *		the image file (or ncyl cylinders if it cannot be told)
 *
 * Only sector LABELSECTOR is written; the rest of the boot area and any
 * file system are left alone.  Works on image files on the host and on
 * raw disks in the guest.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/disklabel.h"

#define DFL_NSECT	32
#define DFL_NTRAK	16
#define DFL_RPM		3600

static const char *fstypenames[] = {
	"unused", "swap", "Version 6", "Version 7", "System V", "4.1BSD",
	"Eighth Edition", "4.2BSD", "MSDOS", "4.4LFS",
};
#define NFSTYPES	(int)(sizeof(fstypenames) / sizeof(fstypenames[0]))

static void
usage(void)
{

	fprintf(stderr, "usage: disklabel special\n"
	    "       disklabel -w [-n nsect] [-t ntrak] [-c ncyl] [-r rpm] "
	    "special [disktype [packname]]\n");
	exit(1);
}

static int
number(const char *arg)
{
	char *end;
	long v;

	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || v <= 0 || v > 0x7fffffff)
		usage();
	return ((int)v);
}

/* Copy a name into a fixed field, NUL-padded, not necessarily ended. */
static void
setname(char *field, const char *name, size_t size)
{
	size_t n;

	n = strlen(name);
	memset(field, 0, size);
	memcpy(field, name, n < size ? n : size);
}

static int
readsector(int fd, u_int8_t *sec)
{

	memset(sec, 0, 512);
	if (lseek(fd, (off_t)LABELSECTOR * 512, SEEK_SET) < 0)
		return (0);
	return (read(fd, sec, 512) >= 0);
}

static int
validlabel(const struct disklabel *lp)
{

	return (lp->d_magic == DISKMAGIC && lp->d_magic2 == DISKMAGIC &&
	    lp->d_npartitions <= MAXPARTITIONS && dkcksum(lp) == 0);
}

static void
display(const char *special, const struct disklabel *lp)
{
	const struct partition *pp;
	int i;

	printf("# %s:\n", special);
	printf("type: %s\n", lp->d_type == DTYPE_SCSI ? "SCSI" : "unknown");
	printf("disk: %.16s\n", lp->d_typename);
	printf("label: %.16s\n", lp->d_packname);
	printf("bytes/sector: %u\n", lp->d_secsize);
	printf("sectors/track: %u\n", lp->d_nsectors);
	printf("tracks/cylinder: %u\n", lp->d_ntracks);
	printf("sectors/cylinder: %u\n", lp->d_secpercyl);
	printf("cylinders: %u\n", lp->d_ncylinders);
	printf("total sectors: %u\n", lp->d_secperunit);
	printf("rpm: %u\n", lp->d_rpm);
	printf("interleave: %u\n", lp->d_interleave);
	printf("\n%d partitions:\n", lp->d_npartitions);
	printf("#        size   offset    fstype   [fsize bsize   cpg]\n");
	for (i = 0; i < lp->d_npartitions; i++) {
		pp = &lp->d_partitions[i];
		if (pp->p_size == 0)
			continue;
		printf("  %c: %8u %8u    ", 'a' + i, pp->p_size, pp->p_offset);
		if (pp->p_fstype < NFSTYPES)
			printf("%s", fstypenames[pp->p_fstype]);
		else
			printf("%d", pp->p_fstype);
		if (pp->p_fsize != 0)
			printf("  %5u %5u %5u", pp->p_fsize,
			    pp->p_fsize * pp->p_frag, pp->p_cpg);
		printf("\n");
	}
}

int
main(int argc, char *argv[])
{
	struct disklabel lab;
	struct stat st;
	u_int8_t sec[512];
	int64_t total;
	int ch, fd, wflag, nsect, ntrak, ncyl, rpm;

	wflag = 0;
	nsect = DFL_NSECT;
	ntrak = DFL_NTRAK;
	ncyl = 0;
	rpm = DFL_RPM;
	while ((ch = getopt(argc, argv, "wn:t:c:r:")) != -1) {
		switch (ch) {
		case 'w':
			wflag = 1;
			break;
		case 'n':
			nsect = number(optarg);
			break;
		case 't':
			ntrak = number(optarg);
			break;
		case 'c':
			ncyl = number(optarg);
			break;
		case 'r':
			rpm = number(optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 1 || (!wflag && argc != 1) || argc > 3)
		usage();
	if ((fd = open(argv[0], wflag ? O_RDWR : O_RDONLY)) < 0) {
		fprintf(stderr, "disklabel: %s: cannot open\n", argv[0]);
		return (1);
	}
	if (!readsector(fd, sec)) {
		fprintf(stderr, "disklabel: %s: cannot read\n", argv[0]);
		return (1);
	}
	if (!wflag) {
		memcpy(&lab, sec + LABELOFFSET, sizeof(lab));
		if (!validlabel(&lab)) {
			printf("%s: no disk label (the kernel uses a default "
			    "one: a and c are the whole disk)\n", argv[0]);
			return (1);
		}
		display(argv[0], &lab);
		return (0);
	}

	total = 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		total = st.st_size / 512;
	else
		total = lseek(fd, 0, SEEK_END) / 512;
	if (total <= 0 && ncyl > 0)
		total = (int64_t)ncyl * nsect * ntrak;
	if (total <= 0 || total > 0xffffffffLL) {
		fprintf(stderr, "disklabel: %s: cannot tell the size; "
		    "give -c\n", argv[0]);
		return (1);
	}
	memset(&lab, 0, sizeof(lab));
	lab.d_magic = lab.d_magic2 = DISKMAGIC;
	lab.d_type = DTYPE_SCSI;
	setname(lab.d_typename, argc > 1 ? argv[1] : "SCSI disk",
	    sizeof(lab.d_typename));
	if (argc > 2)
		setname(lab.d_packname, argv[2], sizeof(lab.d_packname));
	lab.d_secsize = 512;
	lab.d_nsectors = nsect;
	lab.d_ntracks = ntrak;
	lab.d_secpercyl = nsect * ntrak;
	lab.d_ncylinders = ncyl > 0 ? (u_int32_t)ncyl :
	    (u_int32_t)(total / lab.d_secpercyl);
	lab.d_secperunit = (u_int32_t)total;
	lab.d_rpm = rpm;
	lab.d_interleave = 1;
	lab.d_npartitions = MAXPARTITIONS;
	lab.d_partitions[0].p_size = (u_int32_t)total;
	lab.d_partitions[0].p_fstype = FS_BSDFFS;
	lab.d_partitions[RAW_PART].p_size = (u_int32_t)total;
	lab.d_partitions[RAW_PART].p_fstype = FS_UNUSED;
	lab.d_checksum = 0;
	lab.d_checksum = dkcksum(&lab);
	memcpy(sec + LABELOFFSET, &lab, sizeof(lab));
	if (lseek(fd, (off_t)LABELSECTOR * 512, SEEK_SET) < 0 ||
	    write(fd, sec, sizeof(sec)) != sizeof(sec)) {
		fprintf(stderr, "disklabel: %s: write error\n", argv[0]);
		return (1);
	}
	close(fd);
	return (0);
}
