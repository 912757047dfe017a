/*
 * reboot: flush the file systems and restart the machine.
 *	reboot [-n] [-q]
 * -n: do not sync first (the kernel then skips its sync too).
 * -q: only ask the kernel; reboot always does, and takes -q for habit.
 */
#include <sys/reboot.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int ch, howto;

	howto = RB_AUTOBOOT;
	while ((ch = getopt(argc, argv, "nq")) != -1) {
		switch (ch) {
		case 'n':
			howto |= RB_NOSYNC;
			break;
		case 'q':
			break;
		default:
			fprintf(stderr, "usage: reboot [-nq]\n");
			exit(1);
		}
	}
	if (!(howto & RB_NOSYNC))
		sync();
	reboot(howto);
	err(1, "reboot");
}
