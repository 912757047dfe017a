/*
 * txntests: kernel transactions on BSD-LFS (thesis 5.2), from the
 * outside.  Run in a directory of a mounted LFS:
 *	txntests -d dir [-t test]
 * Each test makes its own files in dir/txntests.d and checks what a
 * user of txn_begin, txn_commit, txn_abort and txn_detect is promised:
 *
 *   misuse	commit or abort with none, begin twice: errors, not panics
 *   flags	chflags txn on files, not directories; notxn clears it
 *   abort	each operation (overwrite a page, part of a page, an
 *		append of a new block, two files) then txn_abort: the
 *		files read exactly as before, sizes included
 *   commit	the same then txn_commit: the files read as written
 *   holes	filling a hole then aborting: a hole again, blocks too
 *   isolation	writers overwrite a file with one letter per transaction,
 *		readers read it twice in theirs: one letter, both times
 *   ring	n = 2, 4, 10 processes each lock page i and then want page
 *		(i + 1) mod n: exactly one victim, ETXNABORT
 *   clump	n read one page and then all write it: n - 1 victims
 *   nocycle	a waiter with no cycle: txn_detect finds nothing
 *   kill	kill -9 inside a transaction: its lock goes, the waiter
 *		goes on, nothing of it stays
 *   exit	exit inside one: aborted
 *   implicit	a read outside a transaction waits for a writer's commit
 *		and sees all of it; a write outside one is its own
 *   truncate	refused inside a transaction, a transaction outside one;
 *		txnstat counts that one, and an abort that locked nothing
 *   limit	a transaction dirtying more than txn_maxdirty pages (or
 *		more bytes than the cache can pin) gets ENOBUFS and is
 *		aborted; the file is as before
 *   nosteal	sync while a transaction holds dirty pages, then abort:
 *		as before, and txnstat's steals stay 0
 *   cleaner	the cleaner cleaning every segment while a transaction
 *		holds a page dirty: after the abort the page is as before
 *   aborted	a victim's later calls fail with ETXNABORT until it ends
 *   plaincycle	a plain read, and a plain write, that close a cycle of
 *		waiters: the transaction in the cycle is the victim
 *   victims	rings and a clump whose members ask in a given order:
 *		the one whose request closes the cycle is the victim,
 *		old or young, and txnstat counts it once
 *   youngest	a plain write that closes a cycle of two transactions:
 *		the younger is the victim, wherever it is in the cycle
 *   holefill	filling a hole while another transaction holds the size
 *		(it appended): the filler waits for it, and both commit
 *   dos	a user who may only read a file (uid 1000; root owns it)
 *		holds its pages in a transaction, or stops inside a plain
 *		read: the owner's writers and plain readers do not wait;
 *		a reader who may write does make the writer wait; and
 *		plainload with the plain reader as that user
 *   plainload	plain 64 KB reads and 16 KB writes among eight deadlocking
 *		transactions: none fails, every read sees a committed state
 *   forceumount (only when asked, -d naming the mount point) umount -f
 *		with transactions open: each ends, none reaches the disk
 *   readhold	(only when asked) read every page of ledger in a
 *		transaction and hold them until SIGUSR1, then commit
 *   delta	a commit of a few bytes logs DELTAs; an abort over them
 *		leaves them; deltahold and deltacheck (only when asked)
 *		around a power cut: a checkpoint logs a held page's DELTAs
 *		again (txn_delta.c)
 *   precommit	a commit that would wait for its group lets its lock go
 *		as it is queued; an abort over its page leaves its bytes
 *
 * The tests are in files by theme (txntests.h names them): the calls,
 * chflags, abort and commit, holes, isolation, plain calls and truncate
 * in txn_basic.c; NO-STEAL in txn_nosteal.c; kill, exit and umount -f
 * in txn_end.c; deadlocks and their victims in txn_deadlock.c; plain
 * calls among transactions in txn_plain.c; who may block whom in
 * txn_dos.c; delta commits in txn_delta.c.  This file holds main, the table of tests and the helpers
 * they share.
 */
#include "txntests.h"

char buf[64 * 1024], buf2[64 * 1024];

/* A protected file of npages pages, page i all letter 'a' + i % 26. */
int
mkfile(const char *name, int npages)
{
	int fd, i;

	unlink(name);
	if ((fd = open(name, O_RDWR | O_CREAT | O_TRUNC, 0644)) < 0)
		return -1;
	for (i = 0; i < npages; i++) {
		memset(buf, 'a' + i % 26, PAGE);
		if (write(fd, buf, PAGE) != PAGE)
			return -1;
	}
	fsync(fd);
	if (chflags(name, UF_TXN) < 0)
		return -1;
	return fd;
}

/* The whole file into buf2; its size, or -1. */
int
slurp(const char *name)
{
	int fd = open(name, O_RDONLY), n, total = 0;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf2 + total, sizeof(buf2) - total)) > 0)
		total += n;
	close(fd);
	return n < 0 ? -1 : total;
}

