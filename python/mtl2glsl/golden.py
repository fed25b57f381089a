"""mtl2glsl.golden: golden test files (docs/golden-tests.md) from Python; `mtltest` runs them.

Recording, on the Mac (Apple's torch or MLX) or on a Linux reference machine (this package):

    from mtl2glsl.golden import Recorder
    rec = Recorder("tests/golden")                       # torch.mps.compile_shader / mlx.core.fast.metal_kernel
    rec = Recorder("tests/golden", backend="mtl2glsl")   # the same calls through this package (Linux)
    lib = rec.compile_shader(src)                        # in place of torch.mps.compile_shader(src)
    lib.axpy(x, y, 2.5)                                  # runs as before, and writes axpy.golden.json + .npy files
    k = rec.metal_kernel(name="myexp", input_names=["inp"], output_names=["out"], source=body)
    out = k(inputs=[a], grid=..., threadgroup=..., output_shapes=..., output_dtypes=...)   # as MLX's

Each call runs the kernel exactly as the script calls it, then writes a test: the kernel (its source inline, or a
kernel spec for metal_kernel), the dispatch, every input as .npy and every output as a golden .npy.

Also: generate() makes the generators' arrays with the same bits as mtltest; write_test() writes a file by hand.
This module needs only NumPy: it imports torch or MLX when a Recorder is made for them.
"""
import json
import os

import numpy as np

FORMAT_VERSION = 1
SUFFIX = ".golden.json"

# ---- dtypes: names as the file writes them; bfloat16 is kept as uint16 bits (NumPy has none) ----

_NP = {"float32": np.float32, "float16": np.float16, "float64": np.float64, "bfloat16": np.uint16, "int8": np.int8,
       "uint8": np.uint8, "int16": np.int16, "uint16": np.uint16, "int32": np.int32, "uint32": np.uint32,
       "int64": np.int64, "uint64": np.uint64, "bool": np.bool_}
_ALIASES = {"float": "float32", "half": "float16", "bfloat": "bfloat16", "bf16": "bfloat16", "fp16": "float16",
            "fp32": "float32", "int": "int32", "uint": "uint32", "char": "int8", "uchar": "uint8", "short": "int16",
            "ushort": "uint16", "long": "int64", "ulong": "uint64", "double": "float64", "bool_": "bool"}


def dtype_name(d):
    """A dtype's name in the file: from a name, a NumPy dtype, a torch or MLX dtype, or this package's Dtype."""
    if isinstance(d, str):
        n = d.split(".")[-1]
    elif type(d).__module__.startswith(("torch", "mlx")) or hasattr(d, "torch_name"):
        n = str(d).split(".")[-1]
    else:
        n = np.dtype(d).name
    n = _ALIASES.get(n, n)
    if n not in _NP:
        raise ValueError("dtype %r has no golden-file name (expected one of %s)" % (d, ", ".join(_NP)))
    return n


