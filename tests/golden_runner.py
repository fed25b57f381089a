#!/usr/bin/python3
"""golden.runner: mtltest end to end, against goldens NumPy computes here (never mtltest's own output).

    golden_runner.py --mtltest PATH [-v]

Writes golden test files into a temporary folder with mtl2glsl.golden's writer and generators (loaded from the
source tree by path: it needs NumPy only) and checks what mtltest does with them:
  pass      every kind of kernel (a .metal file, inline text, a kernel spec), buffer (.npy, value, generators of
            every dtype, poisoned outputs), dispatch (threads, threadgroups with threadgroup memory), function
            constants, tolerances (default, exact, ULPs), multiset comparison of an atomics output; run with -j2
            and --validate, with the JUnit XML checked;
  skip      "skip" in the file, and a kernel built for subgroups the device does not have (or PASS where it has);
  fail      the report of a wrong golden: the first mismatching indices with got/expected, error maxima, the
            count over the tolerance, the actual output beside the golden (holding NumPy's right values), JUnit
            <failure>; ULP and multiset failures; a missing golden and bad files as errors naming the field;
  update    --update rewrites exactly the goldens that differ, and nothing is rewritten without it;
  exits     0 / 1 / 2 / 77, --list, --filter, --timeout on a kernel that never ends;
  generators  the C generators and golden.generate() agree bit for bit in every dtype.
"""
import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SAMPLES = os.path.join(ROOT, "samples")
_spec = importlib.util.spec_from_file_location("golden", os.path.join(ROOT, "python", "mtl2glsl", "golden.py"))
g = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(g)

VERBOSE = False
failures = []


def check(cond, what, output=""):
    if not cond:
        failures.append(what + ("\n" + output if output else ""))
    elif VERBOSE:
        print("ok: " + what)


def mtltest(args, *files, timeout=300):
    p = subprocess.run([args.mtltest] + list(files), capture_output=True, text=True, errors="replace",
                       timeout=timeout)
    out = p.stdout + p.stderr
    if "Sanitizer" in out or "runtime error" in out:
        failures.append("sanitizer report from mtltest %s:\n%s" % (" ".join(files), out))
    return p.returncode, out


def status_of(out, name):
    m = re.search(r"^(PASS|FAIL|SKIP|UPDATE)\s+%s \(" % re.escape(name), out, re.M)
    return m.group(1) if m else None


# ---- the passing suite ----

