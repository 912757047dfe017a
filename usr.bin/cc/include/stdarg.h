/*
 * Variable arguments, for the guest's cc (tcc on i386).  tcc predefines
 * __builtin_va_list and the __builtin_va_* macros: arguments sit on the
 * stack in 4-byte slots.
 */
#ifndef _STDARG_H_
#define _STDARG_H_

typedef __builtin_va_list va_list;
#define va_start(ap, last)	__builtin_va_start(ap, last)
#define va_arg(ap, type)	__builtin_va_arg(ap, type)
#define va_copy(dst, src)	__builtin_va_copy(dst, src)
#define va_end(ap)		__builtin_va_end(ap)

#endif
