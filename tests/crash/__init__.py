"""make crashtest: BSD-LFS recovers from a power cut at every write boundary.

    python3 -m qemu crashtest [-w WORKLOAD,...] [-s SEED] [--sample N]
                              [--pick N] [--torn EVERY] [--work DIR]

For each workload (record.py's WORKLOADS: files, rename, mkdirs, seq, overwrite,
append, ckpt, cleaner, txn) one record run logs every write the guest's scratch disk receives; then
every write boundary from the workload's start to its end is a crash point: the
disk as it was after writes 1..N is booted, mounted (the kernel rolls the log
forward from the last checkpoint) and checked (points.py, model.py):

  (i)   every file has its fsync'd contents, or a later legal state;
  (ii)  the namespace is a state the workload passed through, never earlier than
        one an fsync made durable or than the previous crash point's;
  (iii) fsck_lfs -n finds 0 problems (skipped, with a note, when the guest has
        no fsck_lfs) and dumplfs finds valid checksums and a consistent ifile;
  (iv)  the mount printed the roll-forward line;
  and torn writes (every EVERY-th write longer than a sector, cut after half of
  its sectors) are discarded by the partial segment's checksum, the result a
  legal state; the cleaner workload shows that a crash while the cleaner moves
  blocks loses no live data.

It prints, per workload, "crash points: T tested, R recovered correctly", every
failing point with what differed and where its image is kept (DIR/WORKLOAD/
pointN/crash.img, the disk before the mount: make qemu SD1=IMG boots on it), and
a total; the exit status is 1 if any point failed.  Each point boots a guest
(1.3 to 2 s, 5 s on the cleaner workload's fuller disk); about 330 points take
15 minutes on two shared cores, and ckpt's 530 another 15.  tests/test_crash.py
checks a fixed sample; --sample N --pick K --seed S checks a sample of K
workloads that the seed chooses (a lab's hidden run: labs/rollforward/lab.toml).
"""
