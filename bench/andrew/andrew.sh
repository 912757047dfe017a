#!/bin/sh
# andrew.sh DIR: the five phases of the Andrew benchmark on a copy
# of the tree in DIR, each timed by time(1) on the standard error.
echo andrew phase 1 >&2
time sh /usr/share/andrew/phase1.sh $1
echo andrew phase 2 >&2
time sh /usr/share/andrew/phase2.sh $1
echo andrew phase 3 >&2
time sh /usr/share/andrew/phase3.sh $1
echo andrew phase 4 >&2
time sh /usr/share/andrew/phase4.sh $1
echo andrew phase 5 >&2
time sh /usr/share/andrew/phase5.sh $1
