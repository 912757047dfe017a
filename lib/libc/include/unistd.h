/*
 * The system call interface and the POSIX process primitives.
 *
 * The kernel's <sys/*.h> headers are shared with the kernel and carry
 * structures and constants only, so the prototypes that 4.4BSD puts in
 * <sys/stat.h>, <sys/wait.h>, <sys/mount.h> and the like are declared
 * here, in the second half of this file.
 */
#ifndef _UNISTD_H_
#define _UNISTD_H_

#include <sys/types.h>

#define STDIN_FILENO	0
#define STDOUT_FILENO	1
#define STDERR_FILENO	2

#ifndef F_OK
#define F_OK		0
#define X_OK		0x01
#define W_OK		0x02
#define R_OK		0x04
#endif
#ifndef SEEK_SET
#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2
#endif

void	 _exit(int) __attribute__((__noreturn__));
int	 access(const char *, int);
int	 brk(const char *);
int	 chdir(const char *);
int	 chown(const char *, uid_t, gid_t);
int	 close(int);
int	 dup(int);
int	 dup2(int, int);
int	 execl(const char *, const char *, ...);
int	 execle(const char *, const char *, ...);
int	 execlp(const char *, const char *, ...);
int	 execv(const char *, char *const *);
int	 execve(const char *, char *const *, char *const *);
int	 execvp(const char *, char *const *);
int	 fchdir(int);
int	 fchown(int, uid_t, gid_t);
pid_t	 fork(void);
int	 fsync(int);
int	 ftruncate(int, off_t);
char	*getcwd(char *, size_t);
gid_t	 getegid(void);
uid_t	 geteuid(void);
gid_t	 getgid(void);
int	 getgroups(int, gid_t *);
int	 getopt(int, char *const *, const char *);
int	 getpagesize(void);
pid_t	 getpgrp(void);
pid_t	 getpid(void);
pid_t	 getppid(void);
uid_t	 getuid(void);
int	 getdtablesize(void);
int	 isatty(int);
int	 link(const char *, const char *);
off_t	 lseek(int, off_t, int);
int	 pipe(int *);
ssize_t	 pread(int, void *, size_t, off_t);
ssize_t	 pwrite(int, const void *, size_t, off_t);
ssize_t	 read(int, void *, size_t);
ssize_t	 readlink(const char *, char *, size_t);
int	 rmdir(const char *);
void	*sbrk(int);
int	 setegid(gid_t);
int	 seteuid(uid_t);
int	 setgid(gid_t);
int	 setgroups(int, const gid_t *);
int	 setpgid(pid_t, pid_t);
pid_t	 setsid(void);
int	 setuid(uid_t);
unsigned sleep(unsigned);
int	 symlink(const char *, const char *);
void	 sync(void);
pid_t	 tcgetpgrp(int);
int	 tcsetpgrp(int, pid_t);
int	 truncate(const char *, off_t);
int	 unlink(const char *);
int	 usleep(useconds_t);
ssize_t	 write(int, const void *, size_t);

extern char	*optarg;
extern int	 optind, opterr, optopt, optreset;
extern char	**environ;

/*
 * Calls whose 4.4BSD prototypes live in <sys/*.h>.
 */
struct stat;
struct statfs;
struct timeval;
struct timezone;
struct timespec;
struct rusage;

/* <sys/stat.h> */
int	 chmod(const char *, mode_t);
int	 fchmod(int, mode_t);
int	 fstat(int, struct stat *);
int	 lstat(const char *, struct stat *);
int	 mkdir(const char *, mode_t);
int	 mknod(const char *, mode_t, dev_t);
int	 stat(const char *, struct stat *);
int	 chflags(const char *, u_int32_t);
int	 fchflags(int, u_int32_t);
char	*fflagstostr(u_int32_t);
int	 strtofflags(char **, u_int32_t *, u_int32_t *);
mode_t	 umask(mode_t);

/* <sys/wait.h> */
pid_t	 wait(int *);
pid_t	 waitpid(pid_t, int *, int);
pid_t	 wait4(pid_t, int *, int, struct rusage *);

/* <sys/resource.h> */
int	 getrusage(int, struct rusage *);

/* <sys/time.h> */
int	 gettimeofday(struct timeval *, struct timezone *);
int	 settimeofday(const struct timeval *, const struct timezone *);
int	 utimes(const char *, const struct timeval *);

/* <sys/ioctl.h> */
int	 ioctl(int, unsigned long, ...);

/* <sys/mount.h> */
int	 fstatfs(int, struct statfs *);
int	 getfsstat(struct statfs *, long, int);
int	 mount(const char *, const char *, int, void *);
int	 statfs(const char *, struct statfs *);
int	 unmount(const char *, int);

/* <sys/reboot.h> */
int	 reboot(int);

/* <sys/dirent.h> */
int	 getdirentries(int, char *, int, long *);

/* The indirect system call, for calls libc has no wrapper for yet. */
int	 syscall(int, ...);

/*
 * The project's own calls; the LFS cleaner's four (thesis 6.4) and its
 * counters are further down, with the structures they take declared.
 */
struct kinfo_proc;
struct diskstats;
int	 getproc(struct kinfo_proc *, int);		/* sys/kinfo.h */
int	 diskstats(int, struct diskstats *, int);	/* sys/diskstats.h */
int	 bufstats(void *);
struct vmstats;
int	 vmstats(struct vmstats *);			/* sys/vmstats.h */
struct fsid;					/* sys/mount.h */
struct block_info;				/* sys/ufs/lfs.h */
struct lfs_stats;
struct timeval;
int	 lfs_bmapv(const struct fsid *, struct block_info *, int);
int	 lfs_markv(const struct fsid *, struct block_info *, int);
int	 lfs_segclean(const struct fsid *, unsigned int);
int	 lfs_segwait(const struct fsid *, struct timeval *);
int	 lfsstats(const struct fsid *, struct lfs_stats *, int);

#endif
