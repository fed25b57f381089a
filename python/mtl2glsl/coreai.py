"""coreai_torch's TorchMetalKernel and MetalParameter (`from mtl2glsl.coreai import TorchMetalKernel,
MetalParameter` in place of `from coreai_torch import ...`).

`k = TorchMetalKernel(name, input_names, result_names, src, torch_defn, metal_params=[...], helper_src=None,
template_dtypes=None)`; `k(*tensors, threads_per_grid=(x, y, z), threads_per_thread_group=(x, y, z),
result_shapes=[...])` returns torch tensors (one, or a tuple). Result dtypes come from running torch_defn on meta
tensors (shapes and dtypes only), else from `result_dtypes=`, else the first input's. The signature, `A.get_extent(i)`
and `A[i, j]` are the translator's spec code (docs/specs.md, Core AI form).
"""
import os
import sys

import numpy as np

from . import _dtypes, _spec
from ._array import DeviceArray, HostArg, is_torch
from ._kernel import Kernel, dims3

try:
    import torch as _torch
except ImportError:  # pragma: no cover
    _torch = None


class MetalParameter:
    """A Metal thread attribute bound in the generated signature: MetalParameter("id", "uint",
    "thread_position_in_grid")."""

    def __init__(self, name, type, attribute):
        self.name, self.type, self.attribute = name, type, attribute

    def __repr__(self):
        return "MetalParameter(%r, %r, %r)" % (self.name, self.type, self.attribute)


