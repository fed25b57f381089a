#!/usr/bin/python3
"""tests/corpus/corpus.py: the independent count on synthetic preprocessed text, the grouping of messages, and
whole runs over the synthetic library tests/corpus/testdata/ with the fake translator (a listing that misses
macro-made instances, a front-end error that failure isolation pins on one kernel, a crash, invalid GLSL,
--list-only, the --check / --min-valid / --expect-listing-exact failures) and, when MTL2GLSL names the real one
(ctest sets it), with mtl2glsl itself. Also: the language flags corpus.py gives clang are those translator/front/
gives libclang."""
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
ALL = ["mini_scale_float", "mini_scale_int", "mini_plain", "mini_recursive", "mini_extra", "mini_always",
       "mini_broken", "mini_intact"]
UNDECLARED = "use of undeclared identifier 'mini_undeclared_scale'"


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

    def test_matrix_kernels(self):
        """Kernels that mention simdgroup_matrix or Metal 4 tensors, or name (through types, aliases, helpers and
        namespaces) a definition that does, are the matrix kernels; the others are not."""
        text = '''
# 1 "lib.metal"
namespace lib { namespace steel {
template <typename T> struct Mma {
  void mma(threadgroup T* a) { simdgroup_matrix<T, 8, 8> m; simdgroup_load(m, a, 8); }
};
} }
template <typename T> using mma_t = lib::steel::Mma<T>;
template <typename T> __attribute__((__always_inline__)) void gemm_body(threadgroup T* a) { mma_t<T> op; op.mma(a); }
template <typename T> void plain_body(device T* x) { x[0] = T(1); }
template <typename T> kernel void gemm(device T* x [[buffer(0)]]) { threadgroup T a[64]; gemm_body<T>(a); }
template <typename T> kernel void plain(device T* x [[buffer(0)]]) { plain_body<T>(x); }
template <typename M> kernel void through_arg(device float* x [[buffer(0)]]) { x[0] = 1; }
template [[host_name("gemm_f32")]] kernel void gemm<float>(device float*);
template [[host_name("plain_f32")]] kernel void plain<float>(device float*);
template [[host_name("arg_h")]] kernel void through_arg<simdgroup_half8x8>(device float*);
kernel void tensor_k(device float* x) { mpp::tensor_ops::matmul2d<1> op; }
kernel void other_k(device float* x) { x[0] = 2; }
struct S { int a; };
void gemm_helper_unused();
'''
        self.assertEqual(sorted(corpus.matrix_entries(text)), ["arg_h", "gemm_f32", "tensor_k"])
        heads = [corpus.chunk_name(h) for h, _ in corpus.top_level_chunks(corpus.strip_preprocessed(text))]
        self.assertEqual(heads, ["Mma", "mma_t", "gemm_body", "plain_body", "gemm", "plain", "through_arg", "gemm",
                                 "plain", "through_arg", "tensor_k", "other_k", "S", "gemm_helper_unused"])
        self.assertEqual(corpus.user_text('# 1 "/p/metal_stdlib"\nvoid simdgroup_load();\n# 2 "/lib/a.metal"\nk();\n',
                                          ["/p"]), "k();\n")

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

    def test_isolation_notes(self):
        err = ("a.metal:8:16: error: use of undeclared identifier 'q'\n    x * q;\n        ^\n"
               "a.metal:9:2: error: threadgroup variables outside a kernel's body are not supported yet\n"
               "a.metal:8:16: error: use of undeclared identifier 'q'\n"
               "a.metal:9:2: note: the error above stops 8 entry points: 'k1', 'k2', 'k3', 'k4', 'k5', 'k6' and 2 more\n"
               "a.metal:8:16: note: the error above stops 2 entry points: 'k0', 'k1'\n"
               "a.metal:7:1: note: the error above stops 1 entry point: 'nowhere'\n")
        stops = corpus.stopped_by(err)
        self.assertEqual(stops["k0"], "use of undeclared identifier 'q'")
        self.assertEqual(stops["k1"], "threadgroup variables outside a kernel's body are not supported yet")
        self.assertEqual(sorted(stops), ["k0", "k1", "k2", "k3", "k4", "k5", "k6"])
        self.assertEqual(corpus.error_sites(err), ["a.metal:8:16\tuse of undeclared identifier 'q'", "a.metal:9:2\t"
                                                   "threadgroup variables outside a kernel's body are not supported yet"])
        self.assertEqual(corpus.unattributed_message(["x 'a'", "x 'b'", "y"], {"k": "y"}, 3, False), "x 'a'")
        self.assertEqual(corpus.unattributed_message(["x", "z", "y"], {"k": "y"}, 3, False),
                         "(one of the file's 2 errors: --attribute entry tells which)")
        self.assertEqual(corpus.unattributed_message(["x", "z"], {}, 3, True),
                         "(one of the file's 2 errors, printed before its lowering; no note names it)")

    def test_errors_and_crashes(self):
        self.assertEqual(corpus.errors_of("a.metal:3:4: error: bad thing\n  x = 1;\n    ^\n"
                                          "a.metal: error: no kernel named 'q'\nmtl2glsl: error: cannot\n"),
                         ["bad thing", "no kernel named 'q'", "cannot"])
        self.assertEqual(corpus.abnormal(-11, ""), "crash: killed by SIGSEGV")
        self.assertEqual(corpus.abnormal(99, "==7==ERROR: AddressSanitizer: heap-use-after-free on x\n"),
                         "crash: AddressSanitizer: heap-use-after-free on x")
        self.assertIsNone(corpus.abnormal(1, "x.metal:1:1: error: y\n"))

    def test_flags_follow_the_translator(self):
        """Every -D the translator's front end passes libclang as a literal is one corpus.py passes clang -E (a
        `%d` being M2G_DEFAULT_METAL_VERSION), and every language flag corpus.py passes is one of the front end's."""
        with open(os.path.join(TREE, "translator", "mtl2glsl.h")) as f:
            version = re.search(r"#define M2G_DEFAULT_METAL_VERSION (\d+)", f.read()).group(1)
        found, literals, forced = set(), set(), set()
        for path in glob.glob(os.path.join(TREE, "translator", "**", "*.c"), recursive=True):
            with open(path, errors="replace") as f:
                text = f.read()
            found |= {d.replace("%d", version) for d in re.findall(r'"-D(__\w+(?:=[^"]*)?)"', text)}
            literals |= set(re.findall(r'"(-[^"\s]*)"', text))
            forced |= set(re.findall(r'"-include";[^\n]*\n\s*argv\[n\+\+\] = "([^"]+)"', text))
        if not found:
            self.skipTest("no literal -D in translator/ (the front end passes its defines another way)")
        self.assertEqual(sorted(found), sorted(corpus.TRANSLATOR_DEFINES))
        self.assertEqual([f for f in corpus.CLANG_FLAGS if f.startswith("-") and f not in literals], [])
        self.assertEqual(sorted(forced), sorted(corpus.TRANSLATOR_INCLUDES))