def write_pass_suite(d):
    n = 1000
    # axpy.metal: x generated, y from a file, a a value; y checked with the default float32 tolerance
    x = g.generate("uniform", "float32", (n,), seed=11)
    y = g.generate("normal", "float32", (n,), seed=12)
    g.write_test(d + "/axpy.golden.json", kernel={"source": os.path.join(SAMPLES, "axpy.metal"), "entry": "axpy"},
                 dispatch={"threads": n, "threadgroup": 64},
                 buffers={"x": g.generator("uniform", "float32", (n,), seed=11), "1": {"npy": y}, "a": {"value": 2.5}},
                 outputs={"y": {"golden": (np.float32(2.5) * x + y).astype(np.float32)}})
    # inline text as torch.mps.compile_shader takes it: unattributed buffers in order, no #include
    h = g.generate("arange", "float16", (n,), start=-4, step=0.01)
    g.write_test(d + "/scale_half.golden.json",
                 kernel={"text": ["kernel void scale_half(device const half* x, device half* y, constant float& s,",
                                  "                       uint i [[thread_position_in_grid]]) {",
                                  "    y[i] = half(float(x[i]) * s);", "}"]},
                 dispatch={"threads": [n], "threadgroup": [128]},
                 buffers={"0": g.generator("arange", "float16", (n,), start=-4, step=0.01),
                          "1": {"dtype": "float16", "shape": [n]}, "2": {"value": 1.5}},
                 outputs={"1": {"golden": (h.astype(np.float32) * np.float32(1.5)).astype(np.float16),
                                "tolerance": "exact"}})
    # bfloat16 in and out (uint16 bits), the bfloat16 default tolerance
    b = g.generate("normal", "bfloat16", (256,), seed=3, mean=0.5, std=4)
    want = g.float32_to_bfloat16_bits(g.bfloat16_bits_to_float32(b) * np.float32(3) - np.float32(1))
    g.write_test(d + "/bfloat_affine.golden.json",
                 kernel={"text": "kernel void f(device const bfloat* x, device bfloat* y, uint i [[thread_position_in_grid]]) "
                                 "{ y[i] = bfloat(float(x[i]) * 3.0f - 1.0f); }"},
                 dispatch={"threads": 256, "threadgroup": 32},
                 buffers={"x": g.generator("normal", "bfloat16", (256,), seed=3, mean=0.5, std=4)},
                 outputs={"y": {"golden": want, "dtype": "bfloat16"}})
    # atomics: compaction order is the atomic counter's: compared as a multiset; unwritten slots stay poisoned (NaN)
    v = g.generate("uniform", "float32", (512,), seed=5)
    pos = v[v > 0]
    out = np.concatenate([pos, np.full(512 - pos.size, np.nan, np.float32)])
    g.write_test(d + "/compact.golden.json", kernel={"source": os.path.join(SAMPLES, "atomics.metal"),
                                                     "entry": "compact_positive"},
                 dispatch={"threads": 512, "threadgroup": 64},
                 buffers={"x": {"npy": v}, "count": {"value": [0]}},
                 outputs={"out": {"golden": out[::-1].copy(), "unordered": True},
                          "count": {"golden": np.array([pos.size], np.int32)}})
    # a histogram through threadgroup and device atomics, exact
    data = g.generate("uniform", "uint8", (4096,), seed=9, low=0, high=256)
    g.write_test(d + "/histogram.golden.json", kernel={"source": os.path.join(SAMPLES, "atomics.metal"),
                                                       "entry": "histogram256"},
                 dispatch={"threads": 1024, "threadgroup": 256},
                 buffers={"data": g.generator("uniform", "uint8", (4096,), seed=9, low=0, high=256),
                          "hist": g.generator("constant", "uint32", (256,), value=0), "n": {"value": 4096}},
                 outputs={"hist": {"golden": np.bincount(data, minlength=256).astype(np.uint32)}})
    # function constants by name and by index, one left undefined
    w = g.generate("uniform", "float32", (37, 20), seed=1)
    xv = g.generate("uniform", "float32", (20,), seed=2)
    bias = g.generate("uniform", "float32", (37,), seed=4)
    yv = np.maximum(w.astype(np.float64) @ xv + bias, 0).astype(np.float32)
    g.write_test(d + "/matvec_constants.golden.json",
                 kernel={"source": os.path.join(SAMPLES, "fc_bias.metal"), "constants": {"has_bias": True, "1": 1}},
                 dispatch={"threads": 37, "threadgroup": 16},
                 buffers={"w": {"npy": w}, "x": {"npy": xv}, "bias": {"npy": bias}, "cols": {"value": 20}},
                 outputs={"y": {"golden": yv, "tolerance": {"rtol": 1e-5, "atol": 1e-5}}})
    # dispatchThreadgroups, threadgroup memory, a 2-D golden
    a = g.generate("arange", "float32", (53, 37), start=0, step=1)
    g.write_test(d + "/tile_transpose.golden.json",
                 kernel={"source": os.path.join(SAMPLES, "threadgroup_memory.metal"), "entry": "tile_transpose"},
                 dispatch={"threadgroups": [3, 4], "threadgroup": [16, 16]},
                 buffers={"in": {"npy": a}, "rows": {"value": 53}, "cols": {"value": 37}},
                 outputs={"out": {"golden": a.T.copy(), "tolerance": {"ulp": 0}}})
    counts = g.generate("uniform", "uint32", (100,), seed=8, low=0, high=50)
    g.write_test(d + "/radix_prefix.golden.json",
                 kernel={"source": os.path.join(SAMPLES, "radix.metal"), "entry": "radix_prefix"},
                 dispatch={"threadgroups": 1, "threadgroup": 64, "threadgroup_memory": {"0": 64}},
                 buffers={"counts": {"npy": counts}, "count": {"value": 100}},
                 outputs={"offsets": {"golden": (np.cumsum(counts) - counts).astype(np.uint32)}})
    # a kernel spec (MLX form), its input from a file and from a generator
    xs = g.generate("normal", "float32", (1000,), seed=21)
    spec = d + "/relu.spec.json"
    shutil.copy(os.path.join(SAMPLES, "specs", "relu.json"), spec)
    g.write_test(d + "/relu_spec.golden.json", kernel={"spec": "relu.spec.json"},
                 buffers={"x": {"npy": xs}}, outputs={"out": {"golden": np.maximum(xs, 0), "tolerance": "exact"}})
    g.write_test(d + "/relu_spec_generated.golden.json", kernel={"spec": "relu.spec.json"},
                 dispatch={"threads": 600, "threadgroup": 100},
                 buffers={"x": g.generator("normal", "float32", (600,), seed=22),
                          "out": {"dtype": "float32", "shape": [600]}},
                 outputs={"out": {"golden": np.maximum(g.generate("normal", "float32", (600,), seed=22), 0)}})
    # the file says skip
    g.write_test(d + "/skipped.golden.json", kernel={"text": "kernel void k(device int* x) {}"},
                 dispatch={"threads": 1, "threadgroup": 1}, outputs={"x": {"golden": np.zeros(1, np.int32)}},
                 name="skipped_by_file")
    with open(d + "/skipped.golden.json") as f:
        doc = json.load(f)
    doc["skip"] = "waiting for issue 99"
    with open(d + "/skipped.golden.json", "w") as f:
        json.dump(doc, f)


