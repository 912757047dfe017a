"""The crash checkers' models (tests/crash/model.py, txnmodel.py) on hand-made
digests: they accept the states a workload passed through and reject what a
broken recovery would show, so a passing make crashtest means something."""
from __future__ import annotations

import zlib

from tests.crash import txnmodel
from tests.crash.model import BLK, Model, gen, parse_digest
from tests.crash.txnmodel import TxnModel

OPS = ["create a", "write a 0 6000 7", "fsync a", "mkdir d",
       "rename a d/b", "write d/b 0 100 9", "fsync d/b"]


def model() -> Model:
    m = Model()
    for op in OPS:
        m.apply(op)
    return m


def digest(files: dict[str, bytes], dirs=("lost+found",)) -> dict:
    lines = [f"D {d}" for d in dirs]
    for path, data in files.items():
        blocks = [zlib.crc32(data[i:i + BLK]) for i in range(0, len(data), BLK)]
        lines.append(f"F {path} {len(data)} {zlib.crc32(data):08x} "
                     + " ".join(f"{c:08x}" for c in blocks))
    lines.append("F ifile 12288 0 0 0 0")       # the file system's, ignored
    return parse_digest("\n".join(lines))


V1 = gen(7, 6000)
V2 = gen(9, 100) + V1[100:]


def test_the_states_passed_through_are_accepted():
    m = model()
    assert m.check(digest({}), 0, 0) == (0, "")
    assert m.check(digest({"a": V1}), 3, 0)[0] == 3
    assert m.check(digest({"d/b": V2}, ("lost+found", "d")), 7, 5)[0] == 7


def test_a_partly_written_file_may_miss_data_it_never_fsynced():
    m = model()
    k, why = m.check(digest({"a": V1[:4096] + bytes(1904)}), 1, 0)
    assert k == 1 and not why          # S1 or S2: the namespace is the same


def test_fsync_makes_its_own_file_durable_not_the_others():
    m = Model()
    for op in ["create a", "write a 0 6000 7", "fsync a", "create c",
               "write a 0 100 9", "fsync c"]:
        m.apply(op)
    # After fsync c, a may still hold what its own fsync wrote (V1), not V2.
    k, why = m.check(digest({"a": V1, "c": b""}), 6, 0)
    assert k == 6 and not why
    k, why = m.check(digest({"a": b"x" * 6000, "c": b""}), 6, 0)
    assert k is None and "block 0" in why


def test_fsynced_data_that_is_missing_or_garbage_fails():
    m = model()
    k, why = m.check(digest({"a": V1[:4096]}), 3, 0)
    assert k is None and "size 4096" in why
    k, why = m.check(digest({"a": V1[:4096] + bytes(1904)}), 3, 0)
    assert k is None and "block 1" in why
    k, why = m.check(digest({"a": b"x" * 6000}), 2, 0)
    assert k is None and "block 0" in why


def test_a_namespace_that_goes_back_or_was_never_there_fails():
    m = model()
    k, why = m.check(digest({"a": V1}), 3, 5)
    assert k is None and "went back" in why
    k, why = m.check(digest({"a": V1, "d/b": V1}, ("lost+found", "d")), 0, 0)
    assert k is None and "no state" in why


def txn_digest(k: int, js: list[int], bump: int | None = None) -> dict:
    """The txn workload's files after k A commits and js[c] of child c's;
    bump: file i of the 250 has one A line more."""
    files = {txnmodel.big_path(i): txnmodel.big_content(i, k + (i == bump))
             for i in range(txnmodel.FILES)}
    for c, j in enumerate(js):
        for w in (0, 1):
            files[txnmodel.child_path(c, w)] = txnmodel.child_content(c, w, j)
    return digest(files, ("lost+found",) + tuple(f"d{i}" for i in range(5)))


def txn_model() -> TxnModel:
    m = TxnModel()
    for op in ["txn A 1", "txn A 2", "txn C 0 1", "txn C 2 1", "txn A 3"]:
        m.apply(op)
    return m


def test_txn_commits_all_there_or_none_are_accepted():
    m = txn_model()
    assert m.check(txn_digest(2, [1, 0, 1, 0]), 4, 0) == (4, "")
    # What was not yet acknowledged may be there, or not.
    assert m.check(txn_digest(3, [2, 0, 1, 0]), 4, 0) == (6, "")


def test_txn_a_torn_or_lost_commit_fails():
    m = txn_model()
    state, why = m.check(txn_digest(1, [1, 0, 1, 0], bump=17), 4, 0)
    assert state is None and "not atomic" in why
    state, why = m.check(txn_digest(1, [1, 0, 1, 0]), 4, 0)
    assert state is None and "acknowledged" in why
    d = txn_digest(2, [1, 0, 1, 0])
    d[txnmodel.child_path(0, 1)] = txn_digest(2, [0, 0, 1, 0])[txnmodel.child_path(0, 1)]
    state, why = m.check(d, 4, 0)
    assert state is None and "child 0" in why
    state, why = m.check(txn_digest(2, [1, 0, 1, 0]), 4, 9)
    assert state is None and "went back" in why