class FakeRunTest(unittest.TestCase):
    def test_listing_misses_macro_instances(self):
        """The fake lists `kernel void NAME` as written (the template too) and no macro-made instance."""
        rc, out, data = run_corpus(FAKE)
        self.assertEqual(rc, 0, out)
        mini = next(r for r in data["files"] if r["file"] == "kernels/mini.metal")
        self.assertEqual(mini["summary"]["missing"], ["mini_scale_float", "mini_scale_int"])
        self.assertEqual(mini["summary"]["extra"], ["mini_scale"])
        self.assertEqual(data["summary"]["matched"], 6)
        self.assertIn("missing from the listing (2): mini_scale_float, mini_scale_int", out)
        self.assertEqual(entries(data)["mini_scale_float"]["message"], "not listed, others are: no error printed")
        rc, out, _ = run_corpus(FAKE, "--expect-listing-exact")
        self.assertEqual(rc, 1, out)
        self.assertIn("the listing differs from the independent count (2 missing, 1 extra", out)

    def test_frontend_errors(self):
        """--syntax-only's error is counted and grouped; the translation's note gives mini_broken its message."""
        rc, out, data = run_corpus(FAKE)
        self.assertEqual(rc, 0, out)
        s = data["summary"]
        self.assertEqual((s["frontend_errors"], s["files_frontend_errors"], s["frontend_stopped"]), (1, 1, 1))
        iso = next(r for r in data["files"] if r["file"] == "kernels/isolated.metal")
        self.assertEqual(iso["frontend_errors"], [UNDECLARED])
        self.assertEqual(iso["summary"]["frontend_errors"], 1)
        broken, intact = entries(data)["mini_broken"], entries(data)["mini_intact"]
        self.assertEqual((broken["translated"], broken["message"], broken["frontend_error"]),
                         (False, UNDECLARED, UNDECLARED))
        self.assertTrue(intact["valid"])
        self.assertEqual(data["frontend_errors"][0]["pattern"], "use of undeclared identifier '_'")
        self.assertEqual(data["translation_errors"][0]["sites"], 1)
        self.assertIn("1 front-end errors in 1 files (naming 1 entry points they stop)", out)
        self.assertIn("front-end (clang) errors by message", out)
        self.assertIn("| 1 | use of undeclared identifier '_' | mini_undeclared_scale (1) |", data["markdown"])
        self.assertRegex(data["markdown"], r"\| `kernels/isolated.metal` \| 2 \| 2 \| 2 \| 1 \| 1 \| 1 \|")
        rc, out, data = run_corpus(FAKE, mode="nosyntax")   # a translator without --syntax-only: a usage error
        self.assertEqual(rc, 0, out)
        self.assertIn("usage error", next(r for r in data["files"] if r["file"] == "kernels/isolated.metal")
                      ["syntax_error"])

    def test_list_only(self):
        """--list-only: listing, count and syntax check; nothing translated or validated, no floor on them."""
        rc, out, data = run_corpus(FAKE, "--list-only", "--min-valid", "0")
        self.assertEqual(rc, 0, out)
        s = data["summary"]
        self.assertEqual((s["listed"], s["counted"], s["translated"], s["valid"], s["frontend_errors"]),
                         (7, 8, 0, 0, 1))
        self.assertTrue(data["library"]["list_only"])
        self.assertIn("not translated (--list-only)", out)
        self.assertEqual(entries(data)["mini_broken"]["message"], UNDECLARED)
        self.assertIsNone(entries(data)["mini_plain"]["message"])
        self.assertEqual([f["pattern"] for f in data["failures"]],
                         ["not listed, others are: no error printed", "use of undeclared identifier '_'"])
        self.assertIn("| 3 | 9 | 7 | 8 | 6 | 1 (1) | - | - | - | 0 (-) | - |", data["markdown"])
        with tempfile.TemporaryDirectory() as d:
            figs = os.path.join(d, "figures.json")
            corpus.write_figures(figs, {"mini": {"version": "", "files": ["kernels/*.metal"], "include": ["include"],
                                                 "define": ["MINI_EXTRA=1"], "min_valid": 6, "min_listed": 7}})
            rc, out, _ = run_corpus(FAKE, "--figures", figs, "--library", "mini", "--check", "--list-only",
                                    "--record")
            self.assertEqual(rc, 0, out)
            with open(figs) as f:
                fig = json.load(f)["mini"]
            self.assertEqual((fig["min_valid"], fig["min_listed"], fig["frontend_errors"]), (6, 7, 1))
            self.assertNotIn("min_translated", fig)
            rc, out, _ = run_corpus(FAKE, "--figures", figs, "--library", "mini", "--check", "--list-only",
                                    mode="crash")
            self.assertEqual(rc, 1, out)
            self.assertIn("listed entry points 0, below the recorded 7", out)

    def test_crash_is_a_failure_not_a_crash(self):
        rc, out, data = run_corpus(FAKE, mode="crash")
        self.assertEqual(rc, 0, out)
        self.assertEqual(data["summary"]["crashes"], 3)
        self.assertEqual(data["summary"]["valid"], 0)
        self.assertEqual({e["message"] for e in entries(data).values()}, {"not listed: crash: killed by SIGSEGV"})

    def test_invalid_glsl(self):
        rc, out, data = run_corpus(FAKE, mode="badglsl")
        self.assertEqual(rc, 0, out)
        e = entries(data)["mini_plain"]
        self.assertTrue(e["translated"])
        self.assertFalse(e["valid"])
        self.assertTrue(e["message"].startswith("glslangValidator: "), e["message"])

    def test_no_validate(self):
        # the sanitizer build's corpus test: translated entry points are not validated, the valid floor not checked
        rc, out, data = run_corpus(FAKE, "--no-validate", mode="badglsl")
        self.assertEqual(rc, 0, out)
        e = entries(data)["mini_plain"]
        self.assertTrue(e["translated"])
        self.assertIsNone(e["message"])
        self.assertIn("translated (not validated: --no-validate)", out)
        rc, out, _ = run_corpus(FAKE, "--no-validate", "--min-valid", "1")
        self.assertEqual(rc, 1, out)
        self.assertIn("--min-valid needs validation", out)

    def test_checks(self):
        rc, out, _ = run_corpus(FAKE, "--min-valid", "6")
        self.assertEqual(rc, 0, out)
        rc, out, _ = run_corpus(FAKE, "--min-valid", "7")
        self.assertEqual(rc, 1, out)
        self.assertIn("valid entry points 6, below --min-valid 7", out)
        with tempfile.TemporaryDirectory() as d:
            figs = os.path.join(d, "figures.json")
            corpus.write_figures(figs, {"mini": {"version": "", "files": ["kernels/*.metal"], "include": ["include"],
                                                 "define": ["MINI_EXTRA=1"], "min_valid": 5, "max_crashes": 0}})
            args = ["--figures", figs, "--library", "mini", "--check"]
            rc, out, _ = run_corpus(FAKE, *args)
            self.assertEqual(rc, 0, out)
            rc, out, _ = run_corpus(FAKE, *args, mode="crash")
            self.assertEqual(rc, 1, out)
            self.assertIn("3 translator crashes (recorded: at most 0)", out)
            self.assertIn("valid entry points 0, below the recorded 5", out)
            rc, out, _ = run_corpus(FAKE, *args, "--record")
            with open(figs) as f:
                fig = json.load(f)["mini"]
            self.assertEqual((fig["min_valid"], fig["min_listed"], fig["counted"], fig["frontend_errors"]),
                             (6, 7, 8, 1))

    def test_usage_errors(self):
        rc, out, _ = run_corpus(FAKE, "--files", "nothing/*.metal")
        self.assertEqual(rc, 2, out)
        self.assertIn("no kernel files match", out)


