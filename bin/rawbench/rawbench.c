/*
 * rawbench: disk and file bandwidth measurements for the benchmark
 * drivers (bench/raw_disk.py, bench/fs_bandwidth.py).
 *	rawbench [-u unit] [-n count] [-s seed] random
 *	rawbench [-u unit] [-n count] stroke
 *	rawbench [-u unit] ring
 *	rawbench [-u unit] [-b size] [-t total] fwrite path
 *	rawbench [-u unit] [-b size] fread path
 *
 * random: count single-sector reads at uniformly random sectors of
 * /dev/rsdNc, the whole disk, back to back: the random-access time
 * (seek + rotation + overhead).
 * stroke: count single-sector reads alternating between the first
 * sector of the first cylinder and of the last one (from the disk label):
 * the full-stroke access time.
 * Both zero the unit's counters first, time each read(2) with
 * gettimeofday, and then read the kernel's I/O log (thesis 7.2,
 * sys/diskstats.h) for the disk's own view of the same reads.
 * ring: summarize the I/O log as it is (say, after "iostat -z" and a dd).
 *
 * fwrite and fread are the raw file-system bandwidth test of thesis 7.3:
 * fwrite creates (or truncates) path and writes total bytes to it in
 * write(2) calls of size bytes, then fsyncs it; fread reads path to its
 * end in read(2) calls of size bytes.  The clock (gettimeofday) runs
 * from just before the first call to just after fsync or the last read;
 * the unit's counters are zeroed when it starts, after open, so they
 * count the commands of this pass alone (unit must be the disk that holds
 * path).  Removing the old file, and the cold cache for fread (unmount
 * and mount), are up to the caller.
 *
 * Each command prints one line of name=value fields, times in
 * microseconds, for the driver to parse:
 *	random unit=1 n=200 bytes=512 mean_us=... min_us=... max_us=...
 *	    svc_mean_us=... gap_mean_us=... log_n=... log_reads=...
 *	    log_bytes_mean=...
 *	ring unit=1 n=... reads=... writes=... sreads=... swrites=...
 *	    rsectors=... wsectors=... busy_us=... idle_us=...
 *	    svc_mean_us=... gap_mean_us=... log_n=... log_reads=...
 *	    log_bytes_mean=...
 *	fwrite unit=1 size=65536 bytes=4194304 usecs=... mbps=1.234
 *	    write_usecs=... n=... reads=... (the ring fields)
 * mean/min/max are read(2) as timed here; the rest come from the log:
 * write_usecs is the part of usecs before fsync (thesis figure 7-2: what
 * the writes took, and what the fsync then waited for).
 * svc is a command's time at the disk (end - begin), gap the time the
 * disk sat idle between one command's end and the next one's begin.
 * n, reads, writes, sreads and swrites count commands (sreads and swrites
 * the synchronous ones); mbps is bytes / usecs, that is MB/s with
 * MB = 10^6 bytes, the unit dd's bytes/sec gives raw_disk.py.
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
static long iosize = 65536;		/* -b: bytes per read(2)/write(2) */
static long total = 4 << 20;		/* -t: bytes fwrite writes */

struct timing {
	u_int64_t total_us, min_us, max_us;
	long	n;
};

static void
usage(void)
{
	fprintf(stderr, "usage: rawbench [-u unit] [-n count] [-s seed] "
	    "random | stroke | ring\n"
	    "       rawbench [-u unit] [-b size] [-t total] fwrite path\n"
	    "       rawbench [-u unit] [-b size] fread path\n");
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

/* The unit's counters and its whole log, ending the line. */
static void
counters(void)
{
	stats(&ds, 0);
	printf(" n=%llu reads=%llu writes=%llu sreads=%llu swrites=%llu "
	    "rsectors=%llu wsectors=%llu busy_us=%llu idle_us=%llu",
	    ds.ds_reads + ds.ds_writes, ds.ds_reads, ds.ds_writes,
	    ds.ds_syncreads, ds.ds_syncwrites, ds.ds_rsectors,
	    ds.ds_wsectors, ds.ds_busy_us, ds.ds_idle_us);
	ring(&ds, 0);
}

static void
ringsummary(void)
{
	printf("ring unit=%d", unit);
	counters();
}

/* One file pass: what it moved, how long it took, and the disk's view. */
static void
filereport(const char *what, u_int64_t bytes, u_int64_t us, u_int64_t wus)
{
	u_int64_t milli;

	if (us == 0)
		us = 1;
	milli = bytes * 1000 / us;	/* bytes/us = 10^6 bytes/s */
	printf("%s unit=%d size=%ld bytes=%llu usecs=%llu mbps=%llu.%03llu",
	    what, unit, iosize, bytes, us, milli / 1000, milli % 1000);
	if (wus != 0)
		printf(" write_usecs=%llu", wus);
	counters();
}

static char *
iobuffer(void)
{
	char *buf;
	long i;

	if (iosize == 0)
		usage();
	if ((buf = malloc(iosize)) == NULL)
		errx(1, "no memory for %ld bytes", iosize);
	for (i = 0; i < iosize; i++)	/* not zeros: nothing can skip them */
		buf[i] = (char)i;
	return buf;
}

static void
filewrite(const char *path)
{
	u_int64_t start, wrote, done;
	long n;
	char *buf;
	int fd;

	buf = iobuffer();
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		err(1, "%s", path);
	stats(NULL, 1);
	start = now_us();
	for (done = 0; done < (u_int64_t)total; done += n) {
		n = total - done < (u_int64_t)iosize ? (long)(total - done) :
		    iosize;
		if (write(fd, buf, n) != n)
			err(1, "%s: write at %llu", path, done);
	}
	wrote = now_us();
	if (fsync(fd) < 0)
		err(1, "%s: fsync", path);
	filereport("fwrite", done, now_us() - start, wrote > start ?
	    wrote - start : 1);
	close(fd);
	free(buf);
}

static void
fileread(const char *path)
{
	u_int64_t start, done;
	char *buf;
	int fd, n;

	buf = iobuffer();
	if ((fd = open(path, O_RDONLY)) < 0)
		err(1, "%s", path);
	stats(NULL, 1);
	start = now_us();
	for (done = 0; (n = read(fd, buf, iosize)) > 0; done += n)
		;
	if (n < 0)
		err(1, "%s: read at %llu", path, done);
	filereport("fread", done, now_us() - start, 0);
	close(fd);
	free(buf);
}

int
main(int argc, char *argv[])
{
	int ch;

	while ((ch = getopt(argc, argv, "b:n:s:t:u:")) != -1) {
		switch (ch) {
		case 'b':
			iosize = number(optarg);
			break;
		case 'n':
			count = number(optarg);
			break;
		case 's':
			seed = (u_int32_t)number(optarg);
			if (seed == 0)		/* xorshift's one fixed point */
				seed = 1;
			break;
		case 't':
			total = number(optarg);
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
	if (argc == 2 && strcmp(argv[0], "fwrite") == 0)
		filewrite(argv[1]);
	else if (argc == 2 && strcmp(argv[0], "fread") == 0)
		fileread(argv[1]);
	else if (argc != 1)
		usage();
	else if (strcmp(argv[0], "random") == 0)
		randomreads();
	else if (strcmp(argv[0], "stroke") == 0)
		strokereads();
	else if (strcmp(argv[0], "ring") == 0)
		ringsummary();
	else
		usage();
	return 0;
}
