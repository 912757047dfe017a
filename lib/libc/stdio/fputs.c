/*
 * String output: fputs and puts (which adds a newline).
 */
#include <stdio.h>
#include <string.h>

int
fputs(const char *s, FILE *fp)
{
	size_t len;

	len = strlen(s);
	return fwrite(s, 1, len, fp) == len ? 0 : EOF;
}

int
puts(const char *s)
{
	if (fputs(s, stdout) == EOF || putc('\n', stdout) == EOF)
		return EOF;
	return 0;
}
