"""Shared helpers for the reference scripts in tests/ref/.

Each tests/ref/SAMPLE.py describes one or more execution cases of samples/SAMPLE.metal:
inputs (fixed-seed random arrays), the dispatch, and the outputs NumPy expects. Run as

    python3 tests/ref/SAMPLE.py OUTDIR      writes OUTDIR/manifest.json and the .npy/.bin files
    python3 tests/ref/SAMPLE.py --list      prints the case names, one a line

The expected values are always computed here with NumPy, never by our runtime.

manifest.json:
{
  "sample": "axpy.metal",                      # relative to samples/
  "cases": [{
    "name": "axpy_grid1000_tg64",
    "entry": "axpy",
    "grid": [1000, 1, 1]   or   "threadgroups": [16, 1, 1],
    "threadgroup": [64, 1, 1],
    "buffers": [{"index": 0, "file": "x.npy"},               # --buffer 0=FILE.npy
                {"index": 3, "same_as": 0},                  # buffer 0 bound at index 3 too (a pipeline)
                {"index": 1, "dtype": "float32", "shape": [1000]},   # --buffer 1=float32:1000 (poisoned)
                {"index": 2, "bytes": "params.bin"}],        # --bytes 2=FILE
    "scalars": [{"index": 2, "type": "float", "value": "2.5"}],   # --scalar 2=float:2.5
    "outputs": [{"index": 1, "expected": "y_expected.npy", "rtol": 1e-5, "atol": 1e-6,
                 "nan_ok": false, "labels": ["name of column 0", ...]}],    # both optional
    "mtlrun_args": ["--subgroup-size", "16", "--virtual-subgroups"]   # optional: width, threadgroup memory, --constant
  }]
}
"""
import json
import os
import sys

import numpy as np

# Default tolerances per dtype: floats close, integers exact.
FLOAT_TOL = {"rtol": 1e-5, "atol": 1e-6}
TRANSCENDENTAL_TOL = {"rtol": 1e-5, "atol": 2e-6}  # measured on lavapipe: all pass at 5e-6/1e-6
EXACT = {"rtol": 0.0, "atol": 0.0}

MTL_SCALAR_TYPES = ("float", "int", "uint", "short", "ushort", "char", "uchar", "bool", "long", "ulong", "half")


# Subgroup widths the SIMD-group samples run at on any device (lavapipe's subgroups are 8 wide): the real
# subgroups at 8 (SIMD-groups emulated across them), and 16, 32 (native mapping) and 64 (32-lane clusters)
# with subgroups built in shared memory (mtlrun --virtual-subgroups).
WIDTH_ARGS = {
    4: ("--subgroup-size", "4", "--virtual-subgroups"),
    8: ("--subgroup-size", "8"),
    16: ("--subgroup-size", "16", "--virtual-subgroups"),
    32: ("--subgroup-size", "32", "--virtual-subgroups"),
    64: ("--subgroup-size", "64", "--virtual-subgroups"),
}
WIDTHS = (8, 16, 32, 64)   # what every SIMD-group sample runs at


def to_bf16(f):
    """float32 -> bfloat16 bits (uint16), rounded to nearest even; NaN stays a quiet NaN."""
    f = np.asarray(f, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    b = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f)
    b[nan] = ((u[nan] >> 16) | 0x40).astype(np.uint16)
    return b


