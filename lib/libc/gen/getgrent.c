/*
 * The group file, read line by line with stdio.  Each line is
 * name:passwd:gid:member,member,...; malformed lines are skipped.  The
 * returned struct points into static storage that the next call
 * overwrites.
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXMEM	64	/* members of one group */

static FILE *grf;
static char line[1024];
static char *members[MAXMEM + 1];
static struct group gr;

void
setgrent(void)
{
	if (grf != NULL)
		rewind(grf);
}

void
endgrent(void)
{
	if (grf != NULL) {
		fclose(grf);
		grf = NULL;
	}
}

static int
parse(char *p)
{
	char *f[4], *m;
	int i;

	p[strcspn(p, "\n")] = '\0';
	for (i = 0; i < 4; i++)
		if ((f[i] = strsep(&p, ":")) == NULL)
			return -1;
	if (p != NULL || *f[0] == '\0')
		return -1;
	gr.gr_name = f[0];
	gr.gr_passwd = f[1];
	gr.gr_gid = strtoul(f[2], NULL, 10);
	i = 0;
	while (i < MAXMEM && (m = strsep(&f[3], ",")) != NULL)
		if (*m != '\0')
			members[i++] = m;
	members[i] = NULL;
	gr.gr_mem = members;
	return 0;
}

struct group *
getgrent(void)
{
	if (grf == NULL && (grf = fopen(_PATH_GROUP, "r")) == NULL)
		return NULL;
	while (fgets(line, sizeof(line), grf) != NULL)
		if (line[0] != '#' && parse(line) == 0)
			return &gr;
	return NULL;
}

struct group *
getgrnam(const char *name)
{
	struct group *g;

	setgrent();
	while ((g = getgrent()) != NULL)
		if (strcmp(g->gr_name, name) == 0)
			break;
	endgrent();
	return g;
}

struct group *
getgrgid(gid_t gid)
{
	struct group *g;

	setgrent();
	while ((g = getgrent()) != NULL)
		if (g->gr_gid == gid)
			break;
	endgrent();
	return g;
}
