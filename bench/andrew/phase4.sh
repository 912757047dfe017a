#!/bin/sh
# Andrew benchmark phase 4: read every byte (bench/andrew/make_tree.py)
grep andrew-finds-nothing $1/sh/arith.c $1/sh/builtins.c $1/sh/error.c $1/sh/exec.c $1/sh/expand.c $1/sh/glob.c $1/sh/input.c $1/sh/jobs.c $1/sh/lex.c $1/sh/main.c $1/sh/memalloc.c $1/sh/parse.c $1/sh/redir.c $1/sh/sh.h $1/sh/var.c $1/sh/Makefile
grep andrew-finds-nothing $1/make/main.c $1/make/make.c $1/make/make.h $1/make/parse.c $1/make/var.c $1/make/Makefile
grep andrew-finds-nothing $1/ed/ed.c $1/ed/Makefile
grep andrew-finds-nothing $1/ls/ls.c $1/ls/Makefile
grep andrew-finds-nothing $1/cp/cp.c $1/cp/Makefile
grep andrew-finds-nothing $1/find/find.c $1/find/Makefile
grep andrew-finds-nothing $1/test/test.c $1/test/Makefile
grep andrew-finds-nothing $1/dd/dd.c $1/dd/Makefile
grep andrew-finds-nothing $1/sort/sort.c $1/sort/Makefile
grep andrew-finds-nothing $1/printf/printf.c $1/printf/Makefile
grep andrew-finds-nothing $1/chmod/chmod.c $1/chmod/Makefile
grep andrew-finds-nothing $1/tr/tr.c $1/tr/Makefile
grep andrew-finds-nothing $1/od/od.c $1/od/Makefile
grep andrew-finds-nothing $1/grep/grep.c $1/grep/Makefile
grep andrew-finds-nothing $1/cut/cut.c $1/cut/Makefile
grep andrew-finds-nothing $1/more/more.c $1/more/Makefile
grep andrew-finds-nothing $1/du/du.c $1/du/Makefile
grep andrew-finds-nothing $1/tail/tail.c $1/tail/Makefile
grep andrew-finds-nothing $1/wc/wc.c $1/wc/Makefile
grep andrew-finds-nothing $1/rm/rm.c $1/rm/Makefile
grep andrew-finds-nothing $1/mkdir/mkdir.c $1/mkdir/Makefile
grep andrew-finds-nothing $1/mv/mv.c $1/mv/Makefile
grep andrew-finds-nothing $1/cat/cat.c $1/cat/Makefile
grep andrew-finds-nothing $1/head/head.c $1/head/Makefile
grep andrew-finds-nothing $1/Makefile
exit 0
