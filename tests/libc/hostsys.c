/*
 * The system calls the tested libc pieces make, supplied by the host:
 * bsd_read -> read and so on, translating open(2) flags and whence
 * values from 4.4BSD's to Linux's.  sbrk hands out a fixed arena so the
 * malloc tests can see how much memory the allocator took; ioctl always
 * fails, so no stream is a terminal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/time.h>
#include <unistd.h>

#include "bsd.h"
#include "harness.h"

#define ARENASIZE	(16 * 1024 * 1024)

static char arena[ARENASIZE] __attribute__((aligned(16)));
static unsigned brkoff;

static int
fail(void)
{
	bsd_errno = errno;	/* 1..34 mean the same on both systems */
	return -1;
}

int
bsd_read(int fd, void *buf, unsigned n)
{
	int r = read(fd, buf, n);

	return r < 0 ? fail() : r;
}

int
bsd_write(int fd, const void *buf, unsigned n)
{
	int r = write(fd, buf, n);

	return r < 0 ? fail() : r;
}

int
bsd_open(const char *path, int bflags, int mode)
{
	int flags, fd;

	flags = bflags & 3;		/* O_RDONLY, O_WRONLY, O_RDWR agree */
	if (bflags & 0x0008)
		flags |= O_APPEND;
	if (bflags & 0x0200)
		flags |= O_CREAT;
	if (bflags & 0x0400)
		flags |= O_TRUNC;
	if (bflags & 0x0800)
		flags |= O_EXCL;
	fd = open(path, flags, mode);
	return fd < 0 ? fail() : fd;
}

int
bsd_close(int fd)
{
	return close(fd) < 0 ? fail() : 0;
}

long long
bsd___sys_lseek(int fd, int pad, long long off, int whence)
{
	long long r;

	r = lseek64(fd, off, whence);	/* SEEK_* agree */
	return r < 0 ? fail() : r;
}

int
bsd_ioctl(int fd, unsigned long req, void *arg)
{
	bsd_errno = 25;		/* ENOTTY */
	return -1;
}

void *
bsd_sbrk(int incr)
{
	char *old;

	if ((incr > 0 && brkoff + incr > ARENASIZE) ||
	    (incr < 0 && (unsigned)-incr > brkoff)) {
		bsd_errno = 12;	/* ENOMEM */
		return (void *)-1;
	}
	old = arena + brkoff;
	brkoff += incr;
	return old;
}

unsigned
arena_used(void)
{
	return brkoff;
}

void
bsd__exit(int status)
{
	_exit(status);
}

int
bsd_gettimeofday(struct timeval *tv, void *tz)
{
	return gettimeofday(tv, NULL);
}
