/*
 * poll(2): the descriptors to watch and what happened to them.  The
 * structure and the bits are POSIX's, with the values 4.4BSD's
 * successors and Linux share.
 */
#ifndef _SYS_POLL_H_
#define _SYS_POLL_H_

struct pollfd {
	int	fd;		/* negative: skipped, revents 0 */
	short	events;		/* asked for */
	short	revents;	/* found: asked-for bits, and the last three */
};

#define POLLIN		0x0001	/* a read would not block */
#define POLLPRI		0x0002
#define POLLOUT		0x0004	/* a write would not block */
#define POLLERR		0x0008	/* a pipe with no reader left */
#define POLLHUP		0x0010	/* a pipe with no writer left */
#define POLLNVAL	0x0020	/* fd is not open */
#define POLLRDNORM	0x0040	/* POLLIN's twin */
#define POLLWRNORM	0x0100	/* POLLOUT's twin */

#define INFTIM		(-1)	/* timeout: wait for ever */

#endif
