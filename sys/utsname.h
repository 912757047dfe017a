/*
 * The system's names, from uname(2) (SYS_uname, 4.4BSD's uname(3) fields):
 *   int uname(struct utsname *name);
 */
#ifndef _SYS_UTSNAME_H_
#define _SYS_UTSNAME_H_

#define _SYS_NMLN	48

struct utsname {
	char	sysname[_SYS_NMLN];	/* the operating system */
	char	nodename[_SYS_NMLN];	/* this machine on a network */
	char	release[_SYS_NMLN];	/* its release */
	char	version[_SYS_NMLN];	/* its version */
	char	machine[_SYS_NMLN];	/* the hardware */
};

#ifndef KERNEL
int	uname(struct utsname *);
#endif

#endif /* !_SYS_UTSNAME_H_ */
