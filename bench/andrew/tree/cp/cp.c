/*
 * cp: copy files.
 *	cp [-Rrp] source target
 *	cp [-Rrp] source ... directory
 * -R, -r: copy directories and everything under them; symbolic links
 *	are copied as links.
 * -p: preserve modification times, owner and group, and the mode
 *	including the set-id bits.  Without it, a new file gets the
 *	source's mode less the umask.
 */
#include <sys/stat.h>
#include <sys/time.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int pflag, rflag;
static mode_t mask;		/* the umask */
static char buf[16384];

static void
usage(void)
{
	fprintf(stderr, "usage: cp [-Rp] source target\n"
	    "       cp [-Rp] source ... directory\n");
	exit(1);
}

static void
preserve(const char *to, struct stat *st)
{
	struct timeval tv[2];

	tv[0].tv_sec = st->st_atime;
	tv[0].tv_usec = 0;
	tv[1].tv_sec = st->st_mtime;
	tv[1].tv_usec = 0;
	if (utimes(to, tv) < 0)
		warn("%s", to);
	if (chown(to, st->st_uid, st->st_gid) < 0)
		st->st_mode &= ~(S_ISUID | S_ISGID);	/* not ours: drop set-id */
	if (chmod(to, st->st_mode & 07777) < 0)
		warn("%s", to);
}

static int
copyfile(const char *from, const char *to, struct stat *st)
{
	int in, out, rval;
	ssize_t n, w, off;

	if ((in = open(from, O_RDONLY)) < 0) {
		warn("%s", from);
		return 1;
	}
	if ((out = open(to, O_WRONLY | O_CREAT | O_TRUNC,
	    st->st_mode & 0777)) < 0) {
		warn("%s", to);
		close(in);
		return 1;
	}
	rval = 0;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n; off += w) {
			if ((w = write(out, buf + off, n - off)) < 0) {
				warn("%s", to);
				rval = 1;
				goto done;
			}
		}
	}
	if (n < 0) {
		warn("%s", from);
		rval = 1;
	}
done:
	close(in);
	if (close(out) < 0) {
		warn("%s", to);
		rval = 1;
	}
	if (pflag && rval == 0)
		preserve(to, st);
	return rval;
}

static int
copylink(const char *from, const char *to)
{
	char target[PATH_MAX];
	ssize_t n;

	if ((n = readlink(from, target, sizeof(target) - 1)) < 0) {
		warn("%s", from);
		return 1;
	}
	target[n] = '\0';
	if (unlink(to) < 0 && errno != ENOENT) {
		warn("%s", to);
		return 1;
	}
	if (symlink(target, to) < 0) {
		warn("%s", to);
		return 1;
	}
	return 0;
}

static int copy(const char *, const char *);

static int
copydir(const char *from, const char *to, struct stat *st)
{
	struct stat tst;
	struct dirent *dp;
	char *f, *t;
	DIR *dir;
	int rval, created;

	created = 0;
	if (stat(to, &tst) < 0) {
		/* Writable while it is filled; the mode is set at the end. */
		if (mkdir(to, S_IRWXU) < 0) {
			warn("%s", to);
			return 1;
		}
		created = 1;
	} else if (!S_ISDIR(tst.st_mode)) {
		warnx("%s: Not a directory", to);
		return 1;
	}
	if ((dir = opendir(from)) == NULL) {
		warn("%s", from);
		return 1;
	}
	rval = 0;
	while ((dp = readdir(dir)) != NULL) {
		if (strcmp(dp->d_name, ".") == 0 || strcmp(dp->d_name, "..") == 0)
			continue;
		f = malloc(strlen(from) + strlen(dp->d_name) + 2);
		t = malloc(strlen(to) + strlen(dp->d_name) + 2);
		if (f == NULL || t == NULL)
			err(1, NULL);
		sprintf(f, "%s/%s", from, dp->d_name);
		sprintf(t, "%s/%s", to, dp->d_name);
		rval |= copy(f, t);
		free(f);
		free(t);
	}
	closedir(dir);
	if (pflag)
		preserve(to, st);
	else if (created)
		chmod(to, st->st_mode & 0777 & ~mask);
	return rval;
}

/* Copy one operand: a file, a link (with -R) or a tree (with -R). */
static int
copy(const char *from, const char *to)
{
	struct stat st, tst;

	if ((rflag ? lstat(from, &st) : stat(from, &st)) < 0) {
		warn("%s", from);
		return 1;
	}
	if (stat(to, &tst) == 0 && st.st_dev == tst.st_dev &&
	    st.st_ino == tst.st_ino) {
		warnx("%s and %s are identical (not copied).", from, to);
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		if (!rflag) {
			warnx("%s is a directory (not copied).", from);
			return 1;
		}
		return copydir(from, to, &st);
	}
	if (S_ISLNK(st.st_mode))
		return copylink(from, to);
	return copyfile(from, to, &st);
}

/*
 * Is dir the directory from or below it?  Climb from dir through ".."
 * to the root looking for from's inode.
 */
static int
inside(const struct stat *from, const char *dir)
{
	char path[PATH_MAX];
	struct stat st, up;
	size_t len;

	if ((len = strlen(dir)) >= sizeof(path))
		return 0;
	memcpy(path, dir, len + 1);
	for (;;) {
		if (stat(path, &st) < 0)
			return 0;
		if (st.st_dev == from->st_dev && st.st_ino == from->st_ino)
			return 1;
		if (len + 4 >= sizeof(path))
			return 0;
		memcpy(path + len, "/..", 4);
		len += 3;
		if (stat(path, &up) < 0 ||
		    (up.st_dev == st.st_dev && up.st_ino == st.st_ino))
			return 0;	/* the root */
	}
}

/* The directory a new target will be made in. */
static char *
parentdir(char *path)
{
	char *p, *slash;

	if ((p = strdup(path)) == NULL)
		err(1, NULL);
	if ((slash = strrchr(p, '/')) == NULL)
		return ".";
	if (slash == p)
		slash++;
	*slash = '\0';
	return p;
}

int
main(int argc, char *argv[])
{
	struct stat st;
	char *target, *base, *to;
	int ch, i, rval, todir;

	while ((ch = getopt(argc, argv, "PRpr")) != -1) {
		switch (ch) {
		case 'P':
			break;
		case 'R':
		case 'r':
			rflag = 1;
			break;
		case 'p':
			pflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2)
		usage();
	mask = umask(0);
	umask(mask);
	target = argv[argc - 1];
	todir = stat(target, &st) == 0 && S_ISDIR(st.st_mode);
	if (argc > 2 && !todir)
		usage();
	rval = 0;
	for (i = 0; i < argc - 1; i++) {
		if (todir) {
			base = strrchr(argv[i], '/');
			base = base != NULL ? base + 1 : argv[i];
			if (*base == '\0') {	/* "dir/": the directory's name */
				while (base > argv[i] && base[-1] == '/')
					base--;
				*base = '\0';
				base = strrchr(argv[i], '/');
				base = base != NULL ? base + 1 : argv[i];
			}
			if ((to = malloc(strlen(target) + strlen(base) + 2)) == NULL)
				err(1, NULL);
			sprintf(to, "%s/%s", target, base);
		} else
			to = target;
		if (rflag && stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode) &&
		    inside(&st, todir ? target : parentdir(to))) {
			warnx("cannot copy %s into itself", argv[i]);
			rval = 1;
			continue;
		}
		rval |= copy(argv[i], to);
	}
	return rval;
}
