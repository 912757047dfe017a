"""Host tests of the userland: libc, the shell and the utilities.

Two kinds of test, both without the kernel:

* the libc unit checks (tests/libc: printf, strtol, malloc, stdio, ...),
  compiled from the real libc sources and run on the host;
* the real programs of bin/ and sbin/, built with the real libc but with
  the system call stubs replaced by a layer that translates each 4.4BSD
  call to Linux's (tests/libc/bsdemu), run here as ordinary processes.

Each test names what it proves; a failure shows the command, what came
out and what was expected.
"""
from __future__ import annotations

import io
import os
import pty
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pexpect
import pexpect.fdpexpect
import pytest

REPO = Path(__file__).resolve().parents[2]
LIBC_TESTS = REPO / "tests" / "libc"
BUILD = REPO / "build" / "tests" / "libc"
ROOT = BUILD / "root"


def make(target: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "-s", "-C", str(LIBC_TESTS), target],
                          capture_output=True, text=True)


@pytest.fixture(scope="session")
def userland() -> Path:
    r = make("userland")
    assert r.returncode == 0, "building the userland failed:\n" + r.stdout + r.stderr
    return ROOT


def env_for(root: Path, home: Path) -> dict[str, str]:
    """Our programs first; the host's after them only for cut,
    which the scripts use to trim test output."""
    return {"PATH": f"{root}/bin:{root}/sbin:/usr/bin:/bin", "HOME": str(home),
            "USER": "root", "TERM": "vt100"}


def sh(root: Path, script: str, cwd: Path, stdin: str = "",
       timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(root / "bin" / "sh"), "-c", script],
                          input=stdin, capture_output=True, text=True,
                          cwd=cwd, env=env_for(root, cwd), timeout=timeout)


def check(root: Path, tmp: Path, script: str, out: str, status: int = 0,
          err: str | None = None, stdin: str = "") -> None:
    r = sh(root, script, tmp, stdin)
    hint = f"script:\n{script}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    assert r.stdout == out, hint
    assert r.returncode == status, hint
    if err is not None:
        assert r.stderr == err, hint


# --- libc ------------------------------------------------------------------

def test_libc_unit_checks_pass() -> None:
    r = make("run")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 failed" in r.stdout, r.stdout


# --- the shell -------------------------------------------------------------

