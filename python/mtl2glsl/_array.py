"""Device arrays (data kept in a Vulkan buffer between kernel calls) and the host arrays kernels accept.

A DeviceArray is what metal_kernel returns and what a pipeline passes from one kernel to the next without copies;
NumPy arrays and torch tensors given to a kernel are copied to a buffer before the call and, when the kernel writes
them, back after it (in place, as MPS does for compile_shader).
"""
import ctypes

import numpy as np

from . import _dtypes
from ._lib import rt, runtime

try:  # torch is optional: Debian's python3-torch (CPU only)
    import torch as _torch
except ImportError:  # pragma: no cover
    _torch = None


def is_torch(x):
    return _torch is not None and isinstance(x, _torch.Tensor)


class _Pool:
    """Device buffers kept for reuse per byte size: staging buffers of host arrays, and the buffers of collected
    DeviceArrays (a kernel sees exactly its array's bytes, so sizes are not rounded)."""

    def __init__(self, limit=64):
        self.free = {}
        self.count = 0
        self.limit = limit

    def take(self, nbytes):
        lst = self.free.get(nbytes)
        if lst:
            self.count -= 1
            return lst.pop()
        r = runtime()
        buf = rt.mtlrt_buffer_create(r.ctx, max(nbytes, 4))
        if not buf:
            raise r.error("cannot allocate a %d-byte device buffer" % nbytes)
        return buf

    def give(self, nbytes, buf):
        if self.count >= self.limit:
            rt.mtlrt_buffer_destroy(buf)
            return
        self.free.setdefault(nbytes, []).append(buf)
        self.count += 1


pool = _Pool()


