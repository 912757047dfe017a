/*
 * crashwork: the guest side of the LFS crash tests (tests/crash).
 *
 *	usage: crashwork setup|run WORKLOAD SEED DIR
 *	       crashwork digest DIR
 *
 * setup and run perform a workload, deterministic from its seed, under
 * DIR.  Before each operation they print it as one line, with every
 * path relative to DIR and the seed of any data written:
 *
 *	OP create PATH			open(O_CREAT | O_TRUNC), close
 *	OP write PATH OFF LEN SEED	LEN bytes of gen(SEED) at OFF
 *	OP fsync PATH | OP sync
 *	OP mkdir PATH | OP rmdir PATH | OP unlink PATH | OP rename FROM TO
 *
 * so the host's model (tests/crash/model.py) replays the same operations
 * without generating them itself; only gen() is written twice.  After an
 * fsync returns, run prints "DUR" and waits for a line on the standard
 * input: the host counts the writes that reached the disk until then,
 * the handshake that says which crash points must hold the fsync'd state.
 * setup does not wait (its state is made durable by an unmount).  The
 * last line is "DONE n", or "ERR ..." if an operation failed.
 *
 * Workloads: files (create, write, fsync), rename (rename chains over two
 * directories, replacing targets), mkdirs (a growing tree with files and
 * rmdirs), seq (a 3 MB sequential write), overwrite (random overwrites of
 * a 256 KB file), append (appends and overwrites of four files, each
 * fsync'd), ckpt (small writes, each fsync'd and followed by a sync:
 * many checkpoints), logs (appends and updates of a few hundred bytes,
 * each fsync'd: delta fsyncs, a sync now and then), cleaner (a fragmented, nearly full file system in
 * setup; unlinks and new files, while a cleaner runs, in run), txn
 * (kernel transactions on protected files: one that appends a line to
 * 250 files in five directories, three times, then four processes
 * committing their own two-file transactions at once, so commits are
 * grouped; "OP txn A K" or "OP txn C CHILD J" follows each commit, and
 * the host's model of them is tests/crash/txnmodel.py).
 *
 * digest prints every entry under DIR, "D PATH" for a directory and
 * "F PATH SIZE CRC B0 B1 ..." for a file: its size, the CRC-32 of its
 * contents and of each 4 KB block (the last one may be short), in hex.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/txn.h>
#include <sys/wait.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLK		4096
#define MAXWRITE	(64 * 1024)

static char buf[MAXWRITE];
static const char *dir;
static u_int32_t rng = 1;
static int handshake;			/* run: wait after each fsync */
static int nops;

static u_int32_t
rnd(u_int32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng % n;
}

/* The data of a write: 32-bit little-endian words of a xorshift stream. */
static void
gen(char *p, u_int32_t n, u_int32_t seed)
{
	u_int32_t x = seed * 2654435761u + 1, i;

	for (i = 0; i < n; i++) {
		if (i % 4 == 0) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
		}
		p[i] = (char)(x >> (8 * (i % 4)));
	}
}

