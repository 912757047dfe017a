/*
 * Directory entries as getdirentries(2) returns them.  The layout is the
 * UFS on-disk directory entry (sys/ufs/dir.h), as in 4.4BSD, so a directory
 * block is handed to user space unchanged.
 */
#ifndef _SYS_DIRENT_H_
#define _SYS_DIRENT_H_

#include <sys/types.h>

#define MAXNAMLEN	255

struct dirent {
	u_int32_t d_fileno;		/* inode number; 0 means an empty slot */
	u_int16_t d_reclen;		/* length of this record */
	u_int8_t  d_type;		/* DT_ file type */
	u_int8_t  d_namlen;		/* length of d_name */
	char	  d_name[MAXNAMLEN + 1];
};

#define DT_UNKNOWN	 0
#define DT_FIFO		 1
#define DT_CHR		 2
#define DT_DIR		 4
#define DT_BLK		 6
#define DT_REG		 8
#define DT_LNK		10
#define DT_SOCK		12

#endif
