#!/usr/bin/python3
"""tests/corpus/corpus.py: the independent count on synthetic preprocessed text, the grouping of messages, and
whole runs over the synthetic library tests/corpus/testdata/ with the fake translator (a listing that misses
macro-made instances, a crash, invalid GLSL, the --check / --min-valid / --expect-listing-exact failures) and, when
MTL2GLSL names the real one (ctest sets it), with mtl2glsl itself. Also: the language flags corpus.py gives clang
are those translator/front/ gives libclang."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
TREE = os.path.dirname(TESTS)
sys.path.insert(0, os.path.join(TESTS, "corpus"))
import corpus  # noqa: E402

SCRIPT = os.path.join(TESTS, "corpus", "corpus.py")
FAKE = os.path.join(HERE, "fake_mtl2glsl.py")
DATA = os.path.join(TESTS, "corpus", "testdata")
ALL = ["mini_scale_float", "mini_scale_int", "mini_plain", "mini_recursive", "mini_extra", "mini_always"]


def run_corpus(tool, *args, mode=""):
    """corpus.py over testdata/ with TOOL; (exit status, output, JSON report)."""
    with tempfile.TemporaryDirectory() as d:
        report = os.path.join(d, "r.json")
        md = os.path.join(d, "r.md")
        cmd = [sys.executable, SCRIPT, "--mtl2glsl", tool, "--root", DATA, "--files", "kernels/*.metal",
               "-I", "include", "-D", "MINI_EXTRA=1", "--json", report, "--markdown", md] + list(args)
        p = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, FAKE_MODE=mode), timeout=600)
        data = None
        if os.path.exists(report):
            with open(report) as f:
                data = json.load(f)
            with open(md) as f:
                data["markdown"] = f.read()
        return p.returncode, p.stdout + p.stderr, data


def entries(data):
    return {e["name"]: e for r in data["files"] for e in r["entries"]}


class CountTest(unittest.TestCase):
    def test_forms(self):
        text = '''
# 1 "x.metal"
template <typename T, int N = 4>
kernel void tmpl(device T* x [[buffer(0)]], uint i [[thread_position_in_grid]]) { x[i] = T(N); }
template [[host_name("tmpl_" "f32")]] [[kernel]] decltype(tmpl<float>) tmpl<float>;
typedef decltype(tmpl<half>) tmpl_t;
template [[host_name("tmpl_f16")]] kernel tmpl_t tmpl<half>;
template [[host_name("tmpl_i32")]]
kernel void tmpl<int>(device int* x, uint i);
[[kernel]] void plain_a(device float* x [[buffer(0)]]) { x[0] = 1; }
__kernel void plain_b(device float* x) { x[0] = 2; }
kernel void declared_only(device float* x);
[[host_name("renamed")]]
kernel void plain_c(device float* x) { x[0] = 3; }
void kernel_helper(device float* x) { x[0] = 4; }
void not_a_kernel(float kernel) { }
kernel [[max_total_threads_per_threadgroup(64)]] void plain_d(device float* x [[buffer(0)]]) { x[0] = ")"[0]; }
template [[kernel, host_name("tmpl_u32")]] void tmpl<uint>(device uint*, uint);
[[kernel, max_total_threads_per_threadgroup(32)]] void plain_e(device float* x) { x[0] = 5; }
'''
        self.assertEqual(corpus.count_entries(text), ["tmpl_f32", "tmpl_f16", "tmpl_i32", "plain_a", "plain_b",
                                                      "renamed", "plain_d", "tmpl_u32", "plain_e"])

    def test_literal_escapes(self):
        self.assertEqual(corpus.join_literals('"a\\"b" "c"'), 'a"bc')

    def test_patterns(self):
        self.assertEqual(corpus.pattern("'metal_math' file not found"), "'_' file not found")
        self.assertEqual(corpus.pattern("kernel 'k' needs 300 bytes of push constants; at most 256"),
                         "kernel '_' needs N bytes of push constants; at most N")
        self.assertEqual(corpus.pattern("cast from half4 to float4 is not supported"),
                         "cast from half4 to float4 is not supported")
        groups = corpus.group_failures([
            {"valid": False, "message": "'metal_math' file not found"},
            {"valid": False, "message": "'metal_math' file not found"},
            {"valid": False, "message": "'metal_atomic' file not found"},
            {"valid": True, "message": None},
            {"valid": False, "message": "this statement is not supported yet"}])
        self.assertEqual([(k, n) for k, n, _ in groups],
                         [("'_' file not found", 3), ("this statement is not supported yet", 1)])
        self.assertEqual(groups[0][2].most_common(1), [("metal_math", 2)])

    def test_errors_and_crashes(self):
        self.assertEqual(corpus.errors_of("a.metal:3:4: error: bad thing\n  x = 1;\n    ^\n"
                                          "a.metal: error: no kernel named 'q'\nmtl2glsl: error: cannot\n"),
                         ["bad thing", "no kernel named 'q'", "cannot"])
        self.assertEqual(corpus.abnormal(-11, ""), "crash: killed by SIGSEGV")
        self.assertEqual(corpus.abnormal(99, "==7==ERROR: AddressSanitizer: heap-use-after-free on x\n"),
                         "crash: AddressSanitizer: heap-use-after-free on x")
        self.assertIsNone(corpus.abnormal(1, "x.metal:1:1: error: y\n"))

    def test_flags_follow_the_translator(self):
        """Every -D the translator's front end passes libclang as a literal is one corpus.py passes clang -E."""
        found = set()
        for path in glob.glob(os.path.join(TREE, "translator", "**", "*.c"), recursive=True):
            with open(path, errors="replace") as f:
                found |= set(d.replace("%d", "320") for d in re.findall(r'"-D(__\w+(?:=[^"]*)?)"', f.read()))
        if not found:
            self.skipTest("no literal -D in translator/ (the front end passes its defines another way)")
        self.assertEqual(sorted(found), sorted(corpus.TRANSLATOR_DEFINES))


