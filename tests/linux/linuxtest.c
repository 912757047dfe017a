/*
 * linuxtest: a Linux program (glibc, "gcc -m32 -static" on the host)
 * that checks the kernel's Linux compatibility layer from inside:
 * errno values as Linux numbers them, open flags, stat through statx,
 * _llseek, fcntl64, brk and mmap2 memory, TLS through set_thread_area,
 * getrandom, and ENOSYS for a call the layer does not have.
 *	linuxtest [dir]
 * Prints one line per check and last "N passed, M failed".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int passed, failed;
static __thread int tlsvar = 42;

static void
check(const char *what, int ok, int err)
{
	if (ok) {
		printf("(linuxtest) %s: ok\n", what);
		passed++;
	} else {
		printf("(linuxtest) %s: FAILED: errno %d (%s)\n", what, err,
		    strerror(err));
		failed++;
	}
}

int
main(int argc, char *argv[])
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";
	char path[512], sub[512], inner[600], link[512], buf[64], longname[400];
	struct stat st;
	unsigned char rnd[16];
	struct timespec ts;
	char *big, *small, *m;
	long r;
	int fd, i, fl;

	r = syscall(SYS_ptrace, 0, 0, 0, 0);
	check("ptrace, not in the table, says ENOSYS", r == -1 && errno == ENOSYS, errno);
	r = syscall(9999);
	check("a number past the table says ENOSYS", r == -1 && errno == ENOSYS, errno);

	check("thread-local variable through %gs", tlsvar == 42, 0);
	tlsvar = 7;
	check("thread-local variable written", tlsvar == 7, 0);

	snprintf(path, sizeof(path), "%s/linuxtest.f", dir);
	unlink(path);
	errno = 0;
	check("open of a missing file: ENOENT", open(path, O_RDONLY) < 0 && errno == ENOENT, errno);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	check("open O_CREAT|O_EXCL|O_APPEND|O_CLOEXEC", fd >= 0, errno);
	check("write 5 bytes", write(fd, "hello", 5) == 5, errno);
	fl = fcntl(fd, F_GETFL);
	check("fcntl F_GETFL: O_WRONLY|O_APPEND", fl >= 0 &&
	    (fl & O_ACCMODE) == O_WRONLY && (fl & O_APPEND), errno);
	check("fcntl F_GETFD: FD_CLOEXEC from O_CLOEXEC", fcntl(fd, F_GETFD) == FD_CLOEXEC, errno);
	check("fstat (statx with AT_EMPTY_PATH): size 5",
	    fstat(fd, &st) == 0 && st.st_size == 5 && S_ISREG(st.st_mode), errno);
	close(fd);
	errno = 0;
	check("open O_EXCL of an existing file: EEXIST",
	    open(path, O_WRONLY | O_CREAT | O_EXCL, 0644) < 0 && errno == EEXIST, errno);
	check("stat: size 5, mode 0644", stat(path, &st) == 0 && st.st_size == 5 &&
	    (st.st_mode & 07777) == 0644, errno);
	fd = open(path, O_RDONLY);
	check("lseek SEEK_END (_llseek) is 5", lseek(fd, 0, SEEK_END) == 5, errno);
	check("lseek SEEK_SET 1, read 4", lseek(fd, 1, SEEK_SET) == 1 &&
	    read(fd, buf, sizeof(buf)) == 4 && memcmp(buf, "ello", 4) == 0, errno);
	close(fd);

	snprintf(link, sizeof(link), "%s/linuxtest.l", dir);
	unlink(link);
	check("symlink and readlink", symlink(path, link) == 0 &&
	    readlink(link, buf, sizeof(buf)) == (ssize_t)strlen(path), errno);
	check("lstat of the link: a link", lstat(link, &st) == 0 && S_ISLNK(st.st_mode), errno);
	unlink(link);

	snprintf(sub, sizeof(sub), "%s/linuxtest.d", dir);
	snprintf(inner, sizeof(inner), "%s/f", sub);
	mkdir(sub, 0755);
	close(open(inner, O_WRONLY | O_CREAT, 0644));
	errno = 0;
	check("rmdir of a full directory: ENOTEMPTY (Linux 39)",
	    rmdir(sub) < 0 && errno == ENOTEMPTY && ENOTEMPTY == 39, errno);
	unlink(inner);
	check("rmdir of the empty directory", rmdir(sub) == 0, errno);
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	errno = 0;
	check("a 399-byte name: ENAMETOOLONG (Linux 36)",
	    open(longname, O_RDONLY) < 0 && errno == ENAMETOOLONG && ENAMETOOLONG == 36, errno);
	unlink(path);

	small = malloc(100);
	big = malloc(1 << 20);		/* above malloc's mmap threshold */
	check("malloc small (brk) and 1 MB (mmap2)", small != NULL && big != NULL, errno);
	if (big != NULL) {
		for (i = 0; i < 1 << 20; i += 4096)
			big[i] = i >> 12;
		for (i = 0; i < 1 << 20 && big[i] == (char)(i >> 12); i += 4096)
			continue;
		check("1 MB block holds what was written", i == 1 << 20, 0);
	}
	free(big);
	free(small);
	m = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	check("mmap anonymous 64 KB, zero-filled", m != MAP_FAILED && m[0] == 0 && m[65535] == 0, errno);
	check("munmap it", m != MAP_FAILED && munmap(m, 65536) == 0, errno);
	errno = 0;
	fd = open("/etc/passwd", O_RDONLY);
	check("mmap of a file: ENODEV (no file mappings)",
	    mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED && errno == ENODEV, errno);
	close(fd);

	check("getrandom 16 bytes", getrandom(rnd, sizeof(rnd), 0) == 16, errno);
	check("gettid is the pid", syscall(SYS_gettid) == getpid(), errno);
	check("clock_gettime and time", clock_gettime(CLOCK_MONOTONIC, &ts) == 0 &&
	    time(NULL) > 0, errno);

	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
