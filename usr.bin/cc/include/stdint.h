/* Exact-width integers (C99) on i386, for the guest's cc. */
#ifndef _STDINT_H_
#define _STDINT_H_

typedef signed char		int8_t;
typedef short			int16_t;
typedef int			int32_t;
typedef long long		int64_t;
typedef unsigned char		uint8_t;
typedef unsigned short		uint16_t;
typedef unsigned int		uint32_t;
typedef unsigned long long	uint64_t;
typedef int			intptr_t;
typedef unsigned int		uintptr_t;
typedef long long		intmax_t;
typedef unsigned long long	uintmax_t;

#define INT8_MAX	0x7f
#define INT16_MAX	0x7fff
#define INT32_MAX	0x7fffffff
#define INT64_MAX	0x7fffffffffffffffLL
#define INT8_MIN	(-INT8_MAX - 1)
#define INT16_MIN	(-INT16_MAX - 1)
#define INT32_MIN	(-INT32_MAX - 1)
#define INT64_MIN	(-INT64_MAX - 1)
#define UINT8_MAX	0xff
#define UINT16_MAX	0xffff
#define UINT32_MAX	0xffffffffU
#define UINT64_MAX	0xffffffffffffffffULL
#define INTPTR_MAX	INT32_MAX
#define UINTPTR_MAX	UINT32_MAX
#define SIZE_MAX	UINT32_MAX

#endif
