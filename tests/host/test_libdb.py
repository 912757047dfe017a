"""Host tests of the record library and the transaction manager (lib/libdb),
compiled from the same sources as the guest's libdb.a, with the host's gcc
under AddressSanitizer and UndefinedBehaviorSanitizer (any report aborts the
run): tests/libdb/dbtest.c checks each part against a model in memory.

  btree   random inserts, replaces, deletes and gets on 512-byte pages with
          an 8-page cache, every key checked by get, by a cursor walk and by
          BT_SET probes, across closes and reopens
  load    bt_load at 50% and 100% fill, then random operations
  recno   fixed-length records: appends, puts, puts past the end, gets
  damage  byte flips and forged pages with right checksums: every call
          answers EFTYPE or rightly, never crashes or loops
  txn     commit keeps, abort undoes (B-tree and record file), checkpoints,
          group commit
  crash   a process dies in the middle of a run, recovery redoes the
          committed and undoes the rest, and exactly the committed
          transactions are there
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]


@pytest.fixture(scope="session")
def dbtest(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("libdb") / "dbtest"
    srcs = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "lib" / "libdb").glob("*.c"))
    cmd = ["gcc", "-O1", "-g", "-Wall", "-Werror", "-iquote", ".", *SANITIZE,
           "-o", str(out), "tests/libdb/dbtest.c", *srcs]
    subprocess.run(cmd, cwd=ROOT, check=True)
    return out


@pytest.mark.parametrize("group", ["btree", "load", "recno", "damage", "txn", "crash"])
@pytest.mark.parametrize("seed", [1, 2])
def test_libdb(dbtest: Path, tmp_path: Path, group: str, seed: int) -> None:
    p = subprocess.run([str(dbtest), group, str(seed)], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    report = p.stdout[-4000:] + p.stderr[-4000:]
    assert p.returncode == 0, f"dbtest {group} {seed} exited {p.returncode}:\n{report}"
    last = p.stdout.strip().splitlines()[-1]
    assert last.endswith(" 0 failed") and not last.startswith("0 passed"), report
