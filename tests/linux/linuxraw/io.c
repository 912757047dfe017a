/*
 * linuxraw: descriptors and I/O: openat and statx, writev, dup3, a full file
 * system.
 */
#include "linuxraw.h"

/* --- openat -------------------------------------------------------------- */

void
t_openat(const char *dir)
{
	char path[512];
	long fd, r;
	unsigned char sx[256];

	snprintf(path, sizeof(path), "%s/linuxraw.f", dir);
	fd = sys(NR_openat, AT_FDCWD, (long)path, O_RDWR | O_CREAT | O_TRUNC,
	    0644, 0);
	check("openat AT_FDCWD, creating a file", fd >= 0, fd);
	expect("openat, relative path, descriptor 99 not open: EBADF",
	    sys(NR_openat, 99, (long)"linuxraw.x", O_RDONLY, 0, 0), -EBADF);
	expect("openat, relative path, descriptor -2: EBADF",
	    sys(NR_openat, -2, (long)"linuxraw.x", O_RDONLY, 0, 0), -EBADF);
	expect("openat, relative path, descriptor 4096: EBADF",
	    sys(NR_openat, 4096, (long)"x", O_RDONLY, 0, 0), -EBADF);
	expect("openat, relative path, a file's descriptor: ENOTDIR",
	    sys(NR_openat, fd, (long)"linuxraw.x", O_RDONLY, 0, 0), -ENOTDIR);
	expect("openat O_CREAT, descriptor 99: EBADF, nothing created",
	    sys(NR_openat, 99, (long)"linuxraw.new", O_WRONLY | O_CREAT, 0644,
	    0), -EBADF);
	check("... and no linuxraw.new appeared",
	    access("linuxraw.new", F_OK) < 0, errno);
	r = sys(NR_openat, 99, (long)"/etc/passwd", O_RDONLY, 0, 0);
	check("openat, absolute path, descriptor 99: the descriptor is ignored",
	    r >= 0, r);
	if (r >= 0)
		close(r);
	expect("statx, relative path, descriptor 99: EBADF",
	    sys(NR_statx, 99, (long)"linuxraw.x", 0, 0x7ff, (long)sx), -EBADF);
	expect("statx, relative path, a file's descriptor: ENOTDIR",
	    sys(NR_statx, fd, (long)"linuxraw.x", 0, 0x7ff, (long)sx),
	    -ENOTDIR);
	expect("openat, a path at a kernel address: EFAULT",
	    sys(NR_openat, 99, KERNADDR, O_RDONLY, 0, 0), -EFAULT);
	close(fd);
	unlink(path);
}

/* --- writev -------------------------------------------------------------- */

struct iov { void *base; unsigned len; };

