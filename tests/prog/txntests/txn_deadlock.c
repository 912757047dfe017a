/*
 * txntests: deadlocks (thesis 5.2.3).  Rings and clumps of transactions
 * waiting for each other: exactly the one whose request closes a cycle
 * is the victim (ETXNABORT), and its later calls fail until it ends; a
 * wait with no cycle aborts nobody.
 */
#include "txntests.h"

/*
 * n children in transactions on file name: each does its first step (to
 * take a lock), waits until all have, then its second (to want another's
 * lock) and commits, or is the victim.  How many of each, in *victims and
 * *done.
 */
static void
contend(const char *name, int n, int (*first)(int fd, int i, int n),
    int (*second)(int fd, int i, int n), int *victims, int *done)
{
	int p1[2], p2[2], i, fd, status;
	pid_t pids[10];

	*victims = *done = 0;
	pipe(p1);
	pipe(p2);
	for (i = 0; i < n; i++) {
		if ((pids[i] = fork()) != 0)
			continue;
		fd = open(name, O_RDWR);
		txn_begin();
		if (first(fd, i, n) < 0)
			_exit(3);
		post(p1[1]);
		await(p2[0], 1);
		if (second(fd, i, n) < 0) {
			int e = errno;

			txn_abort();
			_exit(e == ETXNABORT ? VICTIM : 4);
		}
		_exit(txn_commit() == 0 ? 0 : 5);
	}
	await(p1[0], n);
	for (i = 0; i < n; i++)
		post(p2[1]);
	for (i = 0; i < n; i++) {
		status = reap(pids[i]);
		if (exited_with(status, VICTIM))
			(*victims)++;
		else if (exited_with(status, 0))
			(*done)++;
	}
	close(p1[0]), close(p1[1]), close(p2[0]), close(p2[1]);
}

/* ring: child i writes page i, then (all have) page i + 1. */
static int
ring_first(int fd, int i, int n)
{
	memset(buf, 'R', PAGE);
	return pwrite_at(fd, i * PAGE, buf, PAGE) == PAGE ? 0 : -1;
}

static int
ring_second(int fd, int i, int n)
{
	return pwrite_at(fd, (i + 1) % n * PAGE, buf, PAGE) == PAGE ? 0 : -1;
}

void
test_ring(int n)
{
	int fd = mkfile(tpath("ring"), n), victims, done;
	char what[64];

	close(fd);
	contend(tpath("ring"), n, ring_first, ring_second, &victims, &done);
	snprintf(what, sizeof(what), "a ring of %d: one victim, the rest "
	    "commit", n);
	check(victims == 1 && done == n - 1, what, "%d victims, %d committed",
	    victims, done);
	unlink(tpath("ring"));
}

/* clump: all read page 0, then (all have) write it. */
static int
clump_first(int fd, int i, int n)
{
	return pread_at(fd, 0, buf, 10) == 10 ? 0 : -1;
}

static int
clump_second(int fd, int i, int n)
{
	memset(buf, 'C', 10);
	return pwrite_at(fd, 0, buf, 10) == 10 ? 0 : -1;
}

void
test_clump(int n)
{
	int fd = mkfile(tpath("clump"), 1), victims, done;
	char what[64];

	close(fd);
	contend(tpath("clump"), n, clump_first, clump_second, &victims, &done);
	snprintf(what, sizeof(what), "%d readers all upgrading: %d victims",
	    n, n - 1);
	check(victims == n - 1 && done == 1, what, "%d victims, %d committed",
	    victims, done);
	unlink(tpath("clump"));
}

