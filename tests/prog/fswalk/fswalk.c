/*
 * fswalk: walk a (possibly damaged) file system and, with -w, write to
 * it; the guest half of the damaged-image tests (tests/test_damage.py).
 * The kernel may refuse anything with an error; it may not panic or
 * hang, and this program counts what it got.
 *
 *	usage: fswalk [-w] dir
 *
 * The walk lstats every entry, reads every directory (readdir) and every
 * regular file to its end, reads every symbolic link, and opens and
 * closes every other node.  It goes at most 16 directories deep and
 * looks at most 20000 entries (a damaged tree may loop), and reads at
 * most 8 MB of a file.
 *
 * -w then writes: new files of 1 KB to 1 MB in dir/fswalk.d, and for at
 * most 20 existing regular files (those at most two directories down
 * first) an append of 3000 bytes, a truncation to half the size, and,
 * for every third, an unlink; last the new files go again.
 *
 * Output: a line for the walk and, with -w, one for the writes, each with
 * the errors the calls met, by errno:
 *	fswalk: walked D dirs, F files, L links, O others, B KB; E errors (...)
 *	fswalk: wrote W ops; E errors (...)
 * The exit status is 0 whatever the errors: only finishing counts.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXDEPTH	16
#define MAXENTRIES	20000
#define MAXFILE		(8 * 1024 * 1024)
#define MAXVICTIMS	20
#define MAXCANDS	512
#define BUFSZ		(64 * 1024)

static char buf[BUFSZ];
static long ndirs, nfiles, nlinks, nothers, kbytes, nentries;
static long errs[ELAST + 1], nerrs;
static struct cand {
	char	path[256];
	int	depth;
} cands[MAXCANDS];			/* regular files the walk met */
static int ncands;

static void
err_(int e)
{
	if (e < 0 || e > ELAST)
		e = 0;
	errs[e]++;
	nerrs++;
}

static void
report(const char *what, long ops)
{
	int e, n = 0;

	printf("fswalk: %s", what);
	if (ops >= 0)
		printf(" %ld ops", ops);
	printf("; %ld errors", nerrs);
	for (e = 0; e <= ELAST; e++)
		if (errs[e])
			printf("%s%s %ld", n++ ? ", " : " (",
			    strerror(e), errs[e]);
	printf("%s\n", n ? ")" : "");
	fflush(stdout);
	memset(errs, 0, sizeof(errs));
	nerrs = 0;
}

static void
readfile(const char *p)
{
	long total = 0;
	ssize_t n;
	int fd;

	if ((fd = open(p, O_RDONLY)) < 0) {
		err_(errno);
		return;
	}
	while (total < MAXFILE && (n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0)
		err_(errno);
	kbytes += total / 1024;
	close(fd);
}

static void
walk(const char *p, int depth)
{
	struct dirent *d;
	struct stat st;
	char sub[512];
	DIR *dp;

	if (++nentries > MAXENTRIES)
		return;
	if (lstat(p, &st) < 0) {
		err_(errno);
		return;
	}
	switch (st.st_mode & S_IFMT) {
	case S_IFDIR:
		ndirs++;
		if (depth >= MAXDEPTH)
			return;
		if ((dp = opendir(p)) == NULL) {
			err_(errno);
			return;
		}
		while ((d = readdir(dp)) != NULL) {
			if (strcmp(d->d_name, ".") == 0 ||
			    strcmp(d->d_name, "..") == 0)
				continue;
			if (nentries > MAXENTRIES)
				break;
			snprintf(sub, sizeof(sub), "%s/%s", p, d->d_name);
			walk(sub, depth + 1);
		}
		closedir(dp);
		return;
	case S_IFREG:
		nfiles++;
		if (ncands < MAXCANDS) {
			snprintf(cands[ncands].path, sizeof(cands[0].path),
			    "%s", p);
			cands[ncands++].depth = depth;
		}
		readfile(p);
		return;
	case S_IFLNK:
		nlinks++;
		if (readlink(p, buf, sizeof(buf)) < 0)
			err_(errno);
		return;
	default: {
		int fd = open(p, O_RDONLY | O_NONBLOCK);

		nothers++;
		if (fd < 0)
			err_(errno);
		else
			close(fd);
		return;
	}
	}
}

/* One write step: counts an error, returns whether it worked. */
static int
step(int r)
{
	if (r < 0)
		err_(errno);
	return r >= 0;
}

/* The victims: the MAXVICTIMS files nearest the top, walk order kept. */
static int
pickvictims(void)
{
	struct cand t;
	int i, j;

	for (i = 1; i < ncands; i++) {
		t = cands[i];
		for (j = i; j > 0 && cands[j - 1].depth > t.depth; j--)
			cands[j] = cands[j - 1];
		cands[j] = t;
	}
	return ncands < MAXVICTIMS ? ncands : MAXVICTIMS;
}

static long
writes(const char *top)
{
	static const long sizes[] = { 1024, 10 * 1024, 100 * 1024, 1024 * 1024 };
	char d[512], p[512];
	long ops = 0, left;
	struct stat st;
	int i, fd, nvictims = pickvictims();

	memset(buf, 'w', sizeof(buf));
	snprintf(d, sizeof(d), "%s/fswalk.d", top);
	ops++, step(mkdir(d, 0755));
	for (i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/f%d", d, i);
		ops++;
		if (!step(fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0644)))
			continue;
		for (left = sizes[i]; left > 0; left -= BUFSZ) {
			ops++;
			if (!step(write(fd, buf, left < BUFSZ ? left : BUFSZ)))
				break;
		}
		ops++, step(fsync(fd));
		close(fd);
	}
	for (i = 0; i < nvictims; i++) {
		const char *v = cands[i].path;

		ops++;
		if (!step(fd = open(v, O_WRONLY | O_APPEND)))
			continue;
		ops++, step(write(fd, buf, 3000));
		if (fstat(fd, &st) == 0)
			ops++, step(ftruncate(fd, st.st_size / 2));
		close(fd);
		if (i % 3 == 0)
			ops++, step(unlink(v));
	}
	for (i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/f%d", d, i);
		ops++, step(unlink(p));
	}
	ops++, step(rmdir(d));
	sync();
	return ops;
}

int
main(int argc, char **argv)
{
	char what[160];
	int c, wflag = 0;

	while ((c = getopt(argc, argv, "w")) != -1) {
		if (c != 'w') {
			fprintf(stderr, "usage: fswalk [-w] dir\n");
			return 2;
		}
		wflag = 1;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: fswalk [-w] dir\n");
		return 2;
	}
	walk(argv[optind], 0);
	snprintf(what, sizeof(what), "walked %ld dirs, %ld files, %ld links, "
	    "%ld others, %ld KB", ndirs, nfiles, nlinks, nothers, kbytes);
	report(what, -1);
	if (wflag)
		report("wrote", writes(argv[optind]));
	return 0;
}
