/*
 * make: the shared declarations.  var.c holds the variables and their
 * expansion, parse.c reads a makefile into targets and rules, make.c
 * decides what is out of date and runs the commands.
 */
#ifndef MAKE_H
#define MAKE_H

#include <sys/types.h>
#include <sys/time.h>

/* A list of strings that grows. */
struct strlist {
	char	**v;
	int	n, cap;
};

/* A target (or a file named only as a prerequisite). */
struct gnode {
	char	*name;
	struct strlist prereqs;		/* in the order the makefile names them */
	struct strlist cmds;		/* unexpanded command lines */
	int	has_cmds;		/* which rule gave the commands (0: none) */
	int	phony;			/* .PHONY: never a file */
	int	state;			/* UNMADE ... below */
	int	remade;			/* its commands ran (or would, -n) */
	struct timespec mtime;		/* after it was made or found; 0: none */
	struct gnode *next;		/* in the table of targets */
};

enum { UNMADE, BEING_MADE, MADE, FAILED };

/* Options (main.c). */
extern int nflag, kflag, sflag, iflag;

/* strlist */
void	sl_add(struct strlist *, const char *);
int	sl_has(const struct strlist *, const char *);

/* var.c */
void	var_set(const char *name, const char *value, int cmdline);
const char *var_get(const char *name);
char	*expand(const char *s);
void	set_local(const char *target, const char *first, const char *all,
	    const char *stem, const char *newer);

/* parse.c */
int	parse_file(const char *path);
struct gnode *gn_find(const char *name, int create);
extern struct gnode *first_target;
extern struct strlist suffixes;
extern int default_rules;

/* make.c */
int	make_target(const char *name);

/* util */
void	*emalloc(size_t);
char	*estrdup(const char *);

#endif
