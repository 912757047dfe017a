/*
 * The password file, read line by line with stdio.  Each line has the
 * seven V7 fields name:passwd:uid:gid:gecos:home:shell; malformed lines
 * are skipped.  The returned struct points into a static buffer that the
 * next call overwrites.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *pwf;
static char line[1024];
static struct passwd pw;

void
setpwent(void)
{
	if (pwf != NULL)
		rewind(pwf);
}

void
endpwent(void)
{
	if (pwf != NULL) {
		fclose(pwf);
		pwf = NULL;
	}
}

static int
parse(char *p)
{
	char *f[7];
	int i;

	p[strcspn(p, "\n")] = '\0';
	for (i = 0; i < 7; i++)
		if ((f[i] = strsep(&p, ":")) == NULL)
			return -1;
	if (p != NULL || *f[0] == '\0')
		return -1;
	pw.pw_name = f[0];
	pw.pw_passwd = f[1];
	pw.pw_uid = strtoul(f[2], NULL, 10);
	pw.pw_gid = strtoul(f[3], NULL, 10);
	pw.pw_gecos = f[4];
	pw.pw_dir = f[5];
	pw.pw_shell = f[6];
	return 0;
}

struct passwd *
getpwent(void)
{
	if (pwf == NULL && (pwf = fopen(_PATH_PASSWD, "r")) == NULL)
		return NULL;
	while (fgets(line, sizeof(line), pwf) != NULL)
		if (line[0] != '#' && parse(line) == 0)
			return &pw;
	return NULL;
}

struct passwd *
getpwnam(const char *name)
{
	struct passwd *p;

	setpwent();
	while ((p = getpwent()) != NULL)
		if (strcmp(p->pw_name, name) == 0)
			break;
	endpwent();
	return p;
}

struct passwd *
getpwuid(uid_t uid)
{
	struct passwd *p;

	setpwent();
	while ((p = getpwent()) != NULL)
		if (p->pw_uid == uid)
			break;
	endpwent();
	return p;
}
