/*
 * tunefs: change the layout policy of an unmounted FFS or EFS file
 * system, as 4.4BSD's tunefs.
 *
 *	tunefs [-A] [-a maxcontig] [-d rotdelay] [-e maxbpg] [-m minfree]
 *	    [-o space|time] [-c on|off] special
 *
 * The options set what ffs_blkpref and ffs_alloc compute with: -a the
 * blocks laid out back to back before a rotational gap, -d that gap in
 * milliseconds, -e the blocks of one file in a group before it moves
 * on, -m the percentage kept free, -o whether to save time or space, and
 * -c on|off sets or clears FS_EFS, the clustering mode.  Each change is
 * reported as "tunefs: maxcontig changes from 1 to 16".  Without
 * options the values are printed, one `name<TAB>value' line each with
 * dumpfs's names, and nothing is written.
 *
 * The primary superblock and the copy in every cylinder group are all
 * rewritten, so that fsck_ffs -b, which makes a copy the primary, does
 * not undo the tuning, and a check that compares copies finds them
 * equal.  4.4BSD wrote the copies only with -A; here -A is accepted and
 * means the same.  The copies are written first and the primary last,
 * as newfs does: the primary is what the kernel mounts.
 *
 * fs_contigsumsize is never changed, whatever -a says: newfs sized the
 * cluster maps of every group block with it.  The new superblock must
 * pass ffs_sbcheck, the kernel's test at mount, or nothing is written.
 *
 * A mounted file system is refused: the kernel writes its in-core
 * superblock back at every sync and at unmount, over ours.  In the guest
 * the special and its block/raw twin (/dev/sd1a, /dev/rsd1a) are looked
 * for in the mount table; the host has no mount table for an image.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifndef HOSTBUILD
#include <sys/mount.h>
#endif

#include "sys/ufs/dinode.h"
#include "sys/ufs/fs.h"

/* The tunables, in the order dumpfs prints them. */
enum { T_MINFREE, T_OPTIM, T_ROTDELAY, T_MAXCONTIG, T_MAXBPG, T_FLAGS,
    NTUNE };

static const char *const tname[NTUNE] = {
	"minfree", "optim", "rotdelay", "maxcontig", "maxbpg", "flags"
};

static union {
	struct	fs fs;
	u_int8_t buf[SBSIZE];
} sbu;
#define sblock	sbu.fs

static void
usage(void)
{

	fprintf(stderr, "usage: tunefs [-A] [-a maxcontig] [-d rotdelay] "
	    "[-e maxbpg] [-m minfree]\n"
	    "\t[-o space|time] [-c on|off] special\n");
	exit(1);
}

static int32_t
getval(const struct fs *fs, int t)
{

	switch (t) {
	case T_MINFREE:
		return (fs->fs_minfree);
	case T_OPTIM:
		return (fs->fs_optim);
	case T_ROTDELAY:
		return (fs->fs_rotdelay);
	case T_MAXCONTIG:
		return (fs->fs_maxcontig);
	case T_MAXBPG:
		return (fs->fs_maxbpg);
	default:
		return (fs->fs_flags & FS_EFS);
	}
}

static void
setval(struct fs *fs, int t, int32_t v)
{

	switch (t) {
	case T_MINFREE:
		fs->fs_minfree = v;
		break;
	case T_OPTIM:
		fs->fs_optim = v;
		break;
	case T_ROTDELAY:
		fs->fs_rotdelay = v;
		break;
	case T_MAXCONTIG:
		fs->fs_maxcontig = v;
		break;
	case T_MAXBPG:
		fs->fs_maxbpg = v;
		break;
	default:
		fs->fs_flags = (fs->fs_flags & ~FS_EFS) | (v ? FS_EFS : 0);
		break;
	}
}

/* Value v of tunable t as dumpfs prints it, in buf. */
static const char *
show(int t, int32_t v, char *buf, size_t len)
{

	switch (t) {
	case T_MINFREE:
		snprintf(buf, len, "%d%%", v);
		break;
	case T_OPTIM:
		snprintf(buf, len, "%s", v == FS_OPTSPACE ? "space" :
		    v == FS_OPTTIME ? "time" : "unknown");
		break;
	case T_ROTDELAY:
		snprintf(buf, len, "%dms", v);
		break;
	case T_FLAGS:
		snprintf(buf, len, "%s", v ? "EFS" : "none");
		break;
	default:
		snprintf(buf, len, "%d", v);
		break;
	}
	return (buf);
}

