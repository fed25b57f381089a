#!/usr/bin/python3
"""Runs the translator on a malformed or unsupported input and checks what it says.

    run_errors.py --mtl2glsl PATH tests/errors/CASE.metal [...]

Directives, written in the .metal file as comments:
    // ARGS: --entry nope %s        arguments for mtl2glsl; %s is this file's path (default: %s), %d its directory
    // EXPECT-EXIT: 1               the exit status (default 1)
    // EXPECT-ERROR: 5:12: error: recursion is not supported
                                    a diagnostic `FILE:5:12: error: ...` on stderr whose message contains the
                                    text after `error:`; the line may be relative, `@+1:12:` (the next line).
                                    The diagnostic must be followed by the source line and a caret line.
    // EXPECT-STDERR: some text     stderr contains this text
    // EXPECT-STDOUT: some text     stdout contains this text
    // EXPECT-NO-STDOUT             stdout is empty
    // EXPECT-NOT-STDOUT: some text stdout does not contain this text (e.g. a kernel that must not be written)
    // EXPECT-NOT-STDERR: some text stderr does not contain this text (e.g. the cascade an error must not start)
A case fails on any unmet expectation, a crash (signal or exit status >= 128) or a sanitizer report.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

DIRECTIVE_RE = re.compile(r"//\s*(ARGS|EXPECT-EXIT|EXPECT-ERROR|EXPECT-STDERR|EXPECT-STDOUT|EXPECT-NO-STDOUT|EXPECT-NOT-STDOUT|"
                          r"EXPECT-NOT-STDERR)"
                          r"(?::\s?(.*?))?\s*$")
ERROR_SPEC_RE = re.compile(r"^(@[+-]\d+|\d+):(\d+):\s*error:\s*(.*)$")
SANITIZER_RE = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer")
TIMEOUT_S = 120


class Case:
    def __init__(self, path):
        self.path = path
        self.args = None
        self.exit = 1
        self.errors = []        # (line, col, substring)
        self.stderr = []
        self.stdout = []
        self.no_stdout = False
        self.not_stdout = []
        self.not_stderr = []
        with open(path, encoding="utf-8") as f:
            self.lines = f.read().split("\n")
        for number, text in enumerate(self.lines, start=1):
            m = DIRECTIVE_RE.search(text)
            if m:
                self._directive(number, m.group(1), m.group(2) or "")

    def _directive(self, number, kind, value):
        if kind == "ARGS":
            self.args = shlex.split(value)
        elif kind == "EXPECT-EXIT":
            self.exit = int(value)
        elif kind == "EXPECT-STDERR":
            self.stderr.append(value)
        elif kind == "EXPECT-STDOUT":
            self.stdout.append(value)
        elif kind == "EXPECT-NOT-STDOUT":
            self.not_stdout.append(value)
        elif kind == "EXPECT-NOT-STDERR":
            self.not_stderr.append(value)
        elif kind == "EXPECT-NO-STDOUT":
            self.no_stdout = True
        else:
            m = ERROR_SPEC_RE.match(value)
            if not m:
                raise ValueError("%s:%d: EXPECT-ERROR wants LINE:COL: error: TEXT, got %r" % (self.path, number, value))
            line = m.group(1)
            line = number + int(line[1:]) if line.startswith("@") else int(line)
            self.errors.append((line, int(m.group(2)), m.group(3)))

    def command(self, mtl2glsl):
        args = self.args if self.args is not None else ["%s"]
        return [mtl2glsl] + [a.replace("%s", self.path).replace("%d", os.path.dirname(os.path.abspath(self.path)))
                             for a in args]


def find_diagnostic(case, err_lines, line, col, text):
    """Problems with the expected diagnostic at line:col, or [] when it is there in full form."""
    name = re.escape(os.path.basename(case.path))
    head = re.compile(r"^(?:.*/)?%s:%d:%d: error: (.*)$" % (name, line, col))
    for i, got in enumerate(err_lines):
        m = head.match(got)
        if not m or text not in m.group(1):
            continue
        source = case.lines[line - 1] if line - 1 < len(case.lines) else ""
        shown = err_lines[i + 1] if i + 1 < len(err_lines) else None
        caret = err_lines[i + 2] if i + 2 < len(err_lines) else None
        if shown is None or shown.rstrip().expandtabs() != source.rstrip().expandtabs():
            return ["diagnostic %d:%d is not followed by its source line %r (got %r)" % (line, col, source, shown)]
        if caret is None or "^" not in caret:
            return ["diagnostic %d:%d has no caret line" % (line, col)]
        if "\t" not in source[:col] and caret.index("^") != col - 1:
            return ["diagnostic %d:%d: caret at column %d" % (line, col, caret.index("^") + 1)]
        return []
    return ["missing diagnostic `%s:%d:%d: error: ...%s...`" % (os.path.basename(case.path), line, col, text)]


def check(case, rc, out, err):
    problems = []
    if rc < 0 or rc >= 128:
        problems.append("crashed (exit status %d)" % rc)
    elif rc != case.exit:
        problems.append("exit status %d, expected %d" % (rc, case.exit))
    if SANITIZER_RE.search(out + err):
        problems.append("sanitizer report")
    err_lines = err.split("\n")
    for line, col, text in case.errors:
        problems += find_diagnostic(case, err_lines, line, col, text)
    problems += ["stderr lacks %r" % s for s in case.stderr if s not in err]
    problems += ["stdout lacks %r" % s for s in case.stdout if s not in out]
    problems += ["stdout holds %r" % s for s in case.not_stdout if s in out]
    problems += ["stderr holds %r" % s for s in case.not_stderr if s in err]
    if case.no_stdout and out.strip():
        problems.append("stdout should be empty")
    return problems


def run_case(mtl2glsl, path, verbose=False):
    case = Case(path)
    cmd = case.command(mtl2glsl)
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=TIMEOUT_S,
                           stdin=subprocess.DEVNULL)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = 124, "", "timed out"
    problems = check(case, rc, out, err)
    if case.exit == 0 and not (case.errors or case.stderr or case.stdout):
        pass
    elif not (case.errors or case.stderr or case.stdout or case.no_stdout):
        problems.append("the case expects no message: add EXPECT-ERROR or EXPECT-STDERR")
    name = os.path.basename(path)
    if problems or verbose:
        print("$ " + " ".join(shlex.quote(c) for c in cmd) + "   # exit %d" % rc)
        for line in (err.rstrip().splitlines() + ["(stdout)"] + out.rstrip().splitlines()[:20])[:60]:
            print("  | " + line)
    print(("FAIL: %s" % name) if problems else ("PASS: %s" % name))
    for p in problems:
        print("  " + p)
    return not problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="+")
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    results = [run_case(args.mtl2glsl, os.path.abspath(c), args.verbose) for c in args.cases]
    print("%d passed, %d failed" % (results.count(True), results.count(False)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
