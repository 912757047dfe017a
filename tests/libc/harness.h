/*
 * A tiny test harness: CHECK macros count checks and print a line for
 * each failure with what was expected and what came out.
 */
#ifndef HARNESS_H
#define HARNESS_H

extern int nchecks, nfailures;

void	check(int ok, const char *expr, const char *file, int line);
void	checkstr(const char *got, const char *want, const char *expr,
	    const char *file, int line);
void	checkint(long long got, long long want, const char *expr,
	    const char *file, int line);

#define CHECK(e)		check((e) != 0, #e, __FILE__, __LINE__)
#define CHECK_STR(got, want)	checkstr((got), (want), #got, __FILE__, __LINE__)
#define CHECK_INT(got, want)	checkint((got), (want), #got, __FILE__, __LINE__)

void	test_printf(void);
void	test_string(void);
void	test_stdlib(void);
void	test_malloc(void);
void	test_stdio(void);
void	test_time(void);
void	test_misc(void);
void	test_regex(void);

/* hostsys.c */
unsigned arena_used(void);

#endif
