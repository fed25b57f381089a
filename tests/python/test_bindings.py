"""The ctypes mirrors of the C structs (python/mtl2glsl/_lib.py) have the fields of translator/mtl2glsl.h and
runtime/mtlrt.h, in order: a field added in C and not in Python would make the library read past the Python
struct (garbage options), so a header change fails here first."""
import os
import re

import pytest

from mtl2glsl import _lib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def c_fields(header, name):
    text = open(os.path.join(ROOT, header)).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    m = re.search(r"typedef struct %s \{(.*?)\} %s;" % (name, name), text, re.S)
    assert m, "no struct %s in %s" % (name, header)
    names = []
    for decl in m.group(1).split(";"):
        decl = re.sub(r"\[[^]]*\]", "", decl).strip()
        if not decl:
            continue
        head, *rest = decl.split(",")
        names.append(re.findall(r"\w+", head)[-1])
        names += [re.findall(r"\w+", r)[-1] for r in rest]
    return names


@pytest.mark.parametrize("header,cls", [
    ("translator/mtl2glsl.h", _lib.M2gOptions), ("translator/mtl2glsl.h", _lib.M2gEntry),
    ("translator/mtl2glsl.h", _lib.M2gResult), ("translator/mtl2glsl.h", _lib.M2gSpecArray),
    ("translator/mtl2glsl.h", _lib.M2gSpec), ("runtime/mtlrt.h", _lib.MtlrtContextOptions),
    ("runtime/mtlrt.h", _lib.MtlrtDispatch), ("runtime/mtlrt.h", _lib.MtlrtDispatchStats)])
def test_struct_mirrors_header(header, cls):
    assert [f[0] for f in cls._fields_] == c_fields(header, cls.__name__)
