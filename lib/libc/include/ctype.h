/*
 * Character classes for the ASCII ("C") locale, the only one there is.
 */
#ifndef _CTYPE_H_
#define _CTYPE_H_

int	isalnum(int);
int	isalpha(int);
int	isascii(int);
int	isblank(int);
int	iscntrl(int);
int	isdigit(int);
int	isgraph(int);
int	islower(int);
int	isprint(int);
int	ispunct(int);
int	isspace(int);
int	isupper(int);
int	isxdigit(int);
int	tolower(int);
int	toupper(int);

#endif
