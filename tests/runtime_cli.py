#!/usr/bin/python3
"""runtime.cli: mtlrun's launch checks, typed scalars and constants, dtypes, option forms and pipelines.

    runtime_cli.py --mtlrun PATH [--mtl2glsl PATH] [-v]

Every case runs mtlrun (under the validation layer where it runs a kernel) on tests/runtime/kernels.metal and checks
its exit status, the message it must print (and, for warnings, that -q silences it), and its outputs against NumPy
with outputs poisoned first. Cases:
  launch mistakes: a grid of whole threadgroups past every buffer (warning), an input shorter than the grid
  (warning), a function constant the kernel lacks, a bool constant given a number, a scalar that does not convert
  exactly (errors); an empty grid (a no-op, exit 0, the output untouched);
  typed scalars and constants: untyped values read in the parameter's type, int:1000 for a uint, half:0.5 for a
  float, constants by value and by name;
  dtypes: bfloat16 in and out as '<V2' .npy (ml_dtypes' and MLX's form) and as DTYPE:SHAPE, complex64 in and out;
  options: --opt=VALUE and --opt VALUE, --version, -q, unknown options and missing values (exit 2);
  pipelines: three dependent kernels on shared buffers in one submission (2 barriers), an independent one (none);
  two read from standard input (--pipeline -); `address` lines writing device addresses into an argument buffer
  (samples/arg_buffers.metal gather_tables, against NumPy) and their errors: an unknown buffer on either side, an
  offset not a multiple of 8 or past the buffer's end, bytes past the target's end, no offset, an offset where the
  kernel keeps no address (exit 2 for the line's form, 1 for sizes and fields);
  transfers through staging (MTLRT_STAGING=1) with --repeat, so the GPU-side restores are exercised;
  bounds checking: a read and a write past the end and too little threadgroup memory, each reported with its
  Metal source line, buffer name, index and size (exit 1); the same kernel within bounds passes with its result;
  threadgroup memory (without --check-bounds): none given, not a multiple of 16 bytes, less than one element per
  thread or than a constant index needs (errors); enough passes with its result; the reflection's min_elements and
  min_per_thread of a kernel with sure and unsure indices;
  with --mtl2glsl: the translator reads `-` from standard input, takes --opt VALUE and --opt=VALUE, and
  --emit=spirv -g keeps the names (spirv-dis) that the optimized SPIR-V strips;
  tensor cores: --tensor-cores=off|auto|on and --mma-lanes on a SIMD-group GEMM against NumPy, on refused with its
  reason where the device cannot (lavapipe), a kernel translated with --tensor-cores refused by name there, and
  --list-devices' tensor-core line (yes after the element-order probe on NVIDIA).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "runtime", "kernels.metal")
ARG_BUFFERS = os.path.join(os.path.dirname(HERE), "samples", "arg_buffers.metal")
SANITIZER = ("AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "runtime error:")


def to_bf16(f):
    """float32 -> bfloat16 bits, round to nearest even."""
    u = np.asarray(f, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def from_bf16(b):
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


class Runner:
    def __init__(self, mtlrun, tmp, verbose):
        self.mtlrun, self.tmp, self.verbose = mtlrun, tmp, verbose
        self.failures = []
        self.count = 0

    def path(self, name):
        return os.path.join(self.tmp, name)

    def save(self, name, array):
        np.save(self.path(name), array)
        return self.path(name)

    def run(self, args, env=None, stdin=None):
        e = dict(os.environ, **(env or {}))
        p = subprocess.run([self.mtlrun] + args, capture_output=True, text=True, errors="replace", timeout=300, env=e,
                           input=stdin)
        if self.verbose:
            print("$ mtlrun " + " ".join(args) + "\n" + p.stdout + p.stderr)
        return p.returncode, p.stdout, p.stderr

    def case(self, name, args, rc=0, stderr_has=(), stderr_lacks=(), stdout_has=(), env=None, stdin=None):
        """Run one case; returns True when exit status and messages are as expected."""
        self.count += 1
        code, out, err = self.run(args, env, stdin)
        problems = []
        if code != rc:
            problems.append("exit status %d, expected %d" % (code, rc))
        problems += ["stderr lacks %r" % t for t in stderr_has if t not in err]
        problems += ["stderr has %r" % t for t in stderr_lacks if t in err]
        problems += ["stdout lacks %r" % t for t in stdout_has if t not in out]
        if any(s in err for s in SANITIZER) or "validation error" in err or "Validation" in err:
            problems.append("sanitizer or validation report")
        if problems:
            self.failures.append("%s: %s\n%s%s" % (name, "; ".join(problems), out, err))
        return not problems

    def expect_array(self, name, path, want, exact=True):
        """Output file PATH must equal WANT (bit for bit, or float32 within 1e-6 relative)."""
        got = np.load(path)
        ok = got.dtype == want.dtype and got.shape == want.shape
        if ok and exact:
            ok = got.tobytes() == want.tobytes()
        elif ok:
            ok = np.allclose(got, want, rtol=1e-6, atol=1e-6)
        if not ok:
            self.failures.append("%s: %s is %r %s, expected %r %s" % (name, path, got.dtype, got[:8], want.dtype, want[:8]))


def launch_checks(r):
    """The launch mistakes of issue 17: each with its warning or error; the warnings go with -q."""
    base = [KERNELS, "--entry", "scale", "--threadgroup", "256", "--scalar", "2=2", "--validate"]
    r.case("grid past every buffer: warning", base + ["--threadgroups", "1000", "--buffer", "0=float32:1000",
                                                     "--buffer", "1=float32:1000"],
           stderr_has=["warning: kernel scale: the grid has 256000 threads, but its largest buffer",
                       "holds 1000 elements"])
    r.case("grid past every buffer: -q silences the warning", base + ["-q", "--threadgroups", "1000", "--buffer",
                                                                       "0=float32:1000", "--buffer", "1=float32:1000"],
           stderr_lacks=["warning", "device"])
    r.case("rounded-up threadgroups are no mistake", base + ["--threadgroups", "4", "--buffer", "0=float32:1000",
                                                             "--buffer", "1=float32:1000"], stderr_lacks=["warning"])
    r.case("input shorter than the grid: warning", base + ["--grid", "1000", "--buffer", "0=float32:500", "--buffer",
                                                            "1=float32:1000"],
           stderr_has=["warning: kernel scale: buffer 0 (x) holds 500 elements, fewer than the 1000 threads"])
    fc = [KERNELS, "--entry", "maybe_bias", "--grid", "64", "--threadgroup", "64", "--buffer", "0=float32:64",
          "--buffer", "1=float32:64"]
    r.case("unknown function constant: error", fc + ["--constant", "5=true"], rc=1,
           stderr_has=["kernel maybe_bias has no [[function_constant(5)]]; it has 0 (bool use_bias), 1 (float bias)"])
    r.case("bool constant set as int: error", fc + ["--constant", "0=int:1"], rc=1,
           stderr_has=["a bool value cannot be given as int32 (bool and numbers do not convert)"])
    r.case("float constant set as bool: error", fc + ["--constant", "bias=bool:true"], rc=1,
           stderr_has=["a float32 value cannot be given as bool"])
    r.case("scalar not exactly representable: error", base[:5] + ["--grid", "8", "--buffer", "0=float32:8", "--buffer",
                                                                   "1=float32:8", "--scalar", "2=double:0.1"], rc=1,
           stderr_has=["float64 0.10000000000000001 is not exactly representable as float32",
                       "(buffer 2 (a) is float32, given as double:0.1)"])
    add = [KERNELS, "--entry", "add_scale", "--grid", "8", "--threadgroup", "8", "--buffer", "0=uint32:8", "--buffer",
           "1=uint32:8", "--buffer", "3=float32:8", "--scalar", "4=1"]
    r.case("negative int for a uint: error", add + ["--scalar", "2=int:-1"], rc=1,
           stderr_has=["int32 -1 is not exactly representable as uint32"])
    r.case("out-of-range value for a uint: error", add + ["--scalar", "2=4294967296"], rc=1,
           stderr_has=["'4294967296' is not a uint32 value"])
    x = r.save("empty_x.npy", np.arange(16, dtype=np.float32))
    y = r.save("empty_y.npy", np.full(16, 7.0, dtype=np.float32))
    r.case("empty grid: a no-op", [KERNELS, "--entry", "scale", "--grid", "0", "--threadgroup", "16", "--buffer",
                                   "0=" + x, "--buffer", "1=" + y, "--scalar", "2=3", "--out", "1=" + r.path("empty_out.npy"),
                                   "--validate"])
    if os.path.exists(r.path("empty_out.npy")):
        r.expect_array("empty grid: output untouched", r.path("empty_out.npy"), np.full(16, 7.0, dtype=np.float32))


def typed_values(r):
    """Scalars and constants typed from the reflection, converted exactly."""
    xs = np.arange(8, dtype=np.uint32) * 3
    x = r.save("u_x.npy", xs)
    out_y, out_h = r.path("u_y.npy"), r.path("u_h.npy")
    for label, k, s in [("untyped", "1000", "0.5"), ("int:1000 for a uint", "int:1000", "half:0.5"),
                        ("hex and --opt=VALUE", "0x3e8", "float:0.5")]:
        if r.case("typed scalars: " + label, [KERNELS, "--entry=add_scale", "--grid=8", "--threadgroup=8",
                                              "--buffer=0=" + x, "--buffer", "1=uint32:8", "--buffer", "3=float32:8",
                                              "--poison", "--scalar=2=" + k, "--scalar", "4=" + s, "--out", "1=" + out_y,
                                              "--out=3=" + out_h, "--validate", "-q"]):
            r.expect_array("typed scalars: " + label + ": y", out_y, xs + np.uint32(1000))
            r.expect_array("typed scalars: " + label + ": h", out_h, xs.astype(np.float32) * np.float32(0.5))
    xf = r.save("fc_x.npy", np.linspace(-1, 1, 64, dtype=np.float32))
    for label, consts, want in [("bool and float by index", ["0=true", "1=2.5"], 2.5),
                                ("by name, typed", ["use_bias=bool:true", "bias=int:-3"], -3.0),
                                ("not set: false", [], 0.0)]:
        out = r.path("fc_y.npy")
        args = [KERNELS, "--entry", "maybe_bias", "--grid", "64", "--threadgroup", "32", "--buffer", "0=" + xf,
                "--buffer", "1=float32:64", "--poison", "--out", "1=" + out, "--validate", "-q"]
        for c in consts:
            args += ["--constant", c]
        if r.case("function constants: " + label, args):
            r.expect_array("function constants: " + label, out, np.linspace(-1, 1, 64, dtype=np.float32) +
                           np.float32(want))


def dtypes(r):
    """bfloat16 as '<V2' .npy (ml_dtypes' np.save, MLX's mx.save) and complex64 as '<c8', in and out."""
    f = np.random.default_rng(17).uniform(-4, 4, 100).astype(np.float32)
    bits = to_bf16(f)
    x = r.save("bf_x.npy", bits.view("V2"))   # what np.save writes for an ml_dtypes.bfloat16 array
    out = r.path("bf_y.npy")
    if r.case("bfloat16 .npy in and out", [KERNELS, "--entry", "scale_bf16", "--grid", "100", "--threadgroup", "32",
                                           "--buffer", "0=" + x, "--buffer", "1=bfloat16:100", "--poison",
                                           "--scalar", "2=1.5", "--out", "1=" + out, "--validate", "-q"]):
        got = np.load(out)
        want = to_bf16(from_bf16(bits) * np.float32(1.5))
        if got.dtype != np.dtype("V2") or got.view(np.uint16).tobytes() != want.tobytes():
            r.failures.append("bfloat16 out: %r %s, expected V2 bits %s" % (got.dtype, got[:4], want[:4]))
        ref = r.save("bf_ref.npy", want.view("V2"))
        r.case("bfloat16 --check", [KERNELS, "--entry", "scale_bf16", "--grid", "100", "--threadgroup", "32",
                                    "--buffer", "0=" + x, "--buffer", "1=bfloat16:100", "--scalar", "2=1.5",
                                    "--check", "1=" + ref, "-q"], stdout_has=["PASS: buffer 1 (y)"])
    c = (np.random.default_rng(5).normal(size=50) + 1j * np.random.default_rng(6).normal(size=50)).astype(np.complex64)
    cx, cout = r.save("c_x.npy", c), r.path("c_y.npy")
    if r.case("complex64 .npy in and out", [KERNELS, "--entry", "conj_scale", "--grid", "50", "--threadgroup", "16",
                                            "--buffer", "0=" + cx, "--buffer", "1=complex64:50", "--poison",
                                            "--scalar", "2=2", "--out", "1=" + cout, "--validate", "-q"]):
        r.expect_array("complex64 out", cout, (np.conj(c) * np.float32(2)).astype(np.complex64))
    r.case("complex64 for a float buffer: error", [KERNELS, "--entry", "scale", "--grid", "4", "--threadgroup", "4",
                                                   "--buffer", "0=complex64:4", "--buffer", "1=float32:4",
                                                   "--scalar", "2=1"], rc=1,
           stderr_has=["buffer 0 (x): expected float32 data for `device float*`, got complex64"])


def options(r):
    code, out, _ = r.run(["--version"])
    r.count += 1
    if code or not out.startswith("mtlrun 0.1.0 (mtlrt 0.1.0"):
        r.failures.append("--version: exit %d, %r" % (code, out))
    r.case("unknown option: usage", [KERNELS, "--gird", "4"], rc=2, stderr_has=["unknown option --gird"])
    r.case("missing value: usage", [KERNELS, "--grid"], rc=2, stderr_has=["--grid needs a value"])
    r.case("pipeline with a kernel: usage", ["--pipeline", "x.txt", KERNELS], rc=2,
           stderr_has=["--pipeline takes its kernels from its file"])
    r.case("pipeline with a launch's -I: usage (not ignored)", ["--pipeline", "x.txt", "-I", "/tmp"], rc=2,
           stderr_has=["-I is an option of a launch: with --pipeline, give it on the file's `run` lines"])


def partial_translation(r):
    """A file whose other kernel does not translate: the entry point that does runs, with a warning; the one that
    does not is an error. Without --entry, any error stops the file."""
    src = r.path("partly.metal")
    with open(src, "w") as f:
        f.write("#include <metal_stdlib>\nusing namespace metal;\n"
                "static float odd(float x) { return nextafter(x, 0.0f); }\n"
                "kernel void good(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) { a[i] = 2.0f * a[i]; }\n"
                "kernel void bad(device float* a [[buffer(0)]], uint i [[thread_position_in_grid]]) { a[i] = odd(a[i]); }\n")
    x = r.save("partly_in.npy", np.arange(8, dtype=np.float32))
    out = r.path("partly_out.npy")
    if r.case("entry point beside one that fails: runs, with a warning",
              [src, "--entry", "good", "--grid", "8", "--threadgroup", "8", "--buffer", "0=" + x, "--out", "0=" + out],
              stderr_has=["nextafter", "does not use; it was translated"]):
        r.expect_array("entry point beside one that fails", out, 2 * np.arange(8, dtype=np.float32))
    r.case("the entry point that fails: error", [src, "--entry", "bad", "--grid", "8", "--threadgroup", "8", "--buffer",
                                                "0=" + x], rc=1, stderr_has=["nextafter", "translation of bad in"])


def pipelines(r):
    """scale, shift and add on shared buffers in one submission: y = (a x + b) + x; and an unrelated launch."""
    xs = np.linspace(-2, 2, 1000, dtype=np.float32)
    x = r.save("p_x.npy", xs)
    want = ((np.float32(3) * xs + np.float32(-1)) + xs).astype(np.float32)
    ref = r.save("p_ref.npy", want)
    sums_ref = r.save("p_sums.npy", xs.reshape(-1, 8).sum(axis=1, dtype=np.float64).astype(np.float32))
    text = """# y = (3 x - 1) + x through a temporary, and block sums of x beside it
