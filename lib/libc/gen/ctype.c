/*
 * Character classes of the ASCII ("C") locale.  Arguments are an unsigned
 * char value or EOF, as ISO C requires.
 */
#include <ctype.h>

int
isascii(int c)
{
	return c >= 0 && c <= 0177;
}

int
isdigit(int c)
{
	return c >= '0' && c <= '9';
}

int
islower(int c)
{
	return c >= 'a' && c <= 'z';
}

int
isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}

int
isalpha(int c)
{
	return islower(c) || isupper(c);
}

int
isalnum(int c)
{
	return isalpha(c) || isdigit(c);
}

int
isblank(int c)
{
	return c == ' ' || c == '\t';
}

int
iscntrl(int c)
{
	return (c >= 0 && c < ' ') || c == 0177;
}

int
isgraph(int c)
{
	return c > ' ' && c < 0177;
}

int
isprint(int c)
{
	return c >= ' ' && c < 0177;
}

int
ispunct(int c)
{
	return isgraph(c) && !isalnum(c);
}

int
isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

int
isxdigit(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int
tolower(int c)
{
	return isupper(c) ? c - 'A' + 'a' : c;
}

int
toupper(int c)
{
	return islower(c) ? c - 'a' + 'A' : c;
}