def test_pass(args, tmp):
    d = os.path.join(tmp, "pass")
    os.makedirs(d)
    write_pass_suite(d)
    junit = os.path.join(tmp, "pass.xml")
    rc, out = mtltest(args, "-j2", "--validate", "--junit", junit, d)
    names = ["axpy", "scale_half", "bfloat_affine", "compact", "histogram", "matvec_constants", "tile_transpose",
             "radix_prefix", "relu_spec", "relu_spec_generated"]
    for n in names:
        check(status_of(out, n) == "PASS", "pass suite: %s passes" % n, out)
    check(status_of(out, "skipped_by_file") == "SKIP" and "waiting for issue 99" in out, "pass suite: skip reason", out)
    check("%d passed, 0 failed, 1 skipped" % len(names) in out and rc == 0, "pass suite: closing line, exit 0", out)
    check(not [f for f in os.listdir(d) if f.endswith(".actual.npy")], "pass suite: no actual outputs written")
    root = ET.parse(junit).getroot()
    suite = root.find("testsuite")
    check(root.tag == "testsuites" and suite.get("tests") == str(len(names) + 1) and suite.get("failures") == "0"
          and suite.get("skipped") == "1" and len(suite.findall("testcase")) == len(names) + 1,
          "pass suite: JUnit counts", open(junit).read())
    skipped = [c for c in suite.findall("testcase") if c.find("skipped") is not None]
    check(len(skipped) == 1 and skipped[0].get("name") == "skipped_by_file", "pass suite: JUnit <skipped>")


