/*
 * basename: a path's last component, without suffix if it ends with it.
 *	basename string [suffix]
 * Trailing slashes do not count; "/" is "/".
 */
#include <stdio.h>
#include <string.h>

int
main(int argc, char *argv[])
{
	char *p, *s;
	size_t n, k;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: basename string [suffix]\n");
		return 1;
	}
	p = argv[1];
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	if (n > 1 && (s = strrchr(p, '/')) != NULL)
		p = s + 1;
	n = strlen(p);
	if (argc == 3 && (k = strlen(argv[2])) < n &&
	    strcmp(p + n - k, argv[2]) == 0)
		p[n - k] = '\0';
	printf("%s\n", p);
	return 0;
}
