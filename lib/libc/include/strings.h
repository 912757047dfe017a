/*
 * The BSD string functions that are not in ISO C.
 */
#ifndef _STRINGS_H_
#define _STRINGS_H_

#include <sys/types.h>

int	strcasecmp(const char *, const char *);
int	strncasecmp(const char *, const char *, size_t);
void	bzero(void *, size_t);
void	bcopy(const void *, void *, size_t);
int	bcmp(const void *, const void *, size_t);
char	*index(const char *, int);
char	*rindex(const char *, int);

#endif