SHELL_CASES = [
    # (what it shows, script, expected stdout, expected status)
    ("words and quotes",
     "echo a 'b  c' \"d  $((1+1))\" e\\ f", "a b  c d  2 e f\n", 0),
    ("variables and defaults",
     "x=5; echo $x ${x} ${y:-def} ${y-unset} ${#x}; y=; echo ${y:-empty}",
     "5 5 def unset 1\nempty\n", 0),
    ("assignment before a command goes to its environment only",
     "A=1 sh -c 'echo $A'; echo \"[$A]\"", "1\n[]\n", 0),
    ("export",
     "export B=2; sh -c 'echo $B'; C=3; export C; sh -c 'echo $C'",
     "2\n3\n", 0),
    ("special parameters",
     "set -- a 'b c'; echo $# \"$1\" \"$2\"; for i in \"$@\"; do echo \"<$i>\"; done",
     "2 a b c\n<a>\n<b c>\n", 0),
    ("$? after success, failure and not found",
     "true; echo $?; false; echo $?; nosuch 2>/dev/null; echo $?",
     "0\n1\n127\n", 0),
    ("pipelines",
     "echo hello | cat | wc -c", "       6\n", 0),
    ("pipeline status is the last command's",
     "false | true; echo $?; true | false; echo $?", "0\n1\n", 0),
    ("&& and ||",
     "true && echo a; false && echo b; false || echo c; true || echo d",
     "a\nc\n", 0),
    ("redirections",
     "echo one > f; echo two >> f; cat < f; cat f nosuch 2> err; "
     "cat err | wc -l; ls nosuch > out 2>&1; cat out",
     "one\ntwo\none\ntwo\n       1\nls: nosuch: No such file or directory\n", 0),
    ("numbered descriptors and closing",
     "exec 3> g; echo via3 >&3; exec 3>&-; cat g", "via3\n", 0),
    ("here-documents",
     "x=X; cat <<EOF\nval $x\nEOF\ncat <<'EOF'\nraw $x\nEOF\n",
     "val X\nraw $x\n", 0),
    ("if/elif/else",
     "for n in 1 2 3; do if [ $n = 1 ]; then echo one; elif [ $n = 2 ]; "
     "then echo two; else echo other; fi; done", "one\ntwo\nother\n", 0),
    ("while and until with arithmetic",
     "i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo $i; "
     "until [ $i -eq 0 ]; do i=$((i-1)); done; echo $i", "3\n0\n", 0),
    ("break and continue",
     "for i in 1 2 3 4 5; do [ $i = 2 ] && continue; [ $i = 4 ] && break; "
     "echo $i; done", "1\n3\n", 0),
    ("case",
     "for f in a.c b.h c; do case $f in *.c) echo C;; *.h|*.H) echo H;; "
     "*) echo other;; esac; done", "C\nH\nother\n", 0),
    ("command substitution",
     "x=$(echo a; echo b); echo \"$x\" `echo c`", "a\nb c\n", 0),
    ("field splitting and IFS",
     "x='a  b'; for w in $x; do echo \"[$w]\"; done; IFS=:; y=p:q; "
     "for w in $y; do echo \"[$w]\"; done", "[a]\n[b]\n[p]\n[q]\n", 0),
    ("globbing, sorted, and no match left alone",
     "touch b.c a.c z.h; echo *.c; echo *.nomatch", "a.c b.c\n*.nomatch\n", 0),
    ("subshells do not change the parent",
     "x=1; (x=2; cd /); echo $x; pwd | grep -c /", "1\n1\n", 0),
    ("braces and redirection of a group",
     "{ echo a; echo b; } > f; cat f", "a\nb\n", 0),
    ("background jobs and wait",
     "sleep 0.2 & p=$!; echo started; wait $p; echo done $?",
     "started\ndone 0\n", 0),
    ("exit status",
     "exit 7", "", 7),
    ("a killed command's status is 128 + signal",
     "sh -c 'kill -9 $$'; echo $?", "137\n", 0),
    ("set -e stops at an untested failure",
     "set -e; false || echo tested; if false; then :; fi; false; echo no",
     "tested\n", 1),
    ("eval and .",
     "eval 'echo e1; echo e2'; echo 'echo dotted $1' > s; . ./s arg",
     "e1\ne2\ndotted arg\n", 0),
    ("read",
     "read a b; echo \"[$a][$b]\"; read c; echo \"[$c]\"",
     "[one][two three]\n[x]\n", 0),
    ("shift and unset",
     "set -- 1 2 3; shift; echo $*; shift 2; echo $#; x=1; unset x; "
     "echo ${x-gone}", "2 3\n0\ngone\n", 0),
    ("functions: arguments, return, recursion, the caller's $@ back",
     "f() { echo \"$# $1\"; return 3; echo no; }; set -- a b; f x; "
     "echo $? $# $1; fact() { [ $1 -le 1 ] && { echo 1; return; }; "
     "echo $(( $1 * $(fact $(($1 - 1))) )); }; fact 5",
     "1 x\n3 2 a\n120\n", 0),
    ("a function's redirections, unset -f, command skips functions",
     "g() { echo in g; } > out; g; cat out; unset -f g; g 2>/dev/null; "
     "echo $?; cd() { echo mine; }; cd /; command cd / && pwd",
     "in g\n127\nmine\n/\n", 0),
    ("return in a loop and in a . file",
     "h() { for i in 1 2 3; do [ $i = 2 ] && return $i; done; }; h; "
     "echo $?; printf 'return 4\\necho no\\n' > r; . ./r; echo $?",
     "2\n4\n", 0),
    ("runaway recursion is an error, not a crash",
     "f() { f; }; f; echo not reached", "", 2),
    ("kill %N without job control signals the job's processes",
     "sleep 10 | sleep 11 & kill %1; wait $!; echo $?", "143\n", 0),
    ("aliases take effect on the next line; trailing blank; no recursion",
     "alias say='echo ' who=world ls='ls -d'\nsay who; ls /; alias ls\n"
     "unalias ls; type ls | cut -c1-5", "world\n/\nls='ls -d'\nls is\n", 0),
    ("cd with no argument goes home",
     "mkdir d; cd d; cd; pwd | wc -l; cd -", None, 0),
]


@pytest.mark.parametrize("what,script,out,status", SHELL_CASES,
                         ids=[c[0] for c in SHELL_CASES])
