/*
 * txntests: who may block whom.  A process that may only read a
 * protected file cannot stall its writers: its locks are weak, and a
 * writer breaks them.  readhold, for tests/test_txn.py, holds a
 * transaction's read locks until told.
 */
#include "txntests.h"

/*
 * Who may block whom (issue 21): the protected file belongs to root; a
 * process of student (uid 1000) may read it, and write it only if mode
 * says so.  A lock of a process that may not write the file makes no
 * one wait: a writer breaks it.  The owner's calls run under a watchdog
 * (reap_within): before, they waited as long as the reader's process
 * lived.
 */
#define WATCHDOG	20		/* seconds: far more than any step */

/* Reap pid, killing it if it is not done within WATCHDOG seconds. */
static int
reap_within(pid_t pid)
{
	int i, status;

	for (i = 0; i < WATCHDOG * 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	return reap(pid);
}

/* A protected file of root's, npages as mkfile makes them, in mode. */
static void
mkshared(const char *name, int npages, mode_t mode)
{
	close(mkfile(name, npages));
	chmod(name, mode);
}

/* The owner (root) writes a page, in a transaction or not: a child. */
static pid_t
owner_write(const char *name, int page, int letter, int intxn)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	fd = open(name, O_RDWR);
	memset(buf, letter, PAGE);
	if (intxn && txn_begin() < 0)
		_exit(10);
	if (pwrite_at(fd, (off_t)page * PAGE, buf, PAGE) != PAGE)
		_exit(errno == ETXNABORT ? 11 : 12);
	_exit(!intxn || txn_commit() == 0 ? 0 : 13);
}

/* A plain read of the whole file as student: a child, 0 if it read it. */
static pid_t
student_read(const char *name, int npages)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	if (become_student() < 0 || (fd = open(name, O_RDONLY)) < 0)
		_exit(10);
	_exit(pread_at(fd, 0, buf, npages * PAGE) == npages * PAGE ? 0 :
	    errno == ETXNABORT ? 11 : 12);
}

/*
 * student begins a transaction, reads every page of root's file, and
 * sleeps.  The owner's transaction and plain write of those pages, and
 * a plain read, go through without waiting; the reader's transaction
 * pays: its next read and its commit fail with ETXNABORT, and the one
 * it begins then reads what the owner wrote.
 */
static void
test_dosread(void)
{
	const char *f = tpath("dos");
	int ready[2], go[2], st, r;
	pid_t rd, w, pr;

	mkshared(f, 8, 0644);
	pipe(ready), pipe(go);
	if ((rd = fork()) == 0) {
		int fd;

		if (become_student() < 0 || (fd = open(f, O_RDONLY)) < 0)
			_exit(10);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, 8 * PAGE) != 8 * PAGE)
			_exit(11);
		post(ready[1]);
		await(go[0], 1);
		if (pread_at(fd, 0, buf, PAGE) >= 0 || errno != ETXNABORT)
			_exit(12);
		if (txn_commit() >= 0 || errno != ETXNABORT)
			_exit(13);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, 8 * PAGE) !=
		    8 * PAGE || txn_commit() < 0)
			_exit(14);
		_exit(buf[3 * PAGE] == 'W' && buf[5 * PAGE] == 'O' ? 0 : 15);
	}
	await(ready[0], 1);
	w = owner_write(f, 3, 'W', 1);
	pr = student_read(f, 8);	/* it queued behind the writer */
	r = reap_within(pr);
	st = reap_within(w);
	check(exited_with(st, 0), "a reader that may not write holds every "
	    "page in a transaction: the owner's transaction writes one anyway",
	    "status %#x (a signal: it waited)", st);
	check(exited_with(r, 0), "... and a plain read of them all does not "
	    "wait either", "status %#x (a signal: it waited)", r);
	st = reap_within(owner_write(f, 5, 'O', 0));
	check(exited_with(st, 0), "... nor the owner's plain write of another",
	    "status %#x (a signal: it waited)", st);
	post(go[1]);
	r = reap(rd);
	check(exited_with(r, 0), "... the reader's transaction pays: its next "
	    "read and its commit fail with ETXNABORT, a new one reads the "
	    "owner's pages", "status %#x (12: read, 13: commit, 15: data)", r);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(f);
}

/*
 * A plain read by student waits for a page the owner's transaction
 * holds, holding the pages before it, and is stopped there (SIGSTOP).
 * The owner's second transaction writes one of those pages without
 * waiting for the stopped reader; continued, the read starts over and
 * returns a committed state, never ETXNABORT.
 */
