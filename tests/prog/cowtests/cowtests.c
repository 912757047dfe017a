/*
 * cowtests: fork's copy-on-write sharing (kern/i386/pmap.c pmap_copy and
 * pmap_cow, kern/vm_page.c).  After fork the parent and the child map
 * the same pages read-only; the first write by either, or by the kernel
 * for either (read(2) copies out into the caller's buffer), must give
 * the writer a page of its own and leave the other's as it was.  One
 * line per check, "(cowtests) what: ok" or "... FAILED: why", and last
 * "N passed, M failed".
 *
 *	usage: cowtests [-b MB]	every check; the big process is MB large (8)
 *	       cowtests -p MB	only the big process, with memory short: its
 *				child may be refused (ENOMEM) or killed
 *				(SIGKILL) when it writes, but nothing else
 *	       cowtests -x N	exit with status N at once (the exec checks)
 */
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/vmstats.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/check.h"

#define PAGE		4096
#define NBLOCKS		64	/* blocks through the pipe */
#define FORKAT		16	/* the reader forks after this many */
#define LEAKROUNDS	50	/* fork + exit, then fork + exec, each */

int main(int, char **);		/* its text is written to */

static char self[256];			/* this program, to exec it */
static char global[PAGE];		/* bss */
static char spanbuf[3 * PAGE] __attribute__((aligned(PAGE)));

/* Is every byte of p[0..n) c? */
static int
filled(const char *p, size_t n, int c)
{
	while (n-- > 0)
		if (*p++ != (char)c)
			return 0;
	return 1;
}

static int
killed_by(int status, int sig)
{
	return status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == sig;
}

static struct vmstats
vm(void)
{
	struct vmstats v;

	memset(&v, 0, sizeof(v));
	if (vmstats(&v) != 0)
		printf("(cowtests) vmstats: errno %d\n", errno);
	return v;
}

/* Hand one byte to the process at the other end of fd, or wait for one. */
static void
send_byte(int fd)
{
	char c = 'x';

	(void)write(fd, &c, 1);
}

static int
await_byte(int fd)
{
	char c;

	return read(fd, &c, 1) == 1;
}

/*
 * The same global, heap and stack pages written after fork by the child,
 * then by the parent: each sees only its own bytes.
 */
static void
test_own_writes(void)
{
	char stack[PAGE], *heap = malloc(PAGE);
	int tochild[2], toparent[2], status;
	pid_t pid;

	memset(global, 'P', PAGE);
	memset(heap, 'P', PAGE);
	memset(stack, 'P', PAGE);
	pipe(tochild);
	pipe(toparent);
	if ((pid = fork()) == 0) {
		memset(global, 'C', PAGE);
		memset(heap, 'C', PAGE);
		memset(stack, 'C', PAGE);
		send_byte(toparent[1]);
		await_byte(tochild[0]);
		_exit(filled(global, PAGE, 'C') && filled(heap, PAGE, 'C') &&
		    filled(stack, PAGE, 'C') ? 0 : 1);
	}
	await_byte(toparent[0]);
	check(filled(global, PAGE, 'P') && filled(heap, PAGE, 'P') &&
	    filled(stack, PAGE, 'P'), "the child's writes stay in the child",
	    "the parent's global, heap or stack page changed");
	memset(global, 'Q', PAGE);
	memset(heap, 'Q', PAGE);
	memset(stack, 'Q', PAGE);
	send_byte(tochild[1]);
	status = reap(pid);
	check(exited_with(status, 0), "the parent's writes stay in the parent",
	    "the child saw them (status 0x%x)", status);
	close(tochild[0]);
	close(tochild[1]);
	close(toparent[0]);
	close(toparent[1]);
	free(heap);
}

/* Read PAGE bytes of c from a pipe into buf: the kernel's copyout. */
static int
read_pattern(char *buf, int c)
{
	char src[PAGE];
	int p[2], got = 0, n = 1;

	memset(src, c, PAGE);
	pipe(p);
	write(p[1], src, PAGE);		/* PAGE is what the pipe holds */
	while (got < PAGE && (n = read(p[0], buf + got, PAGE - got)) > 0)
		got += n;
	close(p[0]);
	close(p[1]);
	return got == PAGE && filled(buf, PAGE, c);
}

/*
 * read(2) into a shared buffer that straddles two pages, by the child
 * and then by the parent: copyout faults on each page and gets a copy,
 * so the other process's buffer keeps its bytes.
 */
