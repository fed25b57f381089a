#!/usr/bin/python3
"""compare.py against synthetic arrays: tolerance per dtype, NaN/poison, shape and dtype mismatches."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
from compare import compare  # noqa: E402


class CompareTest(unittest.TestCase):
    def test_equal_floats_pass(self):
        a = np.linspace(-1, 1, 100, dtype=np.float32)
        self.assertEqual(compare(a, a.copy(), 1e-5, 1e-6), (True, []))

    def test_within_rtol_passes_beyond_fails(self):
        e = np.full(10, 1000.0, np.float32)
        self.assertTrue(compare(e * np.float32(1 + 5e-6), e, 1e-5, 0)[0])
        ok, lines = compare(e * np.float32(1 + 5e-5), e, 1e-5, 0)
        self.assertFalse(ok)
        self.assertIn("10 of 10 elements differ", lines[0])

    def test_atol_near_zero(self):
        e = np.zeros(4, np.float32)
        self.assertTrue(compare(e + np.float32(1e-6), e, 1e-5, 2e-6)[0])
        self.assertFalse(compare(e + np.float32(1e-4), e, 1e-5, 2e-6)[0])

    def test_nan_fails_and_is_named_poison(self):
        e = np.arange(8, dtype=np.float32)
        g = e.copy()
        g[5] = np.nan
        ok, lines = compare(g, e, 1e-5, 1e-6)
        self.assertFalse(ok)
        self.assertIn("at [5]", lines[1])
        self.assertIn("poison", lines[1])
        self.assertTrue(any("NaN where a number was expected" in line for line in lines))

    def test_nan_expected_needs_nan_ok(self):
        e = np.array([np.nan, 1], np.float32)
        self.assertFalse(compare(e.copy(), e, 1e-5, 1e-6)[0])
        self.assertTrue(compare(e.copy(), e, 1e-5, 1e-6, nan_ok=True)[0])

    def test_infinities(self):
        e = np.array([np.inf, -np.inf, 1], np.float32)
        self.assertTrue(compare(e.copy(), e, 1e-5, 1e-6)[0])
        self.assertFalse(compare(-e, e, 1e-5, 1e-6)[0])

    def test_ints_exact_and_poison_pattern(self):
        e = np.arange(6, dtype=np.uint32)
        g = e.copy()
        g[2] = 0xA5A5A5A5
        ok, lines = compare(g, e)
        self.assertFalse(ok)
        self.assertIn("poison", lines[1])
        g = e.copy()
        g[3] += 1
        self.assertFalse(compare(g, e, rtol=1.0, atol=10)[0])   # integers ignore tolerances: exact

    def test_dtype_and_size_mismatch(self):
        self.assertIn("dtype", compare(np.zeros(3, np.int32), np.zeros(3, np.float32))[1][0])
        self.assertIn("size", compare(np.zeros(3, np.float32), np.zeros(4, np.float32))[1][0])

    def test_shapes_compare_flat_and_report_index_with_labels(self):
        e = np.zeros((4, 3), np.float32)
        g = e.reshape(-1).copy()
        g[7] = 1
        ok, lines = compare(g, e, 1e-5, 1e-6, labels=["x", "y", "z"])
        self.assertFalse(ok)
        self.assertIn("at [2, 1] (y)", lines[1])

    def test_at_most_ten_mismatches_shown(self):
        e = np.zeros(100, np.float32)
        ok, lines = compare(e + 1, e, 1e-5, 1e-6)
        self.assertEqual(len([line for line in lines if line.startswith("  at")]), 10)

    def test_cli(self):
        with tempfile.TemporaryDirectory() as d:
            e = np.arange(5, dtype=np.float32)
            np.save(os.path.join(d, "e.npy"), e)
            np.save(os.path.join(d, "g.npy"), e + np.float32(0.5))
            cmd = [sys.executable, os.path.join(TESTS, "compare.py")]
            p = subprocess.run(cmd + [os.path.join(d, "g.npy"), os.path.join(d, "e.npy")], capture_output=True,
                               text=True)
            self.assertEqual(p.returncode, 1)
            self.assertTrue(p.stdout.startswith("FAIL"))
            p = subprocess.run(cmd + [os.path.join(d, "e.npy"), os.path.join(d, "e.npy")], capture_output=True,
                               text=True)
            self.assertEqual((p.returncode, p.stdout.strip()), (0, "PASS"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
