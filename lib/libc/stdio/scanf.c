/*
 * The scanf family, small: conversions d i u o x X c s [ n %, with a
 * field width, assignment suppression (*) and sizes hh h l ll.  White
 * space in the format matches any amount of white space in the input.
 * They return the number of assignments, or EOF if the input ended
 * before the first conversion.
 *
 * One core (doscan) reads its input a character at a time, looking one
 * ahead, from a string (sscanf) or a stream (fscanf, scanf: the
 * character that ends a field goes back with ungetc).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct input {
	FILE	*fp;			/* a stream, or */
	const char *s;			/* a string */
	int	n;			/* characters taken, for %n */
};

/* The next character, not taken (EOF at the end). */
static int
peek(struct input *in)
{
	int c;

	if (in->fp == NULL)
		return *in->s != '\0' ? (unsigned char)*in->s : EOF;
	if ((c = getc(in->fp)) != EOF)
		ungetc(c, in->fp);
	return c;
}

/* Take the next character (peek said what it is). */
static void
take(struct input *in)
{
	if (in->fp == NULL)
		in->s++;
	else
		(void)getc(in->fp);
	in->n++;
}

static void
skipspace(struct input *in)
{
	int c;

	while ((c = peek(in)) != EOF && isspace(c))
		take(in);
}

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

/* Is c a digit of the base (0: not decided yet, so any decimal one)? */
static int
isbasedigit(int c, int base)
{
	if (base == 16)
		return isxdigit(c);
	if (base == 8)
		return c >= '0' && c <= '7';
	return isdigit(c);
}

/*
 * An integer of at most width characters into buf, as strtoll reads it:
 * a sign, 0x for base 16 (or 0 with base 0, which then decides), digits.
 * Returns the characters taken, 0 if no digit came.
 */
static int
scanint(struct input *in, char *buf, int width, int *basep)
{
	int n = 0, c, base = *basep, digits = 0;

	c = peek(in);
	if (n < width && (c == '+' || c == '-')) {
		buf[n++] = c;
		take(in);
	}
	if (n < width && peek(in) == '0' && (base == 0 || base == 16)) {
		buf[n++] = '0';
		take(in);
		digits = 1;
		c = peek(in);
		if (n < width && (c == 'x' || c == 'X')) {
			buf[n++] = c;
			take(in);
			base = 16;
			digits = 0;
		} else if (base == 0)
			base = 8;
	}
	if (base == 0)
		base = 10;
	while (n < width && (c = peek(in)) != EOF && isbasedigit(c, base)) {
		buf[n++] = c;
		take(in);
		digits++;
	}
	buf[n] = '\0';
	*basep = base;
	return digits > 0 ? n : 0;
}

static int
doscan(struct input *in, const char *fmt, va_list ap0)
{
	const char *setend;
	char numbuf[72], *out;
	unsigned long long v;
	int nassigned, suppress, width, size, base, n, c, conv;
	va_list ap;

	va_copy(ap, ap0);
	nassigned = 0;
	while (*fmt != '\0') {
		if (isspace((unsigned char)*fmt)) {
			skipspace(in);
			fmt++;
			continue;
		}
		if (*fmt != '%' || fmt[1] == '%') {
			if (*fmt == '%')
				fmt++;
			if (peek(in) != (unsigned char)*fmt)
				break;
			take(in);
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
		conv = *fmt++;
		if (conv == 'n') {
			if (!suppress)
				store(&ap, size, in->n);
			continue;
		}
		if (conv != 'c' && conv != '[')
			skipspace(in);
		if (peek(in) == EOF) {
			if (nassigned == 0)
				nassigned = EOF;
			break;
		}
		switch (conv) {
		case 'c':
			out = suppress ? NULL : va_arg(ap, char *);
			for (n = 0; n < (width ? width : 1); n++) {
				if ((c = peek(in)) == EOF)
					goto done;
				if (out != NULL)
					out[n] = c;
				take(in);
			}
			if (out != NULL)
				nassigned++;
			break;
		case 's':
		case '[':
			out = suppress ? NULL : va_arg(ap, char *);
			setend = fmt;
			for (n = 0; (c = peek(in)) != EOF &&
			    (width == 0 || n < width); n++) {
				if (conv == 's' ? isspace(c) :
				    !inset(fmt, c, &setend))
					break;
				if (out != NULL)
					out[n] = c;
				take(in);
			}
			if (conv == '[') {
				inset(fmt, 0, &setend);
				fmt = setend;
			}
			if (n == 0)
				goto done;
			if (out != NULL) {
				out[n] = '\0';
				nassigned++;
			}
			break;
		case 'd':
		case 'i':
		case 'u':
		case 'o':
		case 'x':
		case 'X':
			base = conv == 'd' || conv == 'u' ? 10 : conv == 'i' ?
			    0 : conv == 'o' ? 8 : 16;
			n = width > 0 && width < (int)sizeof(numbuf) ?
			    width : (int)sizeof(numbuf) - 1;
			if (scanint(in, numbuf, n, &base) == 0)
				goto done;
			v = conv == 'd' || conv == 'i' ?
			    (unsigned long long)strtoll(numbuf, NULL, base) :
			    strtoull(numbuf, NULL, base);
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
vsscanf(const char *str, const char *fmt, va_list ap)
{
	struct input in = { NULL, str, 0 };

	return doscan(&in, fmt, ap);
}

int
vfscanf(FILE *fp, const char *fmt, va_list ap)
{
	struct input in = { fp, NULL, 0 };

	return doscan(&in, fmt, ap);
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

int
fscanf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfscanf(fp, fmt, ap);
	va_end(ap);
	return n;
}

int
scanf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfscanf(stdin, fmt, ap);
	va_end(ap);
	return n;
}