static void
test_read_into_shared(void)
{
	char *buf = spanbuf + PAGE / 2;
	int go[2], status;
	pid_t pid;

	memset(spanbuf, 'A', sizeof(spanbuf));
	if ((pid = fork()) == 0)
		_exit(read_pattern(buf, 'B') ? 0 : 1);
	status = reap(pid);
	check(exited_with(status, 0) && filled(spanbuf, sizeof(spanbuf), 'A'),
	    "the child's read(2) leaves the parent's copy",
	    "child status 0x%x, parent's buffer %s", status,
	    filled(spanbuf, sizeof(spanbuf), 'A') ? "intact" : "changed");

	pipe(go);
	if ((pid = fork()) == 0) {
		await_byte(go[0]);
		_exit(filled(spanbuf, sizeof(spanbuf), 'A') ? 0 : 1);
	}
	check(read_pattern(buf, 'C'), "the parent's read(2) into a shared page",
	    "the data read is wrong");
	send_byte(go[1]);
	status = reap(pid);
	check(exited_with(status, 0),
	    "the parent's read(2) leaves the child's copy",
	    "the child's buffer changed (status 0x%x)", status);
	close(go[0]);
	close(go[1]);
}

static int
block_byte(int i)
{
	return 'a' + i % 26;
}

/*
 * A child streams NBLOCKS blocks through a pipe; the reader forks in the
 * middle.  The reader must still get every block right, and its forked
 * copy must keep the block its buffer held at the fork.
 */
static void
test_pipe_across_fork(void)
{
	char block[1024], buf[1024];
	int data[2], done[2], i, bad = -1, status;
	pid_t writer, copy = -1;

	pipe(data);
	pipe(done);
	if ((writer = fork()) == 0) {
		close(data[0]);
		for (i = 0; i < NBLOCKS; i++) {
			memset(block, block_byte(i), sizeof(block));
			if (write(data[1], block, sizeof(block)) !=
			    sizeof(block))
				_exit(1);
		}
		_exit(0);
	}
	close(data[1]);
	for (i = 0; i < NBLOCKS; i++) {
		size_t got = 0;
		ssize_t n;

		while (got < sizeof(buf) &&
		    (n = read(data[0], buf + got, sizeof(buf) - got)) > 0)
			got += n;
		if (bad < 0 && (got != sizeof(buf) ||
		    !filled(buf, sizeof(buf), block_byte(i))))
			bad = i;
		if (i == FORKAT && (copy = fork()) == 0) {
			close(data[0]);
			await_byte(done[0]);
			_exit(filled(buf, sizeof(buf),
			    block_byte(FORKAT)) ? 0 : 1);
		}
	}
	close(data[0]);
	send_byte(done[1]);
	check(bad < 0, "a pipe's data survives a fork in the middle",
	    "block %d is wrong", bad);
	status = reap(copy);
	check(exited_with(status, 0), "the forked reader keeps its buffer",
	    "status 0x%x", status);
	status = reap(writer);
	check(exited_with(status, 0), "the writer wrote every block",
	    "status 0x%x", status);
	close(done[0]);
	close(done[1]);
}

/* exec right after fork (the shell's way), and the parent goes on writing. */
static void
test_exec_after_fork(void)
{
	char *heap = malloc(4 * PAGE), code[8];
	int i, status, bad = 0;
	pid_t pid;

	memset(heap, 'H', 4 * PAGE);
	for (i = 0; i < 10 && !bad; i++) {
		snprintf(code, sizeof(code), "%d", 40 + i);
		if ((pid = fork()) == 0) {
			execl(self, self, "-x", code, (char *)NULL);
			_exit(127);
		}
		status = reap(pid);
		if (!exited_with(status, 40 + i))
			bad = 1;
		memset(heap, 'a' + i, 4 * PAGE);
		if (!filled(heap, 4 * PAGE, 'a' + i))
			bad = 2;
	}
	check(bad == 0, "exec after fork, ten times",
	    bad == 1 ? "the exec'd child's status is wrong" :
	    "the parent's writes after the child's exec are lost");
	free(heap);
}

/* Text and rodata are read-only for good: a write kills, copy or not. */
static void
test_text_stays_read_only(void)
{
	static const char rodata[] = "read-only";
	int status;
	pid_t pid;

	if ((pid = fork()) == 0) {
		*(volatile char *)(void *)main = 0;
		_exit(0);
	}
	status = reap(pid);
	check(killed_by(status, SIGSEGV), "a write to shared text is SIGSEGV",
	    "status 0x%x", status);
	if ((pid = fork()) == 0) {
		*(volatile char *)rodata = 'R';
		_exit(0);
	}
	status = reap(pid);
	check(killed_by(status, SIGSEGV), "a write to shared rodata is SIGSEGV",
	    "status 0x%x", status);
}

/*
 * fork copies no page up front: the system's user pages grow by a few
 * (the parent's stack, written on the way back) for a process of
 * hundreds.
 */