static long
filesize(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

void
t_writev(const char *dir)
{
	char path[512];
	struct iov *v, two[2];
	char *m;
	long fd;

	snprintf(path, sizeof(path), "%s/linuxraw.v", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check("open a scratch file", fd >= 0, errno);

	/* Three iovecs whose third lies in an unmapped page. */
	m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("mmap 8 KB, munmap its second page", m != MAP_FAILED &&
	    munmap(m + 4096, 4096) == 0, errno);
	v = (struct iov *)(m + 4096 - 2 * sizeof(*v));
	v[0] = (struct iov){ "hello", 5 };
	v[1] = (struct iov){ "world!", 6 };
	expect("writev, the third iovec unreadable: EFAULT",
	    sys(NR_writev, fd, (long)v, 3, 0, 0), -EFAULT);
	expect("... and nothing was written before the EFAULT",
	    filesize(path), 0);
	v[1] = (struct iov){ "world!", 0x7ffffffe };
	expect("writev, lengths past SSIZE_MAX: EINVAL",
	    sys(NR_writev, fd, (long)v, 2, 0, 0), -EINVAL);
	expect("... and nothing was written before the EINVAL",
	    filesize(path), 0);
	two[0] = (struct iov){ "hello", 5 };
	two[1] = (struct iov){ (void *)0x40000000, 6 };
	expect("writev, the second buffer unmapped: 5 (what was written)",
	    sys(NR_writev, fd, (long)two, 2, 0, 0), 5);
	two[1] = (struct iov){ "world!", 6 };
	expect("writev of two good buffers: 11",
	    sys(NR_writev, fd, (long)two, 2, 0, 0), 11);
	expect("... the file holds 16 bytes", filesize(path), 16);
	expect("writev of 1025 iovecs: EINVAL",
	    sys(NR_writev, fd, (long)two, 1025, 0, 0), -EINVAL);
	munmap(m, 4096);
	close(fd);
	unlink(path);
}

/* --- dup3 ---------------------------------------------------------------- */

void
t_dup3(const char *dir)
{
	char path[512], buf[16];
	FILE *f;
	long fd = open("/etc/passwd", O_RDONLY);

	expect("dup3 to 10 with O_CLOEXEC: 10",
	    sys(NR_dup3, fd, 10, O_CLOEXEC, 0, 0), 10);
	check("... close-on-exec set", fcntl(10, F_GETFD) == FD_CLOEXEC, errno);
	expect("dup3 to 10 again, no flags: 10",
	    sys(NR_dup3, fd, 10, 0, 0, 0), 10);
	check("... close-on-exec clear", fcntl(10, F_GETFD) == 0, errno);
	expect("dup3 to itself: EINVAL", sys(NR_dup3, fd, fd, 0, 0, 0), -EINVAL);
	expect("dup3 with an unknown flag: EINVAL",
	    sys(NR_dup3, fd, 11, O_APPEND, 0, 0), -EINVAL);
	expect("dup3 of a descriptor not open: EBADF",
	    sys(NR_dup3, 99, 11, 0, 0, 0), -EBADF);
	close(10);
	close(fd);
	snprintf(path, sizeof(path), "%s/linuxraw.fr", dir);
	fd = dup(1);			/* the console, for afterwards */
	f = freopen(path, "w", stdout);
	if (f != NULL) {
		printf("through stdout\n");
		fflush(stdout);
		dup2(fd, 1);
	}
	close(fd);
	check("freopen of stdout (dup3 under it)", f != NULL, errno);
	f = fopen(path, "r");
	check("... and what was printed is in the file", f != NULL &&
	    fgets(buf, sizeof(buf), f) != NULL &&
	    strcmp(buf, "through stdout\n") == 0, errno);
	if (f != NULL)
		fclose(f);
	unlink(path);
}

/* --- full: dir is on a full file system ---------------------------------- */

void
t_full(const char *dir)
{
	static char buf[65536];
	char path[512];
	struct iov v[2] = { { buf, 512 }, { buf, 512 } };
	FILE *f;
	long fd, r;
	size_t n;

	snprintf(path, sizeof(path), "%s/linuxraw.full", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	check("open a file on the full file system", fd >= 0, errno);
	while ((r = sys(NR_write, fd, (long)buf, sizeof(buf), 0, 0)) ==
	    (long)sizeof(buf))
		continue;
	expect("write 64 KB at a time until it fails: ENOSPC", r, -ENOSPC);
	while ((r = sys(NR_write, fd, (long)buf, 512, 0, 0)) == 512)
		continue;
	expect("then 512 bytes at a time: ENOSPC", r, -ENOSPC);
	expect("writev of two 512-byte buffers: ENOSPC",
	    sys(NR_writev, fd, (long)v, 2, 0, 0), -ENOSPC);
	close(fd);
	unlink(path);
	/* Fill what unlinking gave back, with stdio this time. */
	f = fopen(path, "w");
	check("fopen another", f != NULL, errno);
	if (f == NULL)
		return;
	errno = 0;
	do
		n = fwrite(buf, 1, 4000, f);
	while (n == 4000);
	check("fwrite until it fails: ENOSPC", errno == ENOSPC && ferror(f),
	    errno);
	fclose(f);
	/* A stream whose only write is fclose's flush. */
	snprintf(path + strlen(path), 8, ".2");
	f = fopen(path, "w");
	check("fopen a third", f != NULL, errno);
	if (f == NULL)
		return;
	check("fwrite 100 bytes into its buffer", fwrite(buf, 1, 100, f) == 100,
	    errno);
	errno = 0;
	check("fclose, whose flush fails: EOF, ENOSPC", fclose(f) == EOF &&
	    errno == ENOSPC, errno);
	unlink(path);
	path[strlen(path) - 2] = '\0';
	unlink(path);
}
