/*
 * reboot, halt: flush the file systems and restart the machine, or
 * power it off.  One program, as in 4.4BSD; the name it is run by
 * decides (/sbin/halt is a link to /sbin/reboot).
 *	reboot [-n] [-q]	halt [-n] [-q]
 * -n: do not sync first (the kernel then skips its sync too).
 * -q: accepted for habit; the kernel is always asked directly.
 */
#include <sys/reboot.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 :
	    argv[0];
	int ch, howto = strcmp(name, "halt") == 0 ? RB_POWERDOWN : RB_AUTOBOOT;

	while ((ch = getopt(argc, argv, "nq")) != -1) {
		switch (ch) {
		case 'n':
			howto |= RB_NOSYNC;
			break;
		case 'q':
			break;
		default:
			fprintf(stderr, "usage: %s [-nq]\n", name);
			exit(1);
		}
	}
	if (!(howto & RB_NOSYNC))
		sync();
	reboot(howto);
	err(1, "reboot");
}
