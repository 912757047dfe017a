/*
 * pipetests: pipes under load, in the style of xv6's usertests.  One
 * line per check, "(pipetests) what: ok" or "... FAILED: why", and a last
 * line "N passed, M failed"; the exit status is 0 only if nothing failed.
 *
 *	usage: pipetests
 *
 * Buffers the kernel copies into are static: see badptrs for why a
 * large stack buffer can be a problem.
 *
 * Where a check needs a process to be blocked in the kernel (a writer on
 * a full pipe, a reader on an empty one) it asks getproc(2) until the
 * process sleeps on the pipe's wait message, so no check depends on how
 * long anything takes.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/kinfo.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/check.h"

#define MAXPROCS	256	/* more than the kernel's process table */
#define RECSIZE		512	/* PIPE_BUF: writes this small are atomic */
#define NRECS		300	/* records per writer in the atomicity test */


/*
 * Wait until pid sleeps with a wait message starting with wmesg; 1 if
 * it does within about five seconds, 0 if not.
 */
static int
wait_sleeping(pid_t pid, const char *wmesg)
{
	static struct kinfo_proc kp[MAXPROCS];
	int i, n, tries;

	for (tries = 0; tries < 5000; tries++) {
		n = getproc(kp, MAXPROCS);
		for (i = 0; i < n && i < MAXPROCS; i++)
			if (kp[i].kp_pid == pid && kp[i].kp_stat == KP_SLEEP &&
			    strncmp(kp[i].kp_wmesg, wmesg, strlen(wmesg)) == 0)
				return 1;
		usleep(1000);
	}
	return 0;
}

/* Byte i of the test stream: not periodic in 256, so shifts show. */
static unsigned char
pattern(long i)
{
	return (unsigned char)(i * 7 + i / 251);
}

/* Write n pattern bytes in chunks of assorted sizes. */
static int
write_pattern(int fd, long n)
{
	static const int chunks[] = { 1, 7, 100, 511, 512, 513, 1000, 4096,
	    5000, 3 };
	static unsigned char buf[5000];
	long off = 0;
	int k = 0, len, i;

	while (off < n) {
		len = chunks[k++ % 10];
		if (len > n - off)
			len = n - off;
		for (i = 0; i < len; i++)
			buf[i] = pattern(off + i);
		if (write(fd, buf, len) != len)
			return -1;
		off += len;
	}
	return 0;
}

/* Read to end of file; the byte count, or -1 on an error or bad data. */
static long
read_pattern(int fd)
{
	static const int sizes[] = { 4096, 1, 333, 8192, 512, 7 };
	static unsigned char buf[8192];
	long off = 0;
	int k = 0, n, i;

	while ((n = read(fd, buf, sizes[k++ % 6])) > 0) {
		for (i = 0; i < n; i++)
			if (buf[i] != pattern(off + i))
				return -1;
		off += n;
	}
	return n == 0 ? off : -1;
}

static void
test_sizes(void)
{
	static const long sizes[] = { 0, 1, 2, 511, 512, 513, 4095, 4096,
	    4097, 8192, 65536, 100001 };
	char what[64];
	unsigned i;
	int p[2], status;
	long got;
	pid_t pid;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		pipe(p);
		pid = fork();
		if (pid == 0) {
			close(p[0]);
			_exit(write_pattern(p[1], sizes[i]) == 0 ? 0 : 1);
		}
		close(p[1]);
		got = read_pattern(p[0]);
		close(p[0]);
		status = reap(pid);
		snprintf(what, sizeof(what), "%ld bytes through a pipe",
		    sizes[i]);
		check(got == sizes[i] && exited_with(status, 0), what,
		    "read %ld (-1: wrong data), writer status 0x%x", got,
		    status);
	}
}

/* Copy from in to out adding one to every byte, until end of file. */
static void
increment(int in, int out)
{
	static unsigned char buf[700];
	int n, i;

	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++)
			buf[i]++;
		if (write(out, buf, n) != n)
			_exit(1);
	}
	_exit(n == 0 ? 0 : 2);
}

/*
 * parent -> child -> grandchild -> parent: each stage adds one to every
 * byte.  The parent sends a chunk and reads it back before the next, so
 * no pipe fills up while its reader waits for another.
 */
