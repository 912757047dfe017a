"""man (issue 26): the manual's pages, formatted on the host by Debian's
mandoc (share/man), read in the guest.  At the terminal a page goes
through more; into a pipe it is copied as it is.  man -k searches the
NAME lines, man -w says where a page is; a missing page and a bad option
are errors."""
from __future__ import annotations


def test_pages_of_each_section_and_the_whatis_search(guest):
    page = guest.ok("man ls | cat")
    assert "LS(1)" in page and "list directory contents" in page, page
    assert "-R      List subdirectories recursively." in page, page
    assert "\b" not in page                # no overstrike left

    # the same name in section 1 and in section 2: a number picks one
    assert "SYNC(1)" in guest.ok("man sync | cat")
    assert "SYNC(2)" in guest.ok("man 2 sync | cat")

    # a page with several names is found under each
    txn = guest.ok("man 2 txn_begin | cat")
    assert "TXN_BEGIN(2)" in txn and "ETXNABORT" in txn, txn
    assert "TXN_BEGIN(2)" in guest.ok("man txn_commit | cat")
    assert "REBOOT(8)" in guest.ok("man halt | cat")

    # section 3: the record library and the user-level transaction manager,
    # found by number or, past sections 1, 8 and 2, by any of their names
    assert "BTREE(3)" in guest.ok("man 3 btree | cat")
    tp = guest.ok("man tp_commit | cat")
    assert "TP_OPEN(3)" in tp and "TP_RECOVER" in tp, tp
    assert guest.ok("man -w bt_cget").strip() == "/usr/share/man/cat3/bt_cget.0"

    found = guest.ok("man -k transaction").splitlines()
    assert "txn_begin, txn_commit, txn_abort (2) - kernel transactions" in found
    assert any(l.startswith("txnstat (1)") for l in found), found
    assert any(l.startswith("tp_open, tp_close") and "(3)" in l for l in found), found
    assert guest.ok("man -k TRANSACTION").splitlines() == found   # any case

    assert guest.ok("man -w ls").strip() == "/usr/share/man/cat1/ls.0"
    assert guest.ok("man -w 8 newfs_lfs").strip() == \
        "/usr/share/man/cat8/newfs_lfs.0"


def test_missing_pages_and_bad_options(guest):
    out, status = guest.run("man nosuchpage")
    assert status == 1 and "No manual entry for nosuchpage" in out, out
    out, status = guest.run("man 8 ls")
    assert status == 1 and "No entry for ls in section 8" in out, out
    out, status = guest.run("man ls nosuchpage | cat")
    assert status == 0 and "LS(1)" in out, out       # the pipe's status
    out, status = guest.run("man ls nosuchpage > /dev/null")
    assert status == 1 and "No manual entry for nosuchpage" in out, out
    out, status = guest.run("man -k nosuchword")
    assert status == 1 and "nosuchword: nothing appropriate" in out, out
    out, status = guest.run("man -x ls")
    assert status == 1 and "usage: man [-w] [section] name" in out, out
    out, status = guest.run("man")
    assert status == 1 and "usage: man" in out, out


def test_a_page_at_the_terminal_goes_through_more(guest):
    guest.send("man lfs_cleanerd; echo __paged__$?\n")
    guest.expect(r"--More--\(\d+%\)")
    shown = guest.child.before
    assert "LFS_CLEANERD(8)" in shown and "the BSD-LFS cleaner" in shown, shown
    guest.send("q\n")
    guest.expect(r"__paged__0\r*\n# ")    # more quit; man returned 0
    assert guest.ok("echo back").strip() == "back"
