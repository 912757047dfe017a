/*
 * This kernel's configuration: the file systems mount knows, the root
 * tried in this order, and the emulations exec tries before its own
 * (4.4BSD's vfs_conf.c and NetBSD's exec_conf.c).  kern/ reaches ffs/,
 * lfs/ and compat/ only through these tables.
 */
#include "kern/systm.h"
#include "kern/mount.h"
#include "kern/emul.h"
#include "compat/linux/linux.h"

extern const struct vfsops ffs_vfsops, lfs_vfsops;

const struct vfsops *const vfsconf[] = { &ffs_vfsops, &lfs_vfsops, NULL };

const struct emul *const emulsw[] = { &emul_linux, NULL };
