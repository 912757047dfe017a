/*
 * The group file, /etc/group: name:passwd:gid:member,member,...
 */
#ifndef _GRP_H_
#define _GRP_H_

#include <sys/types.h>

#define _PATH_GROUP	"/etc/group"

struct group {
	char	*gr_name;
	char	*gr_passwd;
	gid_t	 gr_gid;
	char	**gr_mem;	/* NULL-terminated member names */
};

void	endgrent(void);
struct group *getgrent(void);
struct group *getgrgid(gid_t);
struct group *getgrnam(const char *);
void	setgrent(void);

#endif
