/*
 * txntests: a transaction that ends other than by txn_commit or
 * txn_abort: its process killed or exiting, its file system unmounted
 * by force.  Nothing of it reaches the disk, and whoever waited for it
 * goes on.
 */
#include "txntests.h"

void
test_kill(void)
{
	int fd = mkfile(tpath("k"), 1), p1[2], p2[2];
	pid_t h, w;

	close(fd);
	pipe(p1);
	pipe(p2);
	h = holder(tpath("k"), p1[1], p2[0], 0);
	await(p1[0], 1);
	w = waiter(tpath("k"), p1[1]);
	await(p1[0], 1);
	kill(h, SIGKILL);
	reap(h);
	check(exited_with(reap(w), 0), "kill -9 inside a transaction: the "
	    "waiter goes on and reads the page as it was", "it did not");
	check(pristine(tpath("k"), 1), "... and nothing of the killed one "
	    "stays", "size %d", slurp(tpath("k")));
	close(p1[0]), close(p1[1]), close(p2[0]), close(p2[1]);
	unlink(tpath("k"));
}

void
test_exit(void)
{
	int fd = mkfile(tpath("x"), 2);
	pid_t pid;

	close(fd);
	if ((pid = fork()) == 0) {
		fd = open(tpath("x"), O_RDWR);
		txn_begin();
		memset(buf, 'E', PAGE);
		pwrite_at(fd, 0, buf, PAGE);
		pwrite_at(fd, 2 * PAGE, buf, PAGE);
		_exit(0);
	}
	reap(pid);
	check(pristine(tpath("x"), 2), "exit inside a transaction aborts it",
	    "size %d", slurp(tpath("x")));
	unlink(tpath("x"));
}

/*
 * umount -f of the LFS with transactions open (run with -d naming the
 * mount point itself).  Each kind of transaction the unmount can meet:
 * one holding dirty pages, asleep in user space; one holding a page
 * shared; one asleep waiting for the first's page; and a plain read
 * waiting for it (a transaction of its own).  The unmount ends them all:
 * the waiters wake with ETXNABORT (the plain read with EIO: a program
 * that asked for no transaction sees none of their errors), the commits
 * of the others fail with ETXNABORT, and a new transaction can begin.  The committing one used to fault in
 * lfs_segwrite_vnodes on the freed file system (issue 21).  The pytest
 * file mounts it again: the uncommitted pages never reached the disk.
 */
void
test_forceumount(void)
{
	int fd = mkfile(tpath("fa"), 2), ready[2], go[2], st[4], r, e;
	struct txnstats ts;
	pid_t pid[4];

	close(fd);
	close(mkfile(tpath("fb"), 1));
	pipe(ready);
	pipe(go);
	if ((pid[0] = fork()) == 0) {		/* dirty pages, then commit */
		fd = open(tpath("fa"), O_RDWR);
		memset(buf, 'W', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, 0, buf, PAGE) != PAGE ||
		    pwrite_at(fd, PAGE, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go[0], 1);
		r = txn_commit();
		e = errno;
		if (r != -1 || e != ETXNABORT)
			_exit(11);
		if (txn_begin() < 0 || txn_abort() < 0)
			_exit(12);		/* a new one begins and ends */
		_exit(0);
	}
	await(ready[0], 1);
	if ((pid[1] = fork()) == 0) {		/* a page shared */
		fd = open(tpath("fb"), O_RDONLY);
		if (txn_begin() < 0 || pread_at(fd, 0, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go[0], 1);
		if (pread_at(fd, 0, buf, PAGE) > 0)
			_exit(11);	/* the file is gone with its mount */
		r = txn_commit();
		_exit(r == -1 && errno == ETXNABORT ? 0 : 12);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	if ((pid[2] = fork()) == 0) {		/* waits for the dirty page */
		fd = open(tpath("fa"), O_RDWR);
		if (txn_begin() < 0)
			_exit(10);
		r = pwrite_at(fd, 0, "X", 1);
		e = errno;
		if (r != -1 || e != ETXNABORT)
			_exit(11);
		r = txn_commit();
		_exit(r == -1 && errno == ETXNABORT ? 0 : 12);
	}
	check(waits_reach(ts.waits + 1), "a transaction waits for another's "
	    "page", "no wait seen");
	if ((pid[3] = fork()) == 0) {		/* a plain read waits too */
		fd = open(tpath("fa"), O_RDONLY);
		r = pread_at(fd, 0, buf, PAGE);
		_exit(r == -1 && errno == EIO ? 0 : r == -1 ? errno : 99);
	}
	check(waits_reach(ts.waits + 2), "a plain read waits for it too",
	    "no wait seen");
	r = unmount(check_dir, 0);
	check(r == -1 && errno == EBUSY, "umount without -f: EBUSY",
	    "returned %d, errno %d", r, errno);
	r = unmount(check_dir, MNT_FORCE);
	check(r == 0, "umount -f with four transactions open", "errno %d",
	    errno);
	post(go[1]);
	post(go[1]);
	for (r = 0; r < 4; r++)
		st[r] = reap(pid[r]);
	check(exited_with(st[0], 0), "the one with dirty pages: its commit "
	    "fails with ETXNABORT, and a new one begins", "status %#x", st[0]);
	check(exited_with(st[1], 0), "the one reading: its file reads no more, "
	    "its commit fails with ETXNABORT", "status %#x", st[1]);
	check(exited_with(st[2], 0), "the one waiting: its write fails with "
	    "ETXNABORT, and its commit", "status %#x", st[2]);
	check(exited_with(st[3], 0), "the plain read waiting: EIO, never "
	    "ETXNABORT", "status %#x", st[3]);
	check(txnstats(&ts, 0) == 0 && ts.running == 0 && ts.dirty == 0,
	    "no transaction and no pinned page left", "%u running, %u dirty",
	    ts.running, ts.dirty);
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
}
