/*
 * iostat: the per-disk counters of thesis 7.2, as diskstats(2) keeps them.
 *	iostat [-lz] [-n count] [unit ...]
 *
 * For each disk (units 0, 1, ... up to the first that does not exist, or
 * the units named, as "1" or "sd1"): READ and WRITE commands, how many
 * of each were synchronous (someone waited for them), sectors read and
 * written, the milliseconds the disk was busy (a command outstanding) and
 * idle, and the utilization, busy / (busy + idle).
 *
 * -l also lists the I/O log, the ring of the last DISKSTATS_NLOG I/Os,
 * oldest first: when each command was sent and completed (microseconds
 * since boot), its service time, first sector, size and kind.  -n count
 * lists only the last count of them (and implies -l).  -z zeroes the
 * counters (and the log) once they are copied out, in the same system
 * call.
 */
#include <sys/types.h>
#include <sys/diskstats.h>
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXUNITS	8		/* the sd driver's limit */
#define EX_USAGE	64		/* <sysexits.h> */

static struct diskstats ds;		/* 32 KB: not on the stack */
static int lflag, zflag;
static long nlog = -1;			/* -n: entries to list; -1 all */

static void
usage(void)
{
	fprintf(stderr, "usage: iostat [-lz] [-n count] [unit ...]\n");
	exit(EX_USAGE);
}

/* "1" or "sd1" -> 1; -1 if the argument names no unit. */
static int
parseunit(const char *arg)
{
	char *end;
	long unit;

	if (strncmp(arg, "sd", 2) == 0)
		arg += 2;
	if (*arg < '0' || *arg > '9')
		return -1;
	unit = strtol(arg, &end, 10);
	if (*end != '\0' || unit > 0x7fffffff)
		return -1;
	return (int)unit;
}

/* Milliseconds with one decimal, from microseconds. */
static void
printms(u_int64_t us, int width)
{
	printf(" %*llu.%llu", width - 2, us / 1000, us % 1000 / 100);
}

static void
header(void)
{
	printf("%-5s %8s %8s %8s %8s %10s %10s %11s %11s %6s\n",
	    "disk", "reads", "writes", "sreads", "swrites", "rsectors",
	    "wsectors", "busy_ms", "idle_ms", "util%");
}

static void
counters(const struct diskstats *d)
{
	u_int64_t total, permille;

	total = d->ds_busy_us + d->ds_idle_us;
	permille = total == 0 ? 0 : (d->ds_busy_us * 1000 + total / 2) / total;
	printf("%-5.*s %8llu %8llu %8llu %8llu %10llu %10llu", DISKSTATS_NAMELEN,
	    d->ds_name, d->ds_reads, d->ds_writes, d->ds_syncreads,
	    d->ds_syncwrites, d->ds_rsectors, d->ds_wsectors);
	printms(d->ds_busy_us, 11);
	printms(d->ds_idle_us, 11);
	printf(" %4llu.%llu\n", permille / 10, permille % 10);
}

/* The ring, oldest entry first; the newest is just before ds_lognext. */
static void
iolog(const struct diskstats *d)
{
	const struct diskstats_io *io;
	u_int32_t n, i, slot;

	n = d->ds_logcount;
	if (nlog >= 0 && (u_int32_t)nlog < n)
		n = (u_int32_t)nlog;
	printf("%.*s: last %u I/Os, oldest first\n", DISKSTATS_NAMELEN,
	    d->ds_name, n);
	printf("%14s %14s %9s %10s %7s  %s\n", "begin_us", "end_us",
	    "svc_us", "sector", "bytes", "op");
	for (i = 0; i < n; i++) {
		slot = (d->ds_lognext + DISKSTATS_NLOG - n + i) % DISKSTATS_NLOG;
		io = &d->ds_log[slot];
		printf("%14llu %14llu %9llu %10u %7u  %s%s%s\n",
		    io->io_begin_us, io->io_end_us,
		    io->io_end_us - io->io_begin_us, io->io_sector,
		    io->io_bytes, (io->io_flags & DSIO_READ) ? "r" : "w",
		    (io->io_flags & DSIO_SYNC) ? " sync" : "",
		    (io->io_flags & DSIO_ERROR) ? " error" : "");
	}
}

/*
 * Fetch (and with -z reset) one unit's counters.  Returns 0, or the
 * errno: ENXIO means there is no such disk.
 */
static int
fetch(int unit)
{
	if (diskstats(unit, &ds, zflag) < 0)
		return errno;
	if (ds.ds_version != DISKSTATS_VERSION)
		errx(1, "sd%d: counters are version %u, iostat knows %d", unit,
		    ds.ds_version, DISKSTATS_VERSION);
	return 0;
}

/*
 * Print every unit in units[0..n), or all disks if n == 0: the header
 * before the first, and with -l each disk's log after its line.
 */
static int
show(const int *units, int n)
{
	int i, unit, count, error, rval;

	rval = 0;
	count = 0;
	for (i = 0; n == 0 ? i < MAXUNITS : i < n; i++) {
		unit = n == 0 ? i : units[i];
		error = fetch(unit);
		if (error == ENXIO && n == 0)
			break;
		if (error != 0) {
			errno = error;
			warn("sd%d", unit);
			rval = 1;
			continue;
		}
		if (count++ == 0 || lflag)
			header();
		counters(&ds);
		if (lflag)
			iolog(&ds);
	}
	return rval;
}

int
main(int argc, char *argv[])
{
	int units[MAXUNITS];
	int ch, i, n;
	char *end;

	while ((ch = getopt(argc, argv, "ln:z")) != -1) {
		switch (ch) {
		case 'l':
			lflag = 1;
			break;
		case 'n':
			lflag = 1;
			nlog = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || nlog < 0)
				usage();
			break;
		case 'z':
			zflag = 1;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > MAXUNITS)
		usage();
	for (n = 0, i = 0; i < argc; i++) {
		if ((units[n++] = parseunit(argv[i])) < 0) {
			warnx("%s: not a disk unit (0, 1, ... or sd0, sd1, ...)",
			    argv[i]);
			usage();
		}
	}
	return show(units, n);
}
