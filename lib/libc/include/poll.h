/*
 * poll(2): wait until one of several descriptors can be read or written
 * (the structure and bits: sys/poll.h).
 */
#ifndef _POLL_H_
#define _POLL_H_

#include <sys/poll.h>

int	poll(struct pollfd *, unsigned int nfds, int timeout);

#endif
