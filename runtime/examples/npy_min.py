"""Minimal .npy read/write with the standard library only (no numpy), for the runtime's example checks."""
import struct

CODES = {"<f4": "f", "<f8": "d", "<f2": "e", "<i4": "i", "<u4": "I", "|i1": "b", "|u1": "B",
         "<i2": "h", "<u2": "H", "<i8": "q", "<u8": "Q", "|b1": "?"}


def save(path, descr, shape, values):
    shape_txt = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_txt)
    hdr += " " * ((64 - (10 + len(hdr) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
        f.write(struct.pack("<%d%s" % (len(values), CODES[descr]), *values))


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY"
    if data[6] == 1:
        n, start = struct.unpack("<H", data[8:10])[0], 10
    else:
        n, start = struct.unpack("<I", data[8:12])[0], 12
    hdr = eval(data[start:start + n].decode())
    code = CODES[hdr["descr"]]
    count = 1
    for d in hdr["shape"]:
        count *= d
    return hdr, list(struct.unpack("<%d%s" % (count, code), data[start + n:start + n + count * struct.calcsize(code)]))