static void
test_pipeline(void)
{
	static unsigned char out[1000], in[1000];
	int p1[2], p2[2], p3[2], i, n, got, bad = 0, status;
	pid_t pid;

	pipe(p1);
	pipe(p2);
	pipe(p3);
	pid = fork();
	if (pid == 0) {
		pid_t gc;

		close(p1[1]);
		close(p3[0]);
		gc = fork();
		if (gc == 0) {
			close(p1[0]);
			close(p2[1]);
			increment(p2[0], p3[1]);
		}
		close(p3[1]);
		close(p2[0]);
		if (fork() == 0)
			increment(p1[0], p2[1]);
		close(p1[0]);
		close(p2[1]);
		status = reap(gc);
		_exit(exited_with(status, 0) ? 0 : 3);
	}
	close(p1[0]);
	close(p2[0]);
	close(p2[1]);
	close(p3[1]);
	for (i = 0; i < 64 && !bad; i++) {
		memset(out, i, sizeof(out));
		out[0] = 0xfe;
		if (write(p1[1], out, sizeof(out)) != sizeof(out))
			bad = 1;
		for (got = 0; got < (int)sizeof(in) && !bad; got += n)
			if ((n = read(p3[0], in + got, sizeof(in) - got)) <= 0)
				bad = 2;
		if (!bad && (in[0] != 0 || in[1] != (unsigned char)(i + 2) ||
		    in[999] != (unsigned char)(i + 2)))
			bad = 3;
	}
	check(!bad, "64 KB through parent, child and grandchild",
	    "chunk %d: %s", i, bad == 1 ? "write failed" : bad == 2 ?
	    "read failed" : "wrong data");
	close(p1[1]);
	check(read(p3[0], in, 1) == 0, "end of file travels down the pipeline",
	    "read did not return 0");
	close(p3[0]);
	status = reap(pid);
	check(exited_with(status, 0), "every stage exits cleanly",
	    "status 0x%x", status);
}

static void
test_eof(void)
{
	int p[2], go[2], n;
	char buf[16];
	pid_t pid;

	pipe(p);
	pipe(go);
	pid = fork();
	if (pid == 0) {			/* holds a write end until told */
		close(p[0]);
		close(go[1]);
		write(p[1], "data", 4);
		read(go[0], buf, 1);
		_exit(0);
	}
	close(p[1]);
	close(go[0]);
	n = read(p[0], buf, sizeof(buf));
	check(n == 4 && memcmp(buf, "data", 4) == 0, "data before the end",
	    "read %d", n);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	n = read(p[0], buf, sizeof(buf));
	check(n == -1 && errno == EAGAIN, "no end of file while a writer "
	    "remains (O_NONBLOCK read: EAGAIN)", "read %d, errno %d", n, errno);
	fcntl(p[0], F_SETFL, 0);
	close(go[1]);
	n = read(p[0], buf, sizeof(buf));
	check(n == 0, "end of file once the last writer closes", "read %d", n);
	check(exited_with(reap(pid), 0), "the writer exits", "bad status");
	close(p[0]);

	/* A reader asleep on an empty pipe wakes when the writer closes. */
	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		_exit(read(p[0], buf, 1) == 0 ? 0 : 1);
	}
	close(p[0]);
	check(wait_sleeping(pid, "piperd"), "a reader sleeps on an empty pipe",
	    "it never slept in piperd");
	close(p[1]);
	check(exited_with(reap(pid), 0), "closing the write end wakes the "
	    "sleeping reader with end of file", "read did not return 0");
}

static volatile int gotpipe;

static void
onpipe(int sig)
{
	gotpipe = sig;
}

static void
test_epipe(void)
{
	struct sigaction sa;
	static char big[4096];
	int p[2], status, n;
	pid_t pid;

	pipe(p);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		write(p[1], "x", 1);
		_exit(0);
	}
	close(p[0]);
	close(p[1]);
	status = reap(pid);
	check(status != -1 && WIFSIGNALED(status) &&
	    WTERMSIG(status) == SIGPIPE,
	    "writing with no reader kills with SIGPIPE", "status 0x%x", status);

	pipe(p);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	n = write(p[1], "x", 1);
	check(n == -1 && errno == EPIPE, "SIGPIPE ignored: write fails with "
	    "EPIPE", "write %d, errno %d", n, errno);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = onpipe;
	sigaction(SIGPIPE, &sa, NULL);
	n = write(p[1], "x", 1);
	check(n == -1 && errno == EPIPE && gotpipe == SIGPIPE,
	    "SIGPIPE caught: the handler runs and write fails with EPIPE",
	    "write %d, errno %d, handler %s", n, errno,
	    gotpipe ? "ran" : "did not run");
	close(p[1]);

	/* A writer asleep on a full pipe gets EPIPE when the reader leaves. */
	pipe(p);
	pid = fork();
	if (pid == 0) {
		signal(SIGPIPE, SIG_IGN);
		close(p[0]);
		memset(big, 'f', sizeof(big));
		fcntl(p[1], F_SETFL, O_NONBLOCK);
		while (write(p[1], big, sizeof(big)) > 0)
			continue;
		while (write(p[1], big, 1) > 0)
			continue;
		fcntl(p[1], F_SETFL, 0);
		n = write(p[1], big, 100);
		_exit(n == -1 && errno == EPIPE ? 0 : 1);
	}
	close(p[1]);
	check(wait_sleeping(pid, "pipewr"), "a writer sleeps on a full pipe",
	    "it never slept in pipewr");
	close(p[0]);
	status = reap(pid);
	check(exited_with(status, 0), "closing the read end wakes the writer "
	    "with EPIPE", "status 0x%x", status);
	signal(SIGPIPE, SIG_DFL);
}

