"""The rest of the shell (issue 26): functions, aliases, the built-in echo,
printf, test, [ and pwd, and type / command -v, typed at the guest's
interactive shell as a student would.  Each line the shell reads is its
own command line here, so an alias or function defined by one g.ok is
there for the next."""
from __future__ import annotations

PROMPT = r"\n# "


def test_functions_take_arguments_return_and_recurse(guest):
    g = guest
    g.ok("show() { echo \"$# [$1] [$2]\"; }")
    assert g.ok("show a 'b c'").strip() == "2 [a] [b c]"
    # the caller's positional parameters are back after the call
    assert g.ok("set -- x y z; show 1; echo $# $1").split("\n")[:2] == \
        ["1 [1] []", "3 x"]
    g.ok("early() { return 7; echo not reached; }")
    out, status = g.run("early")
    assert status == 7 and "not reached" not in out, out
    g.ok("st() { false; return; }")
    assert g.ok("st; echo $?").strip() == "1"       # return: $? of the last
    g.ok("fact() { if [ $1 -le 1 ]; then echo 1; else "
         "echo $(( $1 * $(fact $(($1 - 1))) )); fi; }")
    assert g.ok("fact 6").strip() == "720"
    g.ok("down() { [ $1 -eq 0 ] && return 0; down $(($1 - 1)); }")
    assert g.ok("down 100; echo $?").strip() == "0"
    # a return in a loop ends the function, not just the loop
    g.ok("find3() { for i in 1 2 3 4; do [ $i = 3 ] && return 30; done; "
         "echo no; }")
    assert g.ok("find3; echo $?").strip() == "30"
    # redirections of the call apply to the body
    g.ok("both() { echo out; echo err >&2; }")
    g.ok("both > /tmp/fo 2> /tmp/fe")
    assert g.ok("cat /tmp/fo /tmp/fe").split() == ["out", "err"]
    assert g.ok("both 2>&1 | wc -l").strip() == "2"
    # unset -f: the name means the program again (or nothing)
    g.ok("unset -f show")
    out, status = g.run("show")
    assert status == 127 and "show: not found" in out, out
    out, status = g.run("return 1")
    assert status == 1 and "return: not in a function" in out, out


def test_an_error_in_a_function_restores_the_parameters(guest):
    g = guest
    g.ok("set -- a b")
    g.ok("bad() { echo ${nosuch?unset here}; }")
    # an error abandons the whole line (the marker g.run adds too)
    g.send("bad 1 2 3\n")
    g.expect("unset here")
    g.expect(PROMPT)
    assert g.ok("echo $# $1").strip() == "2 a"
    # a runaway recursion stops at a limit, and the shell goes on
    g.send("deep() { deep x; }; deep y\n")
    g.expect("deep: function calls nested too deeply")
    g.expect(PROMPT)
    assert g.ok("echo $# $1").strip() == "2 a"


def test_lookup_order_special_builtin_function_builtin_path(guest):
    g = guest
    # a function named like a program or a regular built-in wins ...
    g.ok("ls() { echo my ls; }")
    assert g.ok("ls /").strip() == "my ls"
    g.ok("cd() { command cd \"$@\" && echo \"now in $PWD\"; }")
    assert g.ok("cd /tmp").strip() == "now in /tmp"
    said = g.ok("type cd ls").split("\n")
    assert [l for l in said if l.endswith("is a function")] == \
        ["cd is a function", "ls is a function"], said
    g.ok("unset -f cd ls")
    assert g.ok("cd /; type cd").strip() == "cd is a shell builtin"
    # ... but not one named like a special built-in
    g.ok("shift() { echo my shift; }")
    assert g.ok("set -- 1 2; shift; echo $1").strip() == "2"
    assert g.ok("command -v ls").strip() == "/bin/ls"
    assert g.ok("command -v cd; command -v ls").split() == ["cd", "/bin/ls"]
    out, status = g.run("command -v nosuch")
    assert status == 127 and out.strip() == "", out


def test_aliases(guest):
    g = guest
    g.ok("alias ll='ls -d'")
    assert g.ok("ll /").strip() == "/"
    assert g.ok("alias ll").strip() == "ll='ls -d'"
    assert g.ok("type ll").strip() == "ll is an alias for ls -d"
    # no recursive expansion of the same alias
    g.ok("alias ls='ls -d'")
    assert g.ok("ls /").strip() == "/"
    # a value ending in a blank makes the next word an alias candidate
    g.ok("alias say='echo ' who=world")
    assert g.ok("say who").strip() == "world"
    g.ok("alias plain=echo")
    assert g.ok("plain who").strip() == "who"
    # only the command word: an argument is left alone
    assert g.ok("echo ll").strip() == "ll"
    assert g.ok("alias").split("\n")[:5] == [
        "ll='ls -d'", "ls='ls -d'", "plain='echo'", "say='echo '",
        "who='world'"]
    g.ok("unalias ll")
    out, status = g.run("ll /")
    assert status == 127 and "ll: not found" in out, out
    out, status = g.run("unalias ll")
    assert status == 1 and "unalias: ll: not found" in out, out
    g.ok("unalias -a")
    assert g.ok("alias").strip() == ""


