/*
 * printf: formatted output.
 *	printf format [argument ...]
 * The format is printf(3)'s, reused until the arguments run out:
 * conversions d i u o x X c s b %, with flags, width and precision (*
 * takes them from the arguments).  %b prints its argument with escapes
 * expanded.  The format's escapes: \\ \a \b \f \n \r \t \v \NNN (octal).
 * A numeric argument may be 'c (the character's code).  Missing
 * arguments are empty strings or zero.  Exit status 1 if an argument
 * was not a number.
 *
 * The shell compiles this file too (with -DSHELL, see the Makefile) and
 * runs printfcmd as its built-in printf, so the two cannot differ.  That
 * is why nothing here calls exit: the end of output (\c, or a bad
 * directive) jumps back to printfcmd, and the state is set afresh on
 * every call.
 */
#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	printfcmd(int, char **);

static char **args;
static int rval;
static jmp_buf done;		/* longjmp'ed to with the exit status + 1 */

/* Print one escape sequence starting after the backslash at p. */
static const char *
escape(const char *p)
{
	static const char from[] = "\\abfnrtv";
	static const char to[] = "\\\a\b\f\n\r\t\v";
	const char *q;
	int c, n;

	if (*p >= '0' && *p <= '7') {
		for (c = 0, n = 0; n < 3 && *p >= '0' && *p <= '7'; n++, p++)
			c = c * 8 + *p - '0';
		putchar(c);
		return p;
	}
	if (*p != '\0' && (q = strchr(from, *p)) != NULL) {
		putchar(to[q - from]);
		return p + 1;
	}
	putchar('\\');
	return p;
}

static const char *
nextarg(void)
{
	return *args != NULL ? *args++ : NULL;
}

static long long
numarg(void)
{
	const char *s;
	char *end;
	long long v;

	if ((s = nextarg()) == NULL)
		return 0;
	if (*s == '\'' || *s == '"')
		return (unsigned char)s[1];
	errno = 0;
	v = strtoll(s, &end, 0);
	if (*s == '\0' || *end != '\0' || errno == ERANGE) {
		fprintf(stderr, "printf: %s: expected numeric value\n", s);
		rval = 1;
	}
	return v;
}

/* %b: the argument with its escapes expanded ("\c" stops all output). */
static void
printb(const char *s)
{
	while (*s != '\0') {
		if (*s != '\\') {
			putchar(*s++);
			continue;
		}
		if (s[1] == 'c')
			longjmp(done, rval + 1);	/* no more output */
		if (s[1] == '0')	/* \0NNN in %b */
			s++;
		s = escape(s + 1);
	}
}

/* One conversion: spec is "%...", c the conversion character. */
static void
convert(char *spec, int c)
{
	char fmt[64];
	const char *s;
	size_t len;

	len = strlen(spec);
	switch (c) {
	case 'd':
	case 'i':
		snprintf(fmt, sizeof(fmt), "%sll%c", spec, c);
		printf(fmt, numarg());
		break;
	case 'u':
	case 'o':
	case 'x':
	case 'X':
		snprintf(fmt, sizeof(fmt), "%sll%c", spec, c);
		printf(fmt, (unsigned long long)numarg());
		break;
	case 'c':
		s = nextarg();
		snprintf(fmt, sizeof(fmt), "%sc", spec);
		printf(fmt, s != NULL ? *s : '\0');
		break;
	case 's':
		s = nextarg();
		snprintf(fmt, sizeof(fmt), "%ss", spec);
		printf(fmt, s != NULL ? s : "");
		break;
	case 'b':
		if ((s = nextarg()) != NULL)
			printb(s);
		break;
	default:
		fprintf(stderr, "printf: %.*s%c: invalid directive\n",
		    (int)len, spec, c);
		longjmp(done, 1 + 1);
	}
}

/* Print the format once; returns whether it used any argument. */
static int
format(const char *f)
{
	char spec[64], num[16];
	char **start;
	size_t n;

	start = args;
	while (*f != '\0') {
		if (*f == '\\') {
			f = escape(f + 1);
			continue;
		}
		if (*f != '%') {
			putchar(*f++);
			continue;
		}
		if (f[1] == '%') {
			putchar('%');
			f += 2;
			continue;
		}
		n = 0;
		spec[n++] = *f++;
		while (*f != '\0' && strchr("-+ #0", *f) != NULL && n < 40)
			spec[n++] = *f++;
		while ((isdigit((unsigned char)*f) || *f == '.' || *f == '*') &&
		    n < 40) {
			if (*f == '*') {
				snprintf(num, sizeof(num), "%d", (int)numarg());
				spec[n] = '\0';
				strncat(spec, num, sizeof(spec) - n - 1);
				n = strlen(spec);
				f++;
			} else
				spec[n++] = *f++;
		}
		spec[n] = '\0';
		if (*f == '\0') {
			fprintf(stderr, "printf: %s: missing format character\n",
			    spec);
			longjmp(done, 1 + 1);
		}
		convert(spec, *f++);
	}
	return args != start;
}

int
printfcmd(int argc, char *argv[])
{
	int status;

	if (argc < 2) {
		fprintf(stderr, "usage: printf format [argument ...]\n");
		return 1;
	}
	args = argv + 2;
	rval = 0;
	if ((status = setjmp(done)) == 0) {
		while (format(argv[1]) && *args != NULL)
			continue;
		status = rval;
	} else
		status--;
	if (fflush(stdout) == EOF) {
		clearerr(stdout);	/* the shell goes on writing */
		status = 1;
	}
	return status;
}

#ifndef SHELL
int
main(int argc, char *argv[])
{
	return printfcmd(argc, argv);
}
#endif
