"""compile_shader: torch.mps.compile_shader's library of kernels over a whole Metal source.

`lib = compile_shader(src)` translates every entry point once (cached per source text); `lib.NAME(*args,
threads=None, group_size=None, arg_casts=None)` binds the arguments to buffers 0, 1, 2, ... in order and dispatches
`threads` threads (dispatchThreads). Tensors and NumPy arrays the kernel writes are written back in place.
"""
import hashlib
import os
import sys

import numpy as np

from ._array import DeviceArray, HostArg, is_array
from ._kernel import Kernel, dims3, pack_values
from ._lib import runtime, translate

# torch's arg_casts names -> our dtypes
_CASTS = {"fp16": "float16", "bf16": "bfloat16", "int32": "int32", "int16": "int16", "int8": "int8",
          "uint8": "uint8", "fp32": "float32", "float32": "float32", "float16": "float16", "bfloat16": "bfloat16",
          "int64": "int64"}
_CAST_SCALAR = {"float16": "half", "bfloat16": "bfloat", "int32": "int", "int16": "short", "int8": "char",
                "uint8": "uchar", "float32": "float", "int64": "long"}

_translations = {}  # (sha256 of source, subgroup size) -> {entry: (glsl, reflect_json)}


def _verbose_env():
    return os.environ.get("MTL2GLSL_VERBOSE", "") not in ("", "0")


class ShaderLibrary:
    """The kernels of one Metal source, as attributes (pipelines created on first use)."""

    def __init__(self, source, name="compile_shader", verbose=False):
        self._source = source
        self._name = name
        self._verbose = verbose or _verbose_env()
        r = runtime()
        key = (hashlib.sha256(source.encode()).hexdigest(), r.simd_subgroup_size)
        if key not in _translations:
            text = source
            if "metal_stdlib" not in source:  # Metal's built-in types and keywords come from our prelude
                text = "#include <metal_stdlib>\n#line 1\n" + source
            entries, _ = translate(name, text, sources=[(name, source)], subgroup_size=r.simd_subgroup_size,
                                   push_constant_words=r.push_constant_words)
            _translations[key] = entries
        self._entries = _translations[key]
        self._kernels = {}
        if self._verbose:
            for e, (glsl, _) in self._entries.items():
                sys.stderr.write("// ---- %s: GLSL ----\n%s\n" % (e, glsl))

    def __dir__(self):
        return sorted(self._entries)

    def __getattr__(self, name):
        if name.startswith("__") or name not in self.__dict__.get("_entries", {}):
            if name.startswith("_"):
                raise AttributeError(name)
            raise AttributeError("the library has no kernel %r (it has: %s)" % (name, ", ".join(sorted(self._entries))))
        k = self._kernels.get(name)
        if k is None:
            glsl, refl = self._entries[name]
            k = self._kernels[name] = KernelFunction(Kernel(name, glsl, refl, self._source, self._name), self._verbose)
        return k


