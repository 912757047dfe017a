/*
 * umount: unmount file systems.
 *	umount [-f] special | node ...
 * An argument may name the mount point or the mounted device.
 * -f: unmount even if files are open there.
 */
#include <sys/mount.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The mount point of a mounted device, or name itself. */
static const char *
mountpoint(const char *name)
{
	static struct statfs fs[32];
	int n, i;

	if ((n = getfsstat(fs, sizeof(fs), MNT_NOWAIT)) < 0)
		return name;
	for (i = 0; i < n && i < 32; i++)
		if (strncmp(fs[i].f_mntfromname, name, MNAMELEN) == 0)
			return fs[i].f_mntonname;
	return name;
}

int
main(int argc, char *argv[])
{
	int ch, flags, rval;

	flags = 0;
	while ((ch = getopt(argc, argv, "f")) != -1) {
		switch (ch) {
		case 'f':
			flags |= MNT_FORCE;
			break;
		default:
			fprintf(stderr, "usage: umount [-f] special | node ...\n");
			exit(1);
		}
	}
	argv += optind;
	if (*argv == NULL) {
		fprintf(stderr, "usage: umount [-f] special | node ...\n");
		exit(1);
	}
	rval = 0;
	for (; *argv != NULL; argv++) {
		if (unmount(mountpoint(*argv), flags) < 0) {
			warn("%s", *argv);
			rval = 1;
		}
	}
	return rval;
}
