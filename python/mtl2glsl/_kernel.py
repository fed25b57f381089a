"""One translated kernel on the device: its pipeline, its reflection (docs/interfaces.md), and a launch that binds
device arrays, host arrays (staged through pooled buffers and written back when the kernel writes them) and
packed scalars, then dispatches with Metal's semantics through mtlrt_dispatch (which waits for the GPU)."""
import ctypes
import json

import numpy as np

from . import _dtypes
from ._array import DeviceArray, HostArg, pool as _pool
from ._lib import MTLRT_DISPATCH_THREADS, MtlrtDispatch, MtlrtDispatchStats, rt, runtime

METAL_MAX_THREADS = 1024   # Metal's maxTotalThreadsPerThreadgroup
SIMD_WIDTH = 32            # Metal's threadExecutionWidth on Apple GPUs (translated SIMD-groups are 32 wide)

# Metal scalar of a reflection "scalar" -> the dtypes whose data a parameter accepts. Integers also take the other
# signedness of the same size (torch has no uint32: scripts pass int32 tensors to `device uint*`).
_ACCEPTS = {
    "float": ("float32", "complex64"), "half": ("float16",), "bfloat": ("bfloat16", "uint16", "int16"),
    "double": (), "bool": ("bool", "uint8", "int8"),
    "char": ("int8", "uint8", "bool"), "uchar": ("uint8", "int8", "bool"), "short": ("int16", "uint16"),
    "ushort": ("uint16", "int16"), "int": ("int32", "uint32"), "uint": ("uint32", "int32"),
    "long": ("int64", "uint64"), "ulong": ("uint64", "int64"),
}
# Metal scalar -> NumPy dtype used to pack Python numbers (bfloat: float32 rounded to bfloat16 bits).
_SCALAR_NP = {"float": np.float32, "half": np.float16, "bfloat": "bfloat16", "bool": np.bool_, "char": np.int8,
              "uchar": np.uint8, "short": np.int16, "ushort": np.uint16, "int": np.int32, "uint": np.uint32,
              "long": np.int64, "ulong": np.uint64}


def pack_values(values, scalar, what):
    """Python numbers -> bytes of Metal scalar type SCALAR ('float', 'half', 'bfloat', 'uint', ...)."""
    t = _SCALAR_NP.get(scalar)
    if t is None:
        raise TypeError("%s: a Python number cannot be packed as Metal %s" % (what, scalar))
    if t == "bfloat16":
        return _dtypes.float32_to_bfloat16_bits(np.array(values, dtype=np.float32)).tobytes()
    if np.dtype(t).kind in "iu":
        info = np.iinfo(t)
        for v in values:
            if isinstance(v, (float, np.floating)) and not float(v).is_integer():
                raise TypeError("%s: %r is not an integer; the parameter is Metal %s" % (what, v, scalar))
            if not info.min <= int(v) <= info.max:
                raise OverflowError("%s: %d does not fit Metal %s" % (what, int(v), scalar))
    try:
        return np.array(values, dtype=t).tobytes()
    except (ValueError, TypeError) as e:
        raise type(e)("%s: %s" % (what, e)) from None


