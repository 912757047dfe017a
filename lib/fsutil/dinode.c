/*
 * Printing an inode, one `name<TAB>value' per line, for dumpfs -i and
 * dumplfs -i: FFS and LFS share struct dinode (sys/ufs/dinode.h).
 */
#include <sys/types.h>
#include <stdio.h>

#include "sys/ufs/dinode.h"
#include "lib/fsutil/dinode.h"

int
fs_printdinode(const struct dinode *di, int maxsymlinklen)
{
	int i, ftype = di->di_mode & IFMT;

	printf("mode\t%o\n", di->di_mode);
	printf("nlink\t%d\n", di->di_nlink);
	printf("uid\t%u\n", di->di_uid);
	printf("gid\t%u\n", di->di_gid);
	printf("size\t%llu\n", (unsigned long long)di->di_size);
	printf("blocks\t%d\n", di->di_blocks);
	printf("flags\t%x\n", di->di_flags);
	printf("gen\t%d\n", di->di_gen);
	printf("atime\t%d\n", di->di_atime);
	printf("mtime\t%d\n", di->di_mtime);
	printf("ctime\t%d\n", di->di_ctime);
	if (ftype == IFCHR || ftype == IFBLK) {
		printf("rdev\t%d,%d\n", (di->di_rdev >> 8) & 0xff,
		    di->di_rdev & 0xff);
		return (0);
	}
	if (ftype == IFLNK && di->di_size < (u_int64_t)maxsymlinklen) {
		printf("shortlink\t%.*s\n", (int)di->di_size,
		    (const char *)di->di_shortlink);
		return (0);
	}
	printf("db\t");
	for (i = 0; i < NDADDR; i++)
		printf("%s%d", i ? " " : "", di->di_db[i]);
	printf("\nib\t");
	for (i = 0; i < NIADDR; i++)
		printf("%s%d", i ? " " : "", di->di_ib[i]);
	printf("\n");
	return (1);
}
