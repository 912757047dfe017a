/*
 * fsync: write each named file to the disk (fsync(2)), as FreeBSD's
 * fsync(1).  On LFS an fsync is a partial segment without a checkpoint
 * (sync writes one), which is what a crash test wants after sync.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	int i, fd, status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: fsync file ...\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if ((fd = open(argv[i], O_RDONLY)) < 0) {
			fprintf(stderr, "fsync: %s: cannot open\n", argv[i]);
			status = 1;
			continue;
		}
		if (fsync(fd) < 0) {
			fprintf(stderr, "fsync: %s: fsync failed\n", argv[i]);
			status = 1;
		}
		close(fd);
	}
	return status;
}