def test_shell(userland: Path, tmp_path: Path, what: str, script: str,
               out: str | None, status: int) -> None:
    stdin = "one two three\nx\n" if what == "read" else ""
    r = sh(userland, script, tmp_path, stdin)
    hint = f"{what}\nscript:\n{script}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    if out is not None:
        assert r.stdout == out, hint
    assert r.returncode == status, hint


def test_shell_not_found_message(userland: Path, tmp_path: Path) -> None:
    check(userland, tmp_path, "nosuch", "", 127, "sh: nosuch: not found\n")


def test_shell_syntax_error_is_status_2(userland: Path, tmp_path: Path) -> None:
    r = sh(userland, "echo before; if then fi", tmp_path)
    assert r.returncode == 2
    assert r.stderr.startswith("sh: syntax error:"), r.stderr
    assert r.stdout == ""


def test_shell_cannot_open_script(userland: Path, tmp_path: Path) -> None:
    r = subprocess.run([str(userland / "bin" / "sh"), "nosuchfile"],
                       capture_output=True, text=True, cwd=tmp_path,
                       env=env_for(userland, tmp_path))
    assert r.returncode == 127
    assert r.stderr == "sh: cannot open nosuchfile: No such file or directory\n"


def test_shell_runs_script_file_with_arguments(userland: Path,
                                               tmp_path: Path) -> None:
    (tmp_path / "s").write_text("echo $0 $# $1\nexit 4\n")
    r = subprocess.run([str(userland / "bin" / "sh"), "s", "x"],
                       capture_output=True, text=True, cwd=tmp_path,
                       env=env_for(userland, tmp_path))
    assert (r.stdout, r.returncode) == ("s 1 x\n", 4)


def test_shell_runs_file_without_hash_bang_as_script(userland: Path,
                                                     tmp_path: Path) -> None:
    """execve fails with ENOEXEC; the shell reads the file itself."""
    script = tmp_path / "plain"
    script.write_text("echo plain script $1\n")
    script.chmod(0o755)
    check(userland, tmp_path, "./plain arg; echo $?", "plain script arg\n0\n")


def test_shell_reads_commands_from_stdin(userland: Path, tmp_path: Path) -> None:
    r = subprocess.run([str(userland / "bin" / "sh")], input="echo a\nread x\nfrom stdin\necho $x\n",
                       capture_output=True, text=True, cwd=tmp_path,
                       env=env_for(userland, tmp_path))
    assert r.stdout == "a\nfrom stdin\n", r.stdout + r.stderr


# --- the interactive shell, on a pseudo-terminal ---------------------------
#
# pexpect runs the shell on a pty; terminal.expect_exact(TEXT) waits (5 s)
# for TEXT, and transcript(terminal) is everything the shell printed.

@pytest.fixture
def terminal(userland: Path, tmp_path: Path):
    t = pexpect.spawn(str(userland / "bin" / "sh"), [], cwd=str(tmp_path),
                      env=env_for(userland, tmp_path), encoding="utf-8",
                      codec_errors="replace", timeout=5)
    t.logfile_read = io.StringIO()
    yield t
    t.close(force=True)


def transcript(t: pexpect.spawn) -> str:
    return t.logfile_read.getvalue()


def test_interactive_prompt_is_hash_for_root(terminal: pexpect.spawn) -> None:
    prompt = "# " if os.geteuid() == 0 else "$ "
    terminal.expect_exact(prompt)
    terminal.send("echo hi\n")
    terminal.expect_exact("hi\r\n" + prompt)


def test_interrupt_stops_the_job_not_the_shell(terminal: pexpect.spawn) -> None:
    terminal.expect_exact(" ")
    terminal.send("sleep 30\n")
    time.sleep(0.5)
    terminal.send("\x03")
    terminal.expect_exact("Interrupt")
    terminal.send("echo status $?\n")
    terminal.expect_exact("status 130")


def test_interrupt_abandons_the_rest_of_the_line(terminal: pexpect.spawn) -> None:
    terminal.expect_exact(" ")
    terminal.send("for i in 1 2 3; do sleep 1; echo i$i; done; echo after\n")
    time.sleep(0.4)
    terminal.send("\x03")
    terminal.expect_exact("Interrupt")
    terminal.send("echo next\n")
    terminal.expect_exact("next\r\n")
    out = transcript(terminal)
    assert "\ni1\r\n" not in out and "\nafter\r\n" not in out, out


