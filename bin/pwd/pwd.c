/*
 * pwd: print the working directory (found by climbing "..", see
 * getcwd(3)).
 *	pwd [-LP]
 */
#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	char buf[PATH_MAX];
	int ch;

	while ((ch = getopt(argc, argv, "LP")) != -1) {
		switch (ch) {
		case 'L':
		case 'P':
			break;
		default:
			fprintf(stderr, "usage: pwd [-LP]\n");
			exit(1);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "usage: pwd [-LP]\n");
		exit(1);
	}
	if (getcwd(buf, sizeof(buf)) == NULL)
		err(1, "getcwd");
	printf("%s\n", buf);
	return 0;
}
