#!/bin/sh
# Andrew benchmark phase 3: examine every file's status (bench/andrew/make_tree.py)
ls -lR $1 > /dev/null
