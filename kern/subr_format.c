/*
 * The printf engine, one for the kernel (kern/subr_prf.c: the console and
 * snprintf) and for libc (lib/libc/stdio/printf.c: streams, strings,
 * descriptors), compiled into each: it parses the format and hands the
 * output, piece by piece, to a sink function.
 *
 * Conversions: d i u o x X c s p % n.  Flags: - 0 + space #.  Width and
 * precision, either may be *.  Sizes: hh h l ll q z j t.  There is no
 * floating point: %e %f %g and any other conversion it does not know are
 * printed loudly, as "%!f", so a mistake shows instead of shifting the
 * arguments that follow.
 */
#include <stdarg.h>
#ifdef KERNEL
#include "kern/systm.h"
#else
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#endif

#define LADJ	0x01	/* - */
#define ZEROPAD	0x02	/* 0 */
#define PLUS	0x04	/* + */
#define SPACE	0x08	/* space */
#define ALT	0x10	/* # */
#define PTR	0x20	/* %p: 0x even for a null pointer */

#define SZ_INT	0
#define SZ_CHAR	1
#define SZ_SHORT 2
#define SZ_LONG	3
#define SZ_LLONG 4

struct sink {
	void	(*put)(void *, const char *, size_t);
	void	*arg;
	int	 count;
};

static void
emit(struct sink *sk, const char *s, size_t n)
{
	if (n > 0) {
		sk->put(sk->arg, s, n);
		sk->count += n;
	}
}

static void
pad(struct sink *sk, int c, int n)
{
	char buf[16];
	int k;

	memset(buf, c, sizeof(buf));
	while (n > 0) {
		k = n < (int)sizeof(buf) ? n : (int)sizeof(buf);
		emit(sk, buf, k);
		n -= k;
	}
}

/*
 * Output one field: prefix (sign, "0x"), then zeros up to the precision,
 * then the body, padded to the width with spaces (or zeros between the
 * prefix and the body with the 0 flag).
 */
static void
field(struct sink *sk, const char *prefix, int zeros, const char *body,
    int len, int width, int flags)
{
	int plen, total;

	plen = strlen(prefix);
	total = plen + zeros + len;
	if ((flags & ZEROPAD) && !(flags & LADJ) && total < width) {
		zeros += width - total;
		total = width;
	}
	if (!(flags & LADJ))
		pad(sk, ' ', width - total);
	emit(sk, prefix, plen);
	pad(sk, '0', zeros);
	emit(sk, body, len);
	if (flags & LADJ)
		pad(sk, ' ', width - total);
}

static void
number(struct sink *sk, unsigned long long v, int neg, int base, int upper,
    int width, int prec, int flags)
{
	const char *digits;
	char buf[24], *p;
	const char *prefix;
	int len, zeros;

	digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	p = buf + sizeof(buf);
	if (base == 10 && v <= 0xffffffffULL) {
		unsigned long w = v;	/* 32-bit division is cheaper */

		while (w != 0) {
			*--p = digits[w % 10];
			w /= 10;
		}
	} else {
		while (v != 0) {
			*--p = digits[v % base];
			v /= base;
		}
	}
	len = buf + sizeof(buf) - p;
	if (prec < 0)
		prec = 1;
	else
		flags &= ~ZEROPAD;	/* a precision overrides the 0 flag */
	zeros = prec > len ? prec - len : 0;

	prefix = "";
	if (neg)
		prefix = "-";
	else if (flags & PLUS)
		prefix = "+";
	else if (flags & SPACE)
		prefix = " ";
	else if ((flags & ALT) && base == 16 && (len > 0 || (flags & PTR)))
		prefix = upper ? "0X" : "0x";
	else if ((flags & ALT) && base == 8 && zeros == 0)
		zeros = 1;
	field(sk, prefix, zeros, p, len, width, flags);
}