class DeviceArray:
    """An array whose data lives in a device buffer. `np.asarray(a)`, `a.numpy()` and `a.torch()` copy it to the
    host (bfloat16 arrives in NumPy as float32, exactly; `a.numpy(raw=True)` gives the uint16 bits)."""

    __array_priority__ = 100

    def __init__(self, shape, dtype, zero=True):
        """A new array; zero filled unless ZERO is false (then its contents are undefined, as MLX's outputs)."""
        self.shape = tuple(int(s) for s in shape)
        self.dtype = _dtypes.dtype(dtype)
        self.size = int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1
        self.nbytes = self.size * self.dtype.size
        self._rt = runtime()
        self._buf = pool.take(self.nbytes)
        if zero and self.nbytes:
            self.write(np.zeros(self.nbytes, np.uint8))

    def __del__(self):
        buf, self._buf = getattr(self, "_buf", None), None
        if buf and pool is not None and getattr(self, "_owner", None) is None:
            pool.give(self.nbytes, buf)

    @property
    def ndim(self):
        return len(self.shape)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __repr__(self):
        return "DeviceArray(%s, dtype=%s)" % (np.array2string(self.numpy(), threshold=20, edgeitems=3), self.dtype)

    @property
    def device_address(self):
        """The buffer's 64-bit device address: what a host writes into an argument buffer (a kernel's struct of
        pointers, reflection "addresses"; docs/python.md). The array must outlive every call that reads it."""
        addr = ctypes.c_uint64(0)
        if not rt.mtlrt_buffer_device_address(self._buf, ctypes.byref(addr)):
            raise self._rt.error("no device address")
        return addr.value

    # -- transfers --
    def write(self, data):
        """Copy host DATA (its bytes, as stored: bfloat16 as uint16 bits) into the buffer."""
        data = np.asarray(data, order="C")
        if data.nbytes != self.nbytes:
            raise ValueError("write: %d bytes for a %d-byte array" % (data.nbytes, self.nbytes))
        if self.nbytes and not rt.mtlrt_buffer_write(self._buf, data.ctypes.data, self.nbytes):
            raise self._rt.error("buffer write failed")

    def numpy(self, raw=False):
        """A NumPy copy: the stored dtype (bfloat16: float32 values, or with RAW its uint16 bits)."""
        out = np.empty(self.shape, self.dtype.np)
        if self.nbytes and not rt.mtlrt_buffer_read(self._buf, out.ctypes.data, self.nbytes):
            raise self._rt.error("buffer read failed")
        if self.dtype.name == "bfloat16" and not raw:
            return _dtypes.bfloat16_bits_to_float32(out).reshape(self.shape)
        return out

    def torch(self):
        """A torch (CPU) tensor copy, bfloat16 included."""
        raw = self.numpy(raw=True)
        if self.dtype.name == "bfloat16":
            return _torch.from_numpy(raw.view(np.int16)).view(_torch.bfloat16)
        return _torch.from_numpy(raw)

    def __array__(self, dtype=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def tolist(self):
        return self.numpy().tolist()

    def item(self):
        return self.numpy().item()

    def __getitem__(self, idx):
        return self.numpy()[idx]

    def reshape(self, *shape):
        """A view of the same buffer with another shape (same element count)."""
        shape = tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
        if -1 in shape:
            known = int(np.prod([s for s in shape if s != -1]))
            shape = tuple(self.size // known if s == -1 else s for s in shape)
        if int(np.prod(shape, dtype=np.int64)) != self.size:
            raise ValueError("cannot reshape %s into %s" % (self.shape, shape))
        view = DeviceArray.__new__(DeviceArray)
        view.__dict__.update(self.__dict__)
        view.shape, view._owner = tuple(shape), self  # the owner frees the buffer
        return view

    @property
    def buffer(self):
        return self._buf


def array(obj, dtype=None):
    """A DeviceArray holding OBJ (NumPy array, torch tensor, list, scalar or DeviceArray), converted to DTYPE when
    given. bfloat16 from NumPy float data rounds to nearest even; from uint16 data, the bits are taken as they are."""
    if isinstance(obj, DeviceArray):
        if dtype is None or _dtypes.dtype(dtype) is obj.dtype:
            out = DeviceArray(obj.shape, obj.dtype, zero=False)
            out.write(obj.numpy(raw=True))
            return out
        obj = obj.numpy()
    d, data = host_data(obj, dtype)
    out = DeviceArray(data.shape, d, zero=False)
    out.write(data)
    return out


def zeros(shape, dtype=_dtypes.float32):
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return DeviceArray(shape, dtype)


def empty(shape, dtype=_dtypes.float32):
    return zeros(shape, dtype)


def full(shape, value, dtype=_dtypes.float32):
    d = _dtypes.dtype(dtype)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    return array(np.full(shape, value, dtype=np.float32 if d.name == "bfloat16" else d.np), d)


def host_data(obj, dtype=None):
    """(Dtype, contiguous NumPy array of the stored data) for a host object; converted to DTYPE when given."""
    want = _dtypes.dtype(dtype) if dtype is not None else None
    if is_torch(obj):
        t = obj.detach()
        if t.device.type != "cpu":
            t = t.cpu()
        t = t.contiguous()
        if t.dtype == _torch.bfloat16:
            d, data = _dtypes.bfloat16, t.view(_torch.int16).numpy().view(np.uint16)
        else:
            data = t.numpy()
            d = _dtypes.dtype(data.dtype)
    else:
        data = np.asarray(obj)
        if want is not None and data.dtype not in _dtypes._BY_NP:
            data = data.astype(np.float32 if want.kind in "fcb" and want.name != "complex64" else
                               np.complex64 if want.name == "complex64" else np.int64)
        elif want is None and data.dtype == np.float64:
            data = data.astype(np.float32)  # MLX's default for Python floats
        elif want is None and data.dtype == np.int64 and not isinstance(obj, np.ndarray):
            data = data.astype(np.int32)
        d = _dtypes.dtype(data.dtype)
    if want is not None and want is not d:
        if want.name == "bfloat16":
            if d.name == "uint16":
                d = want
            else:
                data, d = _dtypes.float32_to_bfloat16_bits(data.astype(np.float32)).reshape(data.shape), want
        else:
            src = _dtypes.bfloat16_bits_to_float32(data).reshape(data.shape) if d.name == "bfloat16" else data
            data, d = src.astype(want.np), want
    return d, np.asarray(data, order="C")


class HostArg:
    """A NumPy array or torch tensor given to a kernel: its data (contiguous, stored dtype) and, for write-back,
    the object to copy the results into."""

    __slots__ = ("obj", "dtype", "data", "shape")

    def __init__(self, obj):
        self.obj = obj
        if isinstance(obj, np.ndarray) and obj.flags.c_contiguous and obj.dtype in _dtypes._BY_NP:
            self.data, self.dtype = obj, _dtypes._BY_NP[obj.dtype]
        else:
            self.dtype, self.data = host_data(obj)
        self.shape = tuple(self.data.shape)

    @property
    def size(self):
        return self.data.size

    def write_back(self, buf, nbytes):
        """Copy the buffer's bytes into the original object (in place)."""
        if self.data is self.obj:
            if nbytes and not rt.mtlrt_buffer_read(buf, self.obj.ctypes.data, nbytes):
                raise runtime().error("buffer read failed")
            return
        tmp = np.empty_like(self.data)
        if nbytes and not rt.mtlrt_buffer_read(buf, tmp.ctypes.data, nbytes):
            raise runtime().error("buffer read failed")
        if is_torch(self.obj):
            with _torch.no_grad():
                src = _torch.from_numpy(tmp.view(np.int16)).view(_torch.bfloat16) \
                    if self.dtype.name == "bfloat16" else _torch.from_numpy(tmp)
                self.obj.copy_(src.reshape(self.obj.shape))
        else:
            np.copyto(self.obj, tmp.reshape(self.obj.shape), casting="unsafe")


def is_array(x):
    return isinstance(x, (np.ndarray, DeviceArray)) or is_torch(x)


def as_ctypes_ptr(a):
    return ctypes.c_void_p(a.ctypes.data)