class TorchMetalKernel:
    """A body-only Metal kernel callable as a PyTorch op (eager, on the Vulkan device)."""

    def __init__(self, name, input_names, result_names, src, torch_defn=None, metal_params=None, helper_src=None,
                 template_dtypes=None):
        self.name = name
        self.input_names = list(input_names)
        self.result_names = list(result_names)
        self.src = src
        self.torch_defn = torch_defn
        self.metal_params = list(metal_params or [])
        self.helper_src = helper_src or ""
        self.template_dtypes = dict(template_dtypes or {})
        self._variants = {}
        self._result_dtypes = {}

    def __repr__(self):
        return "<mtl2glsl TorchMetalKernel %s>" % self.name

    def __call__(self, *args, threads_per_grid, threads_per_thread_group, result_shapes, result_dtypes=None,
                 verbose=False):
        kernel, values, outs, g, tg = self._prepare(args, threads_per_grid, threads_per_thread_group,
                                                    result_shapes, result_dtypes, verbose)
        if 0 not in g:
            kernel.launch(values, g, tg)
        res = [o.torch() for o in outs]
        if len(res) == 1:
            return res[0]
        return list(res) if isinstance(self._last_kind, list) else tuple(res)

    def time(self, *args, threads_per_grid, threads_per_thread_group, result_shapes, result_dtypes=None, repeat=10):
        """GPU milliseconds of one run (median of REPEAT, device timestamps)."""
        kernel, values, _, g, tg = self._prepare(args, threads_per_grid, threads_per_thread_group, result_shapes,
                                                 result_dtypes, False)
        return kernel.launch(values, g, tg, repeat=repeat, timestamps=True).gpu_ms_median

    def _inputs(self, args):
        if len(args) != len(self.input_names):
            raise TypeError("TorchMetalKernel %s: %d arguments for input_names %s" % (
                self.name, len(args), self.input_names))
        vals = []
        for a, n in zip(args, self.input_names):
            if isinstance(a, (bool, int, float)):
                a = np.array(a, dtype=np.bool_ if isinstance(a, bool) else np.int32 if isinstance(a, int)
                             else np.float32)
            vals.append(a if isinstance(a, DeviceArray) else HostArg(a))
        return vals

    def _dtypes_of_results(self, args, ins, result_shapes, result_dtypes):
        if result_dtypes is not None:
            return [_dtypes.dtype(d) for d in result_dtypes], None
        key = tuple(v.dtype.name for v in ins)
        if key in self._result_dtypes:
            return self._result_dtypes[key]
        found, kind = None, None
        if self.torch_defn is not None and _torch is not None:
            meta = []
            for a, v in zip(args, ins):
                if is_torch(a):
                    meta.append(_torch.empty(a.shape, dtype=a.dtype, device="meta"))
                elif isinstance(a, (bool, int, float)):
                    meta.append(a)
                else:
                    meta.append(_torch.empty(v.shape, dtype=getattr(_torch, v.dtype.torch_name), device="meta"))
            try:
                r = self.torch_defn(*meta)
            except Exception:  # an op without a meta kernel: run it on zeros instead
                r = self.torch_defn(*[_torch.zeros(m.shape, dtype=m.dtype) if is_torch(m) else m for m in meta])
            kind = r
            rs = list(r) if isinstance(r, (tuple, list)) else [r]
            found = [_dtypes.dtype(t.dtype) for t in rs]
        if found is None:
            first = ins[0].dtype if ins else _dtypes.float32
            found = [first] * len(self.result_names)
        if len(found) != len(self.result_names):
            raise ValueError("TorchMetalKernel %s: torch_defn gives %d results for result_names %s" % (
                self.name, len(found), self.result_names))
        self._result_dtypes[key] = (found, kind)
        return found, kind

    def _prepare(self, args, grid, threadgroup, result_shapes, result_dtypes, verbose):
        ins = self._inputs(args)
        if len(result_shapes) != len(self.result_names):
            raise ValueError("TorchMetalKernel %s: %d result_shapes for result_names %s" % (
                self.name, len(result_shapes), self.result_names))
        res_dtypes, kind = self._dtypes_of_results(args, ins, result_shapes, result_dtypes)
        self._last_kind = kind
        key = (tuple(v.dtype.name for v in ins), tuple(d.name for d in res_dtypes))
        if key not in self._variants:
            self._variants[key] = self._build(ins, result_shapes, res_dtypes)
        kernel, built = self._variants[key]
        if verbose or os.environ.get("MTL2GLSL_VERBOSE", "") not in ("", "0"):
            sys.stderr.write("// ---- %s: Metal ----\n%s\n// ---- %s: GLSL ----\n%s\n" % (
                kernel.entry, kernel.metal, kernel.entry, kernel.glsl))
        values, outs = {}, []
        for v, idx in zip(ins, built.inputs):
            values[idx["buffer"]] = v
            if idx["extents"] >= 0:
                values[idx["extents"]] = np.array(v.shape[::-1], np.uint32).tobytes()
        from ._mlx import _poison_env, poison
        for shape, d, idx in zip(result_shapes, res_dtypes, built.outputs):
            o = DeviceArray(tuple(shape), d, zero=False)
            if _poison_env():
                poison(o)
            values[idx["buffer"]] = o
            if idx["extents"] >= 0:
                values[idx["extents"]] = np.array(o.shape[::-1], np.uint32).tobytes()
            outs.append(o)
        g = dims3(grid, "threads_per_grid")
        tg = dims3(threadgroup, "threads_per_thread_group")
        return kernel, values, outs, g, tg

    def _build(self, ins, result_shapes, res_dtypes):
        special = {}
        inputs = {}
        for n, v in zip(self.input_names, ins):
            dt = v.dtype.name
            if dt in _spec.STAND_INS:
                special[n], dt = dt, _spec.STAND_INS[dt][0]
            inputs[n] = {"dtype": dt, "shape": list(v.shape)}
        rdt = []
        for n, d in zip(self.result_names, res_dtypes):
            if d.name in _spec.STAND_INS:
                special[n] = d.name
            rdt.append(_spec.STAND_INS[d.name][0] if d.name in _spec.STAND_INS else d.name)
        doc = {"name": self.name, "input_names": self.input_names, "result_names": self.result_names,
               "src": self.src, "metal_params": [[p.name, p.type, p.attribute] for p in self.metal_params],
               "call": {"inputs": inputs, "result_shapes": [list(s) for s in result_shapes], "result_dtypes": rdt}}
        if self.template_dtypes:
            doc["template_dtypes"] = self.template_dtypes
        built = _spec.load(doc, self.name)
        src = built.source
        if special:
            src = _spec.replace_types(src, special, coreai=True)
            for tensor, placeholder in self.template_dtypes.items():
                if tensor in special:
                    stand = _spec.STAND_INS[special[tensor]][0]
                    src = _spec.replace_define(src, placeholder, _spec._SPEC_TYPE[stand][1],
                                               _spec.STAND_INS[special[tensor]][2])
        if self.helper_src:
            mark = '#line 1 "%s(signature)"\n' % _spec._quoted(self.name)
            src = src.replace(mark, '#line 1 "%s(helper_src)"\n%s\n%s' % (
                _spec._quoted(self.name), self.helper_src, mark), 1)
            built.sources.append([self.name + "(helper_src)", self.helper_src])
        entry, glsl, refl = _spec.translated(built, src)
        return Kernel(entry, glsl, refl, src, self.name), built
