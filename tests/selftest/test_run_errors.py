#!/usr/bin/python3
"""run_errors.py against a fake mtl2glsl: directives are parsed, a matching diagnostic with its source and caret
lines passes, and a wrong place, a missing caret, a wrong exit status, a crash or a sanitizer report fail."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, TESTS)
import run_errors  # noqa: E402

FAKE = os.path.join(HERE, "fake_mtl2glsl.py")
CASE = """// EXPECT-EXIT: 1
// EXPECT-ERROR: @+2:5: error: boom
kernel void k(device float* out [[buffer(0)]], uint i [[thread_position_in_grid]]) {
    out[i] = boom;
}
"""


def run(text, mode):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "case.metal")
        with open(path, "w") as f:
            f.write(text)
        p = subprocess.run([sys.executable, os.path.join(TESTS, "run_errors.py"), "--mtl2glsl", FAKE, path],
                           capture_output=True, text=True, env=dict(os.environ, FAKE_MODE=mode))
        return p.returncode, p.stdout + p.stderr


class RunErrorsTest(unittest.TestCase):
    def test_directives(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.metal")
            with open(path, "w") as f:
                f.write("// ARGS: --entry a %s\n// EXPECT-EXIT: 2\n// EXPECT-ERROR: 7:3: error: bad thing\n"
                        "// EXPECT-ERROR: @-1:9: error: x\n// EXPECT-STDERR: hello world\n// EXPECT-NO-STDOUT\n")
            c = run_errors.Case(path)
            self.assertEqual(c.command("M"), ["M", "--entry", "a", path])
            self.assertEqual(c.exit, 2)
            self.assertEqual(c.errors, [(7, 3, "bad thing"), (3, 9, "x")])
            self.assertEqual(c.stderr, ["hello world"])
            self.assertTrue(c.no_stdout)

    def test_matching_diagnostic_passes(self):
        rc, out = run(CASE, "diag:4:5:use of undeclared identifier 'boom'")
        self.assertEqual(rc, 0, out)
        self.assertIn("PASS: case.metal", out)

    def test_wrong_place_or_text_fails(self):
        for mode in ("diag:4:6:boom", "diag:3:5:boom", "diag:4:5:bam"):
            with self.subTest(mode=mode):
                rc, out = run(CASE, mode)
                self.assertEqual(rc, 1, out)
                self.assertIn("missing diagnostic", out)

    def test_not_stderr(self):
        rc, out = run(CASE + "// EXPECT-NOT-STDERR: boom\n", "diag:4:5:use of undeclared identifier 'boom'")
        self.assertEqual(rc, 1, out)
        self.assertIn("stderr holds 'boom'", out)
        rc, out = run(CASE + "// EXPECT-NOT-STDERR: no matching\n", "diag:4:5:use of undeclared identifier 'boom'")
        self.assertEqual(rc, 0, out)

    def test_form_exit_and_crash_failures(self):
        for mode, text in (("nocaret", "caret"), ("exit0", "exit status 0"), ("crash", "crashed"),
                           ("asan", "sanitizer")):
            with self.subTest(mode=mode):
                rc, out = run(CASE, mode)
                self.assertEqual(rc, 1, out)
                self.assertIn(text, out)

    def test_shipped_error_cases_parse(self):
        d = os.path.join(TESTS, "errors")
        for name in sorted(os.listdir(d)):
            with self.subTest(case=name):
                c = run_errors.Case(os.path.join(d, name))
                # something to check: diagnostics or output, or a clean run (exit 0, nothing on stdout: --syntax-only)
                self.assertTrue(c.errors or c.stderr or c.stdout or (c.no_stdout and c.exit == 0), "expects nothing")
                for line, col, _ in c.errors:
                    self.assertLessEqual(col, len(c.lines[line - 1]) + 1, "column past the end of line %d" % line)

    def test_usage_cases_against_the_fake(self):
        d = os.path.join(TESTS, "errors")
        usage = [os.path.join(d, n) for n in sorted(os.listdir(d))
                 if n.startswith("usage_") or n in ("missing_entry.metal", "valid_control.metal")]
        p = subprocess.run([sys.executable, os.path.join(TESTS, "run_errors.py"), "--mtl2glsl", FAKE] + usage,
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
