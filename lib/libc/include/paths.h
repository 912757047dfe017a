/*
 * Well-known paths.
 */
#ifndef _PATHS_H_
#define _PATHS_H_

#define _PATH_BSHELL	"/bin/sh"
#define _PATH_CONSOLE	"/dev/console"
#define _PATH_DEFPATH	"/bin:/sbin:/usr/bin:/usr/sbin"
#define _PATH_DEVNULL	"/dev/null"
#define _PATH_RC	"/etc/rc"
#define _PATH_TMP	"/tmp/"

#endif
