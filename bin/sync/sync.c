/*
 * sync: write all modified buffers to the disks.
 */
#include <unistd.h>

int
main(void)
{
	sync();
	return 0;
}
