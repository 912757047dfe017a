/*
 * txnbench: kernel transactions' throughput and commit latency (thesis
 * 5.2.4, group commit), for bench/txn.py.
 *
 *	usage: txnbench [-p procs] [-n txns] [-w pages] file
 *
 * file must be a transaction-protected file (chflags txn) of at least
 * procs * 64 pages.  Each of procs processes runs txns transactions, each
 * reading and rewriting pages random pages of its own 64-page region (no
 * process waits for another's locks; they meet only at commit, where
 * group commit may write several of them in one segment write).  It
 * prints one line, "txnbench procs P txns N usecs U per_sec R latency_us
 * L", the rate over all processes and the mean time txn_commit took.
 */
#include <sys/types.h>
#include <sys/time.h>
#include <sys/txn.h>
#include <sys/wait.h>
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE	4096
#define REGION	64		/* pages per process */

static char buf[PAGE];

static long long
now_us(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

/* One process's share: its total commit time in microseconds, to fd. */
static void
worker(const char *file, int id, int txns, int pages, int out)
{
	long long commit = 0, t0;
	int fd = open(file, O_RDWR), i, k;
	u_int32_t x = id * 2654435761u + 1;
	off_t off;

	if (fd < 0)
		err(1, "%s", file);
	for (i = 0; i < txns; i++) {
		if (txn_begin() < 0)
			err(1, "txn_begin");
		for (k = 0; k < pages; k++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			off = ((off_t)id * REGION + x % REGION) * PAGE;
			if (lseek(fd, off, SEEK_SET) != off ||
			    read(fd, buf, PAGE) != PAGE)
				err(1, "read");
			buf[i % PAGE]++;
			if (lseek(fd, off, SEEK_SET) != off ||
			    write(fd, buf, PAGE) != PAGE)
				err(1, "write");
		}
		t0 = now_us();
		if (txn_commit() < 0)
			err(1, "txn_commit");
		commit += now_us() - t0;
	}
	write(out, &commit, sizeof(commit));
	_exit(0);
}

int
main(int argc, char *argv[])
{
	int ch, procs = 1, txns = 100, pages = 1, ends[2], i, status;
	long long t0, t1, total = 0, one;

	while ((ch = getopt(argc, argv, "p:n:w:")) != -1) {
		switch (ch) {
		case 'p':
			procs = atoi(optarg);
			break;
		case 'n':
			txns = atoi(optarg);
			break;
		case 'w':
			pages = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: txnbench [-p procs] [-n txns] "
			    "[-w pages] file\n");
			return 1;
		}
	}
	if (optind != argc - 1 || procs < 1 || txns < 1 || pages < 1)
		errx(1, "usage: txnbench [-p procs] [-n txns] [-w pages] file");
	if (pipe(ends) < 0)
		err(1, "pipe");
	t0 = now_us();
	for (i = 0; i < procs; i++)
		if (fork() == 0)
			worker(argv[optind], i, txns, pages, ends[1]);
	for (i = 0; i < procs; i++) {
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			errx(1, "a worker failed");
		if (read(ends[0], &one, sizeof(one)) == sizeof(one))
			total += one;
	}
	t1 = now_us();
	printf("txnbench procs %d txns %d usecs %lld per_sec %lld latency_us "
	    "%lld\n", procs, procs * txns, t1 - t0,
	    (long long)procs * txns * 1000000 / (t1 - t0 > 0 ? t1 - t0 : 1),
	    total / ((long long)procs * txns));
	return 0;
}
