#!/bin/sh
# Andrew benchmark phase 5: compile and link (bench/andrew/make_tree.py)
cd $1 && make -s
