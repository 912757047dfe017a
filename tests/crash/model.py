"""The host's model of a crash workload, and the checker of a crashed file system.

The guest program (tests/prog/crashwork) prints each operation before it does it
("OP write f01 0 4096 SEED", ...).  Model replays those lines and keeps the
sequence of states S0, S1, ...: after operation k, S_k maps each path to a
directory or to a file identity, and each file identity has a list of versions
(its contents after each write; version 0 is empty).  Only the data generator
gen() is written twice, here and in crashwork.c.

check() judges one crashed file system (the digest crashwork prints for it)
against the model, given `durable`, the last operation an fsync had made durable
before the crash, and `floor`, the state the previous crash point matched:

  (ii) the namespace (paths and their types) equals that of some S_k with
       k >= max(durable, floor): directory operations are atomic and in order,
       and nothing an fsync made durable is lost (LFS's fsync writes the file
       and every directory operation before it);
  (i)  each file's size lies between those of its legal versions, and each of
       its 4 KB blocks equals that block of a legal version (a version at or
       after the one its own last durable fsync wrote; zero-padded where the
       version is shorter), or is zeros past the end of that version (data not
       yet made durable may be missing, never garbage and never older than the
       file's fsync).
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from typing import Optional

BLK = 4096


def gen(seed: int, n: int) -> bytes:
    """crashwork.c's gen(): little-endian words of a xorshift32 stream."""
    x = (seed * 2654435761 + 1) & 0xFFFFFFFF
    words = []
    for _ in range((n + 3) // 4):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        words.append(x)
    return struct.pack(f"<{len(words)}I", *words)[:n]


@dataclass
class State:
    """S_k: path -> "d" or a file id; and each file id's current version."""
    names: dict[str, object]
    versions: dict[int, int]

    def shape(self) -> frozenset:
        return frozenset((p, "d" if t == "d" else "f") for p, t in self.names.items())


class Model:
    def __init__(self) -> None:
        self.states: list[State] = [State({"lost+found": "d"}, {})]
        self.contents: dict[int, list[bytes]] = {}   # file id -> versions
        self.ops: list[str] = []
        self._shapes: list[frozenset] = [self.states[0].shape()]
        self.synced = 0          # S_synced and all before it are on disk (umount)

    def apply(self, line: str) -> None:
        """Apply one "OP ..." line (without the "OP ")."""
        prev = self.states[-1]
        names, versions = dict(prev.names), dict(prev.versions)
        w = line.split()
        op = w[0]
        if op == "create":
            fid = names.get(w[1])
            if not isinstance(fid, int):
                fid = len(self.contents)
                self.contents[fid] = [b""]
                names[w[1]] = fid
            else:
                self.contents[fid].append(b"")
            versions[fid] = len(self.contents[fid]) - 1
        elif op == "write":
            fid = names[w[1]]
            off, n, seed = int(w[2]), int(w[3]), int(w[4])
            old = self.contents[fid][versions[fid]]
            data = old.ljust(off, b"\0")[:off] + gen(seed, n) + old[off + n:]
            self.contents[fid].append(data)
            versions[fid] = len(self.contents[fid]) - 1
        elif op == "mkdir":
            names[w[1]] = "d"
        elif op in ("rmdir", "unlink"):
            names.pop(w[1])
        elif op == "rename":
            moved = {p: t for p, t in names.items()
                     if p == w[1] or p.startswith(w[1] + "/")}
            for p in moved:
                del names[p]
            names.pop(w[2], None)
            for p, t in moved.items():
                names[w[2] + p[len(w[1]):]] = t
        elif op not in ("fsync", "sync"):
            raise ValueError(f"unknown operation {line!r}")
        self.ops.append(line)
        self.states.append(State(names, versions))
        self._shapes.append(self.states[-1].shape())

    # -- checking ---------------------------------------------------------
    def check(self, digest: dict[str, tuple], durable: int, floor: int
              ) -> tuple[Optional[int], str]:
        """(k, "") for the first legal state S_k, or (None, what differed)."""
        shape = frozenset((p, e[0].lower()) for p, e in digest.items())   # d, f or ?
        low = max(durable, floor)
        first_problem = ""
        for k in range(low, len(self.states)):
            if self._shapes[k] != shape:
                continue
            problem = self._contents_ok(digest, self.states[k], durable)
            if not problem:
                return k, ""
            first_problem = first_problem or f"namespace is S{k}, but {problem}"
        if first_problem:
            return None, first_problem
        earlier = [k for k in range(low) if self._shapes[k] == shape]
        if earlier:
            why = "durable" if durable >= floor else "the previous point's state"
            return None, (f"namespace went back to S{earlier[-1]}; S{low} was {why}")
        return None, "namespace is no state of the model; " + self._diff(shape, low)

    def _diff(self, shape: frozenset, k: int) -> str:
        want = self._shapes[k]
        missing = sorted(p for p, _ in want - shape)
        extra = sorted(p for p, _ in shape - want)
        return f"against S{k}: missing {missing[:8]}, unexpected {extra[:8]}"

    def _contents_ok(self, digest: dict[str, tuple], st: State, durable: int) -> str:
        for path, fid in st.names.items():
            if fid == "d":
                continue
            size, blocks = digest[path][1], digest[path][3]
            problem = self._file_ok(fid, durable, size, blocks)
            if problem:
                return f"{path}: {problem}"
        return ""

    def _durable_version(self, fid: int, durable: int) -> int:
        """The version of file fid its last fsync at or before S_durable wrote
        (or the one on disk at S_synced)."""
        for j in range(durable, self.synced, -1):
            w = self.ops[j - 1].split()
            if w[0] == "fsync" and self.states[j].names.get(w[1]) == fid:
                return self.states[j].versions[fid]
        return self.states[self.synced].versions.get(fid, 0)

    def _file_ok(self, fid: int, durable: int, size: int, blocks: list[int]) -> str:
        versions = self.contents[fid]
        lo = self._durable_version(fid, durable)
        legal = versions[lo:]
        sizes = [len(v) for v in legal]
        if not min(sizes) <= size <= max(sizes):
            return (f"size {size}, legal sizes {min(sizes)}..{max(sizes)} "
                    f"(durable version {lo} has {len(versions[lo])})")
        if len(blocks) != (size + BLK - 1) // BLK:
            return f"digest has {len(blocks)} block CRCs for {size} bytes"
        for i, crc in enumerate(blocks):
            n = min(BLK, size - i * BLK)
            if crc == zlib.crc32(bytes(n)) and i * BLK >= len(versions[lo]):
                continue
            if not any(crc == zlib.crc32(v[i * BLK:i * BLK + n].ljust(n, b"\0"))
                       for v in legal):
                return (f"block {i} (bytes {i * BLK}..{i * BLK + n}) matches no "
                        f"version from {lo} (the durable one) to {len(versions) - 1}")
        return ""


def parse_digest(text: str) -> dict[str, tuple]:
    """crashwork digest output -> path -> ("D",) or ("F", size, crc, [block crcs]).
    The ifile, which LFS shows in its root, is the file system's, not the workload's."""
    out: dict[str, tuple] = {}
    for line in text.splitlines():
        w = line.split()
        if len(w) >= 2 and w[1] == "ifile":
            continue
        if len(w) >= 2 and w[0] == "D":
            out[w[1]] = ("D",)
        elif len(w) >= 4 and w[0] == "F":
            out[w[1]] = ("F", int(w[2]), int(w[3], 16), [int(b, 16) for b in w[4:]])
        elif len(w) >= 2 and w[0] == "?":
            out[w[1]] = ("?",)
    return out


@dataclass
class Recording:
    """What a record run learned: the model, and where the crash points are."""
    workload: str
    seed: int
    model: "Model"                   # or txnmodel.TxnModel, its twin
    setup_ops: int                   # operations made durable before the baseline
    baseline: int                    # writes in the log when the workload started
    end: int                         # writes in the log at the end
    durs: list[tuple[int, int]] = field(default_factory=list)  # (ops done, writes)
    cleaned: Optional[tuple[int, int]] = None   # the cleaner's segments, blocks moved

    def durable_at(self, n: int) -> int:
        """The last operation an fsync made durable with writes 1..n on disk."""
        k = self.setup_ops
        for ops, writes in self.durs:
            if writes <= n:
                k = max(k, ops)
        return k
