/*
 * mount: mount a file system, or list the mounted ones.
 *	mount
 *	mount [-nrw] [-t ffs | efs | lfs] special directory
 * With no arguments, list every mount as 4.4BSD does:
 *	/dev/sd0a on / (ffs, local)
 * -t: the file system type (default ffs).
 * -r: mount read-only.  -w: read-write (the default).
 * A read-write LFS gets its cleaner, /usr/libexec/lfs_cleanerd, started
 * on the mount point (as 4.4BSD's mount_lfs did); -n: do not start it.
 */
#include <sys/mount.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CLEANER	"/usr/libexec/lfs_cleanerd"

static const struct {
	int	 flag;
	const char *name;
} opts[] = {
	{ MNT_RDONLY, "read-only" },
	{ MNT_SYNCHRONOUS, "synchronous" },
	{ MNT_NOEXEC, "noexec" },
	{ MNT_NOSUID, "nosuid" },
	{ MNT_ASYNC, "asynchronous" },
};

static void
usage(void)
{
	fprintf(stderr, "usage: mount [-nrw] [-t ffs | efs | lfs] special directory\n"
	    "       mount\n");
	exit(1);
}

static int
list(void)
{
	struct statfs *fs;
	int n, i, j;

	if ((n = getfsstat(NULL, 0, MNT_NOWAIT)) < 0)
		err(1, "getfsstat");
	if ((fs = calloc(n + 1, sizeof(*fs))) == NULL)
		err(1, NULL);
	if ((n = getfsstat(fs, (n + 1) * sizeof(*fs), MNT_NOWAIT)) < 0)
		err(1, "getfsstat");
	for (i = 0; i < n; i++) {
		printf("%.*s on %.*s (%.*s, local", MNAMELEN,
		    fs[i].f_mntfromname, MNAMELEN, fs[i].f_mntonname,
		    MFSNAMELEN, fs[i].f_fstypename);
		for (j = 0; j < (int)(sizeof(opts) / sizeof(opts[0])); j++)
			if (fs[i].f_flags & opts[j].flag)
				printf(", %s", opts[j].name);
		printf(")\n");
	}
	free(fs);
	return 0;
}

/* The cleaner runs on its own, in a session of its own. */
static void
startcleaner(const char *dir)
{
	switch (fork()) {
	case -1:
		warn("fork: lfs_cleanerd not started");
		return;
	case 0:
		setsid();
		execl(CLEANER, "lfs_cleanerd", dir, (char *)NULL);
		warn("%s", CLEANER);
		_exit(127);
	}
}

int
main(int argc, char *argv[])
{
	struct ufs_args args;
	const char *type;
	int ch, flags, nocleaner = 0;

	type = "ffs";
	flags = 0;
	while ((ch = getopt(argc, argv, "nrt:w")) != -1) {
		switch (ch) {
		case 'n':
			nocleaner = 1;
			break;
		case 'r':
			flags |= MNT_RDONLY;
			break;
		case 't':
			type = optarg;
			if (strcmp(type, "ufs") == 0)
				type = "ffs";
			if (strcmp(type, "ffs") != 0 && strcmp(type, "efs") != 0 &&
			    strcmp(type, "lfs") != 0)
				errx(1, "%s: unknown file system type", type);
			break;
		case 'w':
			flags &= ~MNT_RDONLY;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc == 0)
		return list();
	if (argc != 2)
		usage();
	args.fspec = argv[0];
	if (mount(type, argv[1], flags, &args) < 0)
		err(1, "%s on %s", argv[0], argv[1]);
	if (strcmp(type, "lfs") == 0 && !(flags & MNT_RDONLY) && !nocleaner)
		startcleaner(argv[1]);
	return 0;
}
