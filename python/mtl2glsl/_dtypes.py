"""Array dtypes: NumPy, torch, MLX and Metal names of each, and conversions for the two NumPy lacks.

bfloat16 has no NumPy dtype: its data is kept as uint16 bit patterns (the upper half of a float32), and arrays of it
convert from and to float32 with round-to-nearest-even. complex64 is Metal's float2 (x: real, y: imaginary).
"""
import numpy as np


class Dtype:
    """One array dtype. Compares equal to its NumPy dtype, its name and its torch dtype."""

    def __init__(self, name, np_dtype, metal, mlx, size, kind, torch_name):
        self.name = name
        self.np = np.dtype(np_dtype)  # how its data is stored in NumPy (bfloat16: uint16 bits)
        self.metal = metal            # Metal scalar (or vector) type of one element
        self.mlx = mlx                # the name MLX's generated signature writes
        self.size = size
        self.itemsize = size
        self.kind = kind              # 'f', 'i', 'u', 'b', 'c'
        self.torch_name = torch_name

    def __repr__(self):
        return "mtl2glsl.%s" % self.name

    def __str__(self):
        return self.name

    def __hash__(self):
        return hash(self.name)

    def __eq__(self, other):
        try:
            return dtype(other) is self
        except (TypeError, ValueError):
            return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r


_TABLE = [
    # name       numpy      metal     mlx          size kind torch
    ("float32", "float32", "float", "float", 4, "f", "float32"),
    ("float16", "float16", "half", "float16_t", 2, "f", "float16"),
    ("bfloat16", "uint16", "bfloat", "bfloat16_t", 2, "f", "bfloat16"),
    ("int8", "int8", "char", "int8_t", 1, "i", "int8"),
    ("uint8", "uint8", "uchar", "uint8_t", 1, "u", "uint8"),
    ("int16", "int16", "short", "int16_t", 2, "i", "int16"),
    ("uint16", "uint16", "ushort", "uint16_t", 2, "u", None),
    ("int32", "int32", "int", "int32_t", 4, "i", "int32"),
    ("uint32", "uint32", "uint", "uint32_t", 4, "u", None),
    ("int64", "int64", "long", "int64_t", 8, "i", "int64"),
    ("uint64", "uint64", "ulong", "uint64_t", 8, "u", None),
    ("bool", "bool", "bool", "bool", 1, "b", "bool"),
    ("complex64", "complex64", "float2", "float2", 8, "c", "complex64"),
]
DTYPES = {row[0]: Dtype(*row) for row in _TABLE}
globals().update({k: v for k, v in DTYPES.items() if k != "bool"})
bool_ = DTYPES["bool"]
_ALIASES = {"float": "float32", "half": "float16", "bfloat": "bfloat16", "fp16": "float16", "bf16": "bfloat16",
            "fp32": "float32", "int": "int32", "uint": "uint32", "char": "int8", "uchar": "uint8", "short": "int16",
            "ushort": "uint16", "long": "int64", "ulong": "uint64", "bool_": "bool", "float2": "complex64"}
_BY_NP = {d.np: d for d in DTYPES.values() if d.name != "bfloat16"}


def dtype(x):
    """A Dtype from a Dtype, a NumPy dtype or type, a name ("float16", "half", "bf16"), a torch dtype or an MLX
    dtype (mlx.core.float16 prints as "mlx.core.float16")."""
    if isinstance(x, Dtype):
        return x
    if isinstance(x, str):
        n = x.split(".")[-1]
        n = _ALIASES.get(n, n)
        if n in DTYPES:
            return DTYPES[n]
        raise ValueError("unknown dtype %r (expected one of %s)" % (x, ", ".join(DTYPES)))
    mod = type(x).__module__
    if mod.startswith("torch") or mod.startswith("mlx"):
        return dtype(str(x))
    try:
        npd = np.dtype(x)
    except TypeError:
        raise TypeError("not a dtype: %r" % (x,)) from None
    if npd in _BY_NP:
        return _BY_NP[npd]
    raise ValueError("dtype %s has no Metal type (expected one of %s)" % (npd, ", ".join(DTYPES)))


def float32_to_bfloat16_bits(a):
    """float32 values -> bfloat16 bit patterns (uint16), rounded to nearest even; NaN stays NaN."""
    f = np.asarray(a, dtype=np.float32)
    u = f.reshape(-1).view(np.uint32).astype(np.uint64)
    one, half, sixteen = np.uint64(1), np.uint64(0x7FFF), np.uint64(16)
    rounded = ((u + half + ((u >> sixteen) & one)) >> sixteen).astype(np.uint16)
    nan = np.isnan(f.reshape(-1))
    if nan.any():
        rounded = np.where(nan, ((u >> sixteen) | np.uint64(0x40)).astype(np.uint16), rounded)
    return rounded.reshape(f.shape)


def bfloat16_bits_to_float32(bits):
    """bfloat16 bit patterns (uint16) -> float32 values (exact)."""
    b = np.asarray(bits, dtype=np.uint16)
    return (b.reshape(-1).astype(np.uint32) << np.uint32(16)).view(np.float32).reshape(b.shape)