def test_device_skip(args, tmp):
    """A kernel translated for 32-wide subgroups runs where the device has them and is a SKIP elsewhere."""
    d = os.path.join(tmp, "simd")
    x = g.generate("arange", "float32", (64,), start=1, step=1)
    g.write_test(d + "/simd32.golden.json",
                 kernel={"text": "using namespace metal; kernel void s(device const float* x, device float* y, uint i [[thread_position_in_grid]]) "
                                 "{ y[i] = simd_sum(x[i]); }", "subgroup_size": 32},
                 dispatch={"threads": 64, "threadgroup": 64}, buffers={"x": {"npy": x}},
                 outputs={"y": {"golden": np.repeat(x.reshape(2, 32).sum(axis=1), 32).astype(np.float32)}})
    rc, out = mtltest(args, d)
    st = status_of(out, "simd32")
    check((st == "SKIP" and "subgroups" in out and rc == 77) or (st == "PASS" and rc == 0),
          "a device without 32-wide subgroups skips a 32-wide kernel (exit 77 when all skip)", out)
    rc, out = mtltest(args, "--subgroup-size", "32", "--virtual-subgroups", d)
    check(status_of(out, "simd32") == "PASS" and rc == 0, "--subgroup-size 32 --virtual-subgroups runs it", out)


def write_broken(d):
    n = 1000
    x = g.generate("uniform", "float32", (n,), seed=1)
    right = (x * np.float32(2)).astype(np.float32)
    wrong = right.copy()
    wrong[37] += 1
    wrong[500] *= np.float32(1.001)
    g.write_test(d + "/broken.golden.json",
                 kernel={"text": "kernel void twice(device const float* x, device float* y, uint i [[thread_position_in_grid]]) "
                                 "{ y[i] = 2.0f * x[i]; }"},
                 dispatch={"threads": n, "threadgroup": 64},
                 buffers={"x": g.generator("uniform", "float32", (n,), seed=1)}, outputs={"y": {"golden": wrong}})
    return right


def test_fail(args, tmp):
    d = os.path.join(tmp, "fail")
    right = write_broken(d)
    # ULPs: three representable values away, two allowed
    x = g.generate("uniform", "float32", (64,), seed=2)
    off = x.copy()
    off[5] = np.nextafter(np.nextafter(np.nextafter(off[5], np.float32(9)), np.float32(9)), np.float32(9))
    g.write_test(d + "/ulp.golden.json", kernel={"text": "kernel void c(device const float* x, device float* y, "
                                                         "uint i [[thread_position_in_grid]]) { y[i] = x[i]; }"},
                 dispatch={"threads": 64, "threadgroup": 64}, buffers={"x": {"npy": x}},
                 outputs={"y": {"golden": off, "tolerance": {"ulp": 2}}})
    # a multiset that differs
    v = np.arange(64, dtype=np.int32)
    g.write_test(d + "/multiset.golden.json", kernel={"text": "kernel void c(device const int* x, device int* y, "
                                                              "uint i [[thread_position_in_grid]]) { y[63 - i] = x[i]; }"},
                 dispatch={"threads": 64, "threadgroup": 64}, buffers={"x": {"npy": v}},
                 outputs={"y": {"golden": np.where(v == 10, 11, v).astype(np.int32), "unordered": True}})
    # a golden that is not there, a golden of the wrong shape and dtype
    g.write_test(d + "/missing.golden.json", kernel={"text": "kernel void c(device int* y) { y[0] = 1; }"},
                 dispatch={"threads": 1, "threadgroup": 1}, buffers={"y": {"dtype": "int32", "shape": [4]}},
                 outputs={"y": {"golden": "not_there.npy"}})
    g.write_test(d + "/shape.golden.json", kernel={"text": "kernel void c(device int* y) { y[0] = 1; }"},
                 dispatch={"threads": 1, "threadgroup": 1}, buffers={"y": {"dtype": "int32", "shape": [4]}},
                 outputs={"y": {"golden": np.zeros(5, np.int32)}})
    junit = os.path.join(tmp, "fail.xml")
    rc, out = mtltest(args, "--junit", junit, "-j2", d)
    check(rc == 1 and "0 passed, 5 failed, 0 skipped" in out, "fail suite: exit 1, closing line", out)
    check(status_of(out, "broken") == "FAIL", "broken: FAIL", out)
    check("output 1 (y) differs from broken.y.golden.npy (2 of 1000 elements over the tolerance)" in out,
          "broken: the output, its golden and the count over the tolerance", out)
    wrong37 = np.float32(right[37] + np.float32(1))
    check(re.search(r"\[37\]: got %s, expected %s \(abs err 1, rel err" % (re.escape("%.9g" % right[37]),
                                                                           re.escape("%.9g" % wrong37)), out),
          "broken: the first mismatching index with got and expected", out)
    check(out.index("[37]:") < out.index("[500]:") and "max abs err 1 at [37]" in out and "max rel err" in out,
          "broken: indices in order, error maxima", out)
    actual = os.path.join(d, "broken.y.actual.npy")
    check("actual output written to " + actual in out and os.path.exists(actual) and
          np.array_equal(np.load(actual), right), "broken: the actual output beside the golden is NumPy's", out)
    check(re.search(r"\[5\]: got .*, 3 ulp\)", out) and "ulp 2" in out, "ulp: the distance in ULPs", out)
    check("sorted position" in out and "compared as multisets" in out, "multiset: positions after sorting", out)
    check("golden not_there.npy is missing (mtltest --update" in out, "missing golden: says how to record it", out)
    check("the output has 4 elements, the golden 5" in out, "shape: element counts", out)
    suite = ET.parse(junit).getroot().find("testsuite")
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    fail = cases["broken"].find("failure")
    check(suite.get("failures") == "4" and suite.get("errors") == "1" and fail is not None and
          fail.get("message").startswith("output 1 (y) differs") and "[37]: got" in fail.text and
          cases["missing"].find("error") is not None, "fail suite: JUnit failures, errors and messages",
          open(junit).read())


