"""Body-only kernels through the translator's kernel specs (translator/front/spec.c, docs/specs.md).

The C code writes the signature MLX's metal_kernel and Core AI's TorchMetalKernel would write around a body; this
module hands it a spec (a JSON file: m2g_spec_load reads files), takes the Metal source and the buffer indices it
chose, and translates the source once per variant. Two dtypes the spec path does not have yet are passed under
stand-in dtypes of the same size and put back in the generated text: bfloat16 (as uint16) and complex64 (as
uint64, then Metal's float2).
"""
import atexit
import ctypes
import json
import os
import re
import shutil
import tempfile

from ._lib import MemStream, TranslationError, m2g, runtime, translate

# dtype -> (stand-in dtype for the spec, MLX's type name, Core AI's Metal type)
STAND_INS = {"bfloat16": ("uint16", "bfloat16_t", "bfloat"), "complex64": ("uint64", "complex64_t", "float2")}
_SPEC_TYPE = {"uint16": ("uint16_t", "ushort"), "uint64": ("uint64_t", "ulong")}

_tmpdir = None
_translations = {}  # generated Metal source -> (entry, glsl, reflect_json)


def _dir():
    global _tmpdir
    if _tmpdir is None:
        _tmpdir = tempfile.mkdtemp(prefix="mtl2glsl-spec-")
        atexit.register(shutil.rmtree, _tmpdir, True)
    return _tmpdir


class Built:
    """What m2g_spec_load built: source, entry, the diagnostic parts, buffer indices of each array."""

    def __init__(self, spec, tmp_path, display):
        s = spec.contents
        self.path = tmp_path
        self.entry = s.entry.decode()
        self.source = s.source.decode()
        self.sources = []
        i = 0
        while i < 6 and s.sources[i]:
            self.sources.append([s.sources[i].decode(), s.sources[i + 1].decode()])
            i += 2
        self.inputs = [_indices(s.inputs[i]) for i in range(s.n_inputs)]
        self.outputs = [_indices(s.outputs[i]) for i in range(s.n_outputs)]
        self.display = display
        self.rename(tmp_path, display)

    def rename(self, old, new):
        """Diagnostics name NEW instead of the temporary spec file."""
        q_old, q_new = _quoted(old), _quoted(new)
        self.source = self.source.replace('"%s(' % q_old, '"%s(' % q_new)
        for pair in self.sources:
            if pair[0].startswith(old + "("):
                pair[0] = new + pair[0][len(old):]


def _quoted(path):
    return path.replace("\\", "\\\\").replace('"', '\\"')


def _indices(a):
    return {"name": a.name.decode(), "buffer": a.buffer, "shape": a.shape_buffer, "strides": a.strides_buffer,
            "ndim": a.ndim_buffer, "extents": a.extents_buffer}


def load(doc, display):
    """Build the Metal source of spec DOC (a dict in docs/specs.md's form). Errors name DISPLAY, not the file."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", display)[:60] or "kernel"
    path = os.path.join(_dir(), safe + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    diag = MemStream()
    spec = m2g.m2g_spec_load(path.encode(), None, ctypes.c_void_p(diag.file))
    text = diag.close()
    try:
        if not spec:
            raise TranslationError("%s: the kernel's description is refused" % display,
                                   text.replace(path, display))
        return Built(spec, path, display)
    finally:
        if spec:
            m2g.m2g_spec_free(spec)


def replace_types(source, names_types, coreai):
    """Put the real types of the stand-in dtypes back: NAMES_TYPES {array name: dtype name} for the arrays of
    bfloat16 / complex64 data."""
    for name, dt in names_types.items():
        stand, mlx_t, metal_t = STAND_INS[dt]
        spec_t = _SPEC_TYPE[stand][1 if coreai else 0]
        real = metal_t if coreai else mlx_t
        pat = re.compile(r"(\n    (?:const )?(?:device |constant )(?:const )?(?:atomic<)?)%s(>?[*&] %s \[\[)" % (
            spec_t, re.escape(name)))
        source, n = pat.subn(lambda m: m.group(1) + real + m.group(2), source, count=1)
        if n != 1:
            raise AssertionError("mtl2glsl: no parameter %s of type %s in the generated signature" % (name, spec_t))
    return source


def replace_define(source, macro, old, new):
    """`#define MACRO OLD` -> `#define MACRO NEW` (a template argument or a template_dtypes placeholder)."""
    line_old, line_new = "#define %s %s\n" % (macro, old), "#define %s %s\n" % (macro, new)
    if line_old not in source:
        raise AssertionError("mtl2glsl: no `%s` in the generated source" % line_old.strip())
    return source.replace(line_old, line_new, 1)


def translated(built, source):
    """(entry, glsl, reflect_json) of generated SOURCE, translated once per text for the device's SIMD width."""
    r = runtime()
    key = (source, built.entry, r.simd_subgroup_size)
    hit = _translations.get(key)
    if hit is None:
        entries, _ = translate(built.display, source, only_entry=built.entry, sources=built.sources,
                               subgroup_size=r.simd_subgroup_size, push_constant_words=r.push_constant_words)
        if built.entry not in entries:
            raise TranslationError("%s: the translator gave no kernel %s" % (built.display, built.entry))
        hit = _translations[key] = (built.entry,) + entries[built.entry]
    return hit
