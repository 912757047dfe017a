"""make bench (python3 -m qemu bench): every benchmark driver in this
folder, one after another, in the order of DRIVERS.

Each driver boots its own guest, prints its report and writes it (and its
plots, and NAME.json) under build/bench/; one runs alone as python3 -m
bench.NAME from the top of the tree.  Then bench/report.py turns the JSON
into doc/results.md.  The drive profile is --profile, else $DISK (the
Makefile's variable: make bench DISK=rz55), else hp97560.  --thesis
(make bench THESIS=1) runs each driver at the thesis' scale where it has
one (THESIS: the option that asks for it).  Benchmarks report; they
never fail on a figure, only when a driver itself breaks.
"""
PY = "/usr/bin/python3"     # Debian's: it has matplotlib
DRIVERS = ("raw_disk", "fs_bandwidth", "small_files", "recovery", "andrew", "bigfile",
           "txn", "tpcb", "cleaner", "supercomputer", "oo1", "wisconsin")
# Left out of the default make bench, to keep it near two hours (bench/README.md).
THESIS_ONLY = ("cleaner",)
# The option of each driver that runs the thesis' scale and run counts.
THESIS = {"small_files": "--thesis", "andrew": "--thesis", "bigfile": "--thesis",
          "tpcb": "--thesis", "cleaner": "--full", "supercomputer": "--thesis",
          "oo1": "--thesis", "wisconsin": "--thesis"}
