#!/usr/bin/python3
"""run_exec.py against a fake mtlrun: the command line it builds, PASS on matching outputs, FAIL on wrong or
unwritten elements, validation messages, crashes, non-zero exits and missing output files."""
import os
import subprocess
import sys
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
    def test_every_reference_passes_with_exact_outputs(self):
        for ref in sorted(os.listdir(os.path.join(TESTS, "ref"))):
            if ref.endswith(".py") and ref != "refcase.py":
                with self.subTest(ref=ref):
                    rc, out = run_exec(ref, "good")
                    self.assertEqual(rc, 0, out)
                    self.assertNotIn("FAIL", out)
                    self.assertIn("PASS: ", out)

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