int
__format(void (*put)(void *, const char *, size_t), void *arg,
    const char *fmt, va_list ap)
{
	struct sink sk;
	const char *start, *s;
	unsigned long long u;
	long long v;
	int flags, width, prec, size, len;
	char c;

	sk.put = put;
	sk.arg = arg;
	sk.count = 0;
	for (;;) {
		for (start = fmt; *fmt != '\0' && *fmt != '%'; fmt++)
			continue;
		emit(&sk, start, fmt - start);
		if (*fmt == '\0')
			break;
		start = fmt++;		/* at the '%' */

		flags = 0;
		for (;; fmt++) {
			if (*fmt == '-')
				flags |= LADJ;
			else if (*fmt == '0')
				flags |= ZEROPAD;
			else if (*fmt == '+')
				flags |= PLUS;
			else if (*fmt == ' ')
				flags |= SPACE;
			else if (*fmt == '#')
				flags |= ALT;
			else
				break;
		}
		width = 0;
		if (*fmt == '*') {
			fmt++;
			if ((width = va_arg(ap, int)) < 0) {
				flags |= LADJ;
				width = -width;
			}
		} else
			while (*fmt >= '0' && *fmt <= '9')
				width = width * 10 + *fmt++ - '0';
		prec = -1;
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				fmt++;
				if ((prec = va_arg(ap, int)) < 0)
					prec = -1;
			} else
				while (*fmt >= '0' && *fmt <= '9')
					prec = prec * 10 + *fmt++ - '0';
		}
		size = SZ_INT;
		if (*fmt == 'h') {
			size = SZ_SHORT;
			if (*++fmt == 'h') {
				size = SZ_CHAR;
				fmt++;
			}
		} else if (*fmt == 'l') {
			size = SZ_LONG;
			if (*++fmt == 'l') {
				size = SZ_LLONG;
				fmt++;
			}
		} else if (*fmt == 'q' || *fmt == 'j') {
			size = SZ_LLONG;
			fmt++;
		} else if (*fmt == 'z' || *fmt == 't') {
			size = SZ_LONG;	/* size_t and ptrdiff_t are 32 bits */
			fmt++;
		}

		switch (c = *fmt++) {
		case 'd':
		case 'i':
			if (size == SZ_LLONG)
				v = va_arg(ap, long long);
			else if (size == SZ_LONG)
				v = va_arg(ap, long);
			else
				v = va_arg(ap, int);
			if (size == SZ_SHORT)
				v = (short)v;
			else if (size == SZ_CHAR)
				v = (signed char)v;
			u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
			number(&sk, u, v < 0, 10, 0, width, prec, flags);
			break;
		case 'u':
		case 'o':
		case 'x':
		case 'X':
			if (size == SZ_LLONG)
				u = va_arg(ap, unsigned long long);
			else if (size == SZ_LONG)
				u = va_arg(ap, unsigned long);
			else
				u = va_arg(ap, unsigned int);
			if (size == SZ_SHORT)
				u = (unsigned short)u;
			else if (size == SZ_CHAR)
				u = (unsigned char)u;
			flags &= ~(PLUS | SPACE);
			number(&sk, u, 0, c == 'u' ? 10 : c == 'o' ? 8 : 16,
			    c == 'X', width, prec, flags);
			break;
		case 'p':
			u = (unsigned long)va_arg(ap, void *);
			number(&sk, u, 0, 16, 0, width, prec,
			    (flags & ~(PLUS | SPACE)) | ALT | PTR);
			break;
		case 'c':
			c = va_arg(ap, int);
			field(&sk, "", 0, &c, 1, width, flags & ~ZEROPAD);
			break;
		case 's':
			if ((s = va_arg(ap, const char *)) == NULL)
				s = "(null)";
			for (len = 0; (prec < 0 || len < prec) && s[len]; len++)
				continue;
			field(&sk, "", 0, s, len, width, flags & ~ZEROPAD);
			break;
		case 'n':
			*va_arg(ap, int *) = sk.count;
			break;
		case '%':
			emit(&sk, "%", 1);
			break;
		case '\0':
			emit(&sk, start, fmt - 1 - start);
			return sk.count;
		default:
			emit(&sk, "%!", 2);
			emit(&sk, &c, 1);
			break;
		}
	}
	return sk.count;
}