def test_interrupt_at_the_prompt_discards_the_line(terminal: pexpect.spawn) -> None:
    terminal.expect_exact(" ")
    terminal.send("echo never")
    terminal.expect_exact("echo never")     # echoed: the shell has it
    terminal.send("\x03")
    terminal.expect_exact(" ")              # the next prompt
    terminal.send("echo ok\n")
    terminal.expect_exact("ok\r\n")
    assert "never\r\n" not in transcript(terminal)


def test_continuation_prompt(terminal: pexpect.spawn) -> None:
    terminal.expect_exact(" ")
    terminal.send("if true\n")
    terminal.expect_exact("> ")
    terminal.send("then echo multi\nfi\n")
    terminal.expect_exact("multi\r\n")


def test_end_of_file_exits_the_shell(terminal: pexpect.spawn) -> None:
    terminal.expect_exact(" ")
    terminal.send("\x04")
    terminal.expect_exact(pexpect.EOF)
    terminal.wait()
    assert terminal.exitstatus is not None and terminal.signalstatus is None


# --- utilities -------------------------------------------------------------

UTILITY_CASES = [
    ("echo -n", "echo -n a b; echo c", "a bc\n", 0),
    ("cat files and stdin",
     "echo x > f; echo y | cat f - f", "x\ny\nx\n", 0),
    ("cat missing file", "cat nosuch", "", 1),
    ("mkdir -p and rmdir",
     "mkdir -p a/b/c && rmdir a/b/c && ls a", "b\n", 0),
    ("mkdir of an existing directory fails", "mkdir d; mkdir d", "", 1),
    ("ls sorts and hides dot files",
     "touch c a .h b; ls; ls -a | head -3", "a\nb\nc\n.\n..\n.h\n", 0),
    ("ls -d and -R",
     "mkdir -p d/e; touch d/f; ls -d d; ls -R d", "d\ne\nf\n\nd/e:\n", 0),
    ("ls -l shows mode, links and size",
     "printf 12345 > f; chmod 640 f; ls -l f | cut -c1-10,11-15",
     "-rw-r-----   1 \n", 0),
    ("rm -r removes a tree; rm -f ignores missing files",
     "mkdir -p t/u; touch t/u/f t/g; rm -r t; rm -f nosuch; ls", "", 0),
    ("rm refuses a directory without -r", "mkdir d; rm d", "", 1),
    ("cp file to file and files to a directory",
     "echo a > x; echo b > y; mkdir d; cp x z; cp x y d; cat z d/x d/y",
     "a\na\nb\n", 0),
    ("cp -r copies a tree, links as links",
     "mkdir -p s/t; echo f > s/t/f; ln -s f s/t/l; cp -r s c; cat c/t/f; "
     "ls -l c/t/l | sed 's/.* -> //'", "f\nf\n", 0),
    ("cp -p keeps the mode",
     "touch f; chmod 604 f; cp -p f g; ls -l g | cut -c1-10", "-rw----r--\n", 0),
    ("cp refuses to copy a directory into itself",
     "mkdir d; cp -r d d/sub", "", 1),
    ("mv renames and moves into a directory",
     "echo a > x; mv x y; mkdir d; mv y d; cat d/y; ls", "a\nd\n", 0),
    ("ln and ln -s",
     "echo a > x; ln x h; ln -s x s; cat h s; ls -l s | sed 's/.* -> //'",
     "a\na\nx\n", 0),
    ("wc counts lines, words, bytes",
     "printf 'a b\\nc\\n' | wc; printf 'a b\\nc\\n' | wc -w",
     "       2       3       6\n       3\n", 0),
    ("grep options",
     "printf 'Apple\\nbanana\\ncherry\\n' > f; grep an f; grep -i apple f; "
     "grep -c a f; grep -n '^c' f; grep -v a f; grep -l e f; grep 'b.*a$' f",
     "banana\nApple\n1\n3:cherry\nApple\ncherry\nf\nbanana\n", 0),
    ("grep status: 1 when nothing matches", "echo x | grep y", "", 1),
    ("grep character classes and star",
     "printf 'a1\\nab\\nb22\\n' | grep '[0-9][0-9]*$'", "a1\nb22\n", 0),
    ("head and tail",
     "printf '1\\n2\\n3\\n4\\n' > f; head -2 f; tail -n 1 f; tail +3 f; "
     "head -n 1 f f | wc -l", "1\n2\n4\n3\n4\n       5\n", 0),
    ("test and [",
     "touch f; [ -f f ] && echo f; test -d f || echo notdir; "
     "[ 2 -gt 1 -a x != y ] && echo both; [ ! -e nosuch ] && echo gone",
     "f\nnotdir\nboth\ngone\n", 0),
    ("test: bad number is status 2", "test 1 -eq x", "", 2),
    ("chmod octal and symbolic",
     "touch f; chmod 600 f; chmod go+r,u+x f; ls -l f | cut -c1-10; "
     "chmod a-w f; ls -l f | cut -c1-10", "-rwxr--r--\n-r-xr--r--\n", 0),
    ("touch -c does not create", "touch -c f; ls", "", 0),
    ("sort -n -r -u",
     "printf '10\\n9\\n-1\\n9\\n' | sort -n; printf 'b\\na\\nb\\n' | sort -ru",
     "-1\n9\n9\n10\nb\na\n", 0),
    ("find -name -type and -o",
     "mkdir -p d/e; touch d/a.c d/e/b.c d/x; find d -name '*.c' | sort; "
     "find d -type d; find d -name x -o -name e -print",
     "d/a.c\nd/e/b.c\nd\nd/e\nd/e\n", 0),
    ("find -exec", "mkdir d; touch d/f; find d -type f -exec echo got {} ';'",
     "got d/f\n", 0),
    ("od -c and -x",
     "printf 'ab\\n' | od -c; printf 'abcd' | od -x",
     "0000000   a   b  \\n\n0000003\n0000000 6261 6463\n0000004\n", 0),
    ("dd copies blocks",
     "printf 0123456789 > f; dd if=f of=g bs=3 count=2 2>/dev/null; cat g",
     "012345", 0),
    ("dd skip and seek with notrunc",
     "printf abcdef > f; printf XY > g; dd if=f of=g bs=1 skip=2 seek=1 "
     "count=2 conv=notrunc 2>/dev/null; cat g", "Xcd", 0),
    ("env -i and assignments",
     "env -i A=1 B=2 env", "A=1\nB=2\n", 0),
    ("kill -l with an exit status", "kill -l 130", "INT\n", 0),
    ("kill sends a signal",
     "sleep 10 & kill $!; wait $!; echo $?", "143\n", 0),
    ("sleep with a fraction", "sleep 0.1 && echo slept", "slept\n", 0),
    ("pwd", "mkdir d; cd d; pwd | sed 's,.*/,,'", "d\n", 0),
    ("date +format", "date +%Y | wc -c", "       5\n", 0),
    ("true and false", "true; echo $?; false; echo $?", "0\n1\n", 0),
    ("printf reuses its format and expands escapes",
     "printf '%s=%d\\n' a 1 b 2; printf '%5s|%-3x|%c|%b\\n' r 255 xy 'o\\101'",
     "a=1\nb=2\n    r|ff |x|oA\n", 0),
    ("printf: a bad number is status 1", "printf '%d' z", "0", 1),
    ("grep -E, and BRE groups with back-references (regcomp)",
     "printf 'abab\\nab\\naa+\\n' > f; grep -E '(ab){2}' f; "
     "grep '\\(a\\)\\1' f; grep -c 'a+' f", "abab\naa+\n1\n", 0),
    ("grep: a bad expression is status 2", "grep 'a\\(' /dev/null", "", 2),
    ("expr : gives a \\( \\) group's text",
     "expr foo.c : '\\(.*\\)\\.c'; expr abc : 'x\\(.\\)'; echo $?",
     "foo\n\n1\n", 0),
    ("du -s counts a tree",
     "mkdir d; printf x > d/f; du -s d | cut -f2", "d\n", 0),
]