class FakeRunTest(unittest.TestCase):
    def test_listing_misses_macro_instances(self):
        """The fake lists `kernel void NAME` as written (the template too) and no macro-made instance."""
        rc, out, data = run_corpus(FAKE)
        self.assertEqual(rc, 0, out)
        mini = next(r for r in data["files"] if r["file"] == "kernels/mini.metal")
        self.assertEqual(mini["summary"]["missing"], ["mini_scale_float", "mini_scale_int"])
        self.assertEqual(mini["summary"]["extra"], ["mini_scale"])
        self.assertEqual(data["summary"]["matched"], 4)
        self.assertIn("missing from the listing (2): mini_scale_float, mini_scale_int", out)
        self.assertEqual(entries(data)["mini_scale_float"]["message"], "not listed, others are: no error printed")
        rc, out, _ = run_corpus(FAKE, "--expect-listing-exact")
        self.assertEqual(rc, 1, out)
        self.assertIn("the listing differs from the independent count (2 missing, 1 extra", out)

    def test_crash_is_a_failure_not_a_crash(self):
        rc, out, data = run_corpus(FAKE, mode="crash")
        self.assertEqual(rc, 0, out)
        self.assertEqual(data["summary"]["crashes"], 2)
        self.assertEqual(data["summary"]["valid"], 0)
        self.assertEqual({e["message"] for e in entries(data).values()}, {"not listed: crash: killed by SIGSEGV"})

    def test_invalid_glsl(self):
        rc, out, data = run_corpus(FAKE, mode="badglsl")
        self.assertEqual(rc, 0, out)
        e = entries(data)["mini_plain"]
        self.assertTrue(e["translated"])
        self.assertFalse(e["valid"])
        self.assertTrue(e["message"].startswith("glslangValidator: "), e["message"])

    def test_checks(self):
        rc, out, _ = run_corpus(FAKE, "--min-valid", "5")
        self.assertEqual(rc, 0, out)
        rc, out, _ = run_corpus(FAKE, "--min-valid", "6")
        self.assertEqual(rc, 1, out)
        self.assertIn("valid entry points 5, below --min-valid 6", out)
        with tempfile.TemporaryDirectory() as d:
            figs = os.path.join(d, "figures.json")
            corpus.write_figures(figs, {"mini": {"version": "", "files": ["kernels/*.metal"], "include": ["include"],
                                                 "define": ["MINI_EXTRA=1"], "min_valid": 5, "max_crashes": 0}})
            args = ["--figures", figs, "--library", "mini", "--check"]
            rc, out, _ = run_corpus(FAKE, *args)
            self.assertEqual(rc, 0, out)
            rc, out, _ = run_corpus(FAKE, *args, mode="crash")
            self.assertEqual(rc, 1, out)
            self.assertIn("2 translator crashes (recorded: at most 0)", out)
            self.assertIn("valid entry points 0, below the recorded 5", out)
            rc, out, _ = run_corpus(FAKE, *args, "--record")
            with open(figs) as f:
                fig = json.load(f)["mini"]
            self.assertEqual((fig["min_valid"], fig["min_listed"], fig["counted"]), (5, 5, 6))

    def test_usage_errors(self):
        rc, out, _ = run_corpus(FAKE, "--files", "nothing/*.metal")
        self.assertEqual(rc, 2, out)
        self.assertIn("no kernel files match", out)


@unittest.skipUnless(os.environ.get("MTL2GLSL"), "MTL2GLSL (the real translator) not set")
class RealRunTest(unittest.TestCase):
    def test_synthetic_library(self):
        rc, out, data = run_corpus(os.environ["MTL2GLSL"], "--attribute", "entry", "--expect-listing-exact",
                                   "--min-valid", "5")
        self.assertEqual(rc, 0, out)
        s = data["summary"]
        self.assertEqual((s["files"], s["entries"], s["listed"], s["counted"], s["matched"]), (2, 6, 6, 6, 6))
        self.assertEqual((s["translated"], s["valid"], s["crashes"]), (5, 5, 0))
        self.assertEqual(sorted(entries(data)), sorted(ALL))
        bad = entries(data)["mini_recursive"]
        self.assertFalse(bad["translated"])
        self.assertIn("recursion", bad["message"])
        self.assertEqual(data["failures"][0]["entries"], 1)
        self.assertIn("| 2 | 6 | 6 | 6 | 6 | 5 | 5 | 83.3% |", data["markdown"])


if __name__ == "__main__":
    unittest.main()
