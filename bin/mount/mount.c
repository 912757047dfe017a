/*
 * mount: mount a file system, or list the mounted ones.
 *	mount
 *	mount [-nrw] [-t ffs | efs | lfs] special directory
 * With no arguments, list every mount as 4.4BSD does:
 *	/dev/sd0a on / (ffs, local)
 * -t: the file system type (default ffs).
 * -r: mount read-only.  -w: read-write (the default).
 * A read-write LFS gets its cleaner, /usr/libexec/lfs_cleanerd, started
 * on the mount point (as 4.4BSD's mount_lfs did), and, when the kernel
 * had to roll it forward after a crash, a background check (thesis
 * 6.2.4): fsck_lfs -n on the raw device, its report in
 * /var/run/fsck_lfs.DEV.  -n: neither (tests, benchmarks).
 */
#include <sys/mount.h>
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/ufs/lfs.h"

#define CLEANER	"/usr/libexec/lfs_cleanerd"
#define FSCK_LFS "/usr/sbin/fsck_lfs"

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

/* A daemon on its own, in a session of its own; output to out if set. */
static void
daemon_start(const char *prog, const char *arg0, const char *opt,
    const char *arg, const char *out)
{
	int fd;

	switch (fork()) {
	case -1:
		warn("fork: %s not started", arg0);
		return;
	case 0:
		setsid();
		if (out != NULL &&
		    (fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		if (opt != NULL)
			execl(prog, arg0, opt, arg, (char *)NULL);
		else
			execl(prog, arg0, arg, (char *)NULL);
		warn("%s", prog);
		_exit(127);
	}
}

/* After a roll-forward, verify the file system in the background. */
static void
startcheck(const char *special, const char *dir)
{
	struct lfs_stats st;
	struct statfs sfs;
	char raw[64], out[80];
	const char *name;

	if (statfs(dir, &sfs) < 0 || lfsstats(&sfs.f_fsid, &st, 0) < 0 ||
	    !st.rfw.unclean || access(FSCK_LFS, X_OK) < 0)
		return;
	name = strncmp(special, "/dev/", 5) == 0 ? special + 5 : special;
	snprintf(raw, sizeof(raw), "/dev/r%s", name);
	snprintf(out, sizeof(out), "/var/run/fsck_lfs.%s", name);
	printf("mount: %s was not unmounted cleanly: rolled forward; "
	    "fsck_lfs checks it in the background, report in %s\n",
	    special, out);
	daemon_start(FSCK_LFS, "fsck_lfs", "-n", raw, out);
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
	if (strcmp(type, "lfs") == 0 && !(flags & MNT_RDONLY) && !nocleaner) {
		startcheck(argv[0], argv[1]);
		daemon_start(CLEANER, "lfs_cleanerd", NULL, argv[1], NULL);
	}
	return 0;
}