/*
 * A decimal option argument within [min, max], the range ffs_sbcheck
 * accepts for the field, so a bad number is refused before any I/O.
 */
static int32_t
number(int ch, const char *arg, const char *what, long min, long max)
{
	char *end;
	long v;

	v = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || v < min || v > max)
		errx(1, "-%c %s: %s must be a number from %ld to %ld", ch, arg,
		    what, min, max);
	return ((int32_t)v);
}

/* One of two words, as 0 or 1. */
static int32_t
choice(int ch, const char *arg, const char *what, const char *w0,
    const char *w1)
{

	if (strcmp(arg, w0) == 0)
		return (0);
	if (strcmp(arg, w1) == 0)
		return (1);
	errx(1, "-%c %s: %s must be `%s' or `%s'", ch, arg, what, w0, w1);
}

#ifndef HOSTBUILD
/*
 * The other name of a disk device: /dev/sd1a <-> /dev/rsd1a.  0 if
 * name is not an sd device.
 */
static int
twin(const char *name, char *buf, size_t len)
{
	const char *base;
	int dir;

	base = strrchr(name, '/');
	base = base != NULL ? base + 1 : name;
	dir = (int)(base - name);
	if (strncmp(base, "rsd", 3) == 0)
		snprintf(buf, len, "%.*s%s", dir, name, base + 1);
	else if (strncmp(base, "sd", 2) == 0)
		snprintf(buf, len, "%.*sr%s", dir, name, base);
	else
		return (0);
	return (1);
}

/*
 * Does name denote the device special, whatever the spelling of either
 * path?  sp is special's stat, or NULL if it could not be had.
 */
static int
samedev(const char *name, const char *special, const struct stat *sp)
{
	struct stat st;

	if (strcmp(name, special) == 0)
		return (1);
	return (sp != NULL && stat(name, &st) == 0 &&
	    (st.st_mode & S_IFMT) == (sp->st_mode & S_IFMT) &&
	    st.st_rdev == sp->st_rdev);
}

/*
 * Where special, or its block/raw twin, is mounted, or NULL.  The mount
 * table keeps the name mount(8) was given (f_mntfromname).
 */
static const char *
mountedon(const char *special)
{
	static char on[MNAMELEN + 1];
	struct statfs *mnt;
	struct stat st, *sp;
	char from[MNAMELEN + 1], other[MNAMELEN + 2];
	int n, i, found;

	if ((n = getfsstat(NULL, 0, MNT_NOWAIT)) < 0)
		err(1, "getfsstat");
	if ((mnt = calloc(n + 1, sizeof(*mnt))) == NULL)
		err(1, NULL);
	if ((n = getfsstat(mnt, (n + 1) * sizeof(*mnt), MNT_NOWAIT)) < 0)
		err(1, "getfsstat");
	sp = stat(special, &st) == 0 &&
	    (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) ? &st : NULL;
	found = 0;
	for (i = 0; i < n && !found; i++) {
		snprintf(from, sizeof(from), "%.*s", MNAMELEN,
		    mnt[i].f_mntfromname);
		found = samedev(from, special, sp) ||
		    (twin(from, other, sizeof(other)) &&
		    samedev(other, special, sp));
		if (found)
			snprintf(on, sizeof(on), "%.*s", MNAMELEN,
			    mnt[i].f_mntonname);
	}
	free(mnt);
	return (found ? on : NULL);
}
#else
/* An image file on the host: no kernel has it mounted. */
static const char *
mountedon(const char *special)
{

	return (NULL);
}
#endif

/* Write size bytes at byte offset off; 0 on error. */
static int
bwrite(int fd, int64_t off, const void *buf, int size)
{

	return (lseek(fd, (off_t)off, SEEK_SET) >= 0 &&
	    write(fd, buf, size) == size);
}

/* The copies in every group, then the primary: the commit point. */
static void
writesb(const char *special)
{
	int fd, c;

	if ((fd = open(special, O_RDWR)) < 0)
		err(1, "%s: cannot open for writing", special);
	for (c = 0; c < sblock.fs_ncg; c++)
		if (!bwrite(fd, (int64_t)cgsblock(&sblock, c) *
		    sblock.fs_fsize, sbu.buf, sblock.fs_sbsize))
			err(1, "%s: cannot write the superblock copy of "
			    "cylinder group %d", special, c);
	if (!bwrite(fd, SBOFF, sbu.buf, sblock.fs_sbsize))
		err(1, "%s: cannot write the primary superblock", special);
	if (close(fd) < 0)
		err(1, "%s: close", special);
}