@pytest.mark.parametrize("what,script,out,status", UTILITY_CASES,
                         ids=[c[0] for c in UTILITY_CASES])
def test_utility(userland: Path, tmp_path: Path, what: str, script: str,
                 out: str, status: int) -> None:
    r = sh(userland, script, tmp_path)
    hint = f"{what}\nscript:\n{script}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    assert r.stdout == out, hint
    assert r.returncode == status, hint


# --- sed, diff and tar against the host's (GNU) programs ---------------------

SED_SCRIPTS = [
    ["-n", "2p"], ["2,4d"], ["$d"], ["/two/,/four/d"], ["/t/!d"],
    ["s/o/0/g"], ["s/e/E/2"], [r"s/\(t\)\(w\)/\2\1/"], ["s|f.|[&]|g"],
    ["s/x*/-/g"], ["s/b*/x/g"], ["-E", r"s/(o+)|(e)/<\1\2>/g"],
    ["y/otf/OTF/"], ["="], ["2q"], ["n;d"], [r"$!N;s/\n/ /"], ["N;P;D"],
    ["1!G;h;$!d"], ["-n", "h;n;G;p"], ["2i\\\ninserted"],
    ["2a\\\nfirst\\\nsecond"], ["2,3c\\\nchanged"], ["3a hello"],
    [r":a;N;$!ba;s/\n/,/g"], ["-e", "s/one/1/", "-e", "s/two/2/"],
    ["/two/{s/two/2/;p;}"], ["s/o/O/;tx;s/$/!/;:x"], ["2,/e/d"],
    [r"s/e/\n/"], ["x;$G"], ["2,4!d"], ["s/.*/\"&\"/"], [r"s/o/\&/g"],
    ["D"], ["2{h;d;};4G"], [r"/[/]/d"], ["-n", "/o/{/e/p;}"],
]


