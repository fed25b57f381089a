"""Shared pieces of the ggml execution cases (tests/corpus/ggml_exec*.py): ggml's argument structs laid out as C
lays out ggml-metal-impl.h's lm_ggml_metal_kargs_* (natural alignment), tensors placed in byte buffers with ggml's
byte strides (ne/nb), and ggml's quantized blocks (ggml-common.h) built from random codes with their float weights.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ref"))
from refcase import Reference  # noqa: E402

ROOT = os.environ.get("MTL2GLSL_GGML_DIR", "")
METAL = os.path.join(ROOT, "cpp", "ggml-metal", "ggml-metal.metal")
EXACT = {"rtol": 0, "atol": 0}


def reference():
    return Reference(METAL)


def cstruct(*fields):
    """A NumPy dtype laid out as the C struct of FIELDS ((name, 'i4' | 'u8' | 'f4' | 'i2' | '?' [, count])): each
    field at the next multiple of its alignment, the size a multiple of the largest one."""
    return np.dtype([(f[0], "<" + f[1] if f[1] != "?" else "?") + ((f[2],) if len(f) > 2 else ()) for f in fields],
                    align=True)


# lm_ggml_metal_kargs_flash_attn_ext and _ext_vec (ggml-metal-impl.h): one layout, for kernel_flash_attn_ext_* and
# kernel_flash_attn_ext_vec_*
FLASH_ATTN = cstruct(("ne01", "i4"), ("ne02", "i4"), ("ne03", "i4"), ("nb01", "u8"), ("nb02", "u8"), ("nb03", "u8"),
                     ("ne11", "i4"), ("ne_12_2", "i4"), ("ne_12_3", "i4"), ("ns10", "i4"), ("nb11", "u8"), ("nb12", "u8"),
                     ("nb13", "u8"), ("ns20", "i4"), ("nb21", "u8"), ("nb22", "u8"), ("nb23", "u8"), ("ne31", "i4"),
                     ("ne32", "i4"), ("ne33", "i4"), ("nb31", "u8"), ("nb32", "u8"), ("nb33", "u8"), ("ne1", "i4"),
                     ("ne2", "i4"), ("ne3", "i4"), ("scale", "f4"), ("max_bias", "f4"), ("m0", "f4"), ("m1", "f4"),
                     ("n_head_log2", "i4"), ("logit_softcap", "f4"))


def pack(dtype, **values):
    """The bytes of struct DTYPE with VALUES (fields not named are 0)."""
    a = np.zeros((), dtype=dtype)
    for k, v in values.items():
        a[k] = v
    return a.tobytes()


def h(v):
    return np.asarray(v, dtype="<f2").tobytes()


class Tensor:
    """A 4-d tensor (shape [ne3, ne2, ne1, ne0] in NumPy order) inside a byte buffer, with ggml's byte strides
    nb0..nb3. Rows and planes may be padded (pad1 elements after each row, pad2 after each plane); the buffer's other
    bytes are FILL (or random bytes). t.view is a writable NumPy view of the elements."""

    def __init__(self, shape, dtype, pad1=0, pad2=0, offset=0, fill=None, r=None):
        self.dtype = np.dtype(dtype)
        es = self.dtype.itemsize
        self.shape = tuple(shape)
        n3, n2, n1, n0 = self.shape
        self.nb = [es, es * (n0 + pad1), 0, 0]
        self.nb[2] = self.nb[1] * n1 + es * pad2
        self.nb[3] = self.nb[2] * n2
        self.offset = offset
        size = offset + self.nb[3] * n3
        if fill is None:
            self.buf = r.integers(0, 256, size).astype(np.uint8)
        else:
            self.buf = np.full(-(-size // es), fill, dtype=self.dtype).view(np.uint8)[:size]
        self.view = np.ndarray(self.shape, dtype=self.dtype, buffer=self.buf, offset=offset,
                               strides=(self.nb[3], self.nb[2], self.nb[1], self.nb[0]))

    def set(self, values):
        self.view[...] = values
        return self

    def bytes(self):
        return self.buf.view(np.int8).copy()

    def nbs(self, prefix):
        """{prefix+'0': nb0, ...} for the argument structs."""
        return {"%s%d" % (prefix, i): self.nb[i] for i in range(4)}

    def nes(self, prefix):
        return {"%s%d" % (prefix, i): self.shape[3 - i] for i in range(4)}


def dyadic(r, shape, lo, hi, den, dtype=np.float32):
    """Random multiples of 1/DEN in [LO, HI]: sums and products of few of them are exact in float."""
    return (r.integers(int(lo * den), int(hi * den) + 1, shape) / den).astype(dtype)


# ggml's quantized blocks: (bytes per block, weights per block)
BLOCK = {"q4_0": (18, 32), "q4_1": (20, 32), "q5_0": (22, 32), "q8_0": (34, 32), "q4_K": (144, 256), "q6_K": (210, 256)}


def block(r, kind, small=False, exact_half=False):
    """Bytes of one random block of KIND and its weights (float32), per ggml's format (ggml-common.h). SMALL: scales
    k/256 (k < 16), so that dot products with multiples of 1/8 are exact in float. EXACT_HALF (with SMALL): every weight
    exact in half as well (q4_K: scales, minimums and k below 8), for kernels that hold weights as half."""
    top_d = 8 if exact_half and kind == "q4_K" else 16
    if small:
        d = np.float16(r.integers(1, top_d) / 256 * r.choice([-1, 1]))
    else:
        d = np.float16(r.uniform(0.005, 0.1) * r.choice([-1, 1]))
    if kind == "q8_0":
        q = r.integers(-128, 128, 32).astype(np.int8)
        return h(d) + q.tobytes(), q.astype(np.float32) * np.float32(d)
    if kind == "q6_K":
        ql = r.integers(0, 256, 128).astype(np.uint8)
        qh = r.integers(0, 256, 64).astype(np.uint8)
        sc = r.integers(-128, 128, 16).astype(np.int8)
        if small:
            sc = r.integers(-8, 8, 16).astype(np.int8)
        y = np.zeros(256, dtype=np.float64)
        for half in range(2):                               # two halves of 128 weights
            l = np.arange(32)
            q_l, q_h, s = ql[64 * half:], qh[32 * half:], sc[8 * half:]
            q1 = ((q_l[l] & 0xF) | (((q_h[l] >> 0) & 3) << 4)).astype(np.int32) - 32
            q2 = ((q_l[l + 32] & 0xF) | (((q_h[l] >> 2) & 3) << 4)).astype(np.int32) - 32
            q3 = ((q_l[l] >> 4) | (((q_h[l] >> 4) & 3) << 4)).astype(np.int32) - 32
            q4 = ((q_l[l + 32] >> 4) | (((q_h[l] >> 6) & 3) << 4)).astype(np.int32) - 32
            i = l // 16
            base = 128 * half
            y[base + l] = float(d) * s[i + 0] * q1
            y[base + l + 32] = float(d) * s[i + 2] * q2
            y[base + l + 64] = float(d) * s[i + 4] * q3
            y[base + l + 96] = float(d) * s[i + 6] * q4
        return ql.tobytes() + qh.tobytes() + sc.tobytes() + h(d), y.astype(np.float32)
    if kind == "q4_K":
        # 8 sub-blocks of 32 weights: w = d * sc[j] * q - dmin * m[j], sc and m 6-bit, packed in 12 bytes
        dmin = np.float16(r.integers(1, top_d) / 256) if small else np.float16(r.uniform(0.001, 0.05))
        top = top_d if small else 64
        sc = r.integers(0, top, 8)
        m = r.integers(0, top, 8)
        scales = np.zeros(12, dtype=np.uint8)
        for j in range(4):
            scales[j] = (sc[j] & 63) | ((sc[j + 4] >> 4) << 6)
            scales[j + 4] = (m[j] & 63) | ((m[j + 4] >> 4) << 6)
            scales[j + 8] = (sc[j + 4] & 0xF) | ((m[j + 4] & 0xF) << 4)
        qs = r.integers(0, 256, 128).astype(np.uint8)
        y = np.zeros(256, dtype=np.float64)
        for c in range(4):                                  # 64 weights per 32 bytes: low nibbles, then high
            q = qs[32 * c:32 * (c + 1)].astype(np.int32)
            y[64 * c:64 * c + 32] = float(d) * sc[2 * c] * (q & 0xF) - float(dmin) * m[2 * c]
            y[64 * c + 32:64 * c + 64] = float(d) * sc[2 * c + 1] * (q >> 4) - float(dmin) * m[2 * c + 1]
        return h(d) + h(dmin) + scales.tobytes() + qs.tobytes(), y.astype(np.float32)
    qs = r.integers(0, 256, 16).astype(np.uint8)
    lo, hi = (qs & 0xF).astype(np.int32), (qs >> 4).astype(np.int32)
    if kind == "q4_0":
        return h(d) + qs.tobytes(), (np.concatenate([lo, hi]) - 8).astype(np.float32) * np.float32(d)
    if kind == "q4_1":
        m = np.float16(r.uniform(-1, 1))
        w = np.concatenate([lo, hi]).astype(np.float32)
        return h(d) + h(m) + qs.tobytes(), (w * np.float32(d) + np.float32(m)).astype(np.float32)
    qh = int(r.integers(0, 2**32))
    w = np.concatenate([lo, hi]) | (((qh >> np.arange(32)) & 1) << 4)
    return h(d) + np.uint32(qh).tobytes() + qs.tobytes(), (w - 16).astype(np.float32) * np.float32(d)


def quant_rows(r, kind, rows, nblocks, pad=0, extra_rows=0, small=False, exact_half=False):
    """ROWS rows of NBLOCKS blocks of KIND, each row PAD bytes longer than its blocks (blocks at offsets that are not
    multiples of their size), plus EXTRA_ROWS rows of random bytes after them (ggml's kernels read whole row groups).
    Returns (buffer int8, row stride nb01, weights float32 [rows, nblocks * qk])."""
    bs, qk = BLOCK[kind]
    nb01 = bs * nblocks + pad
    data = bytearray(r.integers(0, 256, (rows + extra_rows) * nb01).astype(np.uint8).tobytes())
    w = np.zeros((rows, qk * nblocks), dtype=np.float32)
    for i in range(rows):
        for b in range(nblocks):
            blk, v = block(r, kind, small, exact_half)
            data[i * nb01 + b * bs:i * nb01 + (b + 1) * bs] = blk
            w[i, qk * b:qk * (b + 1)] = v
    return np.frombuffer(bytes(data), dtype=np.int8).copy(), nb01, w
