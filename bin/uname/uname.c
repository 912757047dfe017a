/*
 * uname: the system's names (uname(2)).
 *	uname [-amnrsv]
 * -s the operating system (the default), -n the machine's name, -r the
 * release, -v the version, -m the hardware; -a all, in that order.
 */
#include <sys/utsname.h>
#include <err.h>
#include <stdio.h>
#include <unistd.h>

#define S	0x01
#define N	0x02
#define R	0x04
#define V	0x08
#define M	0x10

int
main(int argc, char *argv[])
{
	struct utsname u;
	const char *field[] = { u.sysname, u.nodename, u.release, u.version,
	    u.machine };
	int ch, i, want = 0, n = 0;

	while ((ch = getopt(argc, argv, "amnrsv")) != -1)
		switch (ch) {
		case 'a': want |= S | N | R | V | M; break;
		case 'm': want |= M; break;
		case 'n': want |= N; break;
		case 'r': want |= R; break;
		case 's': want |= S; break;
		case 'v': want |= V; break;
		default:
			fprintf(stderr, "usage: uname [-amnrsv]\n");
			return 1;
		}
	if (optind < argc) {
		fprintf(stderr, "usage: uname [-amnrsv]\n");
		return 1;
	}
	if (uname(&u) < 0)
		err(1, "uname");
	if (want == 0)
		want = S;
	for (i = 0; i < 5; i++)
		if (want & (1 << i))
			printf("%s%s", n++ ? " " : "", field[i]);
	printf("\n");
	return 0;
}
