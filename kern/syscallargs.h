/*
 * The arguments of each system call, as the words the user stack holds
 * (4.4BSD syscallargs.h).  syscall() copies sy_narg words from the user
 * stack into one of these and passes it to sys_NAME(p, uap, retval).
 */
#ifndef _KERN_SYSCALLARGS_H_
#define _KERN_SYSCALLARGS_H_

#include <sys/types.h>
#include <sys/time.h>
#include <sys/signal.h>

struct proc;
struct stat;
struct statfs;
struct rusage;
struct timezone;

struct exit_args	{ int rval; };
struct read_args	{ int fd; void *buf; u_int nbyte; };
struct write_args	{ int fd; const void *buf; u_int nbyte; };
struct open_args	{ const char *path; int flags; int mode; };
struct close_args	{ int fd; };
struct wait4_args	{ int pid; int *status; int options; struct rusage *rusage; };
struct link_args	{ const char *path; const char *link; };
struct unlink_args	{ const char *path; };
struct chdir_args	{ const char *path; };
struct fchdir_args	{ int fd; };
struct mknod_args	{ const char *path; int mode; int dev; };
struct chmod_args	{ const char *path; int mode; };
struct chown_args	{ const char *path; int uid; int gid; };
struct break_args	{ char *nsize; };
struct getfsstat_args	{ struct statfs *buf; long bufsize; int flags; };
struct mount_args	{ const char *type; const char *path; int flags; void *data; };
struct unmount_args	{ const char *path; int flags; };
struct setuid_args	{ uid_t uid; };
struct access_args	{ const char *path; int flags; };
struct kill_args	{ int pid; int signum; };
struct dup_args		{ int fd; };
struct sigaction_args	{ int signum; const struct sigaction *nsa; struct sigaction *osa; };
struct sigprocmask_args	{ int how; sigset_t mask; };
struct ioctl_args	{ int fd; u_long com; caddr_t data; };
struct reboot_args	{ int opt; };
struct symlink_args	{ const char *path; const char *link; };
struct readlink_args	{ const char *path; char *buf; int count; };
struct execve_args	{ const char *path; char **argp; char **envp; };
struct umask_args	{ int newmask; };
struct getgroups_args	{ u_int gidsetsize; gid_t *gidset; };
struct setgroups_args	{ u_int gidsetsize; const gid_t *gidset; };
struct setpgid_args	{ int pid; int pgid; };
struct dup2_args	{ int from; int to; };
struct fcntl_args	{ int fd; int cmd; int arg; };
struct fsync_args	{ int fd; };
struct sigreturn_args	{ void *sigcntxp; };
struct sigsuspend_args	{ sigset_t mask; };
struct gettimeofday_args { struct timeval *tp; struct timezone *tzp; };
struct getrusage_args	{ int who; struct rusage *rusage; };
struct settimeofday_args { const struct timeval *tv; const struct timezone *tzp; };
struct fchown_args	{ int fd; int uid; int gid; };
struct fchmod_args	{ int fd; int mode; };
struct rename_args	{ const char *from; const char *to; };
struct mkdir_args	{ const char *path; int mode; };
struct rmdir_args	{ const char *path; };
struct utimes_args	{ const char *path; const struct timeval *tptr; };
struct statfs_args	{ const char *path; struct statfs *buf; };
struct fstatfs_args	{ int fd; struct statfs *buf; };
struct setgid_args	{ gid_t gid; };
struct stat_args	{ const char *path; struct stat *ub; };
struct fstat_args	{ int fd; struct stat *sb; };
struct getdirentries_args { int fd; char *buf; u_int count; long *basep; };
struct lseek_args	{ int fd; int pad; off_t offset; int whence; };
struct truncate_args	{ const char *path; int pad; off_t length; };
struct ftruncate_args	{ int fd; int pad; off_t length; };
struct nanosleep_args	{ const struct timespec *rqtp; struct timespec *rmtp; };
struct getproc_args	{ void *buf; int count; };
struct bufstats_args	{ void *buf; };
struct fsid;
struct block_info;
struct lfs_bmapv_args	{ const struct fsid *fsidp; struct block_info *blkiov;
			  int blkcnt; };
#define lfs_markv_args	lfs_bmapv_args
struct lfs_segclean_args { const struct fsid *fsidp; u_int32_t segment; };
struct lfs_segwait_args	{ const struct fsid *fsidp; struct timeval *tv; };
struct lfsstats_args	{ const struct fsid *fsidp; void *buf; int reset; };

#endif
