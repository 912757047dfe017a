/*
 * The password file, /etc/passwd, in the 7-field V7 format:
 *	name:passwd:uid:gid:gecos:home:shell
 */
#ifndef _PWD_H_
#define _PWD_H_

#include <sys/types.h>

#define _PATH_PASSWD	"/etc/passwd"

struct passwd {
	char	*pw_name;
	char	*pw_passwd;
	uid_t	 pw_uid;
	gid_t	 pw_gid;
	char	*pw_gecos;
	char	*pw_dir;
	char	*pw_shell;
};

void	endpwent(void);
struct passwd *getpwent(void);
struct passwd *getpwnam(const char *);
struct passwd *getpwuid(uid_t);
void	setpwent(void);

#endif