BAD_FILES = {
    "syntax": ('{"mtltest": 1,\n "kernel": {]}', "bad_syntax.golden.json:2: error: invalid JSON"),
    "version": ('{"mtltest": 2, "kernel": {}, "outputs": {}}', "mtltest: format version 2; this mtltest reads version 1"),
    "not_a_test": ('{"kernel": {}}', "not a golden test file"),
    "unknown_field": ('{"mtltest": 1, "kernel": {"text": "k", "entyr": "k"}, "outputs": {"0": {"golden": "g.npy"}}}',
                      "kernel.entyr: unknown field (expected one of: source, text, spec, entry"),
    "no_dispatch": ('{"mtltest": 1, "kernel": {"text": "k"}, "outputs": {"0": {"golden": "g.npy"}}}',
                    "dispatch: missing"),
    "bad_generator": ('{"mtltest": 1, "kernel": {"text": "k"}, "dispatch": {"threads": 1, "threadgroup": 1}, '
                      '"buffers": {"x": {"generate": "unifrom", "dtype": "float32", "shape": [4]}}, '
                      '"outputs": {"0": {"golden": "g.npy"}}}', "buffers.x.generate: expected constant, arange"),
    "int_range": ('{"mtltest": 1, "kernel": {"text": "k"}, "dispatch": {"threads": 1, "threadgroup": 1}, '
                  '"buffers": {"x": {"generate": "arange", "dtype": "uint8", "shape": [300]}}, '
                  '"outputs": {"0": {"golden": "g.npy"}}}', "values from 0 to 299 do not fit uint8"),
    "bad_tolerance": ('{"mtltest": 1, "kernel": {"text": "k"}, "dispatch": {"threads": 1, "threadgroup": 1}, '
                      '"outputs": {"0": {"golden": "g.npy", "tolerance": {"rtol": -1}}}}', "rtol and atol must be"),
    "no_param": ('{"mtltest": 1, "kernel": {"text": "kernel void k(device int* y) { y[0] = 1; }"}, '
                 '"dispatch": {"threads": 1, "threadgroup": 1}, "buffers": {"z": {"value": 1}}, '
                 '"outputs": {"y": {"golden": "g.npy"}}}', "buffers.z: the kernel has no such parameter"),
    "translation": ('{"mtltest": 1, "kernel": {"text": ["kernel void k(device int* y) {", "  y[0] = nope;", "}"]}, '
                    '"dispatch": {"threads": 1, "threadgroup": 1}, "outputs": {"y": {"golden": "g.npy"}}}',
                    "bad_translation.golden.json(kernel.text):2:10: error"),
    "value_range": ('{"mtltest": 1, "kernel": {"text": "kernel void k(device int* y, constant int& c) { y[0] = c; }"}, '
                    '"dispatch": {"threads": 1, "threadgroup": 1}, "buffers": {"c": {"value": 3e9}}, '
                    '"outputs": {"y": {"golden": "g.npy"}}}', "buffers.c: 3000000000 does not fit `int`"),
}


