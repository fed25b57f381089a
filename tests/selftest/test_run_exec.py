#!/usr/bin/python3
"""run_exec.py against a fake mtlrun: the command line it builds, PASS on matching outputs, FAIL on wrong or
unwritten elements, validation messages, crashes, non-zero exits and missing output files."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
FAKE = os.path.join(HERE, "fake_mtlrun.py")


def run_exec(ref, mode, *extra):
    env = dict(os.environ, FAKE_MODE=mode)
    p = subprocess.run([sys.executable, os.path.join(TESTS, "run_exec.py"), "--mtlrun", FAKE,
                        os.path.join(TESTS, "ref", ref)] + list(extra), capture_output=True, text=True, env=env)
    return p.returncode, p.stdout + p.stderr


class RunExecTest(unittest.TestCase):
    def test_references_pass_with_exact_outputs(self):
        # References with each kind of run_exec option: buffers and scalars (axpy, threads), function constants
        # (fc_bias, function_constants), argument bytes and bfloat (bfloat, library_forms), params structs, a
        # threadgroup buffer. Every reference runs for real in exec.*, which fails on any command line the real
        # mtlrun refuses; the fake's run over all of them took a minute of CI for nothing more.
        for ref in ("axpy.py", "threads.py", "fc_bias.py", "function_constants.py", "bfloat.py",
                    "library_forms.py", "params_struct.py", "threadgroup_memory.py", "numeric_types.py"):
            with self.subTest(ref=ref):
                rc, out = run_exec(ref, "good")
                self.assertEqual(rc, 0, out)
                self.assertNotIn("FAIL", out)
                self.assertIn("PASS: ", out)

    def test_manifest_dir(self):
        # the cases a reference script wrote earlier (tests/payload.py on a machine without the translator)
        with tempfile.TemporaryDirectory() as d:
            subprocess.run([sys.executable, os.path.join(TESTS, "ref", "axpy.py"), d], check=True)
            p = subprocess.run([sys.executable, os.path.join(TESTS, "run_exec.py"), "--mtlrun", FAKE,
                                "--manifest-dir", d], capture_output=True, text=True, env=dict(os.environ, FAKE_MODE="good"))
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            self.assertIn("PASS: ", p.stdout)
            p = subprocess.run([sys.executable, os.path.join(TESTS, "run_exec.py"), "--mtlrun", FAKE,
                                "--manifest-dir", d], capture_output=True, text=True, env=dict(os.environ, FAKE_MODE="wrong"))
            self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
            self.assertIn("differs from NumPy", p.stdout)

    def test_one_case(self):
        rc, out = run_exec("axpy.py", "good", "--case", "axpy_groups8_tg32")
        self.assertEqual(rc, 0, out)
        self.assertIn("1 passed, 0 failed", out)
        rc, out = run_exec("axpy.py", "good", "--case", "no_such_case")
        self.assertEqual(rc, 1, out)

    def test_failures(self):
        for mode, text in (("wrong", "differs from NumPy"), ("unwritten", "poison"),
                           ("validation", "validation message"), ("crash", "crashed"),
                           ("fail", "mtlrun exited 1"), ("nofile", "wrote no")):
            for ref in ("fill.py", "threads.py"):    # a float and an integer output
                with self.subTest(mode=mode, ref=ref):
                    rc, out = run_exec(ref, mode)
                    self.assertEqual(rc, 1, out)
                    self.assertIn("FAIL: ", out)
                    self.assertIn(text, out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
