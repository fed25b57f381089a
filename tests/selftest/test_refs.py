#!/usr/bin/python3
"""Every tests/ref/SAMPLE.py: writes a well-formed manifest whose entries exist in samples/SAMPLE.metal, whose
files exist, whose outputs are finite and sized for the dispatch, with both dispatch styles and partial
threadgroups covered across the suite, and is deterministic (fixed seeds)."""
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
SAMPLES = os.path.join(os.path.dirname(TESTS), "samples")
REFS = sorted(f for f in os.listdir(os.path.join(TESTS, "ref")) if f.endswith(".py") and f != "refcase.py")
KERNEL_RE = re.compile(r"(?:\bkernel|\[\[kernel\]\])\s+void\s+(\w+)")


def generate(ref, outdir):
    subprocess.run([sys.executable, os.path.join(TESTS, "ref", ref), outdir], check=True)
    with open(os.path.join(outdir, "manifest.json")) as f:
        return json.load(f)


def digest(d):
    h = hashlib.sha256()
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            h.update(name.encode() + f.read())
    return h.hexdigest()


class RefsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.manifests = {ref: generate(ref, os.path.join(cls.tmp.name, ref)) for ref in REFS}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_sample_has_a_reference(self):
        samples = sorted(f[:-6] for f in os.listdir(SAMPLES) if f.endswith(".metal"))
        self.assertEqual(samples, sorted(r[:-3] for r in REFS))

    def test_every_entry_point_is_run(self):
        """Entry points: `kernel void NAME` in the sample; for samples with template instances (host names that
        macros may build) the translator's --list-entries when MTL2GLSL is set (ctest sets it), else skipped."""
        tool = os.environ.get("MTL2GLSL")
        for ref, m in self.manifests.items():
            path = os.path.join(SAMPLES, m["sample"])
            with open(path) as f:
                text = f.read()
            if "host_name" in text or "REGISTER_" in text:
                if not tool:
                    continue
                listed = subprocess.run([tool, "--list-entries", path], capture_output=True, text=True, check=True)
                entries = set(listed.stdout.split())
            else:
                entries = set(KERNEL_RE.findall(text))
            self.assertEqual(entries, {c["entry"] for c in m["cases"]}, ref)

    def test_cases_are_well_formed(self):
        for ref, m in self.manifests.items():
            d = os.path.join(self.tmp.name, ref)
            for c in m["cases"]:
                with self.subTest(case=c["name"]):
                    self.assertRegex(c["name"], r"^[A-Za-z0-9_]+$")
                    if "pipeline" in c:  # launches on shared buffers (samples/arg_buffers.metal: address lines)
                        self.check_pipeline(d, c)
                        continue
                    self.assertTrue(("grid" in c) != ("threadgroups" in c))
                    tg = c["threadgroup"]
                    self.assertLessEqual(np.prod(tg), 1024)
                    threads = c["grid"] if "grid" in c else [n * t for n, t in zip(c["threadgroups"], tg)]
                    indices = [b["index"] for b in c["buffers"]] + [s["index"] for s in c["scalars"]]
                    self.assertEqual(len(indices), len(set(indices)), "a buffer index used twice")
                    for b in c["buffers"]:
                        for key in ("file", "bytes"):
                            if key in b:
                                self.assertTrue(os.path.exists(os.path.join(d, b[key])))
                    self.assertTrue(c["outputs"], "no output to compare")
                    for o in c["outputs"]:
                        e = np.load(os.path.join(d, o["expected"]))
                        if not o.get("nan_ok") and not o.get("bits"):  # bits: NaN and inf compared as bits
                            self.assertFalse(e.dtype.kind == "f" and not np.isfinite(e).all(), "non-finite")
                        if e.dtype.kind != "f":
                            self.assertEqual((o["rtol"], o["atol"]), (0.0, 0.0), "integers compare exactly")
                        self.assertGreaterEqual(int(np.prod(threads)), 1)

    def check_pipeline(self, d, c):
        """A pipeline case: every launch dispatches one way with at most 1024 threads a group and binds buffers the
        case declares; every address line names them, 8-aligned; every output is a declared buffer."""
        p = c["pipeline"]
        names = {b["name"] for b in p["buffers"]}
        for b in p["buffers"]:
            if "file" in b:
                self.assertTrue(os.path.exists(os.path.join(d, b["file"])))
        for k in p["launches"]:
            self.assertTrue(("grid" in k) != ("threadgroups" in k))
            self.assertLessEqual(np.prod(k["threadgroup"]), 1024)
            for b in k["bind"]:
                self.assertTrue(b.get("buffer") in names or "bytes" in b, b)
        for a in p.get("addresses", []):
            self.assertIn(a["buffer"], names)
            self.assertIn(a["target"], names)
            self.assertEqual(a["offset"] % 8, 0)
        self.assertTrue(c["outputs"], "no output to compare")
        for o in c["outputs"]:
            self.assertIn(o["name"], names)

    def test_suite_covers_dispatch_styles_and_partial_threadgroups(self):
        cases = [c for m in self.manifests.values() for c in m["cases"] if "pipeline" not in c]
        self.assertTrue(any("threadgroups" in c for c in cases))
        partial = [c for c in cases if "grid" in c and any(g % t for g, t in zip(c["grid"], c["threadgroup"]))]
        self.assertGreaterEqual(len(partial), 5)
        self.assertGreaterEqual(len({tuple(c["threadgroup"]) for c in cases}), 8)
        both = [m["sample"] for m in self.manifests.values()
                if {"grid", "threadgroups"} <= {k for c in m["cases"] for k in c}]
        self.assertIn("threads.metal", both)

    def test_deterministic(self):
        for ref in ("axpy.py", "mathlib.py"):
            with tempfile.TemporaryDirectory() as d:
                generate(ref, d)
                self.assertEqual(digest(d), digest(os.path.join(self.tmp.name, ref)), ref)

    def test_list_matches_manifest(self):
        for ref, m in self.manifests.items():
            out = subprocess.run([sys.executable, os.path.join(TESTS, "ref", ref), "--list"], check=True,
                                 capture_output=True, text=True).stdout.split()
            self.assertEqual(out, [c["name"] for c in m["cases"]])


