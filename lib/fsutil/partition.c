/*
 * Where a file-system maker's special file lies, for newfs and newfs_lfs
 * (one source for the guest and the host): the disk label, the kernel's
 * in-core one for a disk device (a default one, partitions a and c
 * covering the disk, when the disk has none), or the one in the boot
 * area of an image file; and the size of the partition in sectors.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "sys/disklabel.h"
#ifndef HOSTBUILD
#include <sys/ioctl.h>
#endif
#include "lib/fsutil/partition.h"

/* A valid label in the boot area of what fd names. */
static int
getlabel(int fd, struct disklabel *lp)
{
	u_int8_t sec[512];

	if (lseek(fd, (off_t)LABELSECTOR * 512, SEEK_SET) < 0 ||
	    read(fd, sec, sizeof(sec)) != sizeof(sec))
		return (0);
	memcpy(lp, sec + LABELOFFSET, sizeof(*lp));
	if (lp->d_magic != DISKMAGIC || lp->d_magic2 != DISKMAGIC ||
	    lp->d_npartitions > MAXPARTITIONS || dkcksum(lp) != 0)
		return (0);
	return (1);
}

/* The kernel's label of a disk device (never on the host). */
static int
devlabel(int fd, struct disklabel *lp)
{
#ifdef HOSTBUILD
	return (0);
#else
	return (ioctl(fd, DIOCGDINFO, lp) == 0);
#endif
}

/* The partition a device name ends with ("/dev/rsd1c" -> 2), else 0. */
static int
partindex(const char *special)
{
	size_t n = strlen(special);
	int c = n ? special[n - 1] : 0;

	return (c >= 'a' && c < 'a' + MAXPARTITIONS) ? c - 'a' : 0;
}

int64_t
fs_partition(int fd, const char *special, struct disklabel *lp,
    int *haslabelp)
{
	struct stat st;
	off_t end;
	int isdev = devlabel(fd, lp);

	*haslabelp = isdev || getlabel(fd, lp);
	if (isdev)
		return (lp->d_partitions[partindex(special)].p_size);
	/* An image file holds partition a at 0. */
	if (*haslabelp && lp->d_partitions[0].p_size > 0 &&
	    lp->d_partitions[0].p_offset == 0)
		return (lp->d_partitions[0].p_size);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		return ((int64_t)st.st_size / 512);
	end = lseek(fd, 0, SEEK_END);
	return (end > 0 ? (int64_t)end / 512 : 0);
}