class KernelFunction:
    """A kernel of a ShaderLibrary, called as torch's: k(*args, threads=None, group_size=None, arg_casts=None)."""

    def __init__(self, kernel, verbose=False):
        self._k = kernel
        self.name = kernel.entry
        self.max_threads_per_threadgroup = kernel.max_threads_per_threadgroup
        self.thread_execution_width = kernel.thread_execution_width
        self.static_thread_group_memory_length = kernel.static_thread_group_memory_length
        self.glsl = kernel.glsl
        self.metal = kernel.metal
        self._verbose = verbose

    def __repr__(self):
        return "<mtl2glsl kernel %s>" % self.name

    def __call__(self, *args, threads=None, group_size=None, arg_casts=None, threadgroup_memory=None):
        values, grid, tg = self._prepare(args, threads, group_size, arg_casts)
        if 0 not in grid:
            self._k.launch(values, grid, tg, threadgroup_memory=threadgroup_memory)

    def time(self, *args, threads=None, group_size=None, arg_casts=None, threadgroup_memory=None, repeat=10):
        """GPU milliseconds of one run (median of REPEAT, device timestamps); outputs as after one call."""
        values, grid, tg = self._prepare(args, threads, group_size, arg_casts)
        s = self._k.launch(values, grid, tg, threadgroup_memory=threadgroup_memory, repeat=repeat, timestamps=True)
        return s.gpu_ms_median

    def _prepare(self, args, threads, group_size, arg_casts):
        k = self._k
        n = 1 + max(k.by_index, default=-1)
        if len(args) != n:
            names = ", ".join("%d (%s)" % (p["index"], p["name"]) for p in k.params)
            raise TypeError("kernel %s takes %d arguments (buffers %s), got %d" % (self.name, n, names, len(args)))
        values = {}
        for i, a in enumerate(args):
            p = k.by_index.get(i)
            if p is None:  # no [[buffer(i)]] in the kernel: nothing to bind
                continue
            what = "argument %d (%s) of kernel %s" % (i, p["name"], self.name)
            if is_array(a):
                v = a if isinstance(a, DeviceArray) else HostArg(a)
                if threads is None:
                    threads = v.size
                k.check_array(p, v.dtype, v.size * v.dtype.size, what)
                values[i] = v
            else:
                values[i] = self._pack(a, p, what, _cast_for(arg_casts, i))
        if threads is None:
            raise ValueError("kernel %s: threads is not given and no argument is a tensor" % self.name)
        nd = 1 if isinstance(threads, (int, np.integer)) else len(threads)
        grid = dims3(threads, "threads")
        if group_size is None:
            tg = (min(grid[0], k.max_threads_per_threadgroup) or 1, 1, 1) if nd == 1 else \
                (k.max_threads_per_threadgroup, 1, 1)
        else:
            gnd = 1 if isinstance(group_size, (int, np.integer)) else len(group_size)
            if gnd != nd:
                raise ValueError("threads and group_size must have the same number of dimensions (%d and %d)" % (
                    nd, gnd))
            tg = dims3(group_size, "group_size")
        if tg[0] * tg[1] * tg[2] > k.max_threads_per_threadgroup:
            raise ValueError("kernel %s: threadgroup %dx%dx%d has more than its %d threads per threadgroup" % (
                self.name, tg[0], tg[1], tg[2], k.max_threads_per_threadgroup))
        return values, grid, tg

    def _pack(self, a, p, what, cast):
        """A Python number, bool, list or bytes -> bytes for parameter P (its Metal type, or the cast's)."""
        if isinstance(a, (bytes, bytearray, memoryview)):
            return bytes(a)
        if isinstance(a, (bool, int, float, np.number, np.bool_)):
            vals = [a]
        elif isinstance(a, (list, tuple)):
            if not a:
                raise ValueError("%s: an empty list cannot be an argument" % what)
            vals = list(a)
        else:
            raise TypeError("%s: unsupported argument type %s" % (what, type(a).__name__))
        scalar = _CAST_SCALAR[cast] if cast else p["scalar"]
        if scalar == "struct":
            raise TypeError("%s: `%s` is a struct; pass its bytes (e.g. a NumPy structured array's tobytes())" % (
                what, self._k.describe(p)))
        data = pack_values(vals, scalar, what)
        width = _vector_width(p["type"])
        if p["kind"] == "push_constant":
            if len(vals) != width:
                raise ValueError("%s: `%s` takes %d value%s, got %d" % (
                    what, self._k.describe(p), width, "s" if width > 1 else "", len(vals)))
            if len(data) > p["size"]:
                raise ValueError("%s: %d bytes packed for `%s`, which is %d bytes" % (
                    what, len(data), self._k.describe(p), p["size"]))
            return data.ljust(p["size"], b"\0")
        if len(vals) % width:
            raise ValueError("%s: `%s` takes groups of %d values, got %d" % (
                what, self._k.describe(p), width, len(vals)))
        if width == 3 and not cast:  # Metal's 3-vectors are padded to 4 elements
            es = len(data) // len(vals)
            data = b"".join(data[i * es * 3:(i + 1) * es * 3] + b"\0" * es for i in range(len(vals) // 3))
        return data


def _vector_width(t):
    return int(t[-1]) if t[-1:] in ("2", "3", "4") and not t.startswith("packed_") else 1


def _cast_for(arg_casts, i):
    if arg_casts is None:
        return None
    c = arg_casts if isinstance(arg_casts, str) else arg_casts.get(i)
    if c is None:
        return None
    c = str(c).split(".")[-1]
    if c not in _CASTS:
        raise ValueError("unsupported cast %r (torch's: fp16, bf16, int32, int16, int8, uint8)" % c)
    return _CASTS[c]


def compile_shader(source, verbose=False):
    """torch.mps.compile_shader: translate every kernel of SOURCE (once per source text) and return the library.
    VERBOSE (or env MTL2GLSL_VERBOSE=1) prints each kernel's GLSL; `lib.NAME.glsl` holds it too."""
    return ShaderLibrary(source, verbose=verbose)
