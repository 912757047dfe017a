/*
 * assert(3).  Unlike the other headers this one may be included more than
 * once, with or without NDEBUG.
 */
#undef assert
#ifdef NDEBUG
#define assert(e)	((void)0)
#else
#define assert(e)	((e) ? (void)0 : __assert(__func__, __FILE__, __LINE__, #e))
#endif

#ifndef _ASSERT_H_
#define _ASSERT_H_
void	__assert(const char *, const char *, int, const char *)
	    __attribute__((__noreturn__));
#endif