@pytest.mark.parametrize("args", SED_SCRIPTS, ids=[" ".join(a) for a in SED_SCRIPTS])
def test_sed_agrees_with_the_hosts(userland: Path, tmp_path: Path,
                                   args: list[str]) -> None:
    f = tmp_path / "f"
    f.write_text("one\ntwo\nthree\nfour\nfive\n")
    ours = subprocess.run([str(userland / "bin" / "sed"), *args, str(f)],
                          capture_output=True, text=True)
    host = subprocess.run(["sed", *args, str(f)], capture_output=True, text=True)
    assert (ours.stdout, ours.returncode) == (host.stdout, host.returncode), \
        f"sed {args}: ours {ours.stdout!r} {ours.stderr!r}, host's {host.stdout!r}"


def test_diff_is_minimal_and_patch_applies_it(userland: Path,
                                              tmp_path: Path) -> None:
    """Random edits of random files: our script has as many changed lines
    as GNU diff --minimal's, and patch(1) turns file a into file b with it."""
    if shutil.which("patch") is None:
        pytest.skip("no patch on the host")
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for seed in range(60):
        r = random.Random(seed)
        old = [r.choice("abcdefg") for _ in range(r.randint(0, 50))]
        new = list(old)
        for _ in range(r.randint(1, 8)):
            op = r.randrange(3)
            if op == 0 and new:
                del new[r.randrange(len(new))]
            elif op == 1:
                new.insert(r.randint(0, len(new)), r.choice("abcdefgh"))
            elif new:
                new[r.randrange(len(new))] = r.choice("xyz")
        a.write_text("".join(x + "\n" for x in old))
        b.write_text("".join(x + "\n" for x in new))
        for flags in ([], ["-u"], ["-U", "1"]):
            ours = subprocess.run([str(userland / "bin" / "diff"), *flags,
                                   str(a), str(b)], capture_output=True, text=True)
            host = subprocess.run(["diff", "--minimal", *flags, str(a), str(b)],
                                  capture_output=True, text=True)
            assert ours.returncode == host.returncode, (seed, flags)
            def changed(text: str) -> int:
                return sum(1 for l in text.splitlines() if l[:1] in "<>" or
                           (l[:1] in "+-" and l[:3] not in ("---", "+++")))
            assert changed(ours.stdout) == changed(host.stdout), (seed, flags)
            if ours.returncode == 1:
                shutil.copy(a, c)
                p = subprocess.run(["patch", "-s", str(c)], input=ours.stdout,
                                   capture_output=True, text=True)
                assert p.returncode == 0 and c.read_text() == b.read_text(), \
                    (seed, flags, ours.stdout, p.stdout + p.stderr)


def test_tar_archives_cross_with_the_hosts_tar(userland: Path,
                                               tmp_path: Path) -> None:
    tar = str(userland / "bin" / "tar")
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "f").write_bytes(bytes(range(256)) * 9)
    (src / "x").write_text("x\n")
    os.chmod(src / "x", 0o741)
    os.utime(src / "x", (1000000000, 1000000000))
    os.symlink("x", src / "l")
    for maker, taker in (([tar, "cf"], ["tar", "xf"]),
                         (["tar", "--format=ustar", "-cf"], [tar, "xf"])):
        out = tmp_path / ("out-" + Path(maker[0]).name + "-" + str(len(maker)))
        out.mkdir()
        subprocess.run([*maker, str(tmp_path / "a.tar"), "src"], cwd=tmp_path,
                       check=True)
        subprocess.run([*taker, str(tmp_path / "a.tar"), "-C", str(out)],
                       check=True)
        got = out / "src"
        assert (got / "sub" / "f").read_bytes() == bytes(range(256)) * 9
        assert (got / "x").stat().st_mode & 0o7777 == 0o741
        assert int((got / "x").stat().st_mtime) == 1000000000
        assert os.readlink(got / "l") == "x"


