"""The small tools a Unix user reaches for (issue 26): basename, dirname,
tee, uniq, which, xargs, clear and cat -n, each as a student would type
it, bad arguments included."""
from __future__ import annotations


def test_basename_and_dirname(guest):
    cases = {"/usr/lib/libc.a": ("libc.a", "/usr/lib"),
             "/usr/lib/": ("lib", "/usr"), "a": ("a", "."),
             "/a": ("a", "/"), "/": ("/", "/"), "a/b//": ("b", "a")}
    for path, (base, dir_) in cases.items():
        assert guest.ok(f"basename '{path}'").strip() == base, path
        assert guest.ok(f"dirname '{path}'").strip() == dir_, path
    assert guest.ok("basename /tmp/prog.c .c").strip() == "prog"
    assert guest.ok("basename .c .c").strip() == ".c"   # not to nothing
    out, status = guest.run("basename")
    assert status == 1 and "usage: basename" in out, out


def test_tee_copies_to_the_output_and_to_files(guest):
    out = guest.ok("echo one | tee /tmp/t1 /tmp/t2")
    assert out.strip() == "one"
    assert guest.ok("cat /tmp/t1 /tmp/t2").split() == ["one", "one"]
    guest.ok("echo two | tee -a /tmp/t1 > /dev/null")
    assert guest.ok("cat /tmp/t1").split() == ["one", "two"]
    out, status = guest.run("echo x | tee /nonexistent/f")
    assert status == 1 and "/nonexistent/f" in out and "x" in out, out


def test_uniq_and_its_counts(guest):
    guest.ok("printf 'a\\na\\nb\\nc\\nc\\nc\\na\\n' > /tmp/u")
    assert guest.ok("uniq /tmp/u").split() == ["a", "b", "c", "a"]
    assert guest.ok("uniq -c /tmp/u").split() == \
        ["2", "a", "1", "b", "3", "c", "1", "a"]
    assert guest.ok("uniq -d /tmp/u").split() == ["a", "c"]
    assert guest.ok("uniq -u < /tmp/u").split() == ["b", "a"]
    out, status = guest.run("uniq /nonexistent")
    assert status == 1 and "/nonexistent" in out, out


def test_which_searches_the_path(guest):
    assert guest.ok("which sh ls").split() == ["/bin/sh", "/bin/ls"]
    out, status = guest.run("which nosuchcommand")
    assert status == 1 and "nosuchcommand: not found" in out, out


def test_xargs_runs_a_command_on_the_input_words(guest):
    assert guest.ok("echo a b c | xargs -n 2 echo").splitlines() == \
        ["a b", "c"]
    assert guest.ok("printf 'x\\ny\\n' | xargs").strip() == "x y"
    guest.ok("mkdir /tmp/xa && touch /tmp/xa/f1 /tmp/xa/f2")
    guest.ok("ls /tmp/xa/* | xargs rm")
    assert guest.ok("ls /tmp/xa").strip() == ""
    out, status = guest.run("echo a | xargs nosuchcommand")
    assert status == 127 and "nosuchcommand" in out, out


def test_cat_n_numbers_lines_across_files(guest):
    guest.ok("printf 'a\\nb\\n' > /tmp/c1 && printf 'c\\n' > /tmp/c2")
    lines = guest.ok("cat -n /tmp/c1 /tmp/c2").splitlines()
    assert [l.split() for l in lines] == [["1", "a"], ["2", "b"], ["3", "c"]]


def test_clear_sends_the_terminal_its_sequence(guest):
    assert "\x1b[H\x1b[2J" in guest.ok("clear")


def test_uname_names_the_system(guest):
    assert guest.ok("uname").strip() == "4.4BSD-LFS"
    assert guest.ok("uname -m").strip() == "i386"
    assert guest.ok("uname -sr").strip() == "4.4BSD-LFS 1.0"
    a = guest.ok("uname -a").strip()
    assert a.startswith("4.4BSD-LFS localhost 1.0 ") and a.endswith(" i386"), a
    assert "4.4BSD-LFS teaching kernel" in a      # the boot banner's words
    assert "4.4BSD-LFS teaching kernel" in guest.boot_log
    out, status = guest.run("uname -x")
    assert status == 1 and "usage: uname" in out, out


def test_expr_computes_compares_and_matches(guest):
    cases = [("1 + 2 '*' 3", "7", 0), ("'(' 1 + 2 ')' '*' 3", "9", 0),
             ("10 / 3", "3", 0), ("10 % 3", "1", 0), ("5 - 5", "0", 1),
             ("2 '<' 10", "1", 0), ("abc '<' abd", "1", 0),
             ("abc = abc", "1", 0), ("x != x", "0", 1),
             ("0 '|' fallback", "fallback", 0), ("a '&' 0", "0", 1),
             ("hello.c : 'hel*'", "4", 0), ("file.c : '.*\\.c'", "6", 0)]
    for args, want, status in cases:
        out, st = guest.run(f"expr {args}")
        assert (out.strip(), st) == (want, status), args
    out, st = guest.run("expr 1 / 0")
    assert st == 2 and "division by zero" in out, out
    out, st = guest.run("expr 1 +")
    assert st == 2 and "syntax error" in out, out
    out, st = guest.run("expr a + 1")
    assert st == 2 and "non-numeric" in out, out
    # a shell loop's counter, the way scripts use it
    assert guest.ok("i=0; while [ $i -lt 3 ]; do i=`expr $i + 1`; done; "
                    "echo $i").strip() == "3"


def test_ed_on_a_new_file(guest):
    """ed newfile says what 4.4BSD's ed said, and the file can be made."""
    out = guest.ok("printf 'a\\nhello\\n.\\nw\\nq\\n' | ed /tmp/new.txt")
    assert "/tmp/new.txt: No such file or directory" in out, out
    assert guest.ok("cat /tmp/new.txt").strip() == "hello"
