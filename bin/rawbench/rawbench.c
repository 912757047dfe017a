/*
 * rawbench: raw-disk access-time measurements for the benchmark driver
 * (bench/raw_disk.py), on /dev/rsdNc, the whole disk.
 *	rawbench [-u unit] [-n count] [-s seed] random
 *	rawbench [-u unit] [-n count] stroke
 *	rawbench [-u unit] ring
 *
 * random: count single-sector reads at uniformly random sectors, back to
 * back: the random-access time (seek + rotation + overhead).
 * stroke: count single-sector reads alternating between the first
 * sector of the first cylinder and of the last one (from the disk label):
 * the full-stroke access time.
 * Both zero the unit's counters first, time each read(2) with
 * gettimeofday, and then read the kernel's I/O log (thesis 7.2,
 * sys/diskstats.h) for the disk's own view of the same reads.
 * ring: summarize the I/O log as it is (say, after "iostat -z" and a dd).
 *
 * Each command prints one line of name=value fields, times in
 * microseconds, for the driver to parse:
 *	random unit=1 n=200 bytes=512 mean_us=... min_us=... max_us=...
 *	    svc_mean_us=... gap_mean_us=... log_n=... log_reads=...
 *	    log_bytes_mean=...
 *	ring unit=1 n=... reads=... writes=... rsectors=... wsectors=...
 *	    busy_us=... idle_us=... svc_mean_us=... gap_mean_us=... log_n=...
 *	    log_reads=... log_bytes_mean=...
 * mean/min/max are read(2) as timed here; the rest come from the log:
 * svc is a command's time at the disk (end - begin), gap the time the
 * disk sat idle between one command's end and the next one's begin.
 */
#include <sys/types.h>
#include <sys/time.h>
#include <sys/ioctl.h>
#include <sys/disklabel.h>
#include <sys/diskstats.h>
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SECSIZE		512
#define EX_USAGE	64		/* <sysexits.h> */

static struct diskstats ds;		/* 32 KB: not on the stack */
static int unit = 1;
static long count = 200;
static u_int32_t seed = 1;

struct timing {
	u_int64_t total_us, min_us, max_us;
	long	n;
};

static void
usage(void)
{
	fprintf(stderr, "usage: rawbench [-u unit] [-n count] [-s seed] "
	    "random | stroke | ring\n");
	exit(EX_USAGE);
}

static long
number(const char *arg)
{
	char *end;
	long n;

	n = strtol(arg, &end, 10);
	if (*arg == '\0' || *end != '\0' || n < 0)
		usage();
	return n;
}

/* The disk's counters (diskstats(2)), or exit. */
static void
stats(struct diskstats *buf, int reset)
{
	if (diskstats(unit, buf, reset) < 0)
		err(1, "diskstats sd%d", unit);
}

