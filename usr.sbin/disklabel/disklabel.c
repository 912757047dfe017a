/*
 * disklabel: read or write the disk label (sys/disklabel.h).
 *
 *	disklabel special
 *		print the label, or say that the disk has none (the kernel
 *		then uses its default: 'a' and 'c' are the whole disk)
 *	disklabel -w [-f disktab] [-n nsect] [-t ntrak] [-c ncyl] [-r rpm]
 *	    special [disktype [packname]]
 *		write a label whose partitions 'a' and 'c' cover the whole
 *		disk.  A disktype named in /etc/disktab (disktab(5); -f
 *		another file) gives the geometry, the rpm and the size, as
 *		4.4BSD's did: disklabel -w sd1 hp97560.  Else the geometry
 *		comes from the flags, or 32 sectors per track and 16
 *		tracks per cylinder, and the size from the image file (or
 *		ncyl cylinders if it cannot be told); the flags override
 *		disktab too.  special may be a disk's name: sd1 is
 *		/dev/rsd1c.
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
#define DISKTAB		"/etc/disktab"

static const char *fstypenames[] = {
	"unused", "swap", "Version 6", "Version 7", "System V", "4.1BSD",
	"Eighth Edition", "4.2BSD", "MSDOS", "4.4LFS",
};
#define NFSTYPES	(int)(sizeof(fstypenames) / sizeof(fstypenames[0]))

static void
usage(void)
{

	fprintf(stderr, "usage: disklabel special\n"
	    "       disklabel -w [-f disktab] [-n nsect] [-t ntrak] "
	    "[-c ncyl] [-r rpm]\n"
	    "                 special [disktype [packname]]\n");
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

/*
 * The disktab(5) entry of type in file: its capabilities (":ns#72:..."),
 * or NULL.  Lines starting with '#' are comments; a line ending in a
 * backslash goes on in the next.  The names before the first ':' are
 * separated by '|'.
 */
static char *
disktab_entry(const char *file, const char *type)
{
	static char ent[4096];
	char line[512], *p, *names, *name;
	size_t len = 0, n;
	int more = 0;
	FILE *f;

	if ((f = fopen(file, "r")) == NULL)
		return (NULL);
	while (fgets(line, sizeof(line), f) != NULL) {
		n = strlen(line);
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' '))
			line[--n] = '\0';
		if (!more) {
			len = 0;
			if (line[0] == '#' || line[0] == '\0')
				continue;
		}
		if ((more = n > 0 && line[n - 1] == '\\'))
			line[--n] = '\0';
		for (p = line; len > 0 && (*p == '\t' || *p == ' '); p++)
			continue;
		n = strlen(p);
		if (len + n + 1 > sizeof(ent))
			break;
		memcpy(ent + len, p, n + 1);
		len += n;
		if (more)
			continue;
		if ((p = strchr(ent, ':')) == NULL)
			continue;
		*p = '\0';
		for (names = ent; (name = strsep(&names, "|")) != NULL;)
			if (strcmp(name, type) == 0) {
				fclose(f);
				*p = ':';
				return (p);
			}
	}
	fclose(f);
	return (NULL);
}

/* The number of capability cap ("ns") in entry e, or -1. */
static long
disktab_num(const char *e, const char *cap)
{
	char key[8];
	const char *p;

	snprintf(key, sizeof(key), ":%s#", cap);
	if ((p = strstr(e, key)) == NULL)
		return (-1);
	return (strtol(p + strlen(key), NULL, 10));
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
	const char *disktab = DISKTAB;
	char *ent = NULL, dev[32];
	long su = 0;

	wflag = 0;
	nsect = ntrak = ncyl = rpm = 0;
	while ((ch = getopt(argc, argv, "wf:n:t:c:r:")) != -1) {
		switch (ch) {
		case 'w':
			wflag = 1;
			break;
		case 'f':
			disktab = optarg;
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
	if (wflag && argc > 1 && (ent = disktab_entry(disktab, argv[1])) ==
	    NULL && nsect == 0 && ntrak == 0) {
		fprintf(stderr, "disklabel: %s: unknown disk type (%s has "
		    "the known ones)\n", argv[1], disktab);
		return (1);
	}
	if (ent != NULL) {
		/* The flags given win over the entry. */
		nsect = nsect ? nsect : (int)disktab_num(ent, "ns");
		ntrak = ntrak ? ntrak : (int)disktab_num(ent, "nt");
		ncyl = ncyl ? ncyl : (int)disktab_num(ent, "nc");
		rpm = rpm ? rpm : (int)disktab_num(ent, "rm");
		su = disktab_num(ent, "su");
	}
	nsect = nsect > 0 ? nsect : DFL_NSECT;
	ntrak = ntrak > 0 ? ntrak : DFL_NTRAK;
	ncyl = ncyl > 0 ? ncyl : 0;
	rpm = rpm > 0 ? rpm : DFL_RPM;
	/* A disk's name, as 4.4BSD took it: sd1 is its raw 'c'. */
	if (strchr(argv[0], '/') == NULL && access(argv[0], F_OK) != 0) {
		snprintf(dev, sizeof(dev), "/dev/r%sc", argv[0]);
		argv[0] = dev;
	}
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
	if (total <= 0 && su > 0)
		total = su;
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
