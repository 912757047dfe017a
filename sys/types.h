/*
 * Basic system types, shared by kernel and userland (4.4BSD i386 sizes).
 * off_t is 64 bits as in 4.4BSD, so files past 2 GB are representable.
 */
#ifndef _SYS_TYPES_H_
#define _SYS_TYPES_H_

typedef unsigned char		u_int8_t;
typedef unsigned short		u_int16_t;
typedef unsigned int		u_int32_t;
typedef unsigned long long	u_int64_t;
typedef signed char		int8_t;
typedef short			int16_t;
typedef int			int32_t;
typedef long long		int64_t;
typedef unsigned char		u_char;
typedef unsigned short		u_short;
typedef unsigned int		u_int;
typedef unsigned long		u_long;

typedef u_int32_t	dev_t;		/* device number: major << 8 | minor */
typedef u_int32_t	ino_t;		/* inode number */
typedef u_int16_t	mode_t;		/* permissions and file type */
typedef u_int16_t	nlink_t;	/* link count */
typedef u_int32_t	uid_t;
typedef u_int32_t	gid_t;
typedef int32_t		pid_t;
typedef int64_t		off_t;		/* file offset */
typedef int32_t		daddr_t;	/* disk address, in sectors */
typedef long		time_t;
typedef long		suseconds_t;
typedef unsigned int	useconds_t;
typedef long		clock_t;
typedef u_int32_t	fixpt_t;
typedef char		*caddr_t;

#ifndef _SIZE_T_DECLARED
#define _SIZE_T_DECLARED
typedef unsigned int	size_t;
#endif
#ifndef _SSIZE_T_DECLARED
#define _SSIZE_T_DECLARED
typedef int		ssize_t;
#endif

#define major(d)	(((d) >> 8) & 0xff)
#define minor(d)	((d) & 0xff)
#define makedev(x, y)	((dev_t)(((x) << 8) | (y)))

#ifndef NULL
#define NULL	((void *)0)
#endif

#endif