static void
test_fork_is_lazy(void)
{
	size_t len = 256 * PAGE;
	char *heap = malloc(len);
	struct vmstats before, after;
	int go[2], status;
	pid_t pid;

	memset(heap, 'L', len);
	pipe(go);
	before = vm();
	if ((pid = fork()) == 0) {
		await_byte(go[0]);
		_exit(0);
	}
	after = vm();
	send_byte(go[1]);
	status = reap(pid);
	check(after.vm_user - before.vm_user < 16 &&
	    after.vm_shared >= before.vm_shared + 256 && exited_with(status, 0),
	    "fork shares a 1 MB heap instead of copying it",
	    "user pages %u -> %u, shared %u -> %u", before.vm_user,
	    after.vm_user, before.vm_shared, after.vm_shared);
	close(go[0]);
	close(go[1]);
	free(heap);
}

/*
 * A big process forks and its child writes every page of the heap.  With
 * memory to spare the child gets copies of all of them; with memory short
 * (pressure) fork may say ENOMEM or the child be killed for want of a
 * copy.  Either way the parent's pages keep their bytes.
 */
static void
test_big(int mb, int pressure)
{
	size_t len = (size_t)mb << 20, i;
	char *heap = malloc(len);
	struct vmstats before, after;
	int status, intact = 1;
	pid_t pid;

	if (heap == NULL) {
		check(0, "a big process forks", "malloc of %d MB failed", mb);
		return;
	}
	for (i = 0; i < len; i += PAGE)
		heap[i] = (char)(i / PAGE);
	before = vm();
	if ((pid = fork()) == 0) {
		for (i = 0; i < len; i += PAGE)
			heap[i] = (char)~(i / PAGE);
		for (i = 0; i < len; i += PAGE)
			if (heap[i] != (char)~(i / PAGE))
				_exit(1);
		_exit(0);
	}
	status = pid < 0 ? -1 : reap(pid);
	after = vm();
	for (i = 0; i < len; i += PAGE)
		if (heap[i] != (char)(i / PAGE))
			intact = 0;
	if (pressure)
		check(intact && ((pid < 0 && errno == ENOMEM) ||
		    exited_with(status, 0) || killed_by(status, SIGKILL)),
		    "a big process forks with memory short",
		    "fork %s, child status 0x%x, parent's heap %s",
		    pid < 0 ? strerror(errno) : "ok", status,
		    intact ? "intact" : "changed");
	else
		check(intact && exited_with(status, 0) &&
		    after.vm_cow_copies - before.vm_cow_copies >= len / PAGE,
		    "a big process's child writes all of it",
		    "child status 0x%x, %u pages copied, parent's heap %s",
		    status, after.vm_cow_copies - before.vm_cow_copies,
		    intact ? "intact" : "changed");
	check(after.vm_user == before.vm_user,
	    "the big child's copies are given back",
	    "user pages %u before the fork, %u after the child", before.vm_user,
	    after.vm_user);
	free(heap);
}

/* Fork and write, or fork and exec, many times: no user page is lost. */
static void
fork_rounds(void)
{
	char stack[PAGE], *heap = malloc(PAGE);
	int i;
	pid_t pid;

	memset(heap, 0, PAGE);
	for (i = 0; i < LEAKROUNDS; i++) {
		if ((pid = fork()) == 0) {
			memset(global, 'G', PAGE);
			memset(heap, 'G', PAGE);
			memset(stack, 'G', PAGE);
			_exit(0);
		}
		reap(pid);
		global[0] = heap[0] = 0;
	}
	for (i = 0; i < LEAKROUNDS; i++) {
		if ((pid = fork()) == 0) {
			execl(self, self, "-x", "0", (char *)NULL);
			_exit(127);
		}
		reap(pid);
	}
	free(heap);
}

static void
test_no_leak(void)
{
	struct vmstats before, after;

	fork_rounds();		/* the kernel's own tables settle first */
	before = vm();
	fork_rounds();
	after = vm();
	check(after.vm_user == before.vm_user &&
	    after.vm_free == before.vm_free,
	    "forks, writes, execs and exits give every page back",
	    "user pages %u -> %u, free pages %u -> %u", before.vm_user,
	    after.vm_user, before.vm_free, after.vm_free);
}

int
main(int argc, char **argv)
{
	int c, mb = 8, pressure = 0;

	while ((c = getopt(argc, argv, "b:p:x:")) != -1) {
		switch (c) {
		case 'x':
			return atoi(optarg);
		case 'p':
			pressure = 1;
			/* FALLTHROUGH */
		case 'b':
			mb = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: cowtests [-b MB | -p MB]\n");
			return 64;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_prog = "cowtests";
	snprintf(self, sizeof(self), "%s",
	    strchr(argv[0], '/') ? argv[0] : "/usr/tests/cowtests");
	if (pressure) {
		test_big(mb, 1);
		return check_done();
	}
	test_own_writes();
	test_read_into_shared();
	test_pipe_across_fork();
	test_exec_after_fork();
	test_text_stays_read_only();
	test_fork_is_lazy();
	test_big(mb, 0);
	test_no_leak();
	return check_done();
}
