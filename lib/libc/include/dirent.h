/*
 * Directory streams over getdirentries(2).  The entries are the kernel's
 * struct dirent (<sys/dirent.h>); readdir copies each one out of the
 * buffer and NUL-terminates its name.
 */
#ifndef _DIRENT_H_
#define _DIRENT_H_

#include <sys/types.h>
#include <sys/dirent.h>

#define DIRBLKSIZ	512	/* directory block: the unit getdirentries returns */

typedef struct _dirdesc {
	int	dd_fd;		/* open directory */
	long	dd_seek;	/* kernel's base of the current buffer */
	long	dd_loc;		/* offset of the next entry in dd_buf */
	long	dd_size;	/* bytes in dd_buf */
	long	dd_len;		/* size of dd_buf */
	char	*dd_buf;
	struct dirent dd_ent;	/* the entry readdir returns */
} DIR;

int	closedir(DIR *);
int	dirfd(DIR *);
DIR	*opendir(const char *);
struct dirent *readdir(DIR *);
void	rewinddir(DIR *);

#endif
