/*
 * Directory streams.  getdirentries(2) fills dd_buf with raw directory
 * records (struct dirent, each d_reclen bytes long, empty slots with
 * d_fileno 0); readdir walks them, skips the empty ones and returns a copy
 * of each entry with its name NUL-terminated.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DIRBUFSIZ	4096	/* a multiple of DIRBLKSIZ */
#define DIRHDRSIZ	8	/* struct dirent up to d_name */

DIR *
opendir(const char *name)
{
	struct stat st;
	DIR *dirp;
	int fd;

	if ((fd = open(name, O_RDONLY)) < 0)
		return NULL;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		close(fd);
		errno = ENOTDIR;
		return NULL;
	}
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	if ((dirp = malloc(sizeof(*dirp))) == NULL ||
	    (dirp->dd_buf = malloc(DIRBUFSIZ)) == NULL) {
		free(dirp);
		close(fd);
		return NULL;
	}
	dirp->dd_fd = fd;
	dirp->dd_len = DIRBUFSIZ;
	dirp->dd_seek = 0;
	dirp->dd_loc = 0;
	dirp->dd_size = 0;
	return dirp;
}

struct dirent *
readdir(DIR *dirp)
{
	struct dirent *dp;
	int namlen;

	for (;;) {
		if (dirp->dd_loc >= dirp->dd_size) {
			dirp->dd_loc = 0;
			dirp->dd_size = getdirentries(dirp->dd_fd, dirp->dd_buf,
			    dirp->dd_len, &dirp->dd_seek);
			if (dirp->dd_size <= 0) {
				dirp->dd_size = 0;
				return NULL;
			}
		}
		dp = (struct dirent *)(dirp->dd_buf + dirp->dd_loc);
		if (dp->d_reclen < DIRHDRSIZ ||
		    dp->d_reclen > dirp->dd_size - dirp->dd_loc) {
			dirp->dd_size = 0;	/* a corrupt block: stop here */
			errno = EIO;
			return NULL;
		}
		dirp->dd_loc += dp->d_reclen;
		if (dp->d_fileno == 0)
			continue;
		namlen = dp->d_namlen;
		if (DIRHDRSIZ + namlen > dp->d_reclen)
			namlen = dp->d_reclen - DIRHDRSIZ;
		dirp->dd_ent.d_fileno = dp->d_fileno;
		dirp->dd_ent.d_reclen = dp->d_reclen;
		dirp->dd_ent.d_type = dp->d_type;
		dirp->dd_ent.d_namlen = namlen;
		memcpy(dirp->dd_ent.d_name, dp->d_name, namlen);
		dirp->dd_ent.d_name[namlen] = '\0';
		return &dirp->dd_ent;
	}
}

void
rewinddir(DIR *dirp)
{
	lseek(dirp->dd_fd, 0, SEEK_SET);
	dirp->dd_seek = 0;
	dirp->dd_loc = 0;
	dirp->dd_size = 0;
}

int
closedir(DIR *dirp)
{
	int fd;

	fd = dirp->dd_fd;
	free(dirp->dd_buf);
	free(dirp);
	return close(fd);
}

int
dirfd(DIR *dirp)
{
	return dirp->dd_fd;
}
