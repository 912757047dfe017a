/*
 * General utilities: memory, conversions, sorting, environment, exit.
 */
#ifndef _STDLIB_H_
#define _STDLIB_H_

#include <sys/types.h>

#define EXIT_SUCCESS	0
#define EXIT_FAILURE	1
#define RAND_MAX	0x7fffffff

typedef struct { int quot, rem; } div_t;
typedef struct { long quot, rem; } ldiv_t;

void	 abort(void) __attribute__((__noreturn__));
int	 abs(int);
int	 atexit(void (*)(void));
int	 atoi(const char *);
long	 atol(const char *);
long long atoll(const char *);
void	*bsearch(const void *, const void *, size_t, size_t,
	    int (*)(const void *, const void *));
void	*calloc(size_t, size_t);
div_t	 div(int, int);
void	 exit(int) __attribute__((__noreturn__));
void	 free(void *);
char	*getenv(const char *);
long	 labs(long);
ldiv_t	 ldiv(long, long);
long long llabs(long long);
void	*malloc(size_t);
int	 putenv(char *);
void	 qsort(void *, size_t, size_t, int (*)(const void *, const void *));
int	 rand(void);
void	*realloc(void *, size_t);
int	 setenv(const char *, const char *, int);
void	 srand(unsigned);
long	 strtol(const char *, char **, int);
long long strtoll(const char *, char **, int);
unsigned long strtoul(const char *, char **, int);
unsigned long long strtoull(const char *, char **, int);
int	 system(const char *);
int	 unsetenv(const char *);

const char *getprogname(void);

#endif
