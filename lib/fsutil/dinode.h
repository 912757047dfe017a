/*
 * Shared by dumpfs and dumplfs (lib/fsutil/dinode.c).
 */
#ifndef _FSUTIL_DINODE_H_
#define _FSUTIL_DINODE_H_

struct dinode;

/*
 * Print di's fields after its "inode" line; 1 if it has block pointers
 * (they were printed), 0 for a device or a symlink kept in the inode.
 */
int	fs_printdinode(const struct dinode *di, int maxsymlinklen);

#endif