SPEC_REFS = sorted(f for f in os.listdir(os.path.join(TESTS, "ref", "specs")) if f.endswith(".py"))


class SpecRefsTest(unittest.TestCase):
    """tests/ref/specs/NAME.py for the kernel specs samples/specs/NAME.json: arrays by the spec's names."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.manifests = {ref: generate(os.path.join("specs", ref), os.path.join(cls.tmp.name, ref))
                         for ref in SPEC_REFS}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_spec_has_a_reference(self):
        specs = sorted(f[:-5] for f in os.listdir(os.path.join(SAMPLES, "specs")) if f.endswith(".json"))
        self.assertEqual(specs, sorted(r[:-3] for r in SPEC_REFS))

    def test_cases_name_the_spec_arrays(self):
        for ref, m in self.manifests.items():
            with open(os.path.join(SAMPLES, m["sample"])) as f:
                spec = json.load(f)
            outputs = set(spec.get("output_names", spec.get("result_names")))
            d = os.path.join(self.tmp.name, ref)
            for c in m["cases"]:
                with self.subTest(case=c["name"]):
                    self.assertIsNone(c["entry"])
                    self.assertRegex(c["name"], r"^spec_[A-Za-z0-9_]+$")
                    named = {b["name"] for b in c["buffers"]}
                    self.assertEqual(named, set(spec["input_names"]) | outputs)
                    self.assertEqual({o["name"] for o in c["outputs"]}, outputs)
                    for b in c["buffers"]:
                        if "file" in b:
                            self.assertTrue(os.path.exists(os.path.join(d, b["file"])))
                    for o in c["outputs"]:
                        e = np.load(os.path.join(d, o["expected"]))
                        self.assertFalse(e.dtype.kind == "f" and not np.isfinite(e).all(), "non-finite")

    def test_deterministic(self):
        with tempfile.TemporaryDirectory() as d:
            generate(os.path.join("specs", "matmul.py"), d)
            self.assertEqual(digest(d), digest(os.path.join(self.tmp.name, "matmul.py")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
