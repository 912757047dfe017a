/* Standard definitions, for the guest's cc (i386, ILP32). */
#ifndef _STDDEF_H_
#define _STDDEF_H_

#ifndef _SIZE_T_DECLARED
#define _SIZE_T_DECLARED
typedef unsigned int	size_t;
#endif
typedef int		ptrdiff_t;
#ifndef __cplusplus
typedef int		wchar_t;
#endif

#ifndef NULL
#define NULL	((void *)0)
#endif
#define offsetof(type, member)	((size_t)&((type *)0)->member)

#endif
