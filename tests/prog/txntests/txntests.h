/*
 * txntests: what its files share.  txntests.c holds main, the table of
 * tests and the helpers below; each txn_*.c file a theme of tests.
 */
#ifndef TXNTESTS_H
#define TXNTESTS_H

#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/txn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/lib/check.h"

#define PAGE	4096		/* the LFS block size newfs_lfs gives */
#define VICTIM	2		/* a child's exit code: it was the victim */

/* Drop to student (uid 1000), who may read root's files of mode 644. */
#define STUDENT		1000

/* Data buffers, off the stack. */
extern char buf[64 * 1024], buf2[64 * 1024];

/* txntests.c: files, I/O at an offset, the children's barriers */
int	mkfile(const char *name, int npages);
int	slurp(const char *name);
int	pristine(const char *name, int npages);
int	pwrite_at(int fd, off_t off, const void *p, int n);
int	pread_at(int fd, off_t off, void *p, int n);
void	post(int fd);
void	await(int fd, int n);
int	become_student(void);
pid_t	holder(const char *name, int ready, int go, int commit);
pid_t	waiter(const char *name, int ready);
int	waits_reach(u_int32_t n);
int	waited(u_int32_t n);

/* txn_basic.c: the calls, abort and commit, isolation, plain calls */
void	test_misuse(void);
void	test_flags(void);
void	test_abort_commit(int commit);
void	test_holes(void);
void	test_isolation(void);
void	test_implicit(void);
void	test_truncate(void);

/* txn_delta.c: delta commits */
void	test_delta(void);
void	test_deltahold(void);
void	test_deltacheck(void);
void	test_precommit(void);

/* txn_nosteal.c: NO-STEAL and its limit */
void	test_limit(void);
void	test_nosteal(void);
void	test_cleaner(void);

/* txn_end.c: ends other than commit and abort */
void	test_kill(void);
void	test_exit(void);
void	test_forceumount(void);

/* txn_deadlock.c: cycles of waiters and their victims */
void	test_ring(int n);
void	test_clump(int n);
void	test_nocycle(void);
void	test_aborted(void);
void	test_victims(void);

/* txn_plain.c: plain reads and writes among transactions */
void	test_plaincycle(void);
void	test_youngest(void);
void	plain_load(int ro);
void	test_plainload(void);
void	test_holefill(void);

/* txn_dos.c: who may block whom */
void	test_dos(void);
void	test_readhold(void);

#endif