buffer x = {x}
buffer t = float32:1000
buffer y = float32:1000
buffer sums = float32:125
run {k} --entry scale --grid 1000 --threadgroup 64 --buffer 0=x --buffer 1=t --scalar 2=3
run {k} --entry shift --grid=1000 --threadgroup=64 --buffer 0=t --scalar b=-1
run '{k}' --entry add --grid 1000 --threadgroup 64 --buffer 0=t --buffer 1=x --buffer 2=y
run {k} --entry block_sum --threadgroups 125 --threadgroup 8 --buffer 0=x --buffer 1=sums --threadgroup-memory 0=32
out y = {out}
check sums = {sums}
""".format(x=x, k=KERNELS, out=r.path("p_y.npy"), sums=sums_ref)
    path = r.path("pipe.txt")
    open(path, "w").write(text)
    if r.case("pipeline: three dependent kernels and one beside them", ["--pipeline", path, "--poison", "--check",
                                                                        "y=" + ref, "--validate", "--timestamps"],
              stderr_has=["4 dispatches in one submission, 2 barriers between dependent ones"],
              stdout_has=["PASS: buffer y", "PASS: buffer sums", "gpu_time_ms:"]):
        r.expect_array("pipeline: out y", r.path("p_y.npy"), want, exact=False)
    # from standard input: one command line, two kernels (t = 3 x; t += -1) on shared buffers
    two = "buffer x = {x}\nbuffer t = float32:1000\nrun {k} --entry scale --grid 1000 --threadgroup 64 --buffer 0=x " \
          "--buffer 1=t --scalar 2=3\nrun {k} --entry shift --grid 1000 --threadgroup 64 --buffer 0=t --scalar b=-1\n" \
          "out t = {out}\n".format(x=x, k=KERNELS, out=r.path("p_t.npy"))
    if r.case("pipeline from standard input", ["--pipeline", "-", "--poison", "--validate"], stdin=two,
              stderr_has=["stdin: 2 dispatches in one submission, 1 barriers between dependent ones"]):
        r.expect_array("pipeline from stdin: out t", r.path("p_t.npy"), np.float32(3) * xs + np.float32(-1),
                       exact=False)
    r.case("pipeline from standard input: a bad line", ["--pipeline", "-"], rc=2, stdin="buffer x = float32:4\nnope\n",
           stderr_has=["stdin:2: error: unknown line kind 'nope'"])
    bad = r.path("bad_pipe.txt")
    open(bad, "w").write("buffer x = float32:4\nrun %s --entry scale --grid 4 --threadgroup 4 --device 0\n" % KERNELS)
    r.case("pipeline: a run option in a run line", ["--pipeline", bad], rc=2,
           stderr_has=["bad_pipe.txt:2: --device is an option of the whole run"])
    open(bad, "w").write("buffer x = float32:4\nfrobnicate x\n")
    r.case("pipeline: an unknown line", ["--pipeline", bad], rc=2,
           stderr_has=["bad_pipe.txt:2: error: unknown line kind 'frobnicate'"])
    addresses(r)


def addresses(r):
    """gather_tables reads rows, out and pairs through the addresses an argument buffer holds (48 bytes: Table
    {rows, row_len, scale} x 2, out, pairs); the address lines write them, and their mistakes are errors."""
    rows = [np.arange(12, dtype=np.float32).reshape(4, 3), -np.arange(8, dtype=np.float32).reshape(2, 4)]
    args = bytearray(48)
    for k, rw in enumerate(rows):
        args[16 * k + 8:16 * k + 16] = np.array([rw.shape[1]], np.uint32).tobytes() + np.float32(2.0).tobytes()
    row_of = np.array([3, 1, 0, 0, 2, 1], np.uint32)
    first = np.array([rows[i & 1][row_of[i], 0] * 2 for i in range(6)], np.float32)
    last = np.array([rows[i & 1][row_of[i], -1] for i in range(6)], np.float32)
    files = dict(args=r.save("a_args.npy", np.frombuffer(bytes(args), np.uint8)), rows0=r.save("a_r0.npy", rows[0].reshape(-1)),
                 rows1=r.save("a_r1.npy", np.concatenate([[7.0], rows[1].reshape(-1)]).astype(np.float32)),
                 row_of=r.save("a_row_of.npy", row_of), out=r.path("a_out.npy"))
    head = ("buffer args = {args}\nbuffer rows0 = {rows0}\nbuffer rows1 = {rows1}\nbuffer row_of = {row_of}\n"
            "buffer out = float32:6\nbuffer pairs = float32:12\n").format(**files)
    good = ["address args+0 = rows0", "address args+16 = rows1+4", "address args+32 = out", "address args+0x28 = pairs"]
    run = "run {k} --entry gather_tables --grid 6 --threadgroup 4 --buffer 0=args --buffer 1=row_of --scalar 2=6\n" \
          "out out = {out}\n".format(k=ARG_BUFFERS, **files)
    path = r.path("a_pipe.txt")
    open(path, "w").write(head + "\n".join(good) + "\n" + run)
    if r.case("pipeline: address lines fill an argument buffer", ["--pipeline", path, "--poison", "--validate"]):
        r.expect_array("pipeline: argument buffer out", files["out"], first + last)
    for name, line, rc, message in (
            ("an unknown buffer", "address args+0 = rows9", 2, "no buffer named 'rows9'"),
            ("an unknown argument buffer", "address argz+0 = rows0", 2, "no buffer named 'argz'"),
            ("an offset not a multiple of 8", "address args+4 = rows0", 2, "a multiple of 8 bytes, not at byte 4"),
            ("no offset", "address args = rows0", 2, "the byte offset in 'args' where the address goes"),
            ("a bad offset", "address args+x = rows0", 2, "expected a byte offset after '+', not 'x'"),
            ("an offset past the end", "address args+48 = rows0", 1, "byte 48 of buffer args is past its end"),
            ("bytes past the target", "address args+0 = rows0+48", 1, "byte 48 of buffer rows0 is past its end"),
            ("an offset where no address is", "address args+8 = rows0", 1,
             "byte 8 of buffer args is not where kernel gather_tables keeps a device address")):
        open(path, "w").write(head + "\n".join(good) + "\n" + line + "\n" + run)
        r.case("pipeline: address line with %s" % name, ["--pipeline", path], rc=rc, stderr_has=[message])


def staging(r):
    """Transfers through staging buffers (forced on lavapipe) with --repeat: restores run as GPU copies."""
    xs = np.linspace(0, 1, 3000, dtype=np.float32)
    x, out = r.save("s_x.npy", xs), r.path("s_y.npy")
    if r.case("staging transfers with --repeat", [KERNELS, "--entry", "shift", "--grid", "3000", "--threadgroup", "64",
                                                  "--buffer", "0=" + x, "--scalar", "1=0.25", "--repeat", "3",
                                                  "--out", "0=" + out, "--validate", "-q"], env={"MTLRT_STAGING": "1"}):
        r.expect_array("staging: one run's result", out, xs + np.float32(0.25))


def translator(r, mtl2glsl):
    """mtl2glsl reads `-` from standard input (diagnostics located in stdin.metal); both option forms."""
    src = open(KERNELS).read()
    def run(args, stdin=None):
        r.count += 1
        return subprocess.run([mtl2glsl] + args, input=stdin, capture_output=True, text=True, timeout=120)
    a = run(["--entry", "scale", KERNELS])
    b = run(["--entry=scale", "-I", HERE, "-"], stdin=src)
    if a.returncode or b.returncode or a.stdout.replace(KERNELS, "").replace("kernels.metal", "X") != \
            b.stdout.replace("stdin.metal", "X"):
        r.failures.append("mtl2glsl -: %d %d\n%s\n%s%s" % (a.returncode, b.returncode, a.stdout[:400], b.stdout[:400],
                                                            b.stderr))
    bad = run(["-"], stdin="kernel void k(device float* x) {\n    x[0] = nope(1);\n}\n")
    if bad.returncode != 1 or "stdin.metal:2:12: error: use of undeclared identifier 'nope'" not in bad.stderr:
        r.failures.append("mtl2glsl - diagnostics: exit %d\n%s" % (bad.returncode, bad.stderr))
    c = run(["--emit", "reflect", "--entry", "scale", "-o", r.path("s.json"), KERNELS])
    d = run(["--emit=c", "-"], stdin=src)
    if c.returncode or not os.path.exists(r.path("s.json")) or d.returncode != 2 or "--c-prefix" not in d.stderr:
        r.failures.append("mtl2glsl option forms: %d %s / %d %s" % (c.returncode, c.stderr, d.returncode, d.stderr))
    names = {}
    for label, flags in [("plain", []), ("-g", ["-g"])]:
        spv = r.path("s%s.spv" % label)
        e = run(["--emit=spirv", "--entry", "shift", "-o", spv] + flags + [KERNELS])
        dis = subprocess.run(["spirv-dis", spv], capture_output=True, text=True) if not e.returncode else None
        names[label] = dis.stdout if dis and not dis.returncode else None
    if not names["-g"] or 'OpName' not in names["-g"] or '"mtl_buffer_t"' not in names["-g"] or \
            'OpSource GLSL' not in names["-g"] or not names["plain"] or '"mtl_buffer_t"' in names["plain"]:
        r.failures.append("--emit=spirv -g keeps the names, plain strips them: %r" % ((names["-g"] or "")[:300],))


def bounds(r):
    """--check-bounds: the first out-of-range access of each buffer with its Metal source line, name, index and
    size; threadgroup memory too small is one; a kernel within bounds passes and computes the same."""
    line = next(i + 1 for i, l in enumerate(open(KERNELS)) if "y[i] = x[i + 3];" in l)
    base = [KERNELS, "--entry", "shifted_read", "--threadgroup", "64", "--buffer", "0=float32:1000", "--check-bounds",
            "--validate"]
    r.case("bounds: a read past the end", base + ["--grid", "1000", "--buffer", "1=float32:1000"], rc=1,
           stderr_has=["1 out-of-range access (the first of each array; --check-bounds)",
                       "kernels.metal:%d: out-of-range read of buffer 0 (x) in kernel shifted_read: index 100" % line,
                       "but it holds 1000 float elements", "    y[i] = x[i + 3];"])
    xs = np.arange(1000, dtype=np.float32)
    x, out = r.save("b_x.npy", xs), r.path("b_y.npy")
    if r.case("bounds: within bounds, same result", [KERNELS, "--entry", "shifted_read", "--threadgroup", "64",
                                                     "--grid", "997", "--buffer", "0=" + x, "--buffer",
                                                     "1=float32:997", "--poison", "--out", "1=" + out,
                                                     "--check-bounds", "--validate", "-q"]):
        r.expect_array("bounds: within bounds", out, xs[3:])
    r.case("bounds: a write past the end", [KERNELS, "--entry", "scale", "--grid", "64", "--threadgroup", "64",
                                            "--buffer", "0=float32:64", "--buffer", "1=float32:60", "--scalar", "2=1",
                                            "--check-bounds", "--validate", "-q"], rc=1,
           stderr_has=["out-of-range write of buffer 1 (t) in kernel scale: index 6", "but it holds 60 float elements"])
    stage = [KERNELS, "--entry", "guarded_stage", "--threadgroups", "4", "--threadgroup", "64", "--buffer",
             "0=" + r.save("b_s.npy", xs[:256]), "--buffer", "1=float32:256", "--scalar", "2=256", "--check-bounds",
             "--validate", "-q"]
    r.case("bounds: threadgroup memory too small", stage + ["--threadgroup-memory", "0=128"], rc=1,
           stderr_has=["out-of-range write of threadgroup buffer 0 (slot) in kernel guarded_stage: index 32",
                       "but it holds 32 float elements (threadgroup memory too small for this access: mtlrun "
                       "--threadgroup-memory 0=BYTES)", "    slot[lid] = x[i];"])
    if r.case("bounds: enough threadgroup memory", stage + ["--threadgroup-memory", "0=256", "--poison", "--out",
                                                            "1=" + r.path("b_s2.npy")]):
        r.expect_array("bounds: threadgroup stage", r.path("b_s2.npy"), np.float32(2) * xs[:256])


def threadgroup_memory(r, mtl2glsl):
    """Too little threadgroup memory is an error without --check-bounds: none given, not a multiple of 16 bytes
    (Metal's rule) or less than the kernel is proven to index (reflection min_elements / min_per_thread: constant
    indices and the thread's position at the top of the body; not under a condition or after a change)."""
    block = [KERNELS, "--entry", "block_sum", "--threadgroups", "4", "--threadgroup", "64", "--buffer",
             "0=float32:256", "--buffer", "1=float32:4", "--validate", "-q"]
    r.case("threadgroup memory: none given", block, rc=1,
           stderr_has=["threadgroup buffer 0 (part) of kernel block_sum: no size given (mtlrun --threadgroup-memory "
                       "0=BYTES, at least 256)"])
    r.case("threadgroup memory: not a multiple of 16", block + ["--threadgroup-memory", "0=260"], rc=1,
           stderr_has=["260 bytes is not a multiple of 16 (Metal's rule"])
    r.case("threadgroup memory: less than one per thread", block + ["--threadgroup-memory", "0=128"], rc=1,
           stderr_has=["threadgroup buffer 0 (part) of kernel block_sum: 128 bytes is too small: the kernel needs at "
                       "least 256 bytes, 64 float elements (it indexes it with thread_position_in_threadgroup.x, one "
                       "element per thread along x; mtlrun --threadgroup-memory 0=BYTES)"])
    xs = np.arange(256, dtype=np.float32)
    sums = r.path("tm_sums.npy")
    if r.case("threadgroup memory: enough", block[:8] + ["0=" + r.save("tm_x.npy", xs), "--buffer",
                                                         "1=float32:4", "--threadgroup-memory", "0=256", "--poison",
                                                         "--out", "1=" + sums, "--validate", "-q"]):
        r.expect_array("threadgroup memory: block sums", sums, xs.reshape(4, 64).sum(axis=1), exact=False)
    # a grid of 8 threads has 8 threads in its one threadgroup: 32 bytes are enough
    r.case("threadgroup memory: a grid smaller than the threadgroup", [KERNELS, "--entry", "block_sum", "--grid", "8",
                                                                       "--threadgroup", "64", "--buffer",
                                                                       "0=float32:8", "--buffer", "1=float32:1",
                                                                       "--threadgroup-memory", "0=32", "--validate",
                                                                       "-q"])
    needs = [KERNELS, "--entry", "tg_needs", "--threadgroups", "1", "--threadgroup", "4,2", "--buffer",
             "0=float32:4", "--threadgroup-memory", "1=16", "--threadgroup-memory", "2=16", "--validate", "-q"]
    r.case("threadgroup memory: a constant index", needs + ["--threadgroup-memory", "0=32", "--threadgroup-memory",
                                                            "3=32"], rc=1,
           stderr_has=["threadgroup buffer 3 (d) of kernel tg_needs: 32 bytes is too small: the kernel needs at least "
                       "48 bytes, 10 uint elements (it indexes it with a constant"])
    r.case("threadgroup memory: one per thread of a 2-D threadgroup", needs + ["--threadgroup-memory", "0=16",
                                                                               "--threadgroup-memory", "3=48"], rc=1,
           stderr_has=["threadgroup buffer 0 (a) of kernel tg_needs: 16 bytes is too small: the kernel needs at least "
                       "32 bytes, 8 float elements (it indexes it with thread_index_in_threadgroup"])
    r.case("threadgroup memory: what tg_needs is proven to need", needs + ["--threadgroup-memory", "0=32",
                                                                          "--threadgroup-memory", "3=48"])
    if not mtl2glsl:
        return
    r.count += 1
    p = subprocess.run([mtl2glsl, "--emit=reflect", "--entry", "tg_needs", KERNELS], capture_output=True, text=True)
    got = None
    if not p.returncode:
        import json
        doc = json.loads(p.stdout)
        doc = doc[0] if isinstance(doc, list) else doc
        got = {b["name"]: (b["min_elements"], b["min_per_thread"]) for b in doc["threadgroup_buffers"]}
    want = {"a": (6, "thread_index_in_threadgroup"), "b": (1, "none"), "c": (1, "none"), "d": (10, "none")}
    if got != want:
        r.failures.append("reflection min_elements / min_per_thread of tg_needs: %r, want %r\n%s" % (got, want,
                                                                                                     p.stderr))


def cooperative_matrices(r, mtl2glsl):
    """bench/coopmat/gemm_nv.comp (hand GLSL on GL_NV_cooperative_matrix) on bench/gemm.metal's reflection with the
    feature `cooperativeMatrix`: refused by name on a device without it (lavapipe), checked against NumPy on one
    that lists cooperative matrices under --list-devices (NVIDIA)."""
    here = os.path.dirname(os.path.abspath(__file__))
    subprocess.run([mtl2glsl, "--subgroup-size=32", "--emit=reflect", "--entry", "gemm_f16", "-o", r.path("gemm.json"),
                    os.path.join(here, "..", "bench", "gemm.metal")], check=True)
    with open(r.path("gemm.json")) as f:
        refl = json.load(f)
    refl["features"].append("cooperativeMatrix")
    refl["threadgroup_memory"] = (128 * 5 + 32 * 33) * 16
    with open(r.path("gemm_coop.json"), "w") as f:
        json.dump(refl, f)
    n = 256
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    c = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    with open(r.path("mnk.bin"), "wb") as f:
        f.write(np.array([n, n, n, 0], np.uint32).tobytes())
    args = [os.path.join(here, "..", "bench", "coopmat", "gemm_nv.comp"), "--reflect", r.path("gemm_coop.json"),
            "--threadgroups", "1,2", "--threadgroup", "256", "--buffer", "0=" + r.save("coop_a.npy", a), "--buffer",
            "1=" + r.save("coop_b.npy", b), "--buffer", "2=float16:%dx%d" % (n, n), "--bytes", "3=" + r.path("mnk.bin"),
            "--poison", "--validate", "--check", "2=" + r.save("coop_c.npy", c), "--rtol", "1e-2", "--atol", "1e-2"]
    code, out, err = r.run(["--list-devices"])
    if "cooperative matrices" in out.split("\n1:")[0]:   # the default device (0) has them
        r.case("cooperative matrices: a tensor-core GEMM against NumPy", args, stdout_has=["PASS"])
    else:
        r.case("cooperative matrices: refused by name without them", args, rc=1,
               stderr_has=["needs Vulkan feature cooperativeMatrix, which device"])


def tensor_cores(r, mtl2glsl):
    """--tensor-cores and --mma-lanes on samples/simdgroup_matrix.metal's gemm_tiled_half case (tests/ref), outputs
    against NumPy: off, auto and --mma-lanes run everywhere; on is an error naming the reason where the default device
    cannot run tensor cores (lavapipe: no cooperative matrices; virtual subgroups anywhere), and runs where it can
    (NVIDIA: --list-devices says yes after the probe); a kernel translated with mtl2glsl --tensor-cores is refused by
    name where it cannot run. --list-devices has no tensor-core line or says no, except where the device passes the
    element-order probe."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    import run_exec
    work = r.path("sgm")
    subprocess.run([sys.executable, os.path.join(here, "ref", "simdgroup_matrix.py"), work], check=True,
                   capture_output=True)
    with open(os.path.join(work, "manifest.json")) as f:
        manifest = json.load(f)
    sample = os.path.join(os.path.dirname(here), "samples", manifest["sample"])
    base = next(c for c in manifest["cases"] if c["name"] == "gemm_tiled_half_33x40x50_w32")
    code, out, err = r.run(["--list-devices"])
    default = out.split("\n1:")[0]   # the default device (0)
    yes = "tensor cores for SIMD-group matrices: yes" in default
    if "cooperative matrices" in default:
        print("runtime.cli: the default device has cooperative matrices; its tensor-core line: %s" %
              next((l.strip() for l in default.splitlines() if "tensor cores" in l), "(none)"))
        r.count += 1
        if "tensor cores for SIMD-group matrices: " not in default:
            r.failures.append("--list-devices: no tensor-core line under a device with cooperative matrices\n" + out)
        elif "NVIDIA" in default and not yes:
            r.failures.append("--list-devices: the tensor-core probe says no on an NVIDIA device\n" + out)
    else:
        r.case("tensor cores: --list-devices has no tensor-core line or says no", ["--list-devices"],
               stdout_has=[] if "tensor cores" not in out else ["tensor cores for SIMD-group matrices: no: "])

    def sgm(name, extra, mtlrun_args=None, rc=0, stderr_has=(), glsl_dir=None, tol=None):
        case = dict(base, mtlrun_args=list(base["mtlrun_args"] if mtlrun_args is None else mtlrun_args))
        cmd, outs = run_exec.mtlrun_command(r.mtlrun, sample, case, work, extra=extra, glsl_dir=glsl_dir)
        for p in outs.values():
            if os.path.exists(p):
                os.remove(p)
        if not r.case(name, cmd[1:], rc=rc, stderr_has=stderr_has) or rc:
            return
        for o in case["outputs"]:
            got, want = np.load(outs[o["index"]]), np.load(os.path.join(work, o["expected"]))
            rtol, atol = tol or (o["rtol"], o["atol"])
            if not np.allclose(got, want, rtol=rtol, atol=atol):
                r.failures.append("%s: buffer %d differs from NumPy by %g" % (name, o["index"],
                                                                            np.max(np.abs(got - want))))

    sgm("tensor cores: --tensor-cores=off runs a SIMD-group GEMM", ["--tensor-cores=off"])
    sgm("tensor cores: auto runs it on the device's own subgroups, -v says how", ["-v"], mtlrun_args=[],
        stderr_has=["SIMD-group matrix products " + ("on tensor cores" if yes else "exact")],
        tol=(1e-4, 1e-4) if yes else None)   # tensor cores add in float32 in their own order
    sgm("tensor cores: --mma-lanes runs it (lanes renamed, exact products)", ["--mma-lanes", "-v"],
        stderr_has=["lanes mma"])
    sgm("tensor cores: --tensor-cores=on with virtual subgroups is an error", ["--tensor-cores=on"], rc=1,
        stderr_has=["--tensor-cores=on: --virtual-subgroups"])
    kdir = r.path("sgm_tc")
    os.makedirs(kdir, exist_ok=True)
    for emit in ([], ["--emit=reflect"]):
        subprocess.run([mtl2glsl, "--subgroup-size=32", "--tensor-cores", "--entry", base["entry"], "-o",
                        os.path.join(kdir, base["entry"] + (".json" if emit else ".comp")), sample] + emit, check=True)
    if yes:
        sgm("tensor cores: --tensor-cores=on runs it on tensor cores", ["--tensor-cores=on", "-v"], mtlrun_args=[],
            stderr_has=["on tensor cores"], tol=(1e-4, 1e-4))
        sgm("tensor cores: a kernel translated for them runs", ["-v"], glsl_dir=kdir, mtlrun_args=[],
            stderr_has=["on tensor cores"], tol=(1e-4, 1e-4))
    else:
        sgm("tensor cores: --tensor-cores=on is an error naming the reason", ["--tensor-cores=on"], mtlrun_args=[],
            rc=1, stderr_has=["mtlrun: error: --tensor-cores=on: "])
        sgm("tensor cores: a kernel translated for them is refused by name", [], rc=1, glsl_dir=kdir,
            stderr_has=["kernel gemm_tiled_half was translated for tensor cores (mtl2glsl --tensor-cores), which "
                        "cannot run here: "])
    stem = os.path.join(kdir, base["entry"])
    r.case("tensor cores: --tensor-cores on GLSL is an error", [stem + ".comp", "--reflect", stem + ".json",
                                                                 "--tensor-cores=on", "--grid", "1", "--threadgroup", "1"],
           rc=1, stderr_has=["apply to .metal sources"])
    r.case("tensor cores: a bad --tensor-cores value", [sample, "--tensor-cores=maybe"], rc=2,
           stderr_has=["bad value 'maybe' for --tensor-cores"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtlrun", required=True)
    ap.add_argument("--mtl2glsl")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        r = Runner(args.mtlrun, tmp, args.v)
        for group in (launch_checks, typed_values, dtypes, options, partial_translation, pipelines, staging, bounds):
            group(r)
        threadgroup_memory(r, args.mtl2glsl)
        if args.mtl2glsl:
            translator(r, args.mtl2glsl)
            cooperative_matrices(r, args.mtl2glsl)
            tensor_cores(r, args.mtl2glsl)
    for f in r.failures:
        print("FAIL: " + f)
    print("%d cases, %d failed" % (r.count, len(r.failures)))
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