def test_bad_files(args, tmp):
    d = os.path.join(tmp, "bad")
    os.makedirs(d)
    np.save(os.path.join(d, "g.npy"), np.zeros(1, np.int32))
    for name, (text, _) in BAD_FILES.items():
        with open(os.path.join(d, "bad_%s.golden.json" % name), "w") as f:
            f.write(text)
    rc, out = mtltest(args, d)
    check(rc == 1 and "0 passed, %d failed" % len(BAD_FILES) in out, "bad files: all fail, exit 1", out)
    for name, (_, message) in BAD_FILES.items():
        check(message in out and status_of(out, "bad_" + name) == "FAIL", "bad file %s: `%s`" % (name, message), out)


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_update(args, tmp):
    d = os.path.join(tmp, "update")
    right = write_broken(d)
    golden = os.path.join(d, "broken.y.golden.npy")
    g.write_test(d + "/fine.golden.json", kernel={"text": "kernel void c(device int* y) { y[0] = 7; }"},
                 dispatch={"threads": 1, "threadgroup": 1}, buffers={"y": {"dtype": "int32", "shape": [1]}},
                 outputs={"y": {"golden": np.array([7], np.int32)}})
    before, fine_before = digest(golden), digest(os.path.join(d, "fine.y.golden.npy"))
    mtltest(args, "--no-actual", d)
    check(digest(golden) == before and not os.path.exists(os.path.join(d, "broken.y.actual.npy")),
          "without --update the golden is untouched (and --no-actual writes no actual output)")
    rc, out = mtltest(args, "--update", d)
    check(rc == 0 and status_of(out, "broken") == "UPDATE" and "updated broken.y.golden.npy" in out and
          "2 passed, 0 failed, 0 skipped (1 with goldens updated)" in out, "--update rewrites the differing golden",
          out)
    check(np.array_equal(np.load(golden), right) and digest(os.path.join(d, "fine.y.golden.npy")) == fine_before,
          "--update wrote this run's output, and left the passing golden alone")
    rc, out = mtltest(args, d)
    check(rc == 0 and status_of(out, "broken") == "PASS", "after --update the test passes", out)