# The shell's echo, printf, test, [, pwd and kill are the programs' own sources
# compiled in (bin/sh: -DSHELL); each case runs the program and the
# built-in with the same arguments: output, messages and status agree.
BUILTIN_CASES = [
    ["echo", "a", "b  c"],
    ["echo", "-n", "x"],
    ["echo", "-n"],
    ["echo"],
    ["printf", "%s=%d\\n", "a", "1", "b", "2"],
    ["printf", "%5s|%-3x|%c|%b\\n", "r", "255", "xy", "o\\101"],
    ["printf", "%d %d\\n", "z", "'A"],
    ["printf", "%b<\\n", "stop\\chere"],
    ["printf", "%q"],
    ["printf", "%5"],
    ["printf"],
    ["test", "1", "-eq", "x"],
    ["test", "2", "-gt", "1", "-a", "x", "!=", "y"],
    ["test", "-d", "/"],
    ["test", "(", "a", "=", "b"],
    ["test", "a", "b"],
    ["test"],
    ["[", "-f", "/", "]"],
    ["[", "x", "=", "x"],
    ["[", "!", "-e", "/nosuch", "]"],
    ["pwd"],
    ["pwd", "-P"],
    ["pwd", "-LP"],
    ["pwd", "-x"],
    ["pwd", "dir"],
    ["kill", "-l"],
    ["kill", "-l", "143"],
    ["kill", "-l", "999"],
    ["kill"],
    ["kill", "-s"],
    ["kill", "-NOSUCH", "1"],
    ["kill", "x1"],
    ["kill", "-0", "999999"],
]


@pytest.mark.parametrize("argv", BUILTIN_CASES,
                         ids=[" ".join(c) for c in BUILTIN_CASES])
def test_builtin_agrees_with_program(userland: Path, tmp_path: Path,
                                     argv: list[str]) -> None:
    prog = subprocess.run([str(userland / "bin" / argv[0])] + argv[1:],
                          capture_output=True, text=True, cwd=tmp_path)
    # "$0" "$@": the built-in (type says so) with the same arguments
    script = 'type "$0" >&2 && "$0" "$@"'
    shell = subprocess.run([str(userland / "bin" / "sh"), "-c", script] + argv,
                           capture_output=True, text=True, cwd=tmp_path,
                           env=env_for(userland, tmp_path))
    typeline = f"{argv[0]} is a shell builtin\n"
    assert shell.stderr.startswith(typeline), shell.stderr
    got = (shell.stdout, shell.stderr[len(typeline):], shell.returncode)
    assert got == (prog.stdout, prog.stderr, prog.returncode), argv


def test_dd_prints_the_bsd_summary(userland: Path, tmp_path: Path) -> None:
    r = sh(userland, "printf 0123456789 | dd bs=4 of=/dev/null", tmp_path)
    lines = r.stderr.splitlines()
    assert lines[0] == "2+1 records in", r.stderr
    assert lines[1] == "2+1 records out", r.stderr
    assert lines[2].startswith("10 bytes transferred in "), r.stderr
    assert lines[2].endswith(" bytes/sec)"), r.stderr


def test_time_reports_real_user_sys(userland: Path, tmp_path: Path) -> None:
    r = sh(userland, "time sleep 0.2", tmp_path)
    words = r.stderr.split()
    assert words[1::2] == ["real", "user", "sys"], r.stderr
    assert 0.15 <= float(words[0]) < 5, r.stderr


def test_usage_messages(userland: Path, tmp_path: Path) -> None:
    for prog, usage in [("ls -Z", "usage: ls"), ("rm", "usage: rm"),
                        ("cp x", "usage: cp"), ("mkdir", "usage: mkdir"),
                        ("wc -Z", "usage: wc"), ("kill", "usage: kill")]:
        r = sh(userland, prog, tmp_path)
        assert usage in r.stderr, (prog, r.stderr)
        assert r.returncode != 0, prog


def test_mount_lists_mounts_in_bsd_form(userland: Path, tmp_path: Path) -> None:
    r = sh(userland, "mount", tmp_path)
    assert r.returncode == 0, r.stderr
    for line in r.stdout.splitlines():
        assert " on " in line and line.endswith(")") and ", local" in line, line