static void
test_dosstop(void)
{
	const char *f = tpath("dosstop");
	int ready[2], go[2], st, r;
	struct txnstats ts;
	pid_t o1, rd;

	mkshared(f, 16, 0644);
	pipe(ready), pipe(go);
	if ((o1 = fork()) == 0) {
		int fd = open(f, O_RDWR);

		memset(buf, 'P', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, 8 * PAGE, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go[0], 1);
		_exit(txn_commit() == 0 ? 0 : 11);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	if ((rd = fork()) == 0) {
		int fd;

		if (become_student() < 0 || (fd = open(f, O_RDONLY)) < 0)
			_exit(10);
		if (pread_at(fd, 0, buf, 16 * PAGE) != 16 * PAGE)
			_exit(errno == ETXNABORT ? 11 : 12);
		_exit(buf[2 * PAGE] == 'Q' && buf[8 * PAGE] == 'P' &&
		    buf[9 * PAGE] == 'a' + 9 ? 0 : 13);
	}
	check(waits_reach(ts.waits + 1), "a plain read by a user who may not "
	    "write waits for the owner's page", "no wait seen");
	kill(rd, SIGSTOP);
	st = reap_within(owner_write(f, 2, 'Q', 1));
	check(exited_with(st, 0), "... stopped there, it keeps no page it "
	    "read from the owner's next transaction", "status %#x (a signal: "
	    "it waited)", st);
	post(go[1]);
	st = reap(o1);
	kill(rd, SIGCONT);
	r = reap(rd);
	check(exited_with(st, 0) && exited_with(r, 0), "... continued, the "
	    "read starts over unseen and returns both commits, whole",
	    "owner %#x, reader %#x (11: ETXNABORT, 13: data)", st, r);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(f);
}

/*
 * The rule's other side: a reader who may write the file (mode 0666)
 * holds its read locks as strict two-phase locking says, and the
 * owner's writer waits for its commit.
 */
static void
test_doswriter(void)
{
	const char *f = tpath("doswr");
	int ready[2], go[2], st, r;
	struct txnstats ts;
	pid_t rd, w;

	mkshared(f, 2, 0666);
	pipe(ready), pipe(go);
	if ((rd = fork()) == 0) {
		int fd;

		if (become_student() < 0 || (fd = open(f, O_RDONLY)) < 0)
			_exit(10);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, PAGE) != PAGE)
			_exit(11);
		post(ready[1]);
		await(go[0], 1);
		if (pread_at(fd, 0, buf2, PAGE) != PAGE ||
		    memcmp(buf, buf2, PAGE) != 0)
			_exit(12);		/* not repeatable */
		_exit(txn_commit() == 0 ? 0 : 13);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	w = owner_write(f, 0, 'W', 1);
	check(waits_reach(ts.waits + 1), "a reader who may write the file "
	    "keeps its read lock: the owner's writer waits", "no wait seen");
	post(go[1]);
	r = reap(rd);
	st = reap(w);
	check(exited_with(r, 0) && exited_with(st, 0), "... the reader reads "
	    "the page again unchanged and commits, then the writer",
	    "reader %#x writer %#x", r, st);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(f);
}

/*
 * A reader who may not write holds pages in a transaction: the owner
 * can still take the protection off (it said EBUSY as long as the
 * reader lived), and the reader's transaction is aborted.
 */
static void
test_dosflags(void)
{
	const char *f = tpath("dosfl");
	int ready[2], go[2], r, e, st;
	pid_t rd;

	mkshared(f, 2, 0644);
	pipe(ready), pipe(go);
	if ((rd = fork()) == 0) {
		int fd;

		if (become_student() < 0 || (fd = open(f, O_RDONLY)) < 0)
			_exit(10);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, 2 * PAGE) != 2 * PAGE)
			_exit(11);
		post(ready[1]);
		await(go[0], 1);
		_exit(txn_commit() < 0 && errno == ETXNABORT ? 0 : 12);
	}
	await(ready[0], 1);
	r = chflags(f, 0);
	e = errno;
	check(r == 0, "a reader who may not write holds pages: the owner takes "
	    "the protection off all the same", "%d errno %d", r, e);
	post(go[1]);
	st = reap(rd);
	check(exited_with(st, 0), "... and the reader's commit fails with "
	    "ETXNABORT", "status %#x", st);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(f);
}

void
test_dos(void)
{
	test_dosread();
	test_dosstop();
	test_doswriter();
	test_dosflags();
	plain_load(1);
}

static volatile sig_atomic_t usr1;

static void
on_usr1(int sig)
{
	usr1 = 1;
}

/*
 * readhold (only when asked: tests/test_txn.py runs it as student, in
 * the background): a transaction reads every page of dir/txntests.d/
 * ledger, says so with its pid, and holds them until SIGUSR1; then its
 * commit must fail with ETXNABORT, the owner having written meanwhile.
 */
void
test_readhold(void)
{
	int fd = open(tpath("ledger"), O_RDONLY), n = 0, r, e;
	sigset_t block, old;

	signal(SIGUSR1, on_usr1);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (fd < 0 || txn_begin() < 0) {
		check(0, "a transaction reads ledger", "errno %d", errno);
		return;
	}
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		n += r;
	check(r == 0 && n > 0, "a transaction reads every page of ledger",
	    "%d bytes, errno %d", n, errno);
	printf("readhold: pid %d holds %d pages\n", (int)getpid(), n / PAGE);
	fflush(stdout);
	while (!usr1)
		sigsuspend(&old);
	r = txn_commit();
	e = errno;
	check(r < 0 && e == ETXNABORT, "... and, the owner having written, its "
	    "commit fails with ETXNABORT", "%d errno %d", r, e);
}
