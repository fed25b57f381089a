"""metal_kernel: MLX's mx.fast.metal_kernel.

`k = metal_kernel(name, input_names, output_names, source, header="", ensure_row_contiguous=True,
atomic_outputs=False)`; `k(inputs=[...], template=[...], grid=(...), threadgroup=(...), output_shapes=[...],
output_dtypes=[...], init_value=None, verbose=False)` returns a list of DeviceArrays (data on the device; NumPy
reads them with np.asarray). The signature is MLX's, written by the translator's spec code (docs/specs.md), once
per variant: input dtypes, 0-d and small (< 8 elements) inputs, template arguments and output dtypes.
"""
import os
import sys

import numpy as np

from . import _dtypes, _spec
from ._array import DeviceArray, HostArg, host_data, is_torch
from ._kernel import Kernel, dims3

METAL_MAX_THREADS = 1024


def _poison_env():
    return os.environ.get("MTL2GLSL_POISON", "") not in ("", "0")


def poison(a):
    """Fill device array A with NaN (float dtypes) or 0xA5 bytes, to catch elements a kernel never writes."""
    if a.dtype.kind in "fc" and a.dtype.name != "bfloat16":
        a.write(np.full(a.shape, np.nan, a.dtype.np))
    else:
        a.write(np.full(a.nbytes, 0xA5, np.uint8))


