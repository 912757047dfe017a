/*
 * open(2) and fcntl(2) flags, 4.4BSD values.
 */
#ifndef _SYS_FCNTL_H_
#define _SYS_FCNTL_H_

#define O_RDONLY	0x0000
#define O_WRONLY	0x0001
#define O_RDWR		0x0002
#define O_ACCMODE	0x0003
#define O_NONBLOCK	0x0004
#define O_APPEND	0x0008
#define O_FSYNC		0x0080
#define O_CREAT		0x0200
#define O_TRUNC		0x0400
#define O_EXCL		0x0800

#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define FD_CLOEXEC	1

/* access(2) */
#define F_OK		0
#define X_OK		0x01
#define W_OK		0x02
#define R_OK		0x04

/* lseek(2) */
#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2

#endif
