/*
 * reboot(2) flags, 4.4BSD values (RB_POWERDOWN as NetBSD spells it).
 */
#ifndef _SYS_REBOOT_H_
#define _SYS_REBOOT_H_

#define RB_AUTOBOOT	0x000	/* reboot: sync, unmount, restart */
#define RB_NOSYNC	0x004	/* do not sync or unmount first */
#define RB_HALT		0x008	/* halt instead of restarting */
#define RB_POWERDOWN	(RB_HALT | 0x800)	/* halt and power off */

#endif
