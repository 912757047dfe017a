/*
 * txntests: plain reads and writes (no transaction: each its own) among
 * transactions.  A plain call that closes a cycle is never its victim,
 * a load of deadlocking transactions never fails one, and a write that
 * fills a hole waits for the size lock.
 */
#include "txntests.h"

/*
 * A plain read or write (no transaction) that closes a cycle of waiters:
 * T2 holds page 0 and the plain call waits for it; T holds page 1 and
 * wants page 0, behind the plain call; T2 commits, the plain call gets
 * page 0 and wants page 1, which closes the cycle.  It used to be the
 * victim and fail with ETXNABORT; T, which asked for a transaction, must
 * be, and the plain call sees T2's page and not T's.
 */
static void
plain_cycle(int write)
{
	int fd = mkfile(tpath("pc"), 2), ready[2], go1[2], go2[2], r, e;
	struct txnstats ts;
	pid_t t2, t, p;
	char what[128];
	int st2, st, stp;

	close(fd);
	pipe(ready), pipe(go1), pipe(go2);
	if ((t2 = fork()) == 0) {		/* page 0, then commits */
		fd = open(tpath("pc"), O_RDWR);
		memset(buf, 'B', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, 0, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go2[0], 1);
		_exit(txn_commit() == 0 ? 0 : 11);
	}
	await(ready[0], 1);
	if ((t = fork()) == 0) {		/* page 1, then page 0 */
		fd = open(tpath("pc"), O_RDWR);
		memset(buf, 'T', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, PAGE, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go1[0], 1);
		if (pwrite_at(fd, 0, buf, PAGE) == PAGE)
			_exit(txn_commit() == 0 ? 0 : 11);
		e = errno;
		txn_abort();
		_exit(e == ETXNABORT ? VICTIM : 12);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	if ((p = fork()) == 0) {		/* the plain call, both pages */
		fd = open(tpath("pc"), O_RDWR);
		memset(buf, 'P', 2 * PAGE);
		r = write ? pwrite_at(fd, 0, buf, 2 * PAGE) :
		    pread_at(fd, 0, buf, 2 * PAGE);
		if (r < 0)
			_exit(errno == ETXNABORT ? 1 : 2);
		if (r != 2 * PAGE)
			_exit(3);
		if (!write && (buf[0] != 'B' || buf[PAGE - 1] != 'B' ||
		    buf[PAGE] != 'b' || buf[2 * PAGE - 1] != 'b'))
			_exit(4);		/* not T2's page 0, T's page 1 */
		_exit(0);
	}
	check(waits_reach(ts.waits + 1), write ? "a plain write waits for a "
	    "transaction's page" : "a plain read waits for a transaction's "
	    "page", "no wait seen");
	post(go1[1]);
	check(waits_reach(ts.waits + 2), write ? "... and a transaction "
	    "waits behind the write" : "... and a transaction waits behind the "
	    "read", "no wait seen");
	post(go2[1]);
	st2 = reap(t2);
	st = reap(t);
	stp = reap(p);
	snprintf(what, sizeof(what), "a plain %s that closes a cycle is never "
	    "its victim: the transaction in it is, and the %s goes through",
	    write ? "write" : "read", write ? "write" : "read");
	check(exited_with(stp, 0) && exited_with(st, VICTIM) &&
	    exited_with(st2, 0), what, "plain call %#x (1: ETXNABORT, 4: "
	    "wrong data), transaction %#x, holder %#x", stp, st, st2);
	if (write)
		check(slurp(tpath("pc")) == 2 * PAGE && buf2[0] == 'P' &&
		    buf2[2 * PAGE - 1] == 'P', "... and the plain write is "
		    "there whole", "size %d, %c", slurp(tpath("pc")), buf2[0]);
	close(ready[0]), close(ready[1]), close(go1[0]), close(go1[1]);
	close(go2[0]), close(go2[1]);
	unlink(tpath("pc"));
}

void
test_plaincycle(void)
{
	plain_cycle(0);
	plain_cycle(1);
}

/*
 * A transaction of the cycle-closing test below: begins, writes page
 * hold, and when told page want; commits, or is the victim (VICTIM).
 */
static pid_t
cycler(const char *name, int hold, int want, int letter, int ready, int go)
{
	pid_t pid = fork();
	int fd;

	if (pid != 0)
		return pid;
	fd = open(name, O_RDWR);
	memset(buf, letter, PAGE);
	if (txn_begin() < 0 || pwrite_at(fd, (off_t)hold * PAGE, buf, PAGE) !=
	    PAGE)
		_exit(10);
	post(ready);
	await(go, 1);
	if (pwrite_at(fd, (off_t)want * PAGE, buf, PAGE) == PAGE)
		_exit(txn_commit() == 0 ? 0 : 11);
	if (errno != ETXNABORT)
		_exit(12);
	txn_abort();
	_exit(VICTIM);
}

/*
 * A plain write of pages 0 and 1 closes a cycle of two transactions: it
 * holds page 0 and wants page 1, which A holds; A wants page 2, which B
 * holds; B wants page 0, and waits behind the write.  (H holds page 0
 * first, so that the write waits for it and B queues behind; H commits
 * last.)  The plain write is no victim: the younger of A and B is,
 * whether it is A, whom the write waits for, or B, who waits for it.
 */
static void
plain_closes(int a_younger)
{
	int fd = mkfile(tpath("pw"), 3), ready[2], goa[2], gob[2], goh[2];
	int sa, sb, sh, sp;
	struct txnstats before, after;
	pid_t a, b, h, p;
	char what[160];

	close(fd);
	pipe(ready), pipe(goa), pipe(gob), pipe(goh);
	h = cycler(tpath("pw"), 0, 0, 'H', ready[1], goh[0]);
	await(ready[0], 1);
	if (a_younger) {
		b = cycler(tpath("pw"), 2, 0, 'B', ready[1], gob[0]);
		await(ready[0], 1);
		a = cycler(tpath("pw"), 1, 2, 'A', ready[1], goa[0]);
	} else {
		a = cycler(tpath("pw"), 1, 2, 'A', ready[1], goa[0]);
		await(ready[0], 1);
		b = cycler(tpath("pw"), 2, 0, 'B', ready[1], gob[0]);
	}
	await(ready[0], 1);
	txnstats(&before, 0);
	if ((p = fork()) == 0) {
		fd = open(tpath("pw"), O_RDWR);
		memset(buf, 'P', 2 * PAGE);
		if (pwrite_at(fd, 0, buf, 2 * PAGE) == 2 * PAGE)
			_exit(0);
		_exit(errno == ETXNABORT ? 1 : 2);
	}
	waited(before.waits + 1);		/* the write, for H */
	post(goa[1]);
	waited(before.waits + 2);		/* A, for B */
	post(gob[1]);
	waited(before.waits + 3);		/* B, behind the write */
	post(goh[1]);				/* the write closes it */
	sh = reap(h);
	sp = reap(p);
	sa = reap(a);
	sb = reap(b);
	txnstats(&after, 0);
	snprintf(what, sizeof(what), "a plain write closes a cycle of two "
	    "transactions: the younger, %s, is the victim, the older commits "
	    "and the write goes through", a_younger ? "the one it waits for" :
	    "the one waiting for it");
	check(exited_with(sp, 0) && exited_with(sh, 0) &&
	    exited_with(a_younger ? sa : sb, VICTIM) &&
	    exited_with(a_younger ? sb : sa, 0), what, "younger %#x, older "
	    "%#x (%d: the victim), write %#x (1: ETXNABORT), holder %#x",
	    a_younger ? sa : sb, a_younger ? sb : sa, VICTIM, sp, sh);
	snprintf(what, sizeof(what), "... and txnstat counts one victim "
	    "(the younger %s)", a_younger ? "waited for" : "waiting");
	check(after.victims - before.victims == 1, what, "%u",
	    after.victims - before.victims);
	close(ready[0]), close(ready[1]), close(goa[0]), close(goa[1]);
	close(gob[0]), close(gob[1]), close(goh[0]), close(goh[1]);
	unlink(tpath("pw"));
}

void
test_youngest(void)
{
	plain_closes(0);
	plain_closes(1);
}

/*
 * The load of issue 21: eight transactions at a time move units between
 * the 16 pages of a file (read two, write both: upgrades, deadlocks) and
 * read one of four more pages, while a plain reader reads the 16 pages,
 * 64 KB at a time, and a plain writer rewrites the four others, 16 KB at
 * a time.  No plain call may fail (15% of the reads failed with
 * ETXNABORT), every plain read sees the units all there, and every
 * transaction that commits keeps them all there.
 */
#define LOAD_PAGES	16
#define LOAD_UNITS	100		/* per page, at first */
#define LOAD_WRITERS	8
#define LOAD_TXNS	25

struct plainres {
	int	write, calls, aborted, bad, errors;
};

static void
load_page(int v)
{
	memset(buf, v & 0x7f, PAGE);
	memcpy(buf, &v, sizeof(v));
}

static int
load_value(const char *page, int *v)
{
	int j;

	memcpy(v, page, sizeof(*v));
	for (j = sizeof(*v); j < PAGE; j++)
		if (page[j] != (*v & 0x7f))
			return -1;		/* torn */
	return 0;
}

static void
load_writer(int i)
{
	int fd = open(tpath("load"), O_RDWR), k, a, b, va, vb, c;
	unsigned seed = 7 * i + 1;

	for (k = 0; k < LOAD_TXNS; ) {
		seed = seed * 1103515245 + 12345;
		a = (seed >> 8) % LOAD_PAGES;
		b = (a + 1 + (seed >> 16) % (LOAD_PAGES - 1)) % LOAD_PAGES;
		c = LOAD_PAGES + (seed >> 4) % 4;
		txn_begin();
		if (pread_at(fd, (off_t)a * PAGE, buf2, PAGE) != PAGE ||
		    load_value(buf2, &va) < 0 ||
		    pread_at(fd, (off_t)c * PAGE, buf2, PAGE) != PAGE ||
		    pread_at(fd, (off_t)b * PAGE, buf2, PAGE) != PAGE ||
		    load_value(buf2, &vb) < 0)
			goto failed;
		load_page(va - 1);
		if (pwrite_at(fd, (off_t)a * PAGE, buf, PAGE) != PAGE)
			goto failed;
		load_page(vb + 1);
		if (pwrite_at(fd, (off_t)b * PAGE, buf, PAGE) != PAGE)
			goto failed;
		if (txn_commit() == 0)
			k++;
		else if (errno != ETXNABORT)
			_exit(5);
		continue;
failed:
		if (errno != ETXNABORT)
			_exit(4);
		txn_abort();
	}
	_exit(0);
}

/*
 * Plain calls until stop reads end-of-file; the tally into res.  A
 * reader as student, who may not write the file, if ro: its weak locks
 * break under the writers, and its reads start over.
 */
static void
load_plain(int writer, int ro, int stop, int res)
{
	struct plainres pr = { writer, 0, 0, 0, 0 };
	int fd, r, i, v, sum, n = 0;
	char c;

	if (ro && become_student() < 0)
		_exit(10);
	fd = open(tpath("load"), writer ? O_RDWR : O_RDONLY);

	fcntl(stop, F_SETFL, O_NONBLOCK);
	while (read(stop, &c, 1) != 0) {
		if (writer) {
			for (i = 0; i < 4; i++) {
				memset(buf + i * PAGE, 'A' + n % 26, PAGE);
				memcpy(buf + i * PAGE, &n, sizeof(n));
			}
			r = pwrite_at(fd, (off_t)LOAD_PAGES * PAGE, buf,
			    4 * PAGE);
			n++;
		} else
			r = pread_at(fd, 0, buf, LOAD_PAGES * PAGE);
		pr.calls++;
		if (r < 0 && errno == ETXNABORT)
			pr.aborted++;
		else if (r != (writer ? 4 : LOAD_PAGES) * PAGE)
			pr.errors++;
		else if (!writer) {
			for (i = sum = 0; i < LOAD_PAGES; i++) {
				if (load_value(buf + i * PAGE, &v) < 0)
					break;
				sum += v;
			}
			if (i < LOAD_PAGES || sum != LOAD_PAGES * LOAD_UNITS)
				pr.bad++;
		}
	}
	write(res, &pr, sizeof(pr));
	_exit(0);
}

void
plain_load(int ro)
{
	const char *who = ro ? " (the reader as student, who may not write)" :
	    "";
	int fd, i, stop[2], res[2], bad = 0, v, sum;
	struct plainres rd, wr;
	struct txnstats before, after;
	pid_t w[LOAD_WRITERS], pr, pw;
	char what[160];

	unlink(tpath("load"));
	fd = open(tpath("load"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	for (i = 0; i < LOAD_PAGES + 4; i++) {
		load_page(i < LOAD_PAGES ? LOAD_UNITS : 0);
		write(fd, buf, PAGE);
	}
	fsync(fd);
	close(fd);
	chflags(tpath("load"), UF_TXN);
	txnstats(&before, 0);
	pipe(stop), pipe(res);
	if ((pr = fork()) == 0) {
		close(stop[1]);
		load_plain(0, ro, stop[0], res[1]);
	}
	if ((pw = fork()) == 0) {
		close(stop[1]);
		load_plain(1, 0, stop[0], res[1]);
	}
	for (i = 0; i < LOAD_WRITERS; i++)
		if ((w[i] = fork()) == 0) {
			close(stop[1]);
			load_writer(i);
		}
	for (i = 0; i < LOAD_WRITERS; i++)
		if (!exited_with(reap(w[i]), 0))
			bad++;
	close(stop[1]);
	reap(pr);
	reap(pw);
	read(res[0], &rd, sizeof(rd));
	read(res[0], &wr, sizeof(wr));
	if (rd.write) {
		struct plainres x = rd;

		rd = wr;
		wr = x;
	}
	txnstats(&after, 0);
	snprintf(what, sizeof(what), "8 transactions at a time moving units "
	    "between pages, with deadlocks, each commit 25 times%s", who);
	check(bad == 0, what, "%d failed (victims %u)", bad,
	    after.victims - before.victims);
	snprintf(what, sizeof(what), "... and some of them were deadlock "
	    "victims%s", who);
	check(after.victims > before.victims, what, "none were");
	snprintf(what, sizeof(what), "plain reads and writes among them never "
	    "fail (no ETXNABORT)%s", who);
	check(rd.aborted + wr.aborted == 0 && rd.errors + wr.errors == 0,
	    what, "%d reads: %d ETXNABORT, %d other errors; %d writes: %d "
	    "ETXNABORT, %d other errors", rd.calls, rd.aborted, rd.errors,
	    wr.calls, wr.aborted, wr.errors);
	snprintf(what, sizeof(what), "every plain read sees all the units "
	    "(each a committed state)%s", who);
	check(rd.calls > 0 && wr.calls > 0 && rd.bad == 0, what, "%d of %d "
	    "reads saw a torn page or a wrong sum", rd.bad, rd.calls);
	fd = open(tpath("load"), O_RDONLY);
	for (i = sum = 0; i < LOAD_PAGES; i++)
		if (pread_at(fd, (off_t)i * PAGE, buf, PAGE) == PAGE &&
		    load_value(buf, &v) == 0)
			sum += v;
	close(fd);
	snprintf(what, sizeof(what), "... and so does the file at the end%s",
	    who);
	check(sum == LOAD_PAGES * LOAD_UNITS, what, "%d units, not %d", sum,
	    LOAD_PAGES * LOAD_UNITS);
	close(stop[0]), close(res[0]), close(res[1]);
	unlink(tpath("load"));
}

void
test_plainload(void)
{
	plain_load(0);
}

/*
 * Filling a hole adds a block, so it needs the file's size lock, which
 * a transaction that appended holds: the write must wait for it (it
 * spun in the kernel, asking again and again, and nothing else ran).
 * In a transaction, and as a plain write.
 */
static void
hole_fill(int plain)
{
	int fd, ready[2], go[2], r, e, st;
	struct txnstats ts;
	pid_t app, fill;
	char what[128];

	unlink(tpath("hf"));
	fd = open(tpath("hf"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	memset(buf, 'a', PAGE);
	pwrite_at(fd, 0, buf, PAGE);
	pwrite_at(fd, 3 * PAGE, buf, PAGE);	/* pages 1 and 2 a hole */
	fsync(fd);
	close(fd);
	chflags(tpath("hf"), UF_TXN);
	pipe(ready), pipe(go);
	if ((app = fork()) == 0) {		/* appends, holds the size */
		fd = open(tpath("hf"), O_RDWR);
		memset(buf, 'A', PAGE);
		if (txn_begin() < 0 || pwrite_at(fd, 4 * PAGE, buf, PAGE) != PAGE)
			_exit(10);
		post(ready[1]);
		await(go[0], 1);
		_exit(txn_commit() == 0 ? 0 : 11);
	}
	await(ready[0], 1);
	txnstats(&ts, 0);
	if ((fill = fork()) == 0) {		/* fills page 1 */
		fd = open(tpath("hf"), O_RDWR);
		memset(buf, 'F', PAGE);
		if (!plain && txn_begin() < 0)
			_exit(10);
		r = pwrite_at(fd, PAGE, buf, PAGE);
		e = errno;
		if (r != PAGE)
			_exit(e == ETXNABORT ? 12 : 13);
		_exit(plain || txn_commit() == 0 ? 0 : 14);
	}
	snprintf(what, sizeof(what), "a %s filling a hole waits for the size "
	    "lock a transaction that appended holds", plain ? "plain write" :
	    "transaction");
	check(waits_reach(ts.waits + 1), what, "no wait seen");
	post(go[1]);
	st = reap(app);
	r = reap(fill);
	snprintf(what, sizeof(what), "... and both commit: the %s's hole "
	    "filled, the file grown", plain ? "plain write" : "transaction");
	check(exited_with(st, 0) && exited_with(r, 0) && slurp(tpath("hf")) ==
	    5 * PAGE && buf2[PAGE] == 'F' && buf2[2 * PAGE] == 0 &&
	    buf2[4 * PAGE] == 'A', what, "appender %#x filler %#x, size %d",
	    st, r, slurp(tpath("hf")));
	close(ready[0]), close(ready[1]), close(go[0]), close(go[1]);
	unlink(tpath("hf"));
}

void
test_holefill(void)
{
	hole_fill(0);
	hole_fill(1);
}
