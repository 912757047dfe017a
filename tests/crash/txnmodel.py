"""The host's model of the crash workload txn (tests/prog/crashwork, w_txn):
kernel transactions on protected files, checked all or nothing.

Setup made 250 files d<i%5>/f<i> and two files d<..>/g<c>a, g<c>b for each of
four children, each file holding its name and a newline; it ended with an
unmount, so that is on disk.  The run then committed three transactions
appending "A<k>" to all 250 files ("OP txn A k" after each commit returned),
and the four children each committed five appending "C<c>.<j>" to both their
files ("OP txn C c j" once the parent heard of it).

check() judges a crashed file system's digest: the namespace is exactly the
setup's; the 250 files all hold the same number k of A lines (a commit is in
every file or in none), at least as many as were acknowledged before the crash
point; each child's two files hold the same number j of its lines, at least
its acknowledged ones.  The state it returns counts, as an index of the
model's lines, the setup's lines and the commits found (k plus the j's): a
later crash point may not go below it.
"""
from __future__ import annotations

import zlib
from typing import Optional

FILES = 250
BIG = 3
CHILDREN = 4
EACH = 5


def big_path(i: int) -> str:
    return f"d{i % 5}/f{i:03d}"


def child_path(c: int, which: int) -> str:
    i = FILES + 2 * c + which
    return f"d{i % 5}/g{c}{'ab'[which]}"


def big_content(i: int, k: int) -> bytes:
    return (f"f{i:03d}\n" + "".join(f"A{n}\n" for n in range(1, k + 1))).encode()


def child_content(c: int, which: int, j: int) -> bytes:
    return (f"g{c}{'ab'[which]}\n" +
            "".join(f"C{c}.{n}\n" for n in range(1, j + 1))).encode()


class TxnModel:
    """The same interface as model.Model: apply() the OP lines, check()."""

    def __init__(self) -> None:
        self.ops: list[str] = []
        self.synced = 0

    def apply(self, line: str) -> None:
        w = line.split()
        if w[0] == "txn" and w[1] not in ("A", "C"):
            raise ValueError(f"unknown transaction line {line!r}")
        self.ops.append(line)

    def _acked(self, durable: int) -> tuple[int, list[int]]:
        """The commits acknowledged by op durable: the A count, each child's."""
        a, cs = 0, [0] * CHILDREN
        for line in self.ops[:durable]:
            w = line.split()
            if w[:2] == ["txn", "A"]:
                a = max(a, int(w[2]))
            elif w[:2] == ["txn", "C"]:
                cs[int(w[2])] = max(cs[int(w[2])], int(w[3]))
        return a, cs

    def check(self, digest: dict[str, tuple], durable: int, floor: int
              ) -> tuple[Optional[int], str]:
        """(state, "") if the digest is a legal crash state, else (None, why)."""
        want = {f"d{i}" for i in range(5)} | {"lost+found"}
        want |= {big_path(i) for i in range(FILES)}
        want |= {child_path(c, w) for c in range(CHILDREN) for w in (0, 1)}
        if set(digest) != want:
            return None, (f"namespace: missing {sorted(want - set(digest))[:5]}, "
                          f"unexpected {sorted(set(digest) - want)[:5]}")
        a_acked, c_acked = self._acked(durable)

        def crc(path: str) -> int:
            return digest[path][2] if digest[path][0] == "F" else -1

        ks = []
        for i in range(FILES):
            got = crc(big_path(i))
            k = next((k for k in range(BIG + 1)
                      if zlib.crc32(big_content(i, k)) == got), None)
            if k is None:
                return None, f"{big_path(i)}: no number of A lines gives its contents"
            ks.append(k)
        if len(set(ks)) != 1:
            return None, (f"transaction A is not atomic: the 250 files hold "
                          f"{sorted(set(ks))} A lines")
        k = ks[0]
        if k < a_acked:
            return None, f"A{a_acked} was acknowledged, the files hold only {k}"
        state = self.synced + k
        for c in range(CHILDREN):
            js = []
            for which in (0, 1):
                got = crc(child_path(c, which))
                j = next((j for j in range(EACH + 1)
                          if zlib.crc32(child_content(c, which, j)) == got), None)
                if j is None:
                    return None, f"{child_path(c, which)}: no number of lines fits"
                js.append(j)
            if js[0] != js[1]:
                return None, (f"child {c}'s transaction is not atomic: its files "
                              f"hold {js[0]} and {js[1]} of its lines")
            if js[0] < c_acked[c]:
                return None, (f"child {c}'s C{c}.{c_acked[c]} was acknowledged, "
                              f"its files hold {js[0]}")
            state += js[0]
        if state < floor:
            return None, (f"went back: {state - self.synced} commits, the previous "
                          f"point had {floor - self.synced}")
        return state, ""
