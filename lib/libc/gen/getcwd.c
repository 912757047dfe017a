/*
 * getcwd(3), as 4.4BSD's libc computed it: there is no system call, so
 * climb the tree.  Starting from ".", stat the directory and its parent
 * ("..", "../..", ...); search the parent for the entry whose inode is the
 * child's and prepend that name; stop at the root, whose ".." is itself.
 * Where the parent is on another device (a mount point) the entry's
 * d_fileno is the covered directory's, so each entry is lstat'ed instead.
 */
#include <sys/stat.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Find the name of (dev, ino) in directory "up"; up has room to append. */
static int
findname(char *up, size_t upsize, dev_t dev, ino_t ino, int samedev,
    char *name)
{
	struct dirent *dp;
	struct stat st;
	size_t len;
	DIR *dir;

	if ((dir = opendir(up)) == NULL)
		return -1;
	len = strlen(up);
	while ((dp = readdir(dir)) != NULL) {
		if (strcmp(dp->d_name, ".") == 0 || strcmp(dp->d_name, "..") == 0)
			continue;
		if (samedev) {
			if (dp->d_fileno != ino)
				continue;
		} else {
			if (len + 1 + dp->d_namlen + 1 > upsize)
				continue;
			up[len] = '/';
			strcpy(up + len + 1, dp->d_name);
			if (lstat(up, &st) < 0 || st.st_dev != dev ||
			    st.st_ino != ino) {
				up[len] = '\0';
				continue;
			}
			up[len] = '\0';
		}
		strcpy(name, dp->d_name);
		closedir(dir);
		return 0;
	}
	closedir(dir);
	errno = ENOENT;
	return -1;
}

char *
getcwd(char *buf, size_t size)
{
	char up[PATH_MAX], path[PATH_MAX], name[NAME_MAX + 1];
	struct stat cur, parent;
	size_t uplen, pathlen, namelen;

	if (buf != NULL && size == 0) {
		errno = EINVAL;
		return NULL;
	}
	if (stat(".", &cur) < 0)
		return NULL;
	strcpy(up, "..");
	uplen = 2;
	pathlen = 0;		/* path is built backwards from its end */
	for (;;) {
		if (stat(up, &parent) < 0)
			return NULL;
		if (parent.st_dev == cur.st_dev && parent.st_ino == cur.st_ino)
			break;		/* the root */
		if (findname(up, sizeof(up), cur.st_dev, cur.st_ino,
		    parent.st_dev == cur.st_dev, name) < 0)
			return NULL;
		namelen = strlen(name);
		if (pathlen + namelen + 1 >= sizeof(path)) {
			errno = ERANGE;
			return NULL;
		}
		pathlen += namelen + 1;
		memcpy(path + sizeof(path) - pathlen, "/", 1);
		memcpy(path + sizeof(path) - pathlen + 1, name, namelen);
		if (uplen + 3 >= sizeof(up)) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		strcpy(up + uplen, "/..");
		uplen += 3;
		cur = parent;
	}
	if (pathlen == 0) {
		pathlen = 1;
		path[sizeof(path) - 1] = '/';
	}
	if (buf == NULL) {
		size = pathlen + 1;
		if ((buf = malloc(size)) == NULL)
			return NULL;
	} else if (pathlen + 1 > size) {
		errno = ERANGE;
		return NULL;
	}
	memcpy(buf, path + sizeof(path) - pathlen, pathlen);
	buf[pathlen] = '\0';
	return buf;
}