class Kernel:
    """A translated entry point: GLSL, reflection and the Vulkan pipeline (created once, cached by the caller)."""

    def __init__(self, entry, glsl, reflect_json, metal=None, source_name="kernel"):
        self.entry, self.glsl, self.metal = entry, glsl, metal
        self.reflection = json.loads(reflect_json)
        r = self._rt = runtime()
        name = ("%s:%s.comp" % (source_name, entry)).encode()
        self._pipe = None
        self._refl = rt.mtlrt_reflection_parse(reflect_json.encode(), entry.encode(), name)
        if not self._refl:
            raise r.error("the reflection of kernel %s does not parse" % entry)
        self._pipe = rt.mtlrt_pipeline_create(r.ctx, glsl.encode(), name, self._refl)
        if not self._pipe:
            raise r.error("kernel %s cannot run on %s" % (entry, r.device_name))
        refl = self.reflection
        self.params = sorted(refl["buffers"], key=lambda p: p["index"])
        self.by_index = {p["index"]: p for p in self.params}
        self.n_bindings = 1 + max([p["binding"] for p in self.params if p["kind"] == "storage"], default=0)
        self.push_size = max(16, refl.get("push_constant_size") or 16)
        self.max_threads_per_threadgroup = min(METAL_MAX_THREADS,
                                               refl.get("max_total_threads_per_threadgroup") or METAL_MAX_THREADS)
        self.thread_execution_width = SIMD_WIDTH
        self.static_thread_group_memory_length = refl.get("threadgroup_memory") or 0
        self.threadgroup_buffers = refl.get("threadgroup_buffers") or []
        self._binding_type = ctypes.c_void_p * self.n_bindings

    def __del__(self):
        if getattr(self, "_pipe", None):
            rt.mtlrt_pipeline_destroy(self._pipe)
        if getattr(self, "_refl", None):
            rt.mtlrt_reflection_destroy(self._refl)

    def describe(self, p):
        """`device float* x` for messages."""
        const = "" if p["access"] != "read" or p["address_space"] == "constant" else "const "
        ref = "*" if p["pointer"] else "&"
        return "%s%s %s%s %s" % (const, p["address_space"], p["type"], ref, p["name"])

    def check_array(self, p, dt, nbytes, what):
        """Array data of dtype DT (NBYTES long) may back parameter P."""
        scalar = p["scalar"]
        if scalar not in ("struct", "void") and dt.name not in _ACCEPTS.get(scalar, ()):
            raise TypeError("%s: expected %s data for `%s`, got %s" % (
                what, " or ".join(_ACCEPTS.get(scalar, ("no array",))[:1] or ("no array",)), self.describe(p), dt))
        es = p["element_size"]
        if p["kind"] == "push_constant":
            if nbytes != p["size"]:
                raise ValueError("%s: `%s` is %d bytes of push constants, got %d bytes (%s)" % (
                    what, self.describe(p), p["size"], nbytes, dt))
        elif es and nbytes % es:
            raise ValueError("%s: `%s` has %d-byte elements, but the array holds %d bytes (%s), not a multiple" % (
                what, self.describe(p), es, nbytes, dt))

    def launch(self, values, grid, threadgroup, style=MTLRT_DISPATCH_THREADS, threadgroup_memory=None, repeat=0,
               timestamps=False):
        """Bind VALUES {buffer index: DeviceArray | HostArg | bytes} and dispatch. Host arrays the kernel writes
        are written back. Returns MtlrtDispatchStats."""
        bindings = self._binding_type()
        push = ctypes.create_string_buffer(self.push_size)
        staged, taken, by_obj = [], [], {}
        try:
            for p in self.params:
                v = values.get(p["index"])
                if v is None and p.get("function_constant"):
                    continue  # exists only under a function constant: the runtime binds a placeholder if it is false
                if v is None:
                    raise TypeError("buffer %d (%s) of kernel %s is not given" % (p["index"], p["name"], self.entry))
                if p["kind"] == "push_constant":
                    if isinstance(v, DeviceArray):
                        v = v.numpy(raw=True).tobytes()
                    elif isinstance(v, HostArg):
                        v = v.data.tobytes()
                    ctypes.memmove(ctypes.addressof(push) + p["offset"], v, min(len(v), p["size"]))
                    continue
                if isinstance(v, DeviceArray):
                    bindings[p["binding"]] = v.buffer
                    continue
                key = id(v.obj) if isinstance(v, HostArg) else None
                if key is not None and key in by_obj:
                    bindings[p["binding"]] = by_obj[key]
                    if p["access"] != "read":
                        staged.append((v, by_obj[key]))
                    continue
                data = v.data if isinstance(v, HostArg) else np.frombuffer(v, np.uint8)
                nbytes = data.nbytes
                buf = _pool.take(nbytes)
                taken.append((nbytes, buf))
                if nbytes and not rt.mtlrt_buffer_write(buf, data.ctypes.data, nbytes):
                    raise self._rt.error("buffer write failed")
                bindings[p["binding"]] = buf
                if key is not None:
                    by_obj[key] = buf
                    if p["access"] != "read":
                        staged.append((v, buf))
            d = MtlrtDispatch(style=style, bindings=ctypes.cast(bindings, ctypes.POINTER(ctypes.c_void_p)),
                              n_bindings=self.n_bindings, push_data=ctypes.addressof(push), push_size=self.push_size,
                              repeat=repeat, timestamps=timestamps)
            d.size[:] = [int(x) for x in grid]
            d.threadgroup[:] = [int(x) for x in threadgroup]
            for n, b in (threadgroup_memory or {}).items():
                d.threadgroup_memory[int(n)] = int(b)
            stats = MtlrtDispatchStats()
            with self._rt.lock:
                ok = rt.mtlrt_dispatch(self._pipe, ctypes.byref(d), ctypes.byref(stats))
            if not ok:
                raise self._rt.error("kernel %s: dispatch failed" % self.entry)
            for host, buf in staged:
                host.write_back(buf, host.data.nbytes)
            return stats
        finally:
            for nbytes, buf in taken:
                _pool.give(nbytes, buf)


def dims3(v, what, default=1):
    """An int or a sequence of 1..3 ints -> a 3-tuple (missing dimensions DEFAULT)."""
    if isinstance(v, (int, np.integer)):
        v = (int(v),)
    v = tuple(int(x) for x in v)
    if not 1 <= len(v) <= 3:
        raise ValueError("%s: expected 1 to 3 dimensions, got %d" % (what, len(v)))
    if any(x < 0 for x in v):
        raise ValueError("%s: %s has a negative size" % (what, v))
    return v + (default,) * (3 - len(v))
