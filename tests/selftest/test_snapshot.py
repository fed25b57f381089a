#!/usr/bin/python3
"""snapshot.py against a fake mtl2glsl: --update writes golden/, a fresh run passes, an edited golden file,
a missing or extra entry and GLSL that glslangValidator rejects all fail."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
SAMPLES = os.path.join(os.path.dirname(TESTS), "samples")
FAKE = os.path.join(HERE, "fake_mtl2glsl.py")


class SnapshotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.golden = os.path.join(self.tmp, "golden")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def snap(self, *args, mode="", samples=SAMPLES):
        p = subprocess.run([sys.executable, os.path.join(TESTS, "snapshot.py"), "--mtl2glsl", FAKE,
                            "--golden", self.golden, "--samples", samples] + list(args), capture_output=True, text=True,
                           env=dict(os.environ, FAKE_MODE=mode))
        return p.returncode, p.stdout + p.stderr

    def test_update_then_compare(self):
        # Every sample and spec of a samples folder (a few of ours: the fake translator's run over all of them
        # took minutes of CI for nothing the few do not show).
        some = os.path.join(self.tmp, "samples")
        os.makedirs(os.path.join(some, "specs"))
        for name in ("unary.metal", "axpy.metal", "fill.metal", "specs/relu.json", "specs/matmul.json"):
            shutil.copy(os.path.join(SAMPLES, name), os.path.join(some, name))
        rc, out = self.snap("--update", samples=some)
        self.assertEqual(rc, 0, out)
        samples = sorted(f[:-6] for f in os.listdir(some) if f.endswith(".metal"))
        specs = sorted(f for f in os.listdir(os.path.join(some, "specs")) if f.endswith(".json"))
        self.assertEqual(sorted(os.listdir(self.golden)), sorted(samples + ["specs"]))
        self.assertEqual(sorted(os.listdir(os.path.join(self.golden, "specs"))), [f[:-5] for f in specs])
        self.assertIn("spec.metal", os.listdir(os.path.join(self.golden, "specs", "relu")))
        self.assertEqual(sorted(os.listdir(os.path.join(self.golden, "unary"))),
                         ["clamp_to.comp", "clamp_to.json", "negate.comp", "negate.json", "relu.comp", "relu.json"])
        rc, out = self.snap(samples=some)
        self.assertEqual(rc, 0, out)
        self.assertIn("%d passed, 0 failed" % (len(samples) + len(specs)), out)

    def test_changed_missing_and_extra_files_fail(self):
        self.assertEqual(self.snap("--update", "unary", "axpy")[0], 0)
        with open(os.path.join(self.golden, "unary", "relu.comp"), "a") as f:
            f.write("// edited\n")
        os.remove(os.path.join(self.golden, "unary", "negate.json"))
        with open(os.path.join(self.golden, "axpy", "gone.comp"), "w") as f:
            f.write("x")
        rc, out = self.snap("unary", "axpy")
        self.assertEqual(rc, 1, out)
        self.assertIn("relu.comp differs from golden", out)
        self.assertIn("-// edited", out)
        self.assertIn("negate.json, golden/ has none", out)
        self.assertIn("golden has gone.comp", out)

    def test_no_golden_fails(self):
        rc, out = self.snap("axpy")
        self.assertEqual(rc, 1, out)
        self.assertIn("update-golden.sh", out)

    def test_invalid_glsl_fails_validation(self):
        rc, out = self.snap("--update", "fill", mode="badglsl")
        self.assertEqual(rc, 1, out)
        self.assertIn("glslangValidator rejects fill.comp", out)

    def test_translator_failure_does_not_update(self):
        rc, out = self.snap("--update", "fill", mode="crash")
        self.assertEqual(rc, 1, out)
        self.assertFalse(os.path.exists(os.path.join(self.golden, "fill")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