def test_generators(args, tmp):
    """Every generator in every dtype, copied through a kernel and compared bit for bit with golden.generate()."""
    d = os.path.join(tmp, "gen")
    dtypes = {"float32": "float", "float16": "half", "bfloat16": "bfloat", "int8": "char", "uint8": "uchar",
              "int16": "short", "uint16": "ushort", "int32": "int", "uint32": "uint", "int64": "long",
              "uint64": "ulong"}
    params = ", ".join("device const %s* in_%s, device %s* out_%s" % (m, n, m, n) for n, m in dtypes.items())
    body = " ".join("out_%s[i] = in_%s[i];" % (n, n) for n in dtypes)
    text = "kernel void copy(%s, uint i [[thread_position_in_grid]]) { %s }" % (params, body)
    n = 777
    for kind, fparams, iparams in [("uniform", {"seed": 123}, {"seed": 77}),
                                   ("uniform_bounds", {"seed": 5, "low": -1000, "high": 1e6}, {"seed": 6, "low": 3, "high": 120}),
                                   ("normal", {"seed": 2 ** 40, "mean": -2.5, "std": 30}, {"seed": 1, "mean": 50, "std": 8}),
                                   ("arange", {"start": -7.3, "step": 0.37}, {"start": 5, "step": 0.125}),
                                   ("constant", {"value": 1 / 3}, {"value": 42})]:
        gen = kind.split("_")[0]
        bufs, outs = {}, {}
        for name in dtypes:
            p = fparams if name in ("float32", "float16", "bfloat16") else iparams
            bufs["in_" + name] = g.generator(gen, name, (n,), **p)
            outs["out_" + name] = {"golden": g.generate(gen, name, (n,), **p), "tolerance": "exact"}
            if name == "bfloat16":
                outs["out_" + name]["dtype"] = "bfloat16"
            bufs["out_" + name] = {"dtype": name, "shape": [n]}
        g.write_test(d + "/gen_%s.golden.json" % kind, kernel={"text": text}, dispatch={"threads": n, "threadgroup": 64},
                     buffers=bufs, outputs=outs)
    rc, out = mtltest(args, "-j2", d)
    check(rc == 0 and "5 passed, 0 failed" in out, "generators: C and Python agree bit for bit", out)


def test_exits(args, tmp):
    d = os.path.join(tmp, "pass")
    rc, out = mtltest(args, "--list", d)
    check(rc == 0 and re.search(r"^axpy\t.*axpy\.golden\.json$", out, re.M) and "skipped_by_file\t" in out,
          "--list prints names and files", out)
    rc, out = mtltest(args, "--filter", "relu_spec_gen", d)
    check(rc == 0 and "1 passed, 0 failed, 0 skipped" in out, "--filter picks tests by name", out)
    for argv, what in [([], "no arguments"), (["--jobs", "0", d], "bad --jobs"), (["--frobnicate", d], "unknown option"),
                       ([os.path.join(tmp, "nowhere")], "a missing path"), (["--filter", "zzz", d], "nothing matches"),
                       ([os.path.join(tmp, "empty")], "a folder without tests")]:
        os.makedirs(os.path.join(tmp, "empty"), exist_ok=True)
        rc, out = mtltest(args, *argv)
        check(rc == 2, "usage error (%s): exit 2" % what, out)
    rc, out = mtltest(args, "--version")
    check(rc == 0 and "format version 1" in out, "--version", out)
    # a kernel that runs far longer than the limit (the translator bounds loops, so this one ends, much later)
    h = os.path.join(tmp, "slow")
    g.write_test(h + "/slow.golden.json",
                 kernel={"text": "kernel void slow(device uint* a, uint i [[thread_position_in_grid]]) { uint s = 0; "
                                 "for (uint k = 0; k < 60000u; k++) s += a[(k + i) & 1u]; if (s == 12345u) a[0] = s; }"},
                 dispatch={"threads": [4096, 4096], "threadgroup": [16, 16]}, buffers={"a": {"value": [1, 2]}},
                 outputs={"a": {"golden": np.array([1, 2], np.uint32)}})
    rc, out = mtltest(args, "--timeout", "1", h, timeout=120)
    check(rc == 1 and "ran longer than --timeout 1 s" in out and status_of(out, "slow") == "FAIL",
          "--timeout stops a test that runs too long", out)


def main():
    global VERBOSE
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtltest", required=True)
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--keep", help="write the tests here and keep them")
    args = ap.parse_args()
    VERBOSE = args.v
    tmp = args.keep or tempfile.mkdtemp(prefix="golden-runner-")
    try:
        for t in (test_pass, test_device_skip, test_fail, test_bad_files, test_update, test_generators, test_exits):
            start = time.time()
            t(args, tmp)
            if VERBOSE:
                print("%s: %.1f s" % (t.__name__, time.time() - start))
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    print("golden.runner: %s (%d failures)" % ("FAIL" if failures else "PASS", len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