class _Input:
    """One input of a call: bound value, dtype, shape, element strides over the bound data."""

    def __init__(self, x, name, contiguous):
        if isinstance(x, DeviceArray):
            self.value, self.dtype, self.shape = x, x.dtype, x.shape
            self.strides = _row_strides(self.shape)
            return
        if isinstance(x, (bool, int, float)) and not isinstance(x, np.generic):
            x = np.array(x, dtype=np.bool_ if isinstance(x, bool) else np.int32 if isinstance(x, int) else np.float32)
        if not contiguous and isinstance(x, np.ndarray) and not x.flags.c_contiguous and x.ndim and \
                all(s >= 0 and s % x.itemsize == 0 for s in x.strides):
            # ensure_row_contiguous=False: bind the data as stored, with its strides (the kernel reads x_strides)
            span = 1 + sum((n - 1) * s for n, s in zip(x.shape, x.strides)) // x.itemsize if x.size else 0
            stored = np.array(np.lib.stride_tricks.as_strided(x, shape=(span,), strides=(x.itemsize,)))
            self.value = HostArg(stored)
            self.dtype, self.shape = self.value.dtype, x.shape
            self.strides = tuple(s // x.itemsize for s in x.strides)
            return
        self.value = HostArg(x)
        self.dtype, self.shape = self.value.dtype, tuple(np.shape(x)) if not is_torch(x) else tuple(x.shape)
        self.strides = _row_strides(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1


def _row_strides(shape):
    st, acc = [], 1
    for n in reversed(shape):
        st.append(acc)
        acc *= n
    return tuple(reversed(st))


def _template_text(v, stand_in):
    """A template value as the spec takes it and as MLX names it: (spec value, MLX text, real dtype or None)."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v), "true" if v else "false", None
    if isinstance(v, (int, np.integer)):
        return int(v), str(int(v)), None
    d = _dtypes.dtype(v)
    if d.name in _spec.STAND_INS:
        return (_spec.STAND_INS[d.name][0] if stand_in else d.name), _spec.STAND_INS[d.name][1], d.name
    return d.name, d.mlx, None


class MetalKernel:
    """A body-only kernel in MLX's form; call it as MLX's (keyword arguments)."""

    def __init__(self, name, input_names, output_names, source, header="", ensure_row_contiguous=True,
                 atomic_outputs=False):
        self.name = name
        self.input_names = list(input_names)
        self.output_names = list(output_names)
        self.source = source
        self.header = header or ""
        self.ensure_row_contiguous = bool(ensure_row_contiguous)
        self.atomic_outputs = bool(atomic_outputs)
        self._variants = {}

    def __repr__(self):
        return "<mtl2glsl metal_kernel %s>" % self.name

    def __call__(self, inputs, output_shapes, output_dtypes, grid, threadgroup, template=None, init_value=None,
                 verbose=False, stream=None):
        launch, outs = self._prepare(inputs, output_shapes, output_dtypes, grid, threadgroup, template, init_value,
                                     verbose)
        if launch is not None:
            launch[0].launch(*launch[1:])
        return outs

    def time(self, repeat=10, **call):
        """GPU milliseconds of one run of the call CALL (median of REPEAT, device timestamps)."""
        launch, _ = self._prepare(**call)
        return launch[0].launch(*launch[1:], repeat=repeat, timestamps=True).gpu_ms_median

    def _prepare(self, inputs, output_shapes, output_dtypes, grid, threadgroup, template=None, init_value=None,
                 verbose=False, stream=None):
        if len(inputs) != len(self.input_names):
            raise ValueError("metal_kernel %s: %d inputs for %d input_names" % (
                self.name, len(inputs), len(self.input_names)))
        if len(output_shapes) != len(self.output_names) or len(output_dtypes) != len(self.output_names):
            raise ValueError("metal_kernel %s: %d output_names, but %d output_shapes and %d output_dtypes" % (
                self.name, len(self.output_names), len(output_shapes), len(output_dtypes)))
        ins = [_Input(x, n, self.ensure_row_contiguous) for x, n in zip(inputs, self.input_names)]
        out_dtypes = [_dtypes.dtype(d) for d in output_dtypes]
        out_shapes = [tuple(int(n) for n in s) for s in output_shapes]
        targs = list(template.items()) if isinstance(template, dict) else list(template or [])
        key = (tuple((i.dtype.name, len(i.shape) == 0, i.size < 8) for i in ins), tuple(
            (n, _template_text(v, False)[1]) for n, v in targs), tuple(d.name for d in out_dtypes))
        variant = self._variants.get(key)
        if variant is None:
            variant = self._variants[key] = self._build(ins, out_shapes, out_dtypes, targs)
        kernel, built = variant
        if verbose or os.environ.get("MTL2GLSL_VERBOSE", "") not in ("", "0"):
            sys.stderr.write("// ---- %s: Metal ----\n%s\n// ---- %s: GLSL ----\n%s\n" % (
                kernel.entry, kernel.metal, kernel.entry, kernel.glsl))
        values = {}
        for x, idx in zip(ins, built.inputs):
            values[idx["buffer"]] = x.value
            if idx["shape"] >= 0:
                values[idx["shape"]] = np.array(x.shape, np.int32).tobytes()
            if idx["strides"] >= 0:
                values[idx["strides"]] = np.array(x.strides, np.int64).tobytes()
            if idx["ndim"] >= 0:
                values[idx["ndim"]] = np.int32(len(x.shape)).tobytes()
        outs = []
        for shape, d, idx in zip(out_shapes, out_dtypes, built.outputs):
            a = DeviceArray(shape, d, zero=False)
            if init_value is not None:
                a.write(host_data(np.full(shape, init_value), d)[1])
            elif _poison_env():
                poison(a)
            values[idx["buffer"]] = a
            outs.append(a)
        g = dims3(grid, "grid")
        tg = dims3(threadgroup, "threadgroup")
        if tg[0] * tg[1] * tg[2] > METAL_MAX_THREADS:
            raise ValueError("metal_kernel %s: threadgroup %s has %d threads; a Metal threadgroup has at most %d" % (
                self.name, tg, tg[0] * tg[1] * tg[2], METAL_MAX_THREADS))
        tg = tuple(max(1, min(t, n)) for t, n in zip(tg, g))  # MLX clamps the threadgroup to the grid
        return (None if 0 in g else (kernel, values, g, tg)), outs

    def _build(self, ins, out_shapes, out_dtypes, targs):
        """Have the spec code write MLX's source for this variant, translate it, make the pipeline."""
        special = {}
        call_inputs = {}
        for n, x in zip(self.input_names, ins):
            dt = x.dtype.name
            if dt in _spec.STAND_INS:
                special[n], dt = dt, _spec.STAND_INS[dt][0]
            call_inputs[n] = {"dtype": dt, "shape": list(x.shape)}
        out_dt = []
        for n, d in zip(self.output_names, out_dtypes):
            if d.name in _spec.STAND_INS:
                special[n] = d.name
            out_dt.append(_spec.STAND_INS[d.name][0] if d.name in _spec.STAND_INS else d.name)
        tvals = [(n,) + _template_text(v, True) for n, v in targs]
        doc = {"name": self.name, "input_names": self.input_names, "output_names": self.output_names,
               "source": self.source, "header": self.header, "ensure_row_contiguous": self.ensure_row_contiguous,
               "atomic_outputs": self.atomic_outputs,
               "call": {"inputs": call_inputs, "output_shapes": [list(s) for s in out_shapes],
                        "output_dtypes": out_dt, "template": [[n, v] for n, v, _, _ in tvals]}}
        built = _spec.load(doc, self.name)
        src = built.source
        real_name = "custom_kernel_" + self.name + "".join("_" + t for _, _, t, _ in tvals)
        specials_in_template = [(n, real) for n, _, _, real in tvals if real]
        if special or specials_in_template:
            src = _spec.replace_types(src, special, coreai=False)
            for n, real in specials_in_template:
                stand = _spec.STAND_INS[real][0]
                src = _spec.replace_define(src, n, _spec._SPEC_TYPE[stand][0], _spec.STAND_INS[real][1])
            if real_name != built.entry:
                src = src.replace("[[kernel]] void %s(" % built.entry, "[[kernel]] void %s(" % real_name, 1)
                built.entry = real_name
            # complex64_t as a macro, so that complex64_t(re, im) builds a float2 as float2(re, im) does
            src = src.replace("typedef half float16_t;\n",
                              "typedef half float16_t; typedef bfloat bfloat16_t;\n#define complex64_t float2\n", 1)
        entry, glsl, refl = _spec.translated(built, src)
        return Kernel(entry, glsl, refl, src, self.name), built


def metal_kernel(name, input_names, output_names, source, header="", ensure_row_contiguous=True,
                 atomic_outputs=False):
    """mx.fast.metal_kernel: a kernel from a body; the signature is generated per call (MLX's rules)."""
    return MetalKernel(name, input_names, output_names, source, header, ensure_row_contiguous, atomic_outputs)