/* A writer blocks on a full pipe and finishes when the reader drains it. */
static void
test_full(void)
{
	struct stat st;
	static unsigned char buf[2000];
	int p[2], status, n, cap;
	long got;
	pid_t pid;

	pipe(p);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	for (cap = 0; write(p[1], buf, 1) == 1; cap++)
		continue;
	check(errno == EAGAIN && cap >= RECSIZE, "O_NONBLOCK write to a full "
	    "pipe: EAGAIN", "errno %d after %d bytes", errno, cap);
	check(fstat(p[0], &st) == 0 && st.st_size == cap &&
	    S_ISFIFO(st.st_mode),
	    "fstat of a pipe: a FIFO holding what is unread",
	    "size %ld, capacity %d", (long)st.st_size, cap);
	for (n = 0; n < cap; n += 1)
		read(p[0], buf, 1);
	fcntl(p[1], F_SETFL, 0);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	n = read(p[0], buf, 1);
	check(n == -1 && errno == EAGAIN, "O_NONBLOCK read of an empty pipe: "
	    "EAGAIN", "read %d, errno %d", n, errno);
	fcntl(p[0], F_SETFL, 0);

	pid = fork();
	if (pid == 0) {
		close(p[0]);
		/* 2.5 times what the pipe holds, in one write */
		_exit(write_pattern(p[1], cap * 5 / 2) == 0 ? 0 : 1);
	}
	close(p[1]);
	check(wait_sleeping(pid, "pipewr"), "the writer sleeps while the pipe "
	    "is full", "it never slept in pipewr");
	check(waitpid(pid, &status, WNOHANG) == 0, "the writer is still "
	    "there", "it exited");
	got = read_pattern(p[0]);
	check(got == cap * 5 / 2, "the reader drains it all, in order",
	    "read %ld (-1: wrong data), want %d", got, cap * 5 / 2);
	check(exited_with(reap(pid), 0), "the writer finishes once drained",
	    "bad status");
	close(p[0]);
}

/* A writer process: NRECS records of RECSIZE bytes, each one write. */
static void
record_writer(int fd, char tag)
{
	static unsigned char rec[RECSIZE];
	int i;

	memset(rec, tag, sizeof(rec));
	for (i = 0; i < NRECS; i++) {
		memcpy(rec + 1, &i, sizeof(i));
		if (write(fd, rec, sizeof(rec)) != sizeof(rec))
			_exit(1);
	}
	_exit(0);
}

/* Two writers at once: every 512-byte record must arrive whole. */
static void
test_atomic(void)
{
	static unsigned char stream[2 * NRECS * RECSIZE + 1];
	int p[2], n, i, j, seq, next[2] = { 0, 0 }, torn = 0, order = 0;
	long total = 0;
	pid_t a, b;

	pipe(p);
	if ((a = fork()) == 0) {
		close(p[0]);
		record_writer(p[1], 'A');
	}
	if ((b = fork()) == 0) {
		close(p[0]);
		record_writer(p[1], 'B');
	}
	close(p[1]);
	while (total < (long)sizeof(stream) &&
	    (n = read(p[0], stream + total, 700)) > 0)
		total += n;
	close(p[0]);
	check(total == 2 * NRECS * RECSIZE, "two writers' records all arrive",
	    "%ld bytes, want %d", total, 2 * NRECS * RECSIZE);
	for (i = 0; i + RECSIZE <= total; i += RECSIZE) {
		unsigned char tag = stream[i];
		int w = tag == 'B';

		if (tag != 'A' && tag != 'B') {
			torn++;
			continue;
		}
		for (j = 1 + sizeof(int); j < RECSIZE; j++)
			if (stream[i + j] != tag)
				break;
		if (j < RECSIZE)
			torn++;
		memcpy(&seq, stream + i + 1, sizeof(seq));
		if (seq != next[w])
			order++;
		next[w] = seq + 1;
	}
	check(torn == 0, "512-byte writes are atomic with two writers",
	    "%d records mixed", torn);
	check(order == 0, "each writer's records keep their order",
	    "%d out of order", order);
	check(exited_with(reap(a), 0) && exited_with(reap(b), 0),
	    "both writers exit cleanly", "a write was short");
}

int
main(int argc, char **argv)
{
	if (argc != 1) {
		fprintf(stderr, "usage: pipetests\n");
		return 64;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_prog = "pipetests";
	test_sizes();
	test_pipeline();
	test_eof();
	test_epipe();
	test_full();
	test_atomic();
	return check_done();
}