def float32_to_bfloat16_bits(a):
    """float32 -> bfloat16 bits (uint16), rounded to nearest even; NaN stays a quiet NaN (as mtltest rounds)."""
    f = np.ascontiguousarray(a, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    bits = ((u + np.uint64(0x7FFF) + ((u >> np.uint64(16)) & np.uint64(1))) >> np.uint64(16)).astype(np.uint16)
    nan = np.isnan(f)
    return np.where(nan, ((u >> np.uint64(16)) | np.uint64(0x40)).astype(np.uint16), bits)


def bfloat16_bits_to_float32(bits):
    b = np.ascontiguousarray(bits, dtype=np.uint16)
    return (b.astype(np.uint32) << np.uint32(16)).view(np.float32)


def from_float64(values, dtype):
    """Values computed in double, stored as DTYPE the way mtltest stores them: floats rounded to nearest even
    (half and bfloat16 through float32), integers truncated toward zero, bool nonzero."""
    v = np.asarray(values, dtype=np.float64)
    d = dtype_name(dtype)
    if d == "bfloat16":
        return float32_to_bfloat16_bits(v.astype(np.float32))
    if d == "float16":
        with np.errstate(over="ignore"):  # beyond half's range: infinity, as mtltest stores it
            return v.astype(np.float32).astype(np.float16)
    if d in ("float32", "float64"):
        return v.astype(_NP[d])
    if d == "bool":
        return v != 0
    return np.trunc(v).astype(_NP[d])


# ---- generators: the same bits as runtime/golden_data.c, on any machine (no libm) ----

_GAMMA, _M1, _M2 = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


def _unit(seed, counters):
    """SplitMix64 output number counter+1 from state SEED, as a double in [0, 1) (53 bits)."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (counters.astype(np.uint64) + np.uint64(1)) * _GAMMA
        z = (z ^ (z >> np.uint64(30))) * _M1
        z = (z ^ (z >> np.uint64(27))) * _M2
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def _uniform_bounds(d, low, high):
    if low is not None:
        return float(low), float(high)
    kind = "f" if d in ("float16", "float32", "float64", "bfloat16") else np.dtype(_NP[d]).kind
    return (-1.0, 1.0) if kind == "f" else (-100.0, 100.0) if kind == "i" else (0.0, 2.0) if kind == "b" \
        else (0.0, 100.0)


def generate(kind, dtype, shape, seed=0, value=0.0, start=0.0, step=1.0, low=None, high=None, mean=0.0, std=1.0):
    """The array mtltest makes for {"generate": KIND, "dtype": DTYPE, "shape": SHAPE, ...} (bfloat16 as uint16
    bits). constant: VALUE; arange: START + i * STEP; uniform: [LOW, HIGH) (integers for integer dtypes);
    normal: MEAN + STD * (sum of 12 uniforms - 6)."""
    d = dtype_name(dtype)
    shape = tuple(int(n) for n in shape)
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.uint64)
    is_float = d in ("float16", "float32", "float64", "bfloat16")
    if kind == "constant":
        v = np.full(n, float(value))
    elif kind == "arange":
        v = float(start) + i.astype(np.float64) * float(step)
    elif kind == "uniform":
        lo, hi = _uniform_bounds(d, low, high)
        u = _unit(seed, i)
        v = lo + (hi - lo) * u if is_float else lo + np.floor((hi - lo) * u)
    elif kind == "normal":
        s = np.zeros(n)
        for k in range(12):  # in this order: the sum is rounded as mtltest rounds it
            s = s + _unit(seed, np.uint64(12) * i + np.uint64(k))
        v = float(mean) + float(std) * (s - 6.0)
    else:
        raise ValueError("unknown generator %r (constant, arange, uniform, normal)" % kind)
    if not is_float and d != "bool":  # the bounds mtltest checks, from the parameters (not the values drawn)
        lo, hi = {"constant": (value, value), "arange": (start, start + max(n - 1, 0) * step),
                  "normal": (mean - 6 * abs(std), mean + 6 * abs(std))}.get(kind, (0, 0))
        if kind == "uniform":
            lo, hi = _uniform_bounds(d, low, high)
            if lo != np.floor(lo) or hi != np.floor(hi):
                raise ValueError("generate(uniform): integers need integer low and high")
            hi -= 1
        info = np.iinfo(_NP[d])
        if min(lo, hi) < info.min or max(lo, hi) > info.max:
            raise ValueError("generate(%s): values from %g to %g do not fit %s" % (kind, lo, hi, d))
    return from_float64(v, d).reshape(shape)


def generator(kind, dtype, shape, **params):
    """The file's entry for a generated buffer: {"generate": KIND, "dtype": ..., "shape": [...], params}."""
    return dict({"generate": kind, "dtype": dtype_name(dtype), "shape": [int(n) for n in shape]}, **params)


# ---- writing a test file ----

def write_test(path, kernel, outputs, buffers=None, dispatch=None, name=None, comment=None):
    """Write test file PATH (…/NAME.golden.json). KERNEL, DISPATCH, BUFFERS and OUTPUTS are the file's objects
    (docs/golden-tests.md); NumPy arrays among BUFFERS' "npy" and OUTPUTS' "golden" values are saved beside the
    file as NAME.KEY.npy / NAME.KEY.golden.npy and replaced by their file names."""
    if not path.endswith(SUFFIX):
        raise ValueError("a test file's name ends in %s: %s" % (SUFFIX, path))
    folder = os.path.dirname(path) or "."
    stem = os.path.basename(path)[:-len(SUFFIX)]
    os.makedirs(folder, exist_ok=True)
    doc = {"mtltest": FORMAT_VERSION}
    if name:
        doc["name"] = name
    if comment:
        doc["comment"] = comment
    doc["kernel"] = kernel
    if dispatch:
        doc["dispatch"] = dispatch
    if buffers:
        doc["buffers"] = {str(k): _saved(folder, stem, k, dict(v), "npy", "") for k, v in buffers.items()}
    doc["outputs"] = {str(k): _saved(folder, stem, k, dict(v), "golden", ".golden") for k, v in outputs.items()}
    with open(path, "w") as f:
        f.write(dumps(doc) + "\n")
    return path


def dumps(obj, indent=0):
    """JSON for people: objects one key a line, lists of numbers and short lists on one line."""
    pad, inner = "  " * indent, "  " * (indent + 1)
    if isinstance(obj, dict) and obj:
        items = ["%s%s: %s" % (inner, json.dumps(str(k)), dumps(v, indent + 1)) for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, (list, tuple)) and obj:
        flat = json.dumps(list(obj))
        if all(not isinstance(v, (dict, list, tuple)) for v in obj) and (len(flat) < 80 or
                                                                        not any(isinstance(v, str) for v in obj)):
            return flat
        return "[\n" + ",\n".join(inner + dumps(v, indent + 1) for v in obj) + "\n" + pad + "]"
    return json.dumps(obj)


def _saved(folder, stem, key, entry, field, suffix):
    a = entry.get(field)
    if isinstance(a, np.ndarray):
        file = "%s.%s%s.npy" % (stem, key, suffix)
        np.save(os.path.join(folder, file), np.ascontiguousarray(a))
        entry[field] = file
    return entry


def _dims(v):
    if isinstance(v, (int, np.integer)):
        return [int(v)]
    return [int(x) for x in v]


def _lines(text):
    return text.split("\n") if "\n" in text else text


# ---- arrays of any of the libraries, as NumPy (bfloat16 as bits) and back ----

def _module(x):
    return type(x).__module__.split(".")[0]


def to_numpy(x):
    """(NumPy copy, dtype name) of a torch tensor, an MLX array, this package's DeviceArray or a NumPy array;
    bfloat16 data as uint16 bits."""
    if _module(x) == "torch":
        t = x.detach().cpu()
        d = dtype_name(t.dtype)
        if d == "bfloat16":
            import torch
            return t.contiguous().view(torch.int16).numpy().view(np.uint16).copy(), d
        return t.contiguous().numpy().copy(), d
    if _module(x) == "mlx":
        d = dtype_name(x.dtype)
        if d == "bfloat16":
            import mlx.core as mx
            return np.array(x.view(mx.uint16)), d
        return np.array(x), d
    if hasattr(x, "numpy") and hasattr(x, "dtype") and hasattr(x.dtype, "torch_name"):  # mtl2glsl.DeviceArray
        return x.numpy(raw=True).copy(), x.dtype.name
    a = np.array(x)
    return a, dtype_name(a.dtype)


def _like(x, data):
    """A new array of X's kind (library, device, dtype) holding DATA (bits for bfloat16)."""
    if _module(x) == "torch":
        import torch
        t = torch.from_numpy(np.ascontiguousarray(data).copy())
        if x.dtype == torch.bfloat16:
            t = torch.from_numpy(np.ascontiguousarray(data).view(np.int16).copy()).view(torch.bfloat16)
        return t.reshape(x.shape).to(x.device)
    if hasattr(x, "dtype") and hasattr(x.dtype, "torch_name"):  # DeviceArray
        from . import _array
        out = _array.DeviceArray(x.shape, x.dtype, zero=False)
        out.write(np.ascontiguousarray(data))
        return out
    return np.ascontiguousarray(data).reshape(np.shape(x)).copy()


def poison_like(a, d):
    """NaN (floats, bfloat16 included) or 0xA5 bytes, as mtltest poisons an output before a run."""
    if d == "bfloat16":
        return np.full(a.shape, 0x7FC1, np.uint16)
    if d in ("float16", "float32", "float64"):
        return np.full(a.shape, np.nan, a.dtype)
    return np.frombuffer(b"\xa5" * a.nbytes, a.dtype).reshape(a.shape).copy()


def _is_array(x):
    return isinstance(x, np.ndarray) or _module(x) in ("torch", "mlx") and hasattr(x, "shape") or \
        (hasattr(x, "dtype") and hasattr(getattr(x, "dtype"), "torch_name"))


def _same(a, b):
    """Bit-for-bit equal, any NaN matching any NaN."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype.kind == "f":
        return bool(np.all((a == b) | (np.isnan(a) & np.isnan(b))))
    return a.tobytes() == b.tobytes()


class RecordingError(RuntimeError):
    """A recording cannot be made as asked (an argument declared a pure output is read by the kernel, ...)."""


class Recorder:
    """Writes a golden test for every kernel call made through it (module docstring).

    backend: "apple" (default: torch.mps.compile_shader and mlx.core.fast.metal_kernel, imported on first use) or
    "mtl2glsl" (this package's compile_shader and metal_kernel, for goldens made on a Linux reference machine).
    compile_shader / metal_kernel: functions to use instead (a stand-in, in tests)."""

    def __init__(self, directory, backend="apple", compile_shader=None, metal_kernel=None):
        if backend not in ("apple", "mtl2glsl"):
            raise ValueError("backend is 'apple' (torch.mps / MLX) or 'mtl2glsl'")
        self.directory = directory
        self.backend = backend
        self._compile_shader = compile_shader
        self._metal_kernel = metal_kernel
        self._settings = {}
        self._names = set()
        self.written = []  # paths of the test files written

    def expect(self, kernel, name=None, outputs=None, tolerance=None, unordered=()):
        """Settings for the calls of KERNEL (a compile_shader kernel's name, or a metal_kernel's name):
        NAME: the test's name (calls after the first get _2, _3, ...);
        OUTPUTS: compile_shader arguments (positions) the kernel only writes: recorded without data, so mtltest
        poisons them; checked here by running the kernel again with them poisoned;
        TOLERANCE: {key: "exact" | {"rtol": R, "atol": A} | {"ulp": N}}, or one for every output;
        UNORDERED: keys of outputs compared as multisets (their order is decided by atomics)."""
        self._settings[kernel] = {"name": name, "outputs": [int(i) for i in outputs or ()], "tolerance": tolerance,
                                  "unordered": [str(k) for k in unordered]}

    # -- the two conventions --

    def compile_shader(self, source, source_path=None, **kwargs):
        """torch.mps.compile_shader(source): a library whose kernel calls are recorded. SOURCE_PATH: the .metal
        file the test names (relative to the tests' folder) instead of holding the source inline."""
        fn = self._compile_shader
        if fn is None:
            if self.backend == "mtl2glsl":
                from . import _compile
                fn = _compile.compile_shader
            else:
                import torch.mps
                fn = torch.mps.compile_shader
        return _RecordingLibrary(self, fn(source, **kwargs), source, source_path)

    def metal_kernel(self, name, input_names, output_names, source, header="", ensure_row_contiguous=True,
                     atomic_outputs=False, **kwargs):
        """mx.fast.metal_kernel(...): a kernel whose calls are recorded (each with a kernel spec)."""
        fn = self._metal_kernel
        if fn is None:
            if self.backend == "mtl2glsl":
                from . import _mlx
                fn = _mlx.metal_kernel
            else:
                import mlx.core as mx
                fn = mx.fast.metal_kernel
        real = fn(name=name, input_names=input_names, output_names=output_names, source=source, header=header,
                  ensure_row_contiguous=ensure_row_contiguous, atomic_outputs=atomic_outputs, **kwargs)
        desc = {"name": name, "input_names": list(input_names), "output_names": list(output_names),
                "source": _lines(source), "header": _lines(header or ""),
                "ensure_row_contiguous": bool(ensure_row_contiguous), "atomic_outputs": bool(atomic_outputs)}
        return _RecordingMetalKernel(self, real, desc)

    # -- shared --

    def _test_name(self, kernel):
        base = self._settings.get(kernel, {}).get("name") or kernel
        name, n = base, 1
        while name in self._names:
            n += 1
            name = "%s_%d" % (base, n)
        self._names.add(name)
        return name

    def _output_settings(self, kernel, key):
        s = self._settings.get(kernel, {})
        entry = {}
        tol = s.get("tolerance")
        if isinstance(tol, dict) and not ({"rtol", "atol", "ulp"} & set(tol)):
            tol = tol.get(key, tol.get(int(key)) if key.isdigit() else None)
        if tol is not None:
            entry["tolerance"] = tol
        if key in s.get("unordered", ()):
            entry["unordered"] = True
        return entry

    def _write(self, name, **doc):
        path = write_test(os.path.join(self.directory, name + SUFFIX), **doc)
        self.written.append(path)
        return path


class _RecordingLibrary:
    """A compile_shader library whose kernels are recorded when called."""

    def __init__(self, rec, lib, source, source_path):
        self._rec, self._lib, self._source, self._source_path = rec, lib, source, source_path

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return _RecordingFunction(self, name, getattr(self._lib, name))

    def __dir__(self):
        return dir(self._lib)


class _RecordingFunction:
    """lib.NAME: called as torch's (positional arguments, threads=, group_size=, arg_casts=)."""

    def __init__(self, owner, name, fn):
        self._owner, self.name, self._fn = owner, name, fn

    def __getattr__(self, attr):
        return getattr(self._fn, attr)

    def __call__(self, *args, threads=None, group_size=None, arg_casts=None, **kwargs):
        rec = self._owner._rec
        before = [to_numpy(a) if _is_array(a) else None for a in args]
        call = dict(kwargs)
        if threads is not None:
            call["threads"] = threads
        if group_size is not None:
            call["group_size"] = group_size
        if arg_casts is not None:
            call["arg_casts"] = arg_casts
        result = self._fn(*args, **call)
        after = [to_numpy(a) if _is_array(a) else None for a in args]
        settings = rec._settings.get(self.name, {})
        pure = settings.get("outputs", [])
        for i in pure:
            if i >= len(args) or before[i] is None:
                raise RecordingError("kernel %s: outputs=[%d]: argument %d is no tensor" % (self.name, i, i))
        if pure:
            self._check_pure(args, call, before, after, pure)
        self._record(args, before, after, pure, threads, group_size, arg_casts, settings)
        return result

    def _check_pure(self, args, call, before, after, pure):
        """Run again with the declared outputs poisoned and the other arrays as they were before the call: a pure
        output comes out the same."""
        again = [_like(a, poison_like(*before[i]) if i in pure else before[i][0]) if before[i] is not None else a
                 for i, a in enumerate(args)]
        self._fn(*again, **call)
        for i in pure:
            got, _ = to_numpy(again[i])
            if not _same(got, after[i][0]):
                raise RecordingError(
                    "kernel %s: argument %d is not a pure output: run again with it poisoned first, the kernel gave "
                    "other values (it reads it, or leaves elements unwritten); leave it out of expect(outputs=...) "
                    "to record it with its data" % (self.name, i))

    def _record(self, args, before, after, pure, threads, group_size, arg_casts, settings):
        rec = self._owner._rec
        buffers, outputs = {}, {}
        first = next((b for b in before if b is not None), None)
        for i, a in enumerate(args):
            key = str(i)
            if before[i] is not None:
                data, d = before[i]
                entry = {"dtype": d} if d == "bfloat16" else {}
                if i in pure:
                    entry = {"dtype": d, "shape": list(data.shape)}
                else:
                    entry["npy"] = data
                buffers[key] = entry
                if i in pure or not _same(after[i][0], data):
                    out = {"golden": after[i][0]}
                    if d == "bfloat16":
                        out["dtype"] = d
                    out.update(rec._output_settings(self.name, key))
                    outputs[key] = out
            elif isinstance(a, (bytes, bytearray, memoryview)):
                file = "%s.%s.bin" % (self.name, key)
                buffers[key] = {"bytes": file, "_data": bytes(a)}
            else:
                v = a.tolist() if isinstance(a, np.ndarray) else list(a) if isinstance(a, (list, tuple)) else a
                entry = {"value": v.item() if isinstance(v, np.generic) else v}
                cast = _cast_of(arg_casts, i)
                if cast:
                    entry["dtype"] = cast
                buffers[key] = entry
        if not outputs:
            raise RecordingError("kernel %s: the call changed none of its tensor arguments: nothing to record as "
                                 "an output" % self.name)
        if threads is None:
            if first is None:
                raise RecordingError("kernel %s: no threads and no tensor argument" % self.name)
            threads = int(first[0].size)
        grid = _dims(threads)
        if group_size is None:  # torch's default
            mt = int(getattr(self._fn, "max_threads_per_threadgroup", 1024))
            tg = [min(grid[0], mt)] if len(grid) == 1 else [mt, 1, 1]
        else:
            tg = _dims(group_size)
        name = rec._test_name(self.name)
        kernel = {"entry": self.name}
        if self._owner._source_path:
            kernel = {"source": self._owner._source_path, "entry": self.name}
        else:
            kernel = {"text": _lines(self._owner._source), "entry": self.name}
        for key, b in buffers.items():
            data = b.pop("_data", None)
            if data is not None:
                b["bytes"] = "%s.%s.bin" % (name, key)
                os.makedirs(rec.directory, exist_ok=True)
                with open(os.path.join(rec.directory, b["bytes"]), "wb") as f:
                    f.write(data)
        rec._write(name, kernel=kernel, dispatch={"threads": grid, "threadgroup": tg}, buffers=buffers,
                   outputs=outputs, comment="recorded by mtl2glsl.golden (%s backend)" % rec.backend)


_CASTS = {"fp16": "float16", "bf16": "bfloat16", "fp32": "float32"}


def _cast_of(arg_casts, i):
    if arg_casts is None:
        return None
    c = arg_casts if isinstance(arg_casts, str) else arg_casts.get(i)
    if c is None:
        return None
    c = str(c).split(".")[-1]
    return dtype_name(_CASTS.get(c, c))


def _template_value(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    return dtype_name(v)


class _RecordingMetalKernel:
    """An MLX metal_kernel whose calls are recorded: a kernel spec (docs/specs.md) and a test per call."""

    def __init__(self, rec, real, desc):
        self._rec, self._real, self._desc = rec, real, desc

    def __call__(self, inputs, output_shapes, output_dtypes, grid, threadgroup, template=None, init_value=None,
                 **kwargs):
        rec = self._rec
        name_k = self._desc["name"]
        ins = [to_numpy(x) if _is_array(x) else to_numpy(np.array(x, dtype=np.float32 if isinstance(x, float) else
                                                                   np.bool_ if isinstance(x, bool) else np.int32))
               for x in inputs]
        outs = self._real(inputs=inputs, output_shapes=output_shapes, output_dtypes=output_dtypes, grid=grid,
                          threadgroup=threadgroup, template=template, init_value=init_value, **kwargs)
        got = [to_numpy(o) for o in outs]
        name = rec._test_name(name_k)
        targs = list(template.items()) if isinstance(template, dict) else list(template or [])
        spec = dict(self._desc)
        spec["call"] = {
            "inputs": {n: {"dtype": d, "shape": list(a.shape)} for n, (a, d) in zip(self._desc["input_names"], ins)},
            "template": [[n, _template_value(v)] for n, v in targs],
            "output_shapes": [[int(x) for x in s] for s in output_shapes],
            "output_dtypes": [dtype_name(d) for d in output_dtypes],
            "grid": _dims(grid), "threadgroup": _dims(threadgroup), "init_value": init_value}
        os.makedirs(rec.directory, exist_ok=True)
        spec_file = name + ".spec.json"
        with open(os.path.join(rec.directory, spec_file), "w") as f:
            f.write(dumps(spec) + "\n")
        buffers = {n: {"npy": a} for n, (a, d) in zip(self._desc["input_names"], ins)}
        outputs = {}
        for n, (a, d) in zip(self._desc["output_names"], got):
            outputs[n] = dict({"golden": a}, **({"dtype": d} if d == "bfloat16" else {}))
            outputs[n].update(rec._output_settings(name_k, n))
        rec._write(name, kernel={"spec": spec_file}, buffers=buffers, outputs=outputs,
                   comment="recorded by mtl2glsl.golden (%s backend)" % rec.backend)
        return outs