def test_df_header(userland: Path, tmp_path: Path) -> None:
    r = sh(userland, "df .", tmp_path)
    assert r.stdout.split("\n")[0].split() == [
        "Filesystem", "1K-blocks", "Used", "Avail", "Capacity", "Mounted", "on"]


def test_etc_files_are_well_formed() -> None:
    for line in (REPO / "etc" / "passwd").read_text().splitlines():
        assert len(line.split(":")) == 7, line
    users = {l.split(":")[0]: l.split(":") for l in
             (REPO / "etc" / "passwd").read_text().splitlines()}
    assert users["root"][2:4] == ["0", "0"] and users["root"][6] == "/bin/sh"
    assert users["student"][2:4] == ["1000", "1000"]
    assert users["student"][5] == "/home/student"
    for line in (REPO / "etc" / "group").read_text().splitlines():
        assert len(line.split(":")) == 4, line


# --- init, in a chroot with a pseudo-terminal as /dev/console ---------------

def can_chroot() -> bool:
    if os.geteuid() != 0:
        return False
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "true"],
                       capture_output=True)
    return r.returncode == 0


class Console:
    """init running in a chroot of our userland, its console a pty that
    pexpect reads (self.tty)."""

    def __init__(self, root: Path, chroot: Path) -> None:
        for d in ("bin", "sbin"):
            shutil.copytree(root / d, chroot / d, symlinks=True)
        (chroot / "etc").mkdir()
        for f in ("passwd", "group", "rc"):
            shutil.copy(REPO / "etc" / f, chroot / "etc" / f)
        (chroot / "dev").mkdir()
        (chroot / "dev" / "console").touch()
        (chroot / "tmp").mkdir()
        (chroot / "tmp" / "stale").touch()
        self.chroot = chroot
        master, self.slave = pty.openpty()
        slavename = os.ttyname(self.slave)
        setup = (f"mount --bind {slavename} {chroot}/dev/console && "
                 f"exec chroot {chroot} /sbin/init")
        # init must not be a session leader: on Linux that would make the
        # console its controlling terminal, and the shell's setsid could
        # not have it.
        self.proc = subprocess.Popen(
            ["unshare", "-m", "--propagation", "private", "sh", "-c", setup],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        # We keep the console's slave side open as well: a pty master
        # read fails (EIO, an EOF to pexpect) while no one has the slave
        # open, as before init opens the console and between two shells.
        self.tty = pexpect.fdpexpect.fdspawn(master, encoding="utf-8",
                                             codec_errors="replace",
                                             timeout=10)

    def expect(self, text: str) -> str:
        """Wait for text; what came since the last expect, text included."""
        self.tty.expect_exact(text)
        return self.tty.before + self.tty.after

    def send(self, text: str) -> None:
        self.tty.send(text)

    def close(self) -> None:
        # unshare, sh and chroot exec in turn, so self.proc is init; stop
        # it first (it would respawn shells), then all it started.
        victims = {self.proc.pid}
        os.kill(self.proc.pid, signal.SIGSTOP)
        parents = {}
        for p in Path("/proc").iterdir():
            try:
                stat = (p / "stat").read_text()
                parents[int(p.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError):
                pass
        grew = True
        while grew:
            new = {pid for pid, ppid in parents.items() if ppid in victims}
            grew = not new <= victims
            victims |= new
        for pid in victims:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.proc.wait(timeout=10)
        self.tty.close()
        os.close(self.slave)


@pytest.mark.skipif(not can_chroot(), reason="needs root and unshare")
def test_init_runs_rc_then_a_login_shell_and_respawns_it(
        userland: Path, tmp_path: Path) -> None:
    console = Console(userland, tmp_path / "root")
    try:
        console.expect("# ")
        console.send("echo $HOME $PATH $USER $TERM; ls /tmp | wc -l\n")
        out = console.expect("# ")
        assert "/ /bin:/sbin:/usr/bin:/usr/sbin root vt100" in out, out
        assert "       0" in out, "rc should have emptied /tmp:\n" + out
        console.send("sleep 20\n")
        time.sleep(0.5)
        console.send("\x03")
        console.expect("Interrupt")
        console.send("echo still $?\n")
        console.expect("still 130")
        console.send("exit\n")
        console.expect("# ")		# a new shell
        console.send("echo respawned\n")
        console.expect("respawned")
    finally:
        console.close()
