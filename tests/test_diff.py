"""diff (issue 26): the normal and unified formats, -q, binary files,
directories (-r too), exit status 0/1/2, and a file of thousands of
lines.  One guest; each check names what it proves."""
from __future__ import annotations


def test_diff(guest):
    g = guest
    g.ok("printf 'a\\nb\\nc\\nd\\ne\\n' > /tmp/a1; "
         "printf 'a\\nB\\nc\\ne\\nf\\n' > /tmp/a2")

    out, status = g.run("diff /tmp/a1 /tmp/a2")
    assert status == 1, "differences: status 1"
    assert out.splitlines() == ["2c2", "< b", "---", "> B", "4d3", "< d",
                                "5a5", "> f"], "normal format: c, d and a"
    out, status = g.run("diff /tmp/a1 /tmp/a1")
    assert (out, status) == ("", 0), "identical: no output, status 0"

    out, status = g.run("diff -u /tmp/a1 /tmp/a2")
    lines = out.splitlines()
    assert status == 1
    assert lines[0].startswith("--- /tmp/a1\t") and \
        lines[1].startswith("+++ /tmp/a2\t"), "unified headers"
    assert lines[2:] == ["@@ -1,5 +1,5 @@", " a", "-b", "+B", " c", "-d",
                         " e", "+f"], "unified hunk"

    # 3 lines of context: 7 equal lines between changes make two hunks,
    # 5 do not
    g.ok("i=1; while [ $i -le 20 ]; do echo $i; i=$((i+1)); done > /tmp/n1")
    g.ok("sed -e 3s/3/x/ -e 11s/11/y/ -e 17s/17/z/ /tmp/n1 > /tmp/n2")
    hunks = [l for l in g.ok("diff -u /tmp/n1 /tmp/n2; true").splitlines()
             if l.startswith("@@")]
    assert hunks == ["@@ -1,6 +1,6 @@", "@@ -8,13 +8,13 @@"], \
        "hunks merge when closer than 2*3 lines"
    hunks = [l for l in g.ok("diff -U 1 /tmp/n1 /tmp/n2; true").splitlines()
             if l.startswith("@@")]
    assert hunks == ["@@ -2,3 +2,3 @@", "@@ -10,3 +10,3 @@",
                     "@@ -16,3 +16,3 @@"], "-U 1"

    out, status = g.run("diff -q /tmp/a1 /tmp/a2")
    assert (out.strip(), status) == ("Files /tmp/a1 and /tmp/a2 differ", 1)
    out, status = g.run("diff -q /tmp/a1 /tmp/a1")
    assert (out, status) == ("", 0), "-q on identical files"

    g.ok("printf 'a\\nb' > /tmp/e1; printf 'a\\nc' > /tmp/e2")
    assert g.ok("diff /tmp/e1 /tmp/e2; true").splitlines() == \
        ["2c2", "< b", "\\ No newline at end of file", "---", "> c",
         "\\ No newline at end of file"], "a last line without newline"
    assert g.ok("diff -u /dev/null /tmp/a1; true").splitlines()[2:4] == \
        ["@@ -0,0 +1,5 @@", "+a"], "an empty file"
    assert g.ok("diff /tmp/a1 - < /tmp/a2; true").splitlines()[0] == "2c2", \
        "- is standard input"

    # binary input: one line, no dump of the bytes
    out, status = g.run("diff /bin/sh /bin/ls")
    assert (out.strip(), status) == \
        ("Binary files /bin/sh and /bin/ls differ", 1), out[:300]
    assert g.run("diff /bin/sh /bin/sh") == ("", 0)

    # thousands of lines: every difference found, a minimal script
    g.ok("od -x /bin/sh | head -3000 > /tmp/b1")
    g.ok("sed -e '50,60d' -e '500s/$/ x/' -e '1000,1100s/0/Z/g' "
         "-e '2000a\\' -e 'new' /tmp/b1 > /tmp/b2")
    zeros = int(g.ok("sed -n 1000,1100p /tmp/b1 | grep -c 0").strip())
    g.ok("diff /tmp/b1 /tmp/b2 > /tmp/bd; true")
    assert int(g.ok("grep -c '^<' /tmp/bd").strip()) == 11 + 1 + zeros
    assert int(g.ok("grep -c '^>' /tmp/bd").strip()) == 1 + zeros + 1
    heads = g.ok("grep -v '^[<>-]' /tmp/bd").splitlines()
    assert heads[:2] == ["50,60d49", "500c489"], heads[:2]
    assert heads[-1] == "2000a1990", heads[-1]
    assert g.ok("diff /tmp/b1 /tmp/b1; echo $?").strip() == "0"

    # directories, one level
    g.ok("mkdir -p /tmp/d1/sub /tmp/d2/sub; echo x > /tmp/d1/f; "
         "echo y > /tmp/d2/f; echo s > /tmp/d1/s; echo s > /tmp/d2/s; "
         "echo o > /tmp/d1/only")
    out, status = g.run("diff /tmp/d1 /tmp/d2")
    assert status == 1 and out.splitlines() == [
        "diff /tmp/d1/f /tmp/d2/f", "1c1", "< x", "---", "> y",
        "Only in /tmp/d1: only",
        "Common subdirectories: /tmp/d1/sub and /tmp/d2/sub"], out
    g.ok("mkdir -p /tmp/d1/sub/deep /tmp/d2/sub/deep; "
         "echo 1 > /tmp/d1/sub/deep/g; echo 2 > /tmp/d2/sub/deep/g")
    out, status = g.run("diff -r /tmp/d1 /tmp/d2")
    assert status == 1 and out.splitlines()[-5:] == [
        "diff -r /tmp/d1/sub/deep/g /tmp/d2/sub/deep/g", "1c1", "< 1", "---",
        "> 2"], "-r goes down the subdirectories: " + out
    g.ok("cp /tmp/a2 /tmp/d1/a1")
    out, status = g.run("diff /tmp/a1 /tmp/d1")
    assert status == 1 and out.startswith("2c2"), "file and directory"

    # trouble is status 2
    out, status = g.run("diff /tmp/a1 /tmp/nosuch")
    assert status == 2 and "/tmp/nosuch" in out, out
    out, status = g.run("diff -x /tmp/a1 /tmp/a2")
    assert status == 2 and "usage: diff" in out, out
    out, status = g.run("diff /tmp/a1")
    assert status == 2 and "usage: diff" in out, out
    out, status = g.run("diff -U x /tmp/a1 /tmp/a2")
    assert status == 2 and "bad context" in out, out
