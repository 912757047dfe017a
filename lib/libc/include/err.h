/*
 * BSD error messages: "prog: message: strerror(errno)" on stderr.
 * err/errx also exit with the given status.
 */
#ifndef _ERR_H_
#define _ERR_H_

#include <stdarg.h>

void	err(int, const char *, ...)
	    __attribute__((__noreturn__, __format__(__printf__, 2, 3)));
void	errx(int, const char *, ...)
	    __attribute__((__noreturn__, __format__(__printf__, 2, 3)));
void	verr(int, const char *, va_list) __attribute__((__noreturn__));
void	verrx(int, const char *, va_list) __attribute__((__noreturn__));
void	warn(const char *, ...) __attribute__((__format__(__printf__, 1, 2)));
void	warnx(const char *, ...) __attribute__((__format__(__printf__, 1, 2)));
void	vwarn(const char *, va_list);
void	vwarnx(const char *, va_list);

#endif