@unittest.skipUnless(os.environ.get("MTL2GLSL"), "MTL2GLSL (the real translator) not set")
class RealRunTest(unittest.TestCase):
    def test_synthetic_library(self):
        for attribute in ("file", "entry"):
            rc, out, data = run_corpus(os.environ["MTL2GLSL"], "--attribute", attribute, "--expect-listing-exact",
                                       "--min-valid", "6")
            self.assertEqual(rc, 0, out)
            s = data["summary"]
            self.assertEqual((s["files"], s["entries"], s["listed"], s["counted"], s["matched"]), (3, 8, 8, 8, 8))
            self.assertEqual((s["translated"], s["valid"], s["crashes"]), (6, 6, 0))
            self.assertEqual((s["frontend_errors"], s["files_frontend_errors"]), (1, 1))
            self.assertEqual(sorted(entries(data)), sorted(ALL))
            bad = entries(data)["mini_recursive"]
            self.assertFalse(bad["translated"])
            self.assertIn("recursion", bad["message"])
            self.assertEqual(entries(data)["mini_broken"]["message"], UNDECLARED)
            self.assertTrue(entries(data)["mini_intact"]["valid"])
            self.assertEqual(sorted((f["pattern"], f["entries"]) for f in data["failures"]),
                             [("recursion is not supported (GLSL has none): '_' calls '_'", 1),
                              ("use of undeclared identifier '_'", 1)])
            self.assertIn("| 3 | 8 | 8 | 8 | 8 | 1 (1) | 6 | 6 | 75.0% | 0 (0) | 6 of 8 (75.0%) |", data["markdown"])
        rc, out, data = run_corpus(os.environ["MTL2GLSL"], "--list-only", "--expect-listing-exact")
        self.assertEqual(rc, 0, out)
        self.assertEqual((data["summary"]["listed"], data["summary"]["frontend_errors"]), (8, 1))


if __name__ == "__main__":
    unittest.main()