/* Does name hold npages pages as mkfile made them, and nothing more? */
int
pristine(const char *name, int npages)
{
	int i, j;

	if (slurp(name) != npages * PAGE)
		return 0;
	for (i = 0; i < npages; i++)
		for (j = 0; j < PAGE; j++)
			if (buf2[i * PAGE + j] != 'a' + i % 26)
				return 0;
	return 1;
}

int
pwrite_at(int fd, off_t off, const void *p, int n)
{
	if (lseek(fd, off, SEEK_SET) != off)
		return -1;
	return write(fd, p, n);
}

int
pread_at(int fd, off_t off, void *p, int n)
{
	if (lseek(fd, off, SEEK_SET) != off)
		return -1;
	return read(fd, p, n);
}

/* One byte through a pipe: the children's barriers. */
void
post(int fd)
{
	char c = 1;

	write(fd, &c, 1);
}

void
await(int fd, int n)
{
	char c;

	while (n-- > 0)
		read(fd, &c, 1);
}

int
become_student(void)
{
	return setgid(STUDENT) == 0 && setuid(STUDENT) == 0 ? 0 : -1;
}

/* The child that holds a page: holds page 0 until told, then commits. */
pid_t
holder(const char *name, int ready, int go, int commit)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	fd = open(name, O_RDWR);
	memset(buf, 'H', PAGE);
	txn_begin();
	if (pwrite_at(fd, 0, buf, PAGE) != PAGE)
		_exit(3);
	post(ready);
	await(go, 1);
	if (!commit)
		for (;;)
			sleep(1000);
	_exit(txn_commit() == 0 ? 0 : 4);
}

/* The child that wants the page: reads it in a transaction. */
pid_t
waiter(const char *name, int ready)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	fd = open(name, O_RDWR);
	txn_begin();
	post(ready);
	if (pread_at(fd, 0, buf, PAGE) != PAGE)
		_exit(3);
	txn_commit();
	_exit(buf[0] == 'a' ? 0 : buf[0] == 'H' ? 1 : 2);
}

/* Wait (a watchdog's while) until n more lock requests have waited. */
int
waits_reach(u_int32_t n)
{
	struct txnstats st;
	int i;

	for (i = 0; i < 500; i++) {
		if (txnstats(&st, 0) == 0 && st.waits >= n)
			return 1;
		usleep(10000);
	}
	return 0;
}

/*
 * Until n lock requests in all have waited, and a clock tick more: the
 * next wait begins later, so that even a detector that goes by how long
 * a wait has lasted sees the waits in the order they began.
 */
int
waited(u_int32_t n)
{
	if (!waits_reach(n))
		return 0;
	usleep(20000);
	return 1;
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "misuse", test_misuse },
	{ "flags", test_flags },
	{ "holes", test_holes },
	{ "isolation", test_isolation },
	{ "nocycle", test_nocycle },
	{ "kill", test_kill },
	{ "exit", test_exit },
	{ "implicit", test_implicit },
	{ "truncate", test_truncate },
	{ "limit", test_limit },
	{ "nosteal", test_nosteal },
	{ "cleaner", test_cleaner },
	{ "aborted", test_aborted },
	{ "forceumount", test_forceumount },
	{ "plaincycle", test_plaincycle },
	{ "victims", test_victims },
	{ "youngest", test_youngest },
	{ "plainload", test_plainload },
	{ "holefill", test_holefill },
	{ "dos", test_dos },
	{ "readhold", test_readhold },
	{ "delta", test_delta },
	{ "deltahold", test_deltahold },
	{ "deltacheck", test_deltacheck },
	{ "precommit", test_precommit },
};

static void
run(const char *name)
{
	unsigned i;

	if (strcmp(name, "abort") == 0)
		test_abort_commit(0);
	else if (strcmp(name, "commit") == 0)
		test_abort_commit(1);
	else if (strcmp(name, "ring") == 0) {
		test_ring(2);
		test_ring(4);
		test_ring(10);
	} else if (strcmp(name, "clump") == 0) {
		test_clump(2);
		test_clump(4);
		test_clump(10);
	} else {
		for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			if (strcmp(name, tests[i].name) == 0) {
				tests[i].fn();
				return;
			}
		fprintf(stderr, "txntests: no test %s\n", name);
		exit(2);
	}
}

int
main(int argc, char *argv[])
{
	static const char *all[] = { "misuse", "flags", "abort", "commit",
	    "holes", "isolation", "ring", "clump", "nocycle", "kill", "exit",
	    "implicit", "truncate", "limit", "nosteal", "aborted", "cleaner",
	    "plaincycle", "victims", "youngest", "plainload", "holefill",
	    "dos", "delta", "precommit" };
	const char *only = NULL;
	unsigned i;
	int ch;

	check_prog = "txntests";
	while ((ch = getopt(argc, argv, "d:t:")) != -1) {
		switch (ch) {
		case 'd':
			strncpy(check_dir, optarg, sizeof(check_dir) - 1);
			break;
		case 't':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: txntests [-d dir] [-t test]\n");
			return 2;
		}
	}
	mkdir(tpath("%s", ""), 0755);
	if (only)
		run(only);
	else
		for (i = 0; i < sizeof(all) / sizeof(all[0]); i++)
			run(all[i]);
	return check_done();
}
