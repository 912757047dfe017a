/*
 * smallfiles: the small-file test of thesis 7.4, one phase at a time.
 *
 *	usage: smallfiles [-n files] [-d dirs] [-s size] create|read|delete dir
 *
 * create  makes dirs directories dir/dNN and files files of size bytes
 *         spread over them in turn (dNN/fMMMMM), then calls sync;
 * read    reads every file back (and checks its first byte);
 * delete  removes every file and directory, then calls sync.
 * Defaults: 10,000 files of 1 KB in 100 directories.  It prints one line,
 * "smallfiles PHASE files N usecs U per_sec R", timed from the first call
 * to the end of the sync.  Unmount between phases for a cold cache (the
 * benchmark driver does).
 */
#include <sys/types.h>
#include <sys/time.h>
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[65536];

static long long
now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

static void
usage(void)
{
	fprintf(stderr, "usage: smallfiles [-n files] [-d dirs] [-s size] "
	    "create|read|delete dir\n");
	exit(1);
}

int
main(int argc, char *argv[])
{
	int ch, nfiles = 10000, ndirs = 100, size = 1024, i, fd;
	const char *phase, *dir;
	char path[256];
	long long t0, us;

	while ((ch = getopt(argc, argv, "n:d:s:")) != -1) {
		switch (ch) {
		case 'n':
			nfiles = atoi(optarg);
			break;
		case 'd':
			ndirs = atoi(optarg);
			break;
		case 's':
			size = atoi(optarg);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2 || nfiles <= 0 || ndirs <= 0 || size <= 0 ||
	    size > (int)sizeof(buf))
		usage();
	phase = argv[optind];
	dir = argv[optind + 1];
	memset(buf, 'x', sizeof(buf));
	t0 = now_us();
	if (strcmp(phase, "create") == 0) {
		for (i = 0; i < ndirs; i++) {
			snprintf(path, sizeof(path), "%s/d%02d", dir, i);
			if (mkdir(path, 0755) < 0)
				err(1, "%s", path);
		}
		for (i = 0; i < nfiles; i++) {
			snprintf(path, sizeof(path), "%s/d%02d/f%05d", dir,
			    i % ndirs, i);
			if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC,
			    0644)) < 0 || write(fd, buf, size) != size)
				err(1, "%s", path);
			close(fd);
		}
		sync();
	} else if (strcmp(phase, "read") == 0) {
		for (i = 0; i < nfiles; i++) {
			snprintf(path, sizeof(path), "%s/d%02d/f%05d", dir,
			    i % ndirs, i);
			if ((fd = open(path, O_RDONLY)) < 0 ||
			    read(fd, buf, size) != size || buf[0] != 'x')
				err(1, "%s", path);
			close(fd);
		}
	} else if (strcmp(phase, "delete") == 0) {
		for (i = 0; i < nfiles; i++) {
			snprintf(path, sizeof(path), "%s/d%02d/f%05d", dir,
			    i % ndirs, i);
			if (unlink(path) < 0)
				err(1, "%s", path);
		}
		for (i = 0; i < ndirs; i++) {
			snprintf(path, sizeof(path), "%s/d%02d", dir, i);
			if (rmdir(path) < 0)
				err(1, "%s", path);
		}
		sync();
	} else
		usage();
	us = now_us() - t0;
	printf("smallfiles %s files %d usecs %lld per_sec %lld\n", phase,
	    nfiles, us, us > 0 ? (long long)nfiles * 1000000 / us : 0);
	return 0;
}