static u_int64_t
now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (u_int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* xorshift32: the same sectors on every run with the same seed. */
static u_int32_t
nextrand(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

static int
opendisk(struct disklabel *lp)
{
	char path[32];
	int fd;

	snprintf(path, sizeof(path), "/dev/rsd%dc", unit);
	if ((fd = open(path, O_RDONLY)) < 0)
		err(1, "%s", path);
	if (ioctl(fd, DIOCGDINFO, lp) < 0)
		err(1, "%s: DIOCGDINFO", path);
	if (lp->d_secperunit < 2 || lp->d_ncylinders < 2)
		errx(1, "%s: too small to measure", path);
	return fd;
}

/* Read one sector at sector, and add its time to t. */
static void
readsector(int fd, u_int32_t sector, struct timing *t)
{
	static char buf[SECSIZE];
	u_int64_t start, us;

	start = now_us();
	if (lseek(fd, (off_t)sector * SECSIZE, SEEK_SET) < 0)
		err(1, "lseek to sector %u", sector);
	if (read(fd, buf, SECSIZE) != SECSIZE)
		err(1, "read sector %u", sector);
	us = now_us() - start;
	t->total_us += us;
	if (t->n == 0 || us < t->min_us)
		t->min_us = us;
	if (us > t->max_us)
		t->max_us = us;
	t->n++;
}

/*
 * Summarize the log: the last n entries (all if n is 0 or more than
 * the log holds), oldest first.
 */
static void
ring(const struct diskstats *d, u_int32_t n)
{
	const struct diskstats_io *io, *prev;
	u_int64_t svc, gap, bytes;
	u_int32_t i, reads;

	if (n == 0 || n > d->ds_logcount)
		n = d->ds_logcount;
	svc = gap = bytes = 0;
	reads = 0;
	prev = NULL;
	for (i = 0; i < n; i++) {
		io = &d->ds_log[(d->ds_lognext + DISKSTATS_NLOG - n + i) %
		    DISKSTATS_NLOG];
		svc += io->io_end_us - io->io_begin_us;
		bytes += io->io_bytes;
		reads += (io->io_flags & DSIO_READ) != 0;
		if (prev != NULL && io->io_begin_us >= prev->io_end_us)
			gap += io->io_begin_us - prev->io_end_us;
		prev = io;
	}
	printf(" svc_mean_us=%llu gap_mean_us=%llu",
	    n ? svc / n : 0, n > 1 ? gap / (n - 1) : 0);
	printf(" log_n=%u log_reads=%u log_bytes_mean=%llu\n", n, reads,
	    n ? bytes / n : 0);
}

static void
report(const char *what, const struct timing *t)
{
	printf("%s unit=%d n=%ld bytes=%d mean_us=%llu min_us=%llu "
	    "max_us=%llu", what, unit, t->n, SECSIZE,
	    t->n ? t->total_us / t->n : 0, t->min_us, t->max_us);
	stats(&ds, 0);
	ring(&ds, (u_int32_t)t->n);
}

static void
randomreads(void)
{
	struct disklabel label;
	struct timing t;
	long i;
	int fd;

	memset(&t, 0, sizeof(t));
	fd = opendisk(&label);
	stats(NULL, 1);
	for (i = 0; i < count; i++)
		readsector(fd, nextrand() % label.d_secperunit, &t);
	report("random", &t);
	close(fd);
}

static void
strokereads(void)
{
	struct disklabel label;
	struct timing t;
	u_int32_t last;
	long i;
	int fd;

	memset(&t, 0, sizeof(t));
	fd = opendisk(&label);
	last = (label.d_ncylinders - 1) * label.d_secpercyl;
	stats(NULL, 1);
	for (i = 0; i < count; i++)
		readsector(fd, (i & 1) ? last : 0, &t);
	report("stroke", &t);
	close(fd);
}

static void
ringsummary(void)
{
	stats(&ds, 0);
	printf("ring unit=%d n=%llu reads=%llu writes=%llu rsectors=%llu "
	    "wsectors=%llu busy_us=%llu idle_us=%llu", unit,
	    ds.ds_reads + ds.ds_writes, ds.ds_reads, ds.ds_writes,
	    ds.ds_rsectors, ds.ds_wsectors, ds.ds_busy_us, ds.ds_idle_us);
	ring(&ds, 0);
}

int
main(int argc, char *argv[])
{
	int ch;

	while ((ch = getopt(argc, argv, "n:s:u:")) != -1) {
		switch (ch) {
		case 'n':
			count = number(optarg);
			break;
		case 's':
			seed = (u_int32_t)number(optarg);
			if (seed == 0)		/* xorshift's one fixed point */
				seed = 1;
			break;
		case 'u':
			unit = (int)number(optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();
	if (strcmp(argv[0], "random") == 0)
		randomreads();
	else if (strcmp(argv[0], "stroke") == 0)
		strokereads();
	else if (strcmp(argv[0], "ring") == 0)
		ringsummary();
	else
		usage();
	return 0;
}
