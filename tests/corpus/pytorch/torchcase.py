"""Shared parts of the PyTorch execution cases (tests/corpus/pytorch/*.py): where the kernels are, the launch
arithmetic of PyTorch's MPS host code (aten/src/ATen/native/mps/OperationUtils.h and .mm) that several kernels
share, and dtype names.

Each script describes cases of one kernel file (aten/src/ATen/native/mps/kernels/FILE.metal) as its host code
launches them, with NumPy references; tests/corpus/run_pytorch_exec.py runs them. MTL2GLSL_PYTORCH_DIR names the
folder with PyTorch's kernels and c10/metal headers (docs/corpus.md lists the file versions it holds).
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "ref"))
from refcase import Bytes, InOut, Out, Reference, Scalar, from_bf16, rng, to_bf16  # noqa: E402,F401

ROOT = os.environ.get("MTL2GLSL_PYTORCH_DIR", "")
KERNELS = os.path.join(ROOT, "aten", "src", "ATen", "native", "mps", "kernels")

# scalarToMetalTypeString: the type names in kernel names; bfloat16 buffers hold uint16 bits ("bf16")
MTYPE = {np.float32: "float", np.float16: "half", "bf16": "bfloat", np.int32: "int", np.int64: "long",
         np.int16: "short", np.int8: "char", np.uint8: "uchar", np.bool_: "bool"}
# c10::ScalarType codes (c10/metal/common.h), for the cast kernels' sizes_types
SCALAR_TYPE = {np.uint8: 0, np.int8: 1, np.int16: 2, np.int32: 3, np.int64: 4, np.float16: 5, np.float32: 6,
               np.bool_: 11, "bf16": 15}

# Apple GPUs' maxTotalThreadsPerThreadgroup for these kernels (no large threadgroup arrays): 1024
MAX_THREADS = 1024

F32 = {"rtol": 1e-5, "atol": 1e-6}
F32_TRANSCENDENTAL = {"rtol": 2e-5, "atol": 2e-6}
F16 = {"rtol": 2e-3, "atol": 1e-3}
BF16 = {"rtol": 1.6e-2, "atol": 1e-2}
EXACT = {"rtol": 0, "atol": 0}


def reference(kernel_file):
    """The Reference of PyTorch's aten/src/ATen/native/mps/kernels/KERNEL_FILE."""
    return Reference(os.path.join(KERNELS, kernel_file))


def dispatch_1d(length):
    """mtl_dispatch1DJob: LENGTH threads (dispatchThreads) in groups of min(maxTotalThreadsPerThreadgroup, LENGTH).
    Returns the case's threadgroup and grid keyword arguments."""
    return {"threadgroup": min(MAX_THREADS, length), "grid": length}


def itemsize(dt):
    return 2 if dt == "bf16" else np.dtype(dt).itemsize


def as_dtype(a, dt):
    """A NumPy array of values in the buffer's dtype: bfloat16 ("bf16") as its uint16 bits."""
    if dt == "bf16":
        return to_bf16(np.asarray(a, dtype=np.float32))
    return np.asarray(a).astype(dt)


def values(a, dt):
    """The float64 values a buffer of dtype DT holds (what the kernel reads)."""
    if dt == "bf16":
        return from_bf16(a).astype(np.float64)
    return np.asarray(a).astype(np.float64)


def tol(dt, transcendental=False):
    if dt == "bf16":
        return BF16
    if dt == np.float16:
        return F16
    if dt == np.float32:
        return F32_TRANSCENDENTAL if transcendental else F32
    return EXACT


def out(expected, dt, transcendental=False):
    """The Out of an expected result in dtype DT, with the dtype's tolerance."""
    return Out(as_dtype(expected, dt), tol=tol(dt, transcendental), bf16=dt == "bf16")


def longs(v):
    """A `constant long*` array argument (mtl_setArgs of an IntArrayRef: its int64 values)."""
    return np.asarray(v, dtype=np.int64)


def uints(v):
    """A `constant uint3&` / `uint4&` argument set from std::array<int, N> (int32 bytes)."""
    return np.asarray(v, dtype=np.uint32)


def erfinv(y):
    """The inverse error function in float64 (Newton's method on math.erf from a rational first guess)."""
    y = np.asarray(y, dtype=np.float64)
    res = np.empty_like(y)
    for i, v in np.ndenumerate(y):
        if v <= -1 or v >= 1:
            res[i] = math.copysign(math.inf, v) if abs(v) == 1 else math.nan
            continue
        w = -math.log((1 - v) * (1 + v))
        x = math.copysign(math.sqrt(max(w, 0.0)) * 0.8, v) if abs(v) > 0.7 else v * math.sqrt(math.pi) / 2
        for _ in range(60):
            step = (math.erf(x) - v) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
            x -= step
            if abs(step) < 1e-17 * max(1.0, abs(x)):
                break
        res[i] = x
    return res


def erf(x):
    return np.vectorize(math.erf)(np.asarray(x, dtype=np.float64))


# MultiTensorApply.h (aten/src/ATen/native/mps/operations/): tensors in chunks of 65536 elements, one threadgroup
# per chunk, at most 32 tensors and 32 threadgroups per dispatch
CHUNK, MAX_TENSORS, MAX_GROUPS = 65536, 32, 32


def multi_tensor_apply(lists, numels, state_steps=None, argbuf="args"):
    """The argument buffer and metadata multi_tensor_apply(_for_fused_optimizer) fills for one dispatch: the host's
    argument encoder sets list d's tensor t at id d * 32 + t (each pointer 8 bytes: byte (d * 32 + t) * 8), the
    state steps at id depth * 32 + t; MetadataArguments holds numels[32], threadgroup_to_tensor[32] and
    threadgroup_to_chunk[32] as uint64. LISTS: depth lists of buffer names, NUMELS per tensor. Returns the
    refcase addresses [(ARGBUF, byte, NAME, 0)], the metadata Bytes and the threadgroup count."""
    assert len(numels) <= MAX_TENSORS
    addresses = []
    for d, names in enumerate(lists + ([state_steps] if state_steps else [])):
        addresses += [(argbuf, (d * MAX_TENSORS + t) * 8, name, 0) for t, name in enumerate(names)]
    to_tensor, to_chunk = [], []
    for t, n in enumerate(numels):
        for c in range(-(-n // CHUNK)):
            to_tensor.append(t)
            to_chunk.append(c)
    assert len(to_tensor) <= MAX_GROUPS, "one dispatch holds at most 32 threadgroups"

    def padded(v):
        return np.array(list(v) + [0] * (32 - len(v)), np.uint64).tobytes()
    return addresses, Bytes(padded(numels) + padded(to_tensor) + padded(to_chunk)), len(to_tensor)


def argument_buffer(depth, state_steps=False):
    """The zeroed argument buffer (its encoder's encodedLength: 8 bytes per id) of DEPTH lists (+ state steps)."""
    return np.zeros((depth + (1 if state_steps else 0)) * MAX_TENSORS * 8, np.uint8)