def test_builtins_are_builtins(guest):
    g = guest
    out = g.ok("type echo printf test [ pwd kill cd")
    assert out.split("\n")[:7] == [f"{n} is a shell builtin" for n in
                                   ("echo", "printf", "test", "[", "pwd",
                                    "kill", "cd")], out
    assert g.ok("type cat").strip() == "cat is /bin/cat"
    # with no PATH nothing could be found: these run inside the shell
    out = g.ok("(PATH=/nonexistent; echo hi; [ 1 = 1 ] && printf '%s\\n' ok;"
               " test -d / && echo dir; echo -n no; echo line; cd /tmp; pwd;"
               " /bin/sleep 30 & kill %1 && kill -l 15)")
    assert out.split("\n")[:6] == ["hi", "ok", "dir", "noline", "/tmp",
                                    "TERM"], out
    # the built-ins' messages and statuses are the programs'
    for cmd in ("test 1 -eq x", "[ a = b", "printf '%d\\n' z", "printf %q",
                "pwd -x"):
        bout, bstatus = g.run(cmd)
        prog = "/bin/" + cmd.split()[0]
        pout, pstatus = g.run(prog + cmd[len(cmd.split()[0]):])
        assert (bout, bstatus) == (pout, pstatus), cmd
    # pwd -L keeps the symbolic link cd went through, -P does not
    g.ok("mkdir -p /tmp/real/sub; ln -s /tmp/real /tmp/lnk; cd /tmp/lnk/sub")
    assert g.ok("pwd; pwd -P; /bin/pwd; cd ..; pwd").split() == \
        ["/tmp/lnk/sub", "/tmp/real/sub", "/tmp/lnk/sub", "/tmp/lnk"]
    g.ok("cd /")


def test_bad_options_print_usage(guest):
    g = guest
    for cmd, status, msg in (
            ("type", 2, "usage: type name"),
            ("type -x ls", 2, "usage: type name"),
            ("alias -x", 2, "usage: alias"),
            ("unalias", 2, "usage: unalias"),
            ("unalias -x", 2, "usage: unalias"),
            ("command -x ls", 2, "usage: command"),
            ("unset -x v", 2, "usage: unset"),
            ("cd -x", 2, "usage: cd"),
            ("pwd -x", 1, "usage: pwd [-LP]"),
            ("printf", 1, "usage: printf format")):
        out, st = g.run(cmd)
        assert st == status and msg in out, (cmd, st, out)
    out, st = g.run("type nosuch")
    assert st == 127 and "nosuch: not found" in out, out


def test_cd_looks_along_cdpath(guest):
    g = guest
    g.ok("mkdir -p /tmp/cdp/a/proj /tmp/cdp/b/proj /tmp/cdp/b/only /tmp/cdp/here")
    g.ok("cd /tmp/cdp/here && CDPATH=:/tmp/cdp/a:/tmp/cdp/b")
    # found along the list: cd says where it went, and $PWD is there
    assert g.ok("cd proj && pwd").splitlines() == ["/tmp/cdp/a/proj", "/tmp/cdp/a/proj"]
    assert g.ok("cd /tmp/cdp/here; cd only; echo $PWD").splitlines() == \
        ["/tmp/cdp/b/only", "/tmp/cdp/b/only"]
    # the empty entry is the current directory, first, and silent
    g.ok("mkdir -p /tmp/cdp/here/proj")
    assert g.ok("cd /tmp/cdp/here; cd proj; pwd").splitlines() == ["/tmp/cdp/here/proj"]
    # ./name and absolute names never go along CDPATH
    out, status = g.run("cd /tmp/cdp/here/proj; cd ./only")
    assert status == 1 and "cd: ./only: No such file or directory" in out, out
    out, status = g.run("cd nowhere")
    assert status == 1 and "cd: nowhere:" in out, out
    g.ok("unset CDPATH; cd /")


def test_type_lists_a_function_that_reads_back_as_the_same(guest):
    g = guest
    g.ok("f() { if [ $# -eq 0 ]; then echo none; elif [ $1 = a ]; then "
         "echo first a; else for w in \"$@\"; do case $w in x|y) echo xy;; "
         "*) echo \"other $w\" | tr a-z A-Z;; esac; done; fi; "
         "n=0; while [ $n -lt 2 ]; do n=$((n+1)); done && echo n=$n || echo no; "
         "(cat <<EOF\nhere $n\nEOF\n) 2>/dev/null; }")
    want = g.ok("f; f a; f x q")
    assert want.splitlines() == ["none", "n=2", "here 2", "first a", "n=2",
                                 "here 2", "xy", "OTHER Q", "n=2", "here 2"], want
    listing = g.ok("type f")
    assert listing.startswith("f is a function\nf() {\n\tif [ $# -eq 0 ]; then\n"), listing
    for piece in ("\telif [ $1 = a ]; then", "\t\tfor w in \"$@\"; do",
                  "\t\t\tcase $w in", "\t\t\t\tx | y)", "\t\t\t\t\techo xy",
                  "\t\t\t\t\techo \"other $w\" | tr a-z A-Z", "\twhile [ $n -lt 2 ]; do",
                  "\tdone && echo n=$n || echo no", "\t\tcat <<EOF", "here $n",
                  "\t) 2>/dev/null", "}"):
        assert piece in listing.splitlines(), (piece, listing)
    # what type printed, read back, is the same function
    g.ok("type f | sed 1d > /tmp/f.sh && unset -f f && . /tmp/f.sh")
    assert g.ok("f; f a; f x q") == want
    assert g.ok("type echo").strip() == "echo is a shell builtin"
