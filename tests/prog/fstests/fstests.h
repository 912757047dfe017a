/*
 * fstests: what the test files share (util.c holds the helpers).
 */
#ifndef FSTESTS_H
#define FSTESTS_H

#include <sys/types.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NDADDR		12	/* direct block pointers in an inode */
#define PAGE		4096	/* the i386 page size */
#define NDIRFILES	2000	/* entries in the big directory */
#define NWRITERS	4	/* concurrent writers of their own files */
#define OWNSIZE		(256 * 1024)
#define NAPPENDERS	4	/* concurrent O_APPEND writers of one file */
#define NRECORDS	250	/* records per appender */
#define RECLEN		100

/* Data buffers, off the stack: see badptrs. */
extern char buf[64 * 1024], buf2[64 * 1024];

#include "tests/lib/check.h"

unsigned char pattern(off_t off, int seed);
void	fill(unsigned char *p, off_t off, int n, int seed);
int	write_pattern(int fd, off_t off, off_t len, int seed);
off_t	verify(int fd, off_t off, off_t len, int seed);
long	freeblocks(void);
struct stat *statp(const char *name);
#define inum(name)	(statp(name)->st_ino)
#define nlinks(name)	(statp(name)->st_nlink)

#endif