int
main(int argc, char *argv[])
{
	struct fs old;
	const char *special, *why, *on;
	char b0[32], b1[32];
	int32_t want[NTUNE];
	int given[NTUNE];
	int ch, fd, t, any, changed;

	memset(given, 0, sizeof(given));
	memset(want, 0, sizeof(want));
	any = 0;
	while ((ch = getopt(argc, argv, "Aa:c:d:e:m:o:")) != -1) {
		switch (ch) {
		case 'A':		/* the copies are always written */
			continue;
		case 'a':
			t = T_MAXCONTIG;
			want[t] = number(ch, optarg, "maxcontig", 0, 1024);
			break;
		case 'c':
			t = T_FLAGS;
			want[t] = choice(ch, optarg, "clustering", "off",
			    "on") ? FS_EFS : 0;
			break;
		case 'd':
			t = T_ROTDELAY;
			want[t] = number(ch, optarg, "rotdelay (ms)", 0, 1000);
			break;
		case 'e':
			t = T_MAXBPG;
			want[t] = number(ch, optarg, "maxbpg", 1, 0x7fffffff);
			break;
		case 'm':
			t = T_MINFREE;
			want[t] = number(ch, optarg, "minfree (%)", 0, 99);
			break;
		case 'o':
			t = T_OPTIM;
			want[t] = choice(ch, optarg, "optimization preference",
			    "time", "space") ? FS_OPTSPACE : FS_OPTTIME;
			break;
		default:
			usage();
		}
		given[t] = 1;
		any = 1;
	}
	if (argc - optind != 1)
		usage();
	special = argv[optind];

	if ((fd = open(special, O_RDONLY)) < 0)
		err(1, "%s", special);
	if (lseek(fd, (off_t)SBOFF, SEEK_SET) < 0 ||
	    read(fd, sbu.buf, SBSIZE) != SBSIZE)
		errx(1, "%s: cannot read the superblock", special);
	close(fd);
	if ((why = ffs_sbcheck(&sblock)) != NULL)
		errx(1, "%s: bad superblock: %s", special, why);

	if (!any) {
		for (t = 0; t < NTUNE; t++)
			printf("%s\t%s\n", tname[t],
			    show(t, getval(&sblock, t), b0, sizeof(b0)));
		return (0);
	}
	if ((on = mountedon(special)) != NULL)
		errx(1, "%s: mounted on %s; unmount it first", special, on);

	old = sblock;
	changed = 0;
	for (t = 0; t < NTUNE; t++)
		if (given[t] && want[t] != getval(&sblock, t)) {
			setval(&sblock, t, want[t]);
			changed = 1;
		}
	if ((why = ffs_sbcheck(&sblock)) != NULL)
		errx(1, "%s: not changed: the new superblock would fail "
		    "its check: %s", special, why);

	for (t = 0; t < NTUNE; t++) {
		if (!given[t])
			continue;
		if (getval(&old, t) == getval(&sblock, t))
			printf("tunefs: %s remains unchanged as %s\n",
			    tname[t], show(t, getval(&old, t), b0, sizeof(b0)));
		else
			printf("tunefs: %s changes from %s to %s\n", tname[t],
			    show(t, getval(&old, t), b0, sizeof(b0)),
			    show(t, getval(&sblock, t), b1, sizeof(b1)));
	}
	/* 4.4BSD's advice; see MINFREE in fs.h. */
	if ((given[T_MINFREE] || given[T_OPTIM]) &&
	    sblock.fs_minfree >= MINFREE && sblock.fs_optim == FS_OPTSPACE)
		printf("tunefs: should optimize for time with minfree >= "
		    "%d%%\n", MINFREE);
	if ((given[T_MINFREE] || given[T_OPTIM]) &&
	    sblock.fs_minfree < MINFREE && sblock.fs_optim == FS_OPTTIME)
		printf("tunefs: should optimize for space with minfree < "
		    "%d%%\n", MINFREE);
	if (changed)
		writesb(special);
	return (0);
}