void
test_nocycle(void)
{
	int fd = mkfile(tpath("nc"), 1), p1[2], p2[2];
	pid_t h, w;

	close(fd);
	pipe(p1);
	pipe(p2);
	h = holder(tpath("nc"), p1[1], p2[0], 1);
	await(p1[0], 1);
	w = waiter(tpath("nc"), p1[1]);
	await(p1[0], 1);
	check(txn_detect() == 0, "a waiter with no cycle: txn_detect aborts "
	    "nobody", "errno %d", errno);
	post(p2[1]);
	check(exited_with(reap(h), 0) && exited_with(reap(w), 1),
	    "... the holder commits and the waiter then reads its page",
	    "the waiter read something else");
	close(p1[0]), close(p1[1]), close(p2[0]), close(p2[1]);
	unlink(tpath("nc"));
}

/*
 * A victim's calls after the one that failed: its read fails too, begin
 * says one is still there, abort ends it.  0 if all as promised.
 */
static int
victim_after(int fd)
{
	int r = pread_at(fd, 0, buf, 1);

	if (r >= 0 || errno != ETXNABORT)
		return 1;
	if (txn_begin() >= 0 || errno != EALREADY)
		return 2;
	if (txn_abort() != 0 || txn_begin() <= 0 || txn_commit() != 0)
		return 3;
	return 0;
}

/*
 * Two transactions each take one page and want the other's: whoever
 * asks second closes the cycle and is the victim (ETXNABORT), and its
 * later calls fail until it ends; the other commits.
 */
void
test_aborted(void)
{
	int fd = mkfile(tpath("ab"), 2), p1[2], p2[2], r, e, status, mine = 0;
	pid_t child;

	close(fd);
	pipe(p1);
	pipe(p2);
	if ((child = fork()) == 0) {
		fd = open(tpath("ab"), O_RDWR);
		txn_begin();
		pwrite_at(fd, PAGE, "c", 1);
		post(p1[1]);
		await(p2[0], 1);
		if (pwrite_at(fd, 0, "c", 1) == 1)
			_exit(txn_commit() == 0 ? 0 : 9);
		if (errno != ETXNABORT)
			_exit(8);
		_exit(VICTIM + 10 * victim_after(fd));
	}
	fd = open(tpath("ab"), O_RDWR);
	txn_begin();
	pwrite_at(fd, 0, "p", 1);
	await(p1[0], 1);
	post(p2[1]);
	r = pwrite_at(fd, PAGE, "p", 1);
	e = errno;
	if (r == 1)
		txn_commit();
	else if (e == ETXNABORT)
		mine = 10 * victim_after(fd) + VICTIM;
	else
		mine = -1;
	status = reap(child);
	check(mine >= 0 && ((mine == VICTIM && exited_with(status, 0)) ||
	    (mine == 0 && exited_with(status, VICTIM))), "two transactions "
	    "wanting each other's page: one victim, whose later calls fail "
	    "with ETXNABORT until txn_abort, and one commit",
	    "parent %d (errno %d), child status %x", mine, e, status);
	close(fd);
	close(p1[0]), close(p1[1]), close(p2[0]), close(p2[1]);
	unlink(tpath("ab"));
}

/*
 * Like contend, but in order: child i begins its transaction after
 * child i - 1 (its t_id is larger: it is younger) and does its first
 * step, and the children do their second steps one at a time, child
 * ask[0] first, each once the one before waits.  The last to ask closes
 * the cycle.  Each child's exit status in st[i].  How many waits and
 * victims txnstat counted, in *waits and *victims.
 */
static void
contend_ordered(const char *name, int n, int (*first)(int fd, int i, int n),
    int (*second)(int fd, int i, int n), const int *ask, int *st,
    int *waits, int *victims)
{
	int ready[2], go[10][2], i, fd, late;
	struct txnstats before, after;
	pid_t pids[10];

	pipe(ready);
	for (i = 0; i < n; i++) {
		pipe(go[i]);
		if ((pids[i] = fork()) == 0) {
			fd = open(name, O_RDWR);
			if (txn_begin() < 0 || first(fd, i, n) < 0)
				_exit(3);
			post(ready[1]);
			await(go[i][0], 1);
			if (second(fd, i, n) < 0) {
				int e = errno;

				txn_abort();
				_exit(e == ETXNABORT ? VICTIM : 4);
			}
			_exit(txn_commit() == 0 ? 0 : 5);
		}
		await(ready[0], 1);
	}
	txnstats(&before, 0);
	for (i = 0, late = 0; i < n; i++) {
		post(go[ask[i]][1]);
		/* A wait that never comes: the rest go at once, and fail. */
		if (i < n - 1 && !late)
			late = !waited(before.waits + i + 1);
	}
	for (i = 0; i < n; i++) {
		st[i] = reap(pids[i]);
		close(go[i][0]), close(go[i][1]);
	}
	txnstats(&after, 0);
	*waits = after.waits - before.waits;
	*victims = after.victims - before.victims;
	close(ready[0]), close(ready[1]);
}

