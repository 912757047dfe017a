#!/bin/sh
# Andrew benchmark phase 1: make the directory tree (bench/andrew/make_tree.py)
mkdir $1 $1/sh $1/make $1/ed $1/ls $1/cp $1/find $1/test $1/dd $1/sort $1/printf $1/chmod $1/tr $1/od $1/grep $1/cut $1/more $1/du $1/tail $1/wc $1/rm $1/mkdir $1/mv $1/cat $1/head
