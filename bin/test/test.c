/*
 * test, [: evaluate a condition; exit 0 if true, 1 if false, 2 on error.
 *	test expression
 *	[ expression ]
 *
 * The grammar, by recursive descent as in 4.4BSD's test:
 *	oexpr:	aexpr [-o oexpr]
 *	aexpr:	nexpr [-a aexpr]
 *	nexpr:	! nexpr | primary
 *	primary: ( oexpr ) | unary-op operand | operand binary-op operand
 *		| operand		(true if not empty)
 * Unary: -b -c -d -e -f -g -h -k -L -n -p -r -s -S -t -u -w -x -z.
 * Binary: = != < > -eq -ne -lt -le -gt -ge -nt -ot -ef.
 * With one to four arguments, POSIX's rules decide between operators
 * and operands (so "test -f" is true: "-f" is a non-empty string).
 *
 * The shell compiles this file too (with -DSHELL, see the Makefile) and
 * runs testcmd as its built-in test and [, so the two cannot differ.
 * That is why a syntax error does not exit: it jumps back to testcmd,
 * which returns 2.
 */
#include <sys/stat.h>
#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int	testcmd(int, char **);

static char **args;	/* the arguments not yet used */
static int nargs;
static jmp_buf error;	/* a syntax error: status 2 */

static void __attribute__((__noreturn__))
syntax(const char *op, const char *msg)
{
	if (op != NULL && *op != '\0')
		fprintf(stderr, "test: %s: %s\n", op, msg);
	else
		fprintf(stderr, "test: %s\n", msg);
	longjmp(error, 1);
}

static char *
next(void)
{
	if (nargs == 0)
		return NULL;
	nargs--;
	return *args++;
}

static char *
peek(void)
{
	return nargs > 0 ? *args : NULL;
}

static long long
number(const char *s)
{
	long long v;
	char *end;

	errno = 0;
	v = strtoll(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (*s == '\0' || *end != '\0')
		syntax(s, "bad number");
	if (errno == ERANGE)
		syntax(s, "out of range");
	return v;
}

static int
isunary(const char *s)
{
	return s != NULL && s[0] == '-' && s[1] != '\0' && s[2] == '\0' &&
	    strchr("bcdefghkLnprsStuwxz", s[1]) != NULL;
}

static int
isbinary(const char *s)
{
	static const char *const ops[] = { "=", "!=", "<", ">", "-eq", "-ne",
	    "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef", NULL };
	int i;

	if (s == NULL)
		return 0;
	for (i = 0; ops[i] != NULL; i++)
		if (strcmp(s, ops[i]) == 0)
			return 1;
	return 0;
}

static int
unary(int op, const char *file)
{
	struct stat st;

	switch (op) {
	case 'n':
		return *file != '\0';
	case 'z':
		return *file == '\0';
	case 't':
		return isatty((int)number(file));
	case 'r':
		return access(file, R_OK) == 0;
	case 'w':
		return access(file, W_OK) == 0;
	case 'x':
		return access(file, X_OK) == 0;
	case 'h':
	case 'L':
		return lstat(file, &st) == 0 && S_ISLNK(st.st_mode);
	}
	if (stat(file, &st) < 0)
		return 0;
	switch (op) {
	case 'b':
		return S_ISBLK(st.st_mode);
	case 'c':
		return S_ISCHR(st.st_mode);
	case 'd':
		return S_ISDIR(st.st_mode);
	case 'e':
		return 1;
	case 'f':
		return S_ISREG(st.st_mode);
	case 'g':
		return (st.st_mode & S_ISGID) != 0;
	case 'k':
		return (st.st_mode & S_ISVTX) != 0;
	case 'p':
		return S_ISFIFO(st.st_mode);
	case 's':
		return st.st_size > 0;
	case 'S':
		return S_ISSOCK(st.st_mode);
	case 'u':
		return (st.st_mode & S_ISUID) != 0;
	}
	return 0;
}

static int
binary(const char *a, const char *op, const char *b)
{
	struct stat sa, sb;

	if (strcmp(op, "=") == 0)
		return strcmp(a, b) == 0;
	if (strcmp(op, "!=") == 0)
		return strcmp(a, b) != 0;
	if (strcmp(op, "<") == 0)
		return strcmp(a, b) < 0;
	if (strcmp(op, ">") == 0)
		return strcmp(a, b) > 0;
	if (strcmp(op, "-eq") == 0)
		return number(a) == number(b);
	if (strcmp(op, "-ne") == 0)
		return number(a) != number(b);
	if (strcmp(op, "-lt") == 0)
		return number(a) < number(b);
	if (strcmp(op, "-le") == 0)
		return number(a) <= number(b);
	if (strcmp(op, "-gt") == 0)
		return number(a) > number(b);
	if (strcmp(op, "-ge") == 0)
		return number(a) >= number(b);
	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return 0;
	if (strcmp(op, "-nt") == 0)
		return sa.st_mtime > sb.st_mtime;
	if (strcmp(op, "-ot") == 0)
		return sa.st_mtime < sb.st_mtime;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;	/* -ef */
}

static int oexpr(void);

static int
primary(void)
{
	char *a, *op;
	int r;

	if ((a = next()) == NULL)
		syntax(NULL, "argument expected");
	/* "(" starts a group, unless it is the left operand of "( = x". */
	if (strcmp(a, "(") == 0 && nargs > 0 &&
	    !(nargs == 2 && isbinary(peek()))) {
		r = oexpr();
		if ((a = next()) == NULL || strcmp(a, ")") != 0)
			syntax(a, "closing paren expected");
		return r;
	}
	if (isbinary(peek()) && nargs >= 2) {
		op = next();
		return binary(a, op, next());
	}
	if (isunary(a) && nargs > 0)
		return unary(a[1], next());
	return *a != '\0';
}

static int
nexpr(void)
{
	char *a;

	a = peek();
	if (a != NULL && strcmp(a, "!") == 0 && nargs > 1) {
		next();
		return !nexpr();
	}
	return primary();
}

static int
aexpr(void)
{
	int r;
	char *a;

	r = nexpr();
	if ((a = peek()) != NULL && strcmp(a, "-a") == 0) {
		next();
		return aexpr() && r;
	}
	return r;
}

static int
oexpr(void)
{
	int r;
	char *a;

	r = aexpr();
	if ((a = peek()) != NULL && strcmp(a, "-o") == 0) {
		next();
		return oexpr() || r;
	}
	return r;
}

int
testcmd(int argc, char *argv[])
{
	const char *p;
	int r;

	if (setjmp(error))
		return 2;
	p = strrchr(argv[0], '/');
	p = p != NULL ? p + 1 : argv[0];
	if (strcmp(p, "[") == 0) {
		if (argc < 2 || strcmp(argv[argc - 1], "]") != 0)
			syntax(NULL, "missing ]");
		argc--;
	}
	args = argv + 1;
	nargs = argc - 1;
	if (nargs == 0)
		return 1;
	/* POSIX: with one argument, true if it is not empty. */
	if (nargs == 1)
		return *args[0] == '\0';
	/* Two arguments: "! x" or a unary operator. */
	if (nargs == 2 && strcmp(args[0], "!") == 0)
		return *args[1] != '\0';
	r = oexpr();
	if (nargs != 0)
		syntax(*args, "unexpected operator");
	return !r;
}

#ifndef SHELL
int
main(int argc, char *argv[])
{
	return testcmd(argc, argv);
}
#endif
