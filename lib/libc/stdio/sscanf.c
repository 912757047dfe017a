/*
 * sscanf(3), a small one: conversions d i u o x X c s [ n %, with a
 * field width, assignment suppression (*) and sizes hh h l ll.  White
 * space in the format matches any amount of white space in the input.
 * Returns the number of assignments, or EOF if the input ran out before
 * the first conversion.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Store an integer conversion into the argument of the given size. */
static void
store(va_list *ap, int size, unsigned long long v)
{
	switch (size) {
	case 'H':
		*va_arg(*ap, char *) = v;
		break;
	case 'h':
		*va_arg(*ap, short *) = v;
		break;
	case 'l':
		*va_arg(*ap, long *) = v;
		break;
	case 'L':
		*va_arg(*ap, long long *) = v;
		break;
	default:
		*va_arg(*ap, int *) = v;
		break;
	}
}

/* Does c belong to the [...] set starting at p?  Sets *endp past ']'. */
static int
inset(const char *p, int c, const char **endp)
{
	int negate, in;

	negate = *p == '^';
	if (negate)
		p++;
	in = 0;
	if (*p == ']') {
		in = c == ']';
		p++;
	}
	for (; *p != '\0' && *p != ']'; p++) {
		if (p[1] == '-' && p[2] != ']' && p[2] != '\0') {
			if (p[0] <= c && c <= p[2])
				in = 1;
			p += 2;
		} else if (*p == c)
			in = 1;
	}
	*endp = *p == ']' ? p + 1 : p;
	return in != negate;
}

int
vsscanf(const char *str, const char *fmt, va_list ap0)
{
	const char *s, *setend;
	char numbuf[72], *end, *out;
	unsigned long long v;
	int nassigned, suppress, width, size, base, n, c;
	va_list ap;

	va_copy(ap, ap0);
	s = str;
	nassigned = 0;
	while (*fmt != '\0') {
		if (isspace((unsigned char)*fmt)) {
			while (isspace((unsigned char)*s))
				s++;
			fmt++;
			continue;
		}
		if (*fmt != '%' || fmt[1] == '%') {
			if (*fmt == '%')
				fmt++;
			if (*s != *fmt)
				break;
			s++;
			fmt++;
			continue;
		}
		fmt++;
		suppress = *fmt == '*';
		if (suppress)
			fmt++;
		width = 0;
		while (isdigit((unsigned char)*fmt))
			width = width * 10 + *fmt++ - '0';
		size = 0;
		if (*fmt == 'h') {
			size = fmt[1] == 'h' ? 'H' : 'h';
			fmt += size == 'H' ? 2 : 1;
		} else if (*fmt == 'l') {
			size = fmt[1] == 'l' ? 'L' : 'l';
			fmt += size == 'L' ? 2 : 1;
		}
		c = *fmt++;
		if (c == 'n') {
			if (!suppress)
				store(&ap, size, s - str);
			continue;
		}
		if (c != 'c' && c != '[')
			while (isspace((unsigned char)*s))
				s++;
		if (*s == '\0') {
			if (nassigned == 0)
				nassigned = EOF;
			break;
		}
		switch (c) {
		case 'c':
			if (width == 0)
				width = 1;
			if ((int)strnlen(s, width) < width)
				goto done;
			if (!suppress) {
				memcpy(va_arg(ap, char *), s, width);
				nassigned++;
			}
			s += width;
			break;
		case 's':
		case '[':
			out = suppress ? NULL : va_arg(ap, char *);
			setend = fmt;
			for (n = 0; s[n] != '\0' && (width == 0 || n < width); n++) {
				if (c == 's' ? isspace((unsigned char)s[n]) :
				    !inset(fmt, (unsigned char)s[n], &setend))
					break;
			}
			if (c == '[') {
				inset(fmt, 0, &setend);
				fmt = setend;
			}
			if (n == 0)
				goto done;
			if (out != NULL) {
				memcpy(out, s, n);
				out[n] = '\0';
				nassigned++;
			}
			s += n;
			break;
		case 'd':
		case 'i':
		case 'u':
		case 'o':
		case 'x':
		case 'X':
			base = c == 'd' || c == 'u' ? 10 : c == 'i' ? 0 :
			    c == 'o' ? 8 : 16;
			n = width > 0 && width < (int)sizeof(numbuf) ?
			    width : (int)sizeof(numbuf) - 1;
			strncpy(numbuf, s, n);
			numbuf[n] = '\0';
			if (c == 'd' || c == 'i')
				v = strtoll(numbuf, &end, base);
			else
				v = strtoull(numbuf, &end, base);
			if (end == numbuf)
				goto done;
			s += end - numbuf;
			if (!suppress) {
				store(&ap, size, v);
				nassigned++;
			}
			break;
		default:
			goto done;
		}
	}
done:
	va_end(ap);
	return nassigned;
}

int
sscanf(const char *str, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsscanf(str, fmt, ap);
	va_end(ap);
	return n;
}
