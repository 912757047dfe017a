/*
 * Kernel-wide declarations: the C library of the kernel (printf, string
 * routines), panic, and the small set of globals every file uses.
 */
#ifndef _KERN_SYSTM_H_
#define _KERN_SYSTM_H_

#include <sys/types.h>
#include <sys/param.h>
#include <sys/errno.h>
#include <stdarg.h>

#define KERNBASE_VA	0xC0000000u
#define P2V(pa)		((void *)((u_int32_t)(pa) + KERNBASE_VA))
#define V2P(va)		((u_int32_t)(va) - KERNBASE_VA)

#define nitems(a)	(sizeof(a) / sizeof((a)[0]))
#define offsetof(t, m)	__builtin_offsetof(t, m)

#define KASSERT(e)	((e) ? (void)0 : \
	panic("assertion \"%s\" failed: %s:%d", #e, __FILE__, __LINE__))

extern int hz;				/* clock ticks per second */
extern volatile u_int32_t ticks;	/* ticks since boot */
extern int cold;			/* still configuring devices */
extern u_int32_t physmem;		/* bytes of RAM */
extern char kargs[];			/* kernel command line */
extern const char version[];		/* the banner (kern_version.c) */
struct utsname;
void	uname_fill(struct utsname *);	/* uname(2)'s names (kern_version.c) */

void	printf(const char *, ...) __attribute__((format(printf, 1, 2)));
void	vprintf(const char *, va_list);
int	snprintf(char *, size_t, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
int	vsnprintf(char *, size_t, const char *, va_list);
int	__format(void (*put)(void *, const char *, size_t), void *arg,
	    const char *, va_list);	/* kern/subr_format.c */
void	panic(const char *, ...) __attribute__((noreturn, format(printf, 1, 2)));
void	backtrace(u_int32_t ebp);
const char *ksym_lookup(u_int32_t addr, u_int32_t *off);

void	*memset(void *, int, size_t);
void	*memcpy(void *, const void *, size_t);
void	*memmove(void *, const void *, size_t);
int	memcmp(const void *, const void *, size_t);
size_t	strlen(const char *);
int	strcmp(const char *, const char *);
int	strncmp(const char *, const char *, size_t);
char	*strncpy(char *, const char *, size_t);
size_t	strlcpy(char *, const char *, size_t);
char	*strchr(const char *, int);
long	strtol(const char *, char **, int);
#define bzero(p, n)	memset((p), 0, (n))
#define bcopy(s, d, n)	memmove((d), (s), (n))

/* kernel arguments: "name=value" words of the multiboot command line */
const char *getkarg(const char *name);
long	getkarg_int(const char *name, long dflt);

/* console */
void	cnputc(int c);
void	cninit(void);
void	comattach(void);		/* input by interrupt, once they work */

/* time */
struct timeval;
void	microtime(struct timeval *);
u_int64_t uptime_us(void);		/* microseconds since boot */
void	clock_init(void);
void	delay(int us);			/* busy-wait */
void	settime(time_t sec);

/* shutdown */
void	cpu_reset(void) __attribute__((noreturn));
void	cpu_powerdown(void) __attribute__((noreturn));
int	kern_reboot(int howto);

#endif