/* "child 3 the victim, the others commit", or what went otherwise. */
static int
victims_are(int n, const int *st, const int *victim, char *why, int len)
{
	int i, k = 0, bad = 0;

	for (i = 0; i < n && k < len - 24; i++) {
		if (exited_with(st[i], victim[i] ? VICTIM : 0))
			continue;
		bad++;
		k += snprintf(why + k, len - k, "%schild %d %s", bad > 1 ?
		    ", " : "", i, exited_with(st[i], VICTIM) ? "a victim" :
		    exited_with(st[i], 0) ? "committed" : "failed");
	}
	return bad == 0;
}

/*
 * Who the victim is (thesis 5.2.3): the transaction whose request
 * closes the cycle, found the moment it begins to wait, whatever its
 * age; in a ring there is one.  A ring of 2 in the order the children
 * began (the youngest closes it), a ring of 4 the other way round (the
 * oldest does), and a ring of 10 that child 4 closes.
 */
static void
ring_ordered(int n, const int *ask)
{
	int fd = mkfile(tpath("ro"), n), st[10], victim[10] = { 0 };
	int waits, victims;
	char what[128], why[160] = "";

	close(fd);
	contend_ordered(tpath("ro"), n, ring_first, ring_second, ask, st,
	    &waits, &victims);
	victim[ask[n - 1]] = 1;
	snprintf(what, sizeof(what), "a ring of %d asked for in turn: child "
	    "%d, the last to ask, is the one victim, the others commit", n,
	    ask[n - 1]);
	check(victims_are(n, st, victim, why, sizeof(why)), what, "%s", why);
	snprintf(what, sizeof(what), "... and txnstat counts %d waits and 1 "
	    "victim", n);
	check(waits == n && victims == 1, what, "%d waits, %d victims", waits,
	    victims);
	unlink(tpath("ro"));
}

/*
 * Four readers of a page upgrade to write it in the order 2, 0, 3, 1:
 * each after the first closes a cycle with it (both hold the page
 * shared and want it alone), so 0, 3 and 1 are the victims, older and
 * younger than 2, which commits.
 */
static void
clump_ordered(void)
{
	static const int ask[] = { 2, 0, 3, 1 }, victim[] = { 1, 1, 0, 1 };
	int fd = mkfile(tpath("co"), 1), st[4], waits, victims;
	char why[160] = "";

	close(fd);
	contend_ordered(tpath("co"), 4, clump_first, clump_second, ask, st,
	    &waits, &victims);
	check(victims_are(4, st, victim, why, sizeof(why)), "4 readers "
	    "upgrading in the order 2, 0, 3, 1: each after the first closes "
	    "a cycle with it and is the victim, child 2 commits", "%s", why);
	check(waits == 4 && victims == 3, "... and txnstat counts 4 waits "
	    "and 3 victims", "%d waits, %d victims", waits, victims);
	unlink(tpath("co"));
}

void
test_victims(void)
{
	static const int two[] = { 0, 1 }, four[] = { 3, 2, 1, 0 },
	    ten[] = { 5, 6, 7, 8, 9, 0, 1, 2, 3, 4 };

	ring_ordered(2, two);
	ring_ordered(4, four);
	ring_ordered(10, ten);
	clump_ordered();
}
