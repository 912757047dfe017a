"""sed (issue 26) as a student would type it: addresses and ranges, every
command of POSIX sed, scripts from -e and -f, and bad scripts, missing
files and odd input refused or survived.  One guest; each check names
the feature it proves."""
from __future__ import annotations

FIVE = "one\\ntwo\\nthree\\nfour\\nfive\\n"

# (what it proves, sed arguments, expected output lines); input /tmp/f
CASES = [
    ("-n and p", "-n 2p /tmp/f", ["two"]),
    ("a line range", "2,4d /tmp/f", ["one", "five"]),
    ("$ is the last line", "'$d' /tmp/f", ["one", "two", "three", "four"]),
    ("a range of regular expressions", "'/two/,/four/d' /tmp/f",
     ["one", "five"]),
    ("a range ending before it starts is one line", "'3,1d' /tmp/f",
     ["one", "two", "four", "five"]),
    ("! negates", "'/t/!d' /tmp/f", ["two", "three"]),
    ("s with g", "'s/o/0/g' /tmp/f", ["0ne", "tw0", "three", "f0ur", "five"]),
    ("s of the n-th occurrence", "'s/e/E/2' /tmp/f",
     ["one", "two", "threE", "four", "five"]),
    ("s with \\( \\) and \\1 \\2", "'s/\\(t\\)\\(w\\)/\\2\\1/' /tmp/f",
     ["one", "wto", "three", "four", "five"]),
    ("s with & and another delimiter", "-n 's|f.|[&]|p' /tmp/f",
     ["[fo]ur", "[fi]ve"]),
    ("s with \\& is a literal &", "-n '1s/o/\\&/p' /tmp/f", ["&ne"]),
    ("s with p prints", "-n 's/ee/EE/p' /tmp/f", ["thrEE"]),
    ("an empty match between each character", "-n '1s/x*/-/gp' /tmp/f",
     ["-o-n-e-"]),
    ("-E extended expressions", "-E -n 's/(o|i)(u|v)/<\\2\\1>/p' /tmp/f",
     ["f<uo>r", "f<vi>e"]),
    ("an empty expression is the last one", "-n '/two/s//2/p' /tmp/f", ["2"]),
    ("\\n in a replacement", "'1s/n/\\n/' /tmp/f",
     ["o", "e", "two", "three", "four", "five"]),
    ("y transliterates", "'y/otf/OTF/' /tmp/f",
     ["One", "TwO", "Three", "FOur", "Five"]),
    ("= prints the line number", "-n '/four/=' /tmp/f", ["4"]),
    ("q quits after printing", "2q /tmp/f", ["one", "two"]),
    ("n reads the next line", "'n;d' /tmp/f", ["one", "three", "five"]),
    ("N joins lines", "'$!N;s/\\n/ /' /tmp/f",
     ["one two", "three four", "five"]),
    ("N P D with a back-reference: uniq", "'$!N;/^\\(.*\\)\\n\\1$/!P;D' /tmp/d",
     ["a", "b", "c"]),
    ("h G and $!d reverse the file", "'1!G;h;$!d' /tmp/f",
     ["five", "four", "three", "two", "one"]),
    ("x and H", "-n 'H;${x;s/\\n/,/g;p;}' /tmp/f",
     [",one,two,three,four,five"]),
    ("g copies the hold space back", "-n '1h;3g;3p' /tmp/f", ["one"]),
    ("a loop with a label and b", "':a;N;$!ba;s/\\n/+/g' /tmp/f",
     ["one+two+three+four+five"]),
    ("t branches after a substitution", "'s/o/O/;tx;s/$/!/;:x' /tmp/f",
     ["One", "twO", "three!", "fOur", "five!"]),
    ("{ } groups commands", "-n '/o/{/w/!p;}' /tmp/f", ["one", "four"]),
    ("several -e", "-e 's/one/1/' -e 's/two/2/' -e 3q /tmp/f",
     ["1", "2", "three"]),
    ("one-line a", "'2a after two' /tmp/f",
     ["one", "two", "after two", "three", "four", "five"]),
    ("one-line i", "'$i before five' /tmp/f",
     ["one", "two", "three", "four", "before five", "five"]),
    ("c replaces a range once", "'2,4c gone' /tmp/f",
     ["one", "gone", "five"]),
    ("r appends a file", "'1r /tmp/g' /tmp/f",
     ["one", "G", "two", "three", "four", "five"]),
    ("the address \\,re,", "-n '\\,v,p' /tmp/f", ["five"]),
    ("GNU's \\< \\> \\w", "-n 's/\\<t\\w/[&]/p' /tmp/f", ["[tw]o", "[th]ree"]),
    ("[/] in an address does not end it", "'/[/]/d;3q' /tmp/f",
     ["one", "two", "three"]),
    ("several files are one stream", "-n '$p;1p' /tmp/f /tmp/g",
     ["one", "G"]),
]


