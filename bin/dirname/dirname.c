/*
 * dirname: all of a path but its last component.
 *	dirname string
 * "a" is ".", "/a" and "/" are "/"; trailing slashes do not count.
 */
#include <stdio.h>
#include <string.h>

int
main(int argc, char *argv[])
{
	char *p;
	size_t n;

	if (argc != 2) {
		fprintf(stderr, "usage: dirname string\n");
		return 1;
	}
	p = argv[1];
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')	/* trailing slashes */
		n--;
	while (n > 0 && p[n - 1] != '/')	/* the last component */
		n--;
	while (n > 1 && p[n - 1] == '/')	/* the slashes before it */
		n--;
	if (n == 0)
		printf(".\n");
	else
		printf("%.*s\n", (int)n, p);
	return 0;
}