/* CRC-32 (IEEE 802.3, as zlib's crc32), a byte at a time from a table. */
static u_int32_t
crc32(u_int32_t crc, const char *p, size_t n)
{
	static u_int32_t table[256];
	u_int32_t c;
	int i, k;

	if (table[1] == 0)
		for (i = 0; i < 256; i++) {
			for (c = (u_int32_t)i, k = 0; k < 8; k++)
				c = (c >> 1) ^ (0xedb88320u & -(c & 1));
			table[i] = c;
		}
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ (u_int8_t)*p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static const char *
at(const char *path)
{
	static char full[2][512];
	static int which;

	which ^= 1;
	snprintf(full[which], sizeof(full[which]), "%s/%s", dir, path);
	return full[which];
}

static void
fail(const char *what, const char *path)
{
	printf("ERR %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

static void
opline(const char *fmt, ...)
{
	va_list ap;

	nops++;
	printf("OP ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void
do_create(const char *path)
{
	int fd;

	opline("create %s", path);
	if ((fd = open(at(path), O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		fail("create", path);
	close(fd);
}

static void
do_write(const char *path, u_int32_t off, u_int32_t len)
{
	u_int32_t seed = rnd(0x7fffffff) + 1;
	int fd;

	opline("write %s %u %u %u", path, off, len, seed);
	gen(buf, len, seed);
	if ((fd = open(at(path), O_WRONLY)) < 0)
		fail("open", path);
	if (lseek(fd, (off_t)off, SEEK_SET) < 0 ||
	    write(fd, buf, len) != (ssize_t)len)
		fail("write", path);
	if (close(fd) < 0)
		fail("close", path);
}

/*
 * The handshake after an fsync or a commit: the host counts the writes
 * that reached the disk until then, and the guest waits for its line.
 */
static void
durable(void)
{
	char line[16];

	printf("DUR\n");
	fflush(stdout);
	if (fgets(line, sizeof(line), stdin) == NULL)
		exit(1);
}

static void
do_fsync(const char *path)
{
	int fd;

	opline("fsync %s", path);
	if ((fd = open(at(path), O_RDONLY)) < 0)
		fail("open", path);
	if (fsync(fd) < 0)
		fail("fsync", path);
	close(fd);
	if (handshake)
		durable();
}

/*
 * A checkpoint (lfs_sync).  sync(2) does not wait for it, so it makes
 * nothing durable the host could count on: no handshake.
 */
static void
do_sync(void)
{
	opline("sync");
	sync();
}

static void
do_path(const char *op, const char *path)
{
	int r;

	opline("%s %s", op, path);
	if (strcmp(op, "mkdir") == 0)
		r = mkdir(at(path), 0755);
	else if (strcmp(op, "rmdir") == 0)
		r = rmdir(at(path));
	else
		r = unlink(at(path));
	if (r < 0)
		fail(op, path);
}

static void
do_rename(const char *from, const char *to)
{
	opline("rename %s %s", from, to);
	if (rename(at(from), at(to)) < 0)
		fail("rename", from);
}

/* A new file of len bytes, written in chunks of at most MAXWRITE. */
static void
newfile(const char *path, u_int32_t len)
{
	u_int32_t off, n;

	do_create(path);
	for (off = 0; off < len; off += n) {
		n = len - off < MAXWRITE ? len - off : MAXWRITE;
		do_write(path, off, n);
	}
}

/* files: twelve files, some appended to, every other one fsync'd. */
static void
w_files(int setup)
{
	char p[32];
	u_int32_t size;
	int i;

	if (setup)
		return;
	for (i = 0; i < 12; i++) {
		snprintf(p, sizeof(p), "f%02d", i);
		size = 1 + rnd(12000);
		newfile(p, size);
		if (rnd(3) == 0)
			do_write(p, size, 1 + rnd(8000));
		if (i % 2 == 0 || i == 11)
			do_fsync(p);
	}
}

/*
 * rename: files move along chains of slots in two directories and the
 * root, replacing what is there; every third step is fsync'd, and last
 * a directory is renamed with its files.
 */
static void
w_rename(int setup)
{
	static const char *slot[] = { "d1/a", "d1/b", "d1/c", "d2/a", "d2/b",
	    "d2/c", "e", "f" };
	enum { NSLOT = sizeof(slot) / sizeof(slot[0]) };
	int full[NSLOT], i, s, t = 0, n = 0;

	if (setup)
		return;
	do_path("mkdir", "d1");
	do_path("mkdir", "d2");
	memset(full, 0, sizeof(full));
	for (i = 0; i < 36; i++) {
		for (s = rnd(NSLOT); full[s] != (n >= 3); s = (s + 1) % NSLOT)
			;
		if (!full[s]) {
			newfile(slot[s], 1 + rnd(6000));
			full[s] = 1;
			n++;
		} else {
			t = (s + 1 + rnd(NSLOT - 1)) % NSLOT;
			do_rename(slot[s], slot[t]);
			n -= full[t];
			full[t] = 1;
			full[s] = 0;
		}
		if (i % 3 == 2)
			do_fsync(slot[full[s] ? s : t]);
	}
	do_rename("d1", "d3");
	do_fsync("d3");
}

/* mkdirs: a tree grows by mkdirs and small files; empty leaves go. */
static void
w_mkdirs(int setup)
{
	enum { MAXD = 64 };
	char name[MAXD][64], p[80];
	int parent[MAXD], kids[MAXD], gone[MAXD], nd = 1, i, d, nf = 0;

	if (setup)
		return;
	strcpy(name[0], "t");
	parent[0] = -1;
	kids[0] = gone[0] = 0;
	do_path("mkdir", "t");
	for (i = 0; i < 40; i++) {
		d = rnd(nd);
		if (gone[d])
			continue;
		switch (rnd(10)) {
		case 0: case 1: case 2: case 3: case 4: case 5:
			if (nd == MAXD || strlen(name[d]) > 40)
				break;
			snprintf(name[nd], sizeof(name[nd]), "%s/d%d", name[d],
			    nd);
			do_path("mkdir", name[nd]);
			parent[nd] = d;
			kids[nd] = gone[nd] = 0;
			kids[d]++;
			nd++;
			break;
		case 6: case 7: case 8:
			snprintf(p, sizeof(p), "%s/f%d", name[d], nf++);
			newfile(p, 1 + rnd(9000));
			kids[d]++;
			if (rnd(2) == 0)
				do_fsync(p);
			break;
		default:
			if (d == 0 || kids[d] != 0)
				break;
			do_path("rmdir", name[d]);
			gone[d] = 1;
			kids[parent[d]]--;
		}
	}
	do_fsync("t");
}

/* seq: 3 MB in 64 KB writes, fsync'd every megabyte. */
static void
w_seq(int setup)
{
	int i;

	if (setup)
		return;
	do_create("big");
	for (i = 0; i < 48; i++) {
		do_write("big", (u_int32_t)i * MAXWRITE, MAXWRITE);
		if (i % 16 == 15)
			do_fsync("big");
	}
}

/* overwrite: random overwrites of 256 KB written in setup. */
static void
w_overwrite(int setup)
{
	enum { SIZE = 256 * 1024 };
	u_int32_t len;
	int i;

	if (setup) {
		newfile("o", SIZE);
		do_fsync("o");
		return;
	}
	for (i = 0; i < 40; i++) {
		len = 1 + rnd(16384);
		do_write("o", rnd(SIZE - len), len);
		if (i % 5 == 4)
			do_fsync("o");
	}
}

/*
 * append: appends to, and overwrites inside, four files made in setup
 * (one under its single indirect block), each write fsync'd: the forced
 * writes that carry data blocks without the inode (SS_DATAONLY), which
 * roll-forward points the files at.
 */
static void
w_append(int setup)
{
	static const u_int32_t start[] = { 5000, 40000, 60000, 300000 };
	u_int32_t size[4], len, off;
	char p[8];
	int i, f;

	for (f = 0; f < 4; f++)
		size[f] = start[f];
	if (setup) {
		for (f = 0; f < 4; f++) {
			snprintf(p, sizeof(p), "a%d", f);
			newfile(p, start[f]);
			do_fsync(p);
		}
		return;
	}
	for (i = 0; i < 40; i++) {
		f = rnd(4);
		snprintf(p, sizeof(p), "a%d", f);
		len = 1 + rnd(9000);
		if (rnd(3) == 0) {		/* inside */
			off = rnd(size[f] - 1);
			if (len > size[f] - off)
				len = size[f] - off;
		} else {			/* at the end */
			off = size[f];
			size[f] += len;
		}
		do_write(p, off, len);
		do_fsync(p);
	}
}

/*
 * logs: a database's log forces, and small updates in place: writes of
 * a few hundred bytes at the end of two files or inside them, each
 * fsync'd, on blocks the disk already has: fsync logs the bytes as
 * DELTAs and leaves the blocks dirty (lfs_delta.c), with now and then a
 * checkpoint, after which the DELTAs apply to the blocks it wrote.
 */
static void
w_logs(int setup)
{
	u_int32_t size[2] = { 6000, 20000 }, len, off;
	char p[8];
	int i, f;

	if (setup) {
		for (f = 0; f < 2; f++) {
			snprintf(p, sizeof(p), "l%d", f);
			newfile(p, size[f]);
			do_fsync(p);
		}
		return;
	}
	for (i = 0; i < 60; i++) {
		f = rnd(2);
		snprintf(p, sizeof(p), "l%d", f);
		len = 1 + rnd(400);
		if (rnd(4) == 0)		/* inside */
			off = rnd(size[f] - len);
		else {				/* at the end */
			off = size[f];
			size[f] += len;
		}
		do_write(p, off, len);
		do_fsync(p);
		if (i % 20 == 19)
			do_sync();
	}
}

/*
 * ckpt: many checkpoints, each after an fsync'd write: small writes to
 * eight files made in setup, each fsync'd (a forced write), then a sync.
 * The checkpoints whose ifile crosses into a new segment write it in two
 * rounds (lfs_writeifile); there are enough of them that some do.
 */
static void
w_ckpt(int setup)
{
	char p[8];
	int i;

	for (i = 0; i < (setup ? 8 : 128); i++) {
		snprintf(p, sizeof(p), "k%d", i % 8);
		if (setup) {
			newfile(p, 1 + rnd(12000));
			continue;
		}
		do_write(p, rnd(12000), 1 + rnd(6000));
		do_fsync(p);
		do_sync();
	}
}

/*
 * cleaner: setup fills about 12 MB of a 16 MB file system and unlinks
 * every other file, leaving segments half live; run unlinks the rest
 * one by one and writes new files, so the cleaner must move live blocks
 * while files die under it.
 */
static void
w_cleaner(int setup)
{
	char p[32];
	int i;

	if (setup) {
		for (i = 0; i < 56; i++) {
			snprintf(p, sizeof(p), "c%02d", i);
			newfile(p, 160 * 1024 + rnd(80 * 1024));
		}
		for (i = 0; i < 56; i += 2) {
			snprintf(p, sizeof(p), "c%02d", i);
			do_path("unlink", p);
		}
		do_fsync(".");
		return;
	}
	for (i = 1; i < 56; i += 2) {
		snprintf(p, sizeof(p), "c%02d", i);
		do_path("unlink", p);
		if (i % 6 == 1) {
			snprintf(p, sizeof(p), "n%02d", i);
			newfile(p, 128 * 1024 + rnd(128 * 1024));
			do_fsync(p);
		}
	}
}

/* Append a line to a file (in the caller's transaction). */
static void
appendline(const char *path, const char *line)
{
	int fd;

	if ((fd = open(at(path), O_WRONLY | O_APPEND)) < 0)
		fail("open", path);
	if (write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		fail("append", path);
	close(fd);
}

#define TXN_FILES	250
#define TXN_BIG		3		/* the 250-file transactions */
#define TXN_CHILDREN	4
#define TXN_EACH	5		/* each child's transactions */

/*
 * txn: setup makes d0..d4 with 50 protected files each ("f%03d"), and
 * two for each child ("g%d" a and b); every file starts as its name and
 * a newline.  run commits, TXN_BIG times, one transaction appending
 * "A<k>" to all 250; then the children, at once, each commit TXN_EACH
 * transactions appending "C<child>.<j>" to both of theirs.  The parent
 * prints each child's commit as it hears of it.
 */
static void
w_txn(int setup)
{
	char p[32], line[32];
	int i, k, c, ends[2], status;

	if (setup) {
		for (i = 0; i < 5; i++) {
			snprintf(p, sizeof(p), "d%d", i);
			do_path("mkdir", p);
		}
		for (i = 0; i < TXN_FILES + 2 * TXN_CHILDREN; i++) {
			if (i < TXN_FILES)
				snprintf(p, sizeof(p), "d%d/f%03d", i % 5, i);
			else
				snprintf(p, sizeof(p), "d%d/g%d%c", i % 5,
				    (i - TXN_FILES) / 2, 'a' + i % 2);
			snprintf(line, sizeof(line), "%s\n", strchr(p, '/') + 1);
			do_create(p);
			appendline(p, line);
			if (chflags(at(p), UF_TXN) < 0)
				fail("chflags", p);
		}
		return;
	}
	for (k = 1; k <= TXN_BIG; k++) {
		if (txn_begin() < 0)
			fail("txn_begin", "A");
		snprintf(line, sizeof(line), "A%d\n", k);
		for (i = 0; i < TXN_FILES; i++) {
			snprintf(p, sizeof(p), "d%d/f%03d", i % 5, i);
			appendline(p, line);
		}
		if (txn_commit() < 0)
			fail("txn_commit", "A");
		opline("txn A %d", k);
		durable();
	}
	if (pipe(ends) < 0)
		fail("pipe", "");
	for (c = 0; c < TXN_CHILDREN; c++) {
		if (fork() != 0)
			continue;
		for (k = 1; k <= TXN_EACH; k++) {
			if (txn_begin() < 0)
				fail("txn_begin", "C");
			snprintf(line, sizeof(line), "C%d.%d\n", c, k);
			for (i = 0; i < 2; i++) {
				snprintf(p, sizeof(p), "d%d/g%d%c",
				    (TXN_FILES + 2 * c + i) % 5, c, 'a' + i);
				appendline(p, line);
			}
			if (txn_commit() < 0)
				fail("txn_commit", "C");
			line[0] = (char)c;
			line[1] = (char)k;
			write(ends[1], line, 2);
		}
		_exit(0);
	}
	close(ends[1]);
	while (read(ends[0], line, 2) == 2) {
		opline("txn C %d %d", line[0], line[1]);
		durable();
	}
	for (c = 0; c < TXN_CHILDREN; c++)
		if (wait(&status) < 0 || status != 0)
			fail("child", "C");
}

static const struct {
	const char *name;
	void (*fn)(int);
} workloads[] = {
	{ "files", w_files }, { "rename", w_rename }, { "mkdirs", w_mkdirs },
	{ "seq", w_seq }, { "overwrite", w_overwrite },
	{ "cleaner", w_cleaner }, { "txn", w_txn }, { "append", w_append },
	{ "ckpt", w_ckpt }, { "logs", w_logs },
};

/* One entry of the digest, and a directory's entries after it. */
static void
digest(const char *rel)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	char sub[512];
	u_int32_t crc = 0;
	ssize_t n;
	int fd, nb = 0;
	static u_int32_t bcrc[1024];

	if (lstat(at(rel), &st) < 0)
		fail("lstat", rel);
	if (S_ISDIR(st.st_mode)) {
		if (*rel)
			printf("D %s\n", rel);
		if ((d = opendir(at(rel))) == NULL)
			fail("opendir", rel);
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "",
			    de->d_name);
			digest(sub);
		}
		closedir(d);
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		printf("? %s\n", rel);
		return;
	}
	if ((fd = open(at(rel), O_RDONLY)) < 0)
		fail("open", rel);
	while ((n = read(fd, buf, BLK)) > 0) {
		crc = crc32(crc, buf, (size_t)n);
		if (nb < 1024)
			bcrc[nb++] = crc32(0, buf, (size_t)n);
	}
	if (n < 0)
		fail("read", rel);
	close(fd);
	printf("F %s %ld %08x", rel, (long)st.st_size, crc);
	for (fd = 0; fd < nb; fd++)
		printf(" %08x", bcrc[fd]);
	printf("\n");
}

static void
usage(void)
{
	fprintf(stderr, "usage: crashwork setup|run WORKLOAD SEED DIR\n"
	    "       crashwork digest DIR\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	size_t i;

	if (argc == 3 && strcmp(argv[1], "digest") == 0) {
		dir = argv[2];
		digest("");
		printf("DONE\n");
		return 0;
	}
	if (argc != 5 || (strcmp(argv[1], "setup") != 0 &&
	    strcmp(argv[1], "run") != 0))
		usage();
	handshake = strcmp(argv[1], "run") == 0;
	rng = (u_int32_t)strtol(argv[3], NULL, 10) * 2 + 1;
	if (handshake)
		rng ^= 0x5bd1e995;
	dir = argv[4];
	for (i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		if (strcmp(workloads[i].name, argv[2]) == 0) {
			workloads[i].fn(!handshake);
			printf("DONE %d\n", nops);
			return 0;
		}
	usage();
	return 2;
}