def test_sed(guest):
    g = guest
    g.ok(f"printf '{FIVE}' > /tmp/f; echo G > /tmp/g")
    g.ok("printf 'a\\na\\nb\\nb\\nb\\nc\\n' > /tmp/d")
    for what, args, want in CASES:
        assert g.ok(f"sed {args}").splitlines() == want, what

    # -f scripts: a\ i\ c\ with continued lines, #n, comments, w files
    g.ok("printf '#n\\n/two/{\\n  i\\\\\\n  before\\\\\\n  two\\n"
         "  p\\n}\\n# a comment\\n$w /tmp/last\\n' > /tmp/s1")
    assert g.ok("sed -f /tmp/s1 /tmp/f").splitlines() == \
        ["before", "two", "two"], "-f with #n, i\\ on two lines, {}"
    assert g.ok("cat /tmp/last").splitlines() == ["five"], "w writes a file"
    g.ok("printf '3a\\\\\\nA1\\\\\\nA2\\n1c\\\\\\nC\\n' > /tmp/s2")
    assert g.ok("sed -f /tmp/s2 /tmp/f").splitlines() == \
        ["C", "two", "three", "A1", "A2", "four", "five"], "a\\ and c\\"
    g.ok("sed -n 's/o/0/w /tmp/sw' /tmp/f")
    assert g.ok("cat /tmp/sw").splitlines() == ["0ne", "tw0", "f0ur"], \
        "s///w writes what it changed"
    assert g.ok("echo hello | sed s/l/L/2").strip() == "helLo", "stdin"

    # l: the pattern space visibly, C's escapes, octal for the rest, $ at
    # the end, long lines folded before 70 columns
    assert g.ok("printf 'a\\tb\\\\c\\001\\n' | sed -n l").splitlines() == \
        ["a\\tb\\\\c\\001$"], "l escapes"
    assert g.ok("printf 'one\\ntwo\\n' | sed -n 'N;l'").splitlines() == \
        ["one\\ntwo$"], "l shows a newline in the pattern space"
    assert g.ok("dd if=/dev/zero bs=100 count=1 2>/dev/null | tr '\\0' 0 | "
                "sed -n '$!d;l'").splitlines() == \
        ["0" * 69 + "\\", "0" * 31 + "$"], "l folds a long line"

    # -i: in place, each file its own stream, with or without a backup
    g.ok("cp /tmp/f /tmp/i1 && cp /tmp/g /tmp/i2 && chmod 600 /tmp/i2")
    assert g.ok("sed -i -n '1p;$p' /tmp/i1 /tmp/i2") == ""
    assert g.ok("cat /tmp/i1 /tmp/i2").split() == ["one", "five", "G", "G"]
    assert g.ok("ls -l /tmp/i2").startswith("-rw-------"), "mode kept"
    g.ok("sed -i.orig s/G/g/ /tmp/i2")
    assert g.ok("cat /tmp/i2 /tmp/i2.orig").split() == ["g", "g", "G", "G"]
    out, status = g.run("sed -i p < /tmp/f")
    assert status == 1 and "needs files" in out, out

    # a 10,000-byte line, and a NUL byte is a character like another
    g.ok("dd if=/dev/zero bs=1000 count=10 2>/dev/null | tr '\\0' a > /tmp/long")
    assert g.ok("sed 's/a*/[&]/' /tmp/long | wc -c").split() == ["10003"]
    # nested repetitions that cannot match take linear time, not forever
    assert g.run("grep '\\(a*\\)*c' /tmp/long") == ("", 1)
    assert g.ok("sed 's/\\(a*\\)*c/X/' /tmp/long | wc -c").split() == ["10001"]
    out, status = g.run("printf 'a\\0b\\nab\\n' | sed s/b/B/ | od -c")
    assert status == 0 and "a  \\0   B  \\n   a   B  \\n" in out, out

    # bad scripts, options and files
    for script, message in [("k", "unknown command"),
                            ("s/a/b", "unterminated"),
                            ("'{p'", "unmatched {"),
                            ("'b nowhere'", "nowhere"),
                            ("'s/\\(a/x/'", "parentheses not balanced"),
                            ("y/ab/c/", "not the same length"),
                            ("'s/a/\\1/'", "not defined")]:
        out, status = g.run(f"sed {script} /tmp/f")
        assert status == 1 and message in out, (script, out)
    out, status = g.run("sed -x p /tmp/f")
    assert status == 1 and "usage: sed" in out, out
    out, status = g.run("sed")
    assert status == 1 and "usage: sed" in out, out
    out, status = g.run("sed -n 1p /tmp/nosuch /tmp/f")
    assert status == 1 and "/tmp/nosuch" in out and "one" in out, out
    out, status = g.run("sed -f /tmp/nosuch /tmp/f")
    assert status == 1 and "/tmp/nosuch" in out, out
