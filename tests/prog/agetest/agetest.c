/*
 * agetest: age a file system (issue 6): drive it between low% and high%
 * full through generations of creates, overwrites and deletes, so that
 * the LFS cleaner must work, and check every file against a hash taken
 * when it was written.
 *
 *	usage: agetest [-s seed] [-g generations] [-l low] [-h high]
 *		       -t table run dir
 *	       agetest -t table verify dir
 *
 * run: each generation fills dir's file system to high% (new files of
 * 1 KB to 256 KB, most of them small, or whole rewrites of old ones),
 * then deletes files at random until it is below low%; every file's size,
 * content seed and FNV-1a hash go to the table file (put it on another
 * file system), and each generation ends with every file read back and
 * compared.  A write that fails with ENOSPC is allowed only above low%;
 * its file is removed, and the generation goes on to its deletes.
 * verify: read the table and check every file (after an unmount and
 * mount, say).  Fullness is df's capacity: used / (used + available).
 */
#include <sys/types.h>
#include <sys/mount.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/check.h"

#define MAXFILES	4096
#define MAXSIZE		(256 * 1024)

struct afile {
	u_int32_t seed;			/* 0: no such file */
	u_int32_t size;
	u_int32_t hash;
};

static struct afile files[MAXFILES];
static char *buf;
static const char *dir;
static u_int32_t rng = 1;

static u_int32_t
rnd(u_int32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng % n;
}

/* The content of a file: a stream from its seed. */
static void
fill(char *p, u_int32_t n, u_int32_t seed)
{
	u_int32_t x = seed * 2654435761u + 1, i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (char)(x >> 24);
	}
}

static u_int32_t
fnv(const char *p, u_int32_t n)
{
	u_int32_t h = 2166136261u, i;

	for (i = 0; i < n; i++)
		h = (h ^ (u_int8_t)p[i]) * 16777619u;
	return h;
}

static const char *
name(int i)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/a%d", dir, i);
	return path;
}

static int
fullness(void)
{
	struct statfs sfs;

	long used;

	if (statfs(dir, &sfs) < 0 || sfs.f_blocks <= 0)
		return 100;
	used = sfs.f_blocks - sfs.f_bfree;
	if (used + sfs.f_bavail <= 0)
		return 100;
	return (int)(100 * used / (used + sfs.f_bavail));
}

/* Write file i afresh; 0, or the errno of the write that failed. */
static int
writefile(int i)
{
	u_int32_t size = rnd(8) ? 1024 + rnd(31 * 1024) : 1024 + rnd(MAXSIZE -
	    1024);
	u_int32_t seed = rnd(0x7fffffff) + 1;
	int fd, e;
	ssize_t n;

	fill(buf, size, seed);
	if ((fd = open(name(i), O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		return errno;
	n = write(fd, buf, size);
	e = errno;
	if (close(fd) < 0 && n == (ssize_t)size) {
		n = -1;
		e = errno;
	}
	if (n != (ssize_t)size) {
		unlink(name(i));
		files[i].seed = 0;
		return n < 0 ? e : ENOSPC;
	}
	files[i].seed = seed;
	files[i].size = size;
	files[i].hash = fnv(buf, size);
	return 0;
}

/* Every file as recorded?  The number that are not. */
static int
verifyall(int *nfiles, char *why, size_t whylen)
{
	int i, fd, bad = 0;
	ssize_t n;

	*nfiles = 0;
	for (i = 0; i < MAXFILES; i++) {
		if (files[i].seed == 0)
			continue;
		(*nfiles)++;
		n = -1;
		if ((fd = open(name(i), O_RDONLY)) >= 0) {
			n = read(fd, buf, MAXSIZE + 1);
			close(fd);
		}
		if (n != (ssize_t)files[i].size ||
		    fnv(buf, files[i].size) != files[i].hash) {
			if (bad++ == 0)
				snprintf(why, whylen, "%s: %ld bytes of %u, "
				    "hash %s", name(i), (long)n, files[i].size,
				    n == (ssize_t)files[i].size ? "differs" :
				    "not checked");
		}
	}
	return bad;
}

static void
savetable(const char *table)
{
	FILE *f = fopen(table, "w");
	int i;

	if (f == NULL)
		return;
	for (i = 0; i < MAXFILES; i++)
		if (files[i].seed != 0)
			fprintf(f, "%d %u %u %u\n", i, files[i].seed,
			    files[i].size, files[i].hash);
	fclose(f);
}

static int
loadtable(const char *table)
{
	FILE *f = fopen(table, "r");
	unsigned seed, size, hash;
	char line[80];
	int i, n = 0;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%d %u %u %u", &i, &seed, &size, &hash) == 4 &&
		    i >= 0 && i < MAXFILES) {
			files[i].seed = seed;
			files[i].size = size;
			files[i].hash = hash;
			n++;
		}
	fclose(f);
	return n;
}

static void
run(int gens, int low, int high, const char *table)
{
	char why[256], what[64];
	int g, i, e, nfiles, bad, lowspace = 0;

	for (g = 0; g < gens; g++) {
		/* Up to high%: new files, or rewrites when the table is full. */
		for (i = 0; fullness() < high && i < 100000; i++) {
			int k = rnd(MAXFILES);

			e = writefile(k);
			if (e == 0)
				continue;
			if (e != ENOSPC || fullness() < low) {
				if (lowspace++ == 0)
					printf("(agetest) write of %s failed at "
					    "%d%% full: %s\n", name(k),
					    fullness(), strerror(e));
			}
			break;
		}
		/* Down below low%. */
		while (fullness() >= low) {
			int k = rnd(MAXFILES);

			if (files[k].seed == 0)
				continue;
			unlink(name(k));
			files[k].seed = 0;
		}
		bad = verifyall(&nfiles, why, sizeof(why));
		snprintf(what, sizeof(what), "generation %d: every file intact",
		    g + 1);
		check(bad == 0, what, "%d of %d bad; first %s", bad, nfiles,
		    why);
		savetable(table);
	}
	check(lowspace == 0, "no write refused below the low mark",
	    "%d refused", lowspace);
}

int
main(int argc, char *argv[])
{
	const char *table = NULL;
	int ch, gens = 4, low = 80, high = 90, nfiles, bad;
	char why[256];

	check_prog = "agetest";
	while ((ch = getopt(argc, argv, "g:h:l:s:t:")) != -1) {
		switch (ch) {
		case 'g':
			gens = atoi(optarg);
			break;
		case 'h':
			high = atoi(optarg);
			break;
		case 'l':
			low = atoi(optarg);
			break;
		case 's':
			rng = (u_int32_t)atoi(optarg) | 1;
			break;
		case 't':
			table = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind != 2 || table == NULL || low >= high || high > 99)
		goto usage;
	dir = argv[optind + 1];
	if ((buf = malloc(MAXSIZE + 1)) == NULL)
		return 2;
	if (strcmp(argv[optind], "run") == 0)
		run(gens, low, high, table);
	else if (strcmp(argv[optind], "verify") == 0) {
		check(loadtable(table) >= 0, "the table is there", "%s",
		    strerror(errno));
		bad = verifyall(&nfiles, why, sizeof(why));
		check(bad == 0, "every file intact", "%d of %d bad; first %s",
		    bad, nfiles, why);
	} else
		goto usage;
	return check_done();
usage:
	fprintf(stderr, "usage: agetest [-s seed] [-g gens] [-l low] [-h high] "
	    "-t table run|verify dir\n");
	return 2;
}