def from_bf16(b):
    """bfloat16 bits (uint16) -> float32, exactly."""
    return (np.asarray(b, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def near_bf16_tie(v, margin=0.004):
    """Where float64 values V lie within MARGIN bfloat steps of a rounding midpoint: a result computed on a GPU
    with Vulkan's few-ulp float precision (division, exp, sqrt) may round either way there, so references keep
    their inputs away from it and compare bfloat bits exactly."""
    v = np.abs(np.asarray(v, dtype=np.float64))
    e = np.floor(np.log2(np.where(v > 0, v, 1.0)))
    s = v / np.exp2(e) * 128.0
    return (v > 0) & (np.abs(s - np.floor(s) - 0.5) < margin)


def rng(seed):
    """A fixed-seed generator: every run of a script writes the same inputs."""
    return np.random.default_rng(seed)


def dim3(v):
    """(x,) or (x, y) or (x, y, z) -> [x, y, z]."""
    v = [int(t) for t in (list(v) if isinstance(v, (list, tuple, np.ndarray)) else [v])]
    assert 1 <= len(v) <= 3 and all(t > 0 for t in v), v
    return v + [1] * (3 - len(v))


def default_tol(dtype):
    return dict(FLOAT_TOL) if np.dtype(dtype).kind == "f" else dict(EXACT)


class Out:
    """An output buffer to create (poisoned, dtype:shape) and compare afterwards."""

    def __init__(self, expected, tol=None, nan_ok=False, labels=None, bits=False, bf16=False, raw=False):
        self.raw = raw                # a `device char*` buffer: created as int8 bytes, compared as expected's dtype
        self.expected = np.ascontiguousarray(expected)
        self.bf16 = bf16              # uint16 bfloat16 bits compared as the values they hold, within tol
        assert not bf16 or (self.expected.dtype == np.uint16 and tol), "bf16: uint16 bits and a tolerance"
        self.tol = dict(tol) if tol else default_tol(self.expected.dtype)
        self.nan_ok = nan_ok
        self.bits = bits              # floats compared bit for bit (NaN, -0.0)
        self.labels = labels          # names of the last axis' columns, for messages
        assert labels is None or len(labels) == self.expected.shape[-1]


class InOut:
    """A buffer given as input data, changed in place and compared afterwards (e.g. axpy's y)."""

    def __init__(self, initial, expected, tol=None, unordered=False, bits=False, raw=False):
        self.raw = raw                # a `device char*` buffer: given as int8 bytes, compared as expected's dtype
        self.unordered = unordered    # compared as multisets (sorted): order decided by atomics
        self.bits = bits              # floats compared bit for bit (NaN, -0.0)
        self.initial = np.ascontiguousarray(initial)
        self.expected = np.ascontiguousarray(expected)
        assert self.initial.dtype == self.expected.dtype and self.initial.size == self.expected.size
        self.tol = dict(tol) if tol else default_tol(self.expected.dtype)
        self.nan_ok = False
        self.labels = None


class Bytes:
    """Raw bytes for a buffer index (structs laid out by Metal's rules): --bytes N=FILE."""

    def __init__(self, data):
        self.data = bytes(data)


class Same:
    """The buffer already bound at INDEX, bound here too (one Vulkan buffer at two indices, same address): what
    ggml's host code does where an optional source is absent (soft_max binds src0 as the mask and the sinks, and the
    kernel compares the pointers). The case runs as a one-launch mtlrun pipeline (tests/run_exec.py)."""

    def __init__(self, index):
        self.index = int(index)


class Scalar:
    """A `constant T&` scalar: --scalar N=TYPE:VALUE."""

    def __init__(self, mtl_type, value):
        assert mtl_type in MTL_SCALAR_TYPES, mtl_type
        self.type = mtl_type
        if mtl_type in ("float", "half"):
            v = float(np.float32(value))
            assert v == value, "scalar %r is not exact in float32" % value
            self.value = repr(v)
        elif mtl_type == "bool":
            self.value = "1" if value else "0"
        else:
            self.value = str(int(value))


class View:
    """A kernel-spec input that is BASE transposed by PERM (a strided view; MLX copies it row-contiguous unless
    ensure_row_contiguous is false): mtlrun --buffer NAME=BASE.npy --transpose NAME=P0,P1,..."""

    def __init__(self, base, perm):
        self.base = np.ascontiguousarray(base)
        self.perm = [int(p) for p in perm]
        assert sorted(self.perm) == list(range(self.base.ndim))

    def array(self):
        return self.base.transpose(self.perm)


class Reference:
    """Collects the cases of one sample; main() writes them or lists them."""

    def __init__(self, sample):
        self.sample = sample
        self.cases = []

    def case(self, name, entry, buffers, threadgroup, grid=None, threadgroups=None, width=None, threadgroup_memory=None,
             template=None, init_value=None, constants=None, push_words=False):
        """buffers: {index: np.ndarray | Out | InOut | Bytes | Scalar}; for a kernel spec (samples/specs/NAME.json,
        entry None): {name: np.ndarray | View | Out}, with MLX template args [(NAME, VALUE)] and init_value.
        Exactly one of grid (dispatchThreads: total threads) or threadgroups (dispatchThreadgroups).
        width: the subgroup width SIMD-group functions are built for (WIDTH_ARGS); None: the device's choice.
        threadgroup_memory: {n: bytes} for `threadgroup T* [[threadgroup(n)]]` parameters.
        constants: {n: Scalar} for `[[function_constant(n)]]` (mtlrun --constant N=TYPE:VALUE).
        push_words: translate 8/16-bit constant references as 32-bit push-constant words (mtlrun
        --push-constant-words: what devices without storagePushConstant8/16 get)."""
        assert (grid is None) != (threadgroups is None), name
        assert all(c["name"] != name for c in self.cases), "duplicate case " + name
        args = list(WIDTH_ARGS[width]) if width is not None else []
        for t, v in template or []:
            args += ["--template", "%s=%s" % (t, str(v).lower() if isinstance(v, bool) else v)]
        if init_value is not None:
            args += ["--init-value", repr(float(init_value))]
        for n, size in sorted((threadgroup_memory or {}).items()):
            args += ["--threadgroup-memory", "%d=%d" % (n, size)]
        for n, v in sorted((constants or {}).items()):
            args += ["--constant", "%d=%s:%s" % (n, v.type, v.value)]
        if push_words:
            args.append("--push-constant-words")
        self.cases.append(dict(name=name, entry=entry, buffers=buffers, threadgroup=dim3(threadgroup),
                               grid=None if grid is None else dim3(grid),
                               threadgroups=None if threadgroups is None else dim3(threadgroups), args=args))

    def pipeline(self, name, buffers, launches, addresses=()):
        """A case of several launches in order, in one submission (mtlrun --pipeline), on shared buffers:
        buffers {NAME: np.ndarray (input) | Out | InOut | (dtype, count) (scratch, poisoned)}; launches [dict(entry,
        bind={index: NAME | Bytes | Scalar}, threadgroup, threadgroups or grid, threadgroup_memory, constants, width)],
        as ggml's host code encodes one operation as several kernels (flash attention and its reduction) and MLX's
        its two-pass reductions. addresses [(NAME, OFFSET, TARGET, TARGET_BYTES)]: TARGET's device address plus
        TARGET_BYTES written at byte OFFSET of buffer NAME before the run (an argument buffer's pointers, as Metal's
        hosts write them with an argument encoder: mtlrun's `address` lines)."""
        assert all(c["name"] != name for c in self.cases), "duplicate case " + name
        for a, off, t, toff in addresses:
            assert a in buffers and t in buffers and off % 8 == 0 and toff >= 0, (name, a, off, t, toff)
        runs = []
        for k in launches:
            assert ("grid" in k) != ("threadgroups" in k), name
            args = list(WIDTH_ARGS[k["width"]]) if k.get("width") is not None else []
            for n, size in sorted((k.get("threadgroup_memory") or {}).items()):
                args += ["--threadgroup-memory", "%d=%d" % (n, size)]
            for n, v in sorted((k.get("constants") or {}).items()):
                args += ["--constant", "%d=%s:%s" % (n, v.type, v.value)]
            runs.append(dict(entry=k["entry"], bind=k["bind"], threadgroup=dim3(k["threadgroup"]),
                             grid=dim3(k["grid"]) if "grid" in k else None,
                             threadgroups=dim3(k["threadgroups"]) if "threadgroups" in k else None, args=args))
        self.cases.append(dict(name=name, entry=launches[0]["entry"],
                               pipeline=dict(buffers=buffers, launches=runs, addresses=list(addresses))))

    def _write_pipeline(self, outdir, c):
        m = {"name": c["name"], "entry": c["entry"], "buffers": [], "scalars": [], "outputs": [],
             "pipeline": {"buffers": [], "launches": [],
                          "addresses": [{"buffer": a, "offset": int(off), "target": t, "target_offset": int(toff)}
                                        for a, off, t, toff in c["pipeline"].get("addresses", [])]}}
        for bname, b in c["pipeline"]["buffers"].items():
            stem = "%s_%s" % (c["name"], bname)
            entry = {"name": bname}
            if isinstance(b, tuple):
                entry.update(dtype=np.dtype(b[0]).name, shape=[int(b[1])])
            elif isinstance(b, Out):
                entry.update(dtype="int8" if b.raw else b.expected.dtype.name,
                             shape=[b.expected.nbytes] if b.raw else list(b.expected.shape))
                self._write_expected(outdir, m, bname, stem, b)
            else:
                data = b.initial if isinstance(b, InOut) else np.ascontiguousarray(b)
                if isinstance(b, InOut) and b.raw:
                    data = data.reshape(-1).view(np.int8)
                np.save(os.path.join(outdir, stem + ".npy"), data)
                entry["file"] = stem + ".npy"
                if isinstance(b, InOut):
                    self._write_expected(outdir, m, bname, stem, b)
            m["pipeline"]["buffers"].append(entry)
        for i, k in enumerate(c["pipeline"]["launches"]):
            run = {"entry": k["entry"], "threadgroup": k["threadgroup"], "bind": [], "scalars": [], "mtlrun_args": k["args"]}
            if k["grid"] is not None:
                run["grid"] = k["grid"]
            else:
                run["threadgroups"] = k["threadgroups"]
            for index, b in sorted(k["bind"].items()):
                if isinstance(b, Bytes):
                    f = "%s_l%d_b%d.bin" % (c["name"], i, index)
                    with open(os.path.join(outdir, f), "wb") as fh:
                        fh.write(b.data)
                    run["bind"].append({"index": index, "bytes": f})
                elif isinstance(b, Scalar):
                    run["scalars"].append({"index": index, "type": b.type, "value": b.value})
                else:
                    assert b in c["pipeline"]["buffers"], (c["name"], b)
                    run["bind"].append({"index": index, "buffer": b})
            m["pipeline"]["launches"].append(run)
        return m

    def _write_case(self, outdir, c):
        if "pipeline" in c:
            return self._write_pipeline(outdir, c)
        m = {"name": c["name"], "entry": c["entry"], "threadgroup": c["threadgroup"],
             "buffers": [], "scalars": [], "outputs": []}
        if c["args"]:
            m["mtlrun_args"] = c["args"]
        if c["grid"] is not None:
            m["grid"] = c["grid"]
        else:
            m["threadgroups"] = c["threadgroups"]
        for index in sorted(c["buffers"], key=str):
            b = c["buffers"][index]
            if isinstance(index, str):
                self._write_named(outdir, m, c["name"], index, b)
                continue
            stem = "%s_b%d" % (c["name"], index)
            if isinstance(b, Scalar):
                m["scalars"].append({"index": index, "type": b.type, "value": b.value})
            elif isinstance(b, Same):
                assert index != b.index and not isinstance(c["buffers"].get(b.index), (Same, Bytes, Scalar)), c["name"]
                m["buffers"].append({"index": index, "same_as": b.index})
            elif isinstance(b, Bytes):
                with open(os.path.join(outdir, stem + ".bin"), "wb") as f:
                    f.write(b.data)
                m["buffers"].append({"index": index, "bytes": stem + ".bin"})
            elif isinstance(b, Out):
                m["buffers"].append({"index": index, "dtype": "int8" if b.raw else b.expected.dtype.name,
                                     "shape": [b.expected.nbytes] if b.raw else list(b.expected.shape)})
                self._write_expected(outdir, m, index, stem, b)
            elif isinstance(b, InOut):
                np.save(os.path.join(outdir, stem + ".npy"), b.initial.reshape(-1).view(np.int8) if b.raw else b.initial)
                m["buffers"].append({"index": index, "file": stem + ".npy"})
                self._write_expected(outdir, m, index, stem, b)
            else:
                a = np.ascontiguousarray(b)
                np.save(os.path.join(outdir, stem + ".npy"), a)
                m["buffers"].append({"index": index, "file": stem + ".npy"})
        return m

    def _write_named(self, outdir, m, case, name, b):
        """A kernel spec's array, by name: input data, a transposed view, or an output's dtype and shape."""
        stem = "%s_%s" % (case, name)
        if isinstance(b, Out):
            m["buffers"].append({"name": name, "dtype": b.expected.dtype.name, "shape": list(b.expected.shape)})
            self._write_expected(outdir, m, name, stem, b)
        elif isinstance(b, View):
            np.save(os.path.join(outdir, stem + ".npy"), b.base)
            m["buffers"].append({"name": name, "file": stem + ".npy", "transpose": b.perm})
        else:
            assert isinstance(b, np.ndarray), (name, type(b))
            np.save(os.path.join(outdir, stem + ".npy"), np.array(b, order="C"))   # keeps 0-d arrays 0-d
            m["buffers"].append({"name": name, "file": stem + ".npy"})

    @staticmethod
    def _write_expected(outdir, m, index, stem, b):
        np.save(os.path.join(outdir, stem + "_expected.npy"), b.expected)
        out = {"name" if isinstance(index, str) else "index": index, "expected": stem + "_expected.npy"}
        out.update(b.tol)
        if b.nan_ok:
            out["nan_ok"] = True
        if getattr(b, "unordered", False):
            out["unordered"] = True
        if getattr(b, "bits", False):
            out["bits"] = True
        if getattr(b, "bf16", False):
            out["bf16"] = True
        if b.labels:
            out["labels"] = list(b.labels)
        m["outputs"].append(out)

    def write(self, outdir):
        os.makedirs(outdir, exist_ok=True)
        manifest = {"sample": self.sample, "cases": [self._write_case(outdir, c) for c in self.cases]}
        with open(os.path.join(outdir, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)
            f.write("\n")
        return manifest

    def main(self, argv=None):
        argv = sys.argv[1:] if argv is None else argv
        if argv == ["--list"]:
            for c in self.cases:
                print(c["name"])
            return 0
        if len(argv) != 1 or argv[0].startswith("-"):
            print("usage: %s OUTDIR | --list" % os.path.basename(sys.argv[0]), file=sys.stderr)
            return 2
        self.write(argv[0])
        return 0


def groups_for(grid, tg):
    """Threadgroups that cover grid: ceil(grid / tg) per dimension."""
    return [-(-g // t) for g, t in zip(dim3(grid), dim3(tg))]
