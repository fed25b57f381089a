"""ctypes bindings over libmtl2glsl.so (translator/mtl2glsl.h) and libmtlrt.so (runtime/mtlrt.h).

Where the libraries are found, first match wins:
  1. env MTL2GLSL_LIBRARY_PATH: the directory holding libmtlrt.so and libmtl2glsl.so (a build tree: `build/`);
  2. _paths.py, written by `cmake --install` beside the installed package (paths relative to the package);
  3. a build tree beside the source package: REPO/build (the package imported from REPO/python).
Messages the C code prints (located diagnostics, runtime errors) are captured through open_memstream and raised
as Python exceptions by the callers.
"""
import ctypes
import ctypes.util
import os
import threading

_here = os.path.dirname(os.path.abspath(__file__))


class Error(RuntimeError):
    """Base of the exceptions mtl2glsl raises: the text is the translator's or the runtime's message."""


class TranslationError(Error):
    """The translator refused the Metal source; `diagnostics` holds its located messages
    (`file:line:col: error: ...` with the source line and a caret)."""

    def __init__(self, message, diagnostics=""):
        self.diagnostics = diagnostics
        super().__init__(message + ("\n" + diagnostics.rstrip() if diagnostics else ""))


class DeviceError(Error):
    """The Vulkan runtime failed (device, pipeline, dispatch); the text is the runtime's message."""


def _candidates():
    env = os.environ.get("MTL2GLSL_LIBRARY_PATH")
    if env:
        yield from env.split(os.pathsep)
    try:
        from . import _paths  # noqa: written at install time
        yield os.path.normpath(os.path.join(_here, _paths.LIB_DIR))
    except ImportError:
        pass
    yield os.path.normpath(os.path.join(_here, "..", "..", "build"))


def _grammar_dir():
    env = os.environ.get("MTL2GLSL_GRAMMAR_DIR")
    if env:
        return env
    try:
        from . import _paths  # noqa
        d = os.path.normpath(os.path.join(_here, _paths.GRAMMAR_DIR))
        if os.path.exists(os.path.join(d, "metal_stdlib")):
            return d
    except ImportError:
        pass
    return None  # the library's own default (the source tree's prelude, then the configured prefix's)


def _load(name):
    tried = []
    for d in _candidates():
        p = os.path.join(d, "lib%s.so" % name)
        tried.append(p)
        if os.path.exists(p):
            return ctypes.CDLL(p)
    raise ImportError("mtl2glsl: cannot find lib%s.so (tried %s); build the project and set MTL2GLSL_LIBRARY_PATH "
                      "to the build directory, or install it (docs/python.md)" % (name, ", ".join(tried)))


# ---- translator/mtl2glsl.h (tests/python/test_bindings.py checks these mirrors against the headers) ----

c_char_pp = ctypes.POINTER(ctypes.c_char_p)
M2G_SPEC_MAX_ARRAYS = 16
M2G_SPEC_MAX_DIMS = 8


class M2gOptions(ctypes.Structure):
    _fields_ = [("include_dirs", c_char_pp), ("defines", c_char_pp), ("grammar_dir", ctypes.c_char_p),
                ("only_entry", ctypes.c_char_p), ("diag", ctypes.c_void_p), ("subgroup_size", ctypes.c_int),
                ("virtual_subgroups", ctypes.c_bool), ("sources", c_char_pp), ("metal_version", ctypes.c_int),
                ("list_only", ctypes.c_bool), ("syntax_only", ctypes.c_bool), ("check_bounds", ctypes.c_bool),
                ("push_constant_words", ctypes.c_bool), ("fast_math", ctypes.c_bool), ("tensor_cores", ctypes.c_bool),
                ("mma_lanes", ctypes.c_bool)]


class M2gEntry(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("glsl", ctypes.c_char_p), ("reflect_json", ctypes.c_char_p)]


class M2gResult(ctypes.Structure):
    _fields_ = [("n_entries", ctypes.c_int), ("entries", ctypes.POINTER(M2gEntry)), ("n_errors", ctypes.c_int),
                ("parse_failed", ctypes.c_bool), ("n_includes", ctypes.c_int), ("includes", c_char_pp)]


class M2gSpecArray(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_char_p), ("ndim", ctypes.c_int),
                ("shape", ctypes.c_longlong * M2G_SPEC_MAX_DIMS), ("strides", ctypes.c_longlong * M2G_SPEC_MAX_DIMS),
                ("count", ctypes.c_longlong), ("perm", ctypes.c_int * M2G_SPEC_MAX_DIMS),
                ("transposed", ctypes.c_bool), ("copy_contiguous", ctypes.c_bool), ("file", ctypes.c_char_p),
                ("buffer", ctypes.c_int), ("shape_buffer", ctypes.c_int), ("strides_buffer", ctypes.c_int),
                ("ndim_buffer", ctypes.c_int), ("extents_buffer", ctypes.c_int)]


class M2gSpec(ctypes.Structure):
    _fields_ = [("coreai", ctypes.c_bool), ("path", ctypes.c_char_p), ("entry", ctypes.c_char_p),
                ("source", ctypes.c_char_p), ("n_inputs", ctypes.c_int), ("n_outputs", ctypes.c_int),
                ("inputs", M2gSpecArray * M2G_SPEC_MAX_ARRAYS), ("outputs", M2gSpecArray * M2G_SPEC_MAX_ARRAYS),
                ("atomic_outputs", ctypes.c_bool), ("has_init_value", ctypes.c_bool), ("init_value", ctypes.c_double),
                ("grid", ctypes.c_uint * 3), ("threadgroup", ctypes.c_uint * 3), ("sources", ctypes.c_char_p * 7),
                ("priv", ctypes.c_void_p)]


# ---- runtime/mtlrt.h (likewise) ----

class MtlrtContextOptions(ctypes.Structure):
    _fields_ = [("device", ctypes.c_char_p), ("validate", ctypes.c_bool), ("quiet", ctypes.c_bool)]


class MtlrtDispatch(ctypes.Structure):
    _fields_ = [("style", ctypes.c_int), ("size", ctypes.c_uint32 * 3), ("threadgroup", ctypes.c_uint32 * 3),
                ("bindings", ctypes.POINTER(ctypes.c_void_p)), ("n_bindings", ctypes.c_uint32),
                ("push_data", ctypes.c_void_p), ("push_size", ctypes.c_uint32), ("repeat", ctypes.c_uint32),
                ("timestamps", ctypes.c_bool), ("threadgroup_memory", ctypes.c_uint32 * 31)]


class MtlrtDispatchStats(ctypes.Structure):
    _fields_ = [("have_gpu_time", ctypes.c_bool), ("runs", ctypes.c_uint32), ("gpu_ms_min", ctypes.c_double),
                ("gpu_ms_median", ctypes.c_double), ("gpu_ms_mean", ctypes.c_double)]


MTLRT_DISPATCH_THREADS, MTLRT_DISPATCH_THREADGROUPS = 0, 1


def _fn(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


vp = ctypes.c_void_p
libc = ctypes.CDLL(ctypes.util.find_library("c"))
_fn(libc, "open_memstream", vp, ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_size_t))
_fn(libc, "fflush", ctypes.c_int, vp)
_fn(libc, "fclose", ctypes.c_int, vp)
_fn(libc, "free", None, vp)

m2g = _load("mtl2glsl")
_fn(m2g, "m2g_translate_source", ctypes.POINTER(M2gResult), ctypes.c_char_p, ctypes.c_char_p,
    ctypes.POINTER(M2gOptions))
_fn(m2g, "m2g_result_free", None, ctypes.POINTER(M2gResult))
_fn(m2g, "m2g_spec_load", ctypes.POINTER(M2gSpec), ctypes.c_char_p, vp, vp)
_fn(m2g, "m2g_spec_free", None, ctypes.POINTER(M2gSpec))
_fn(m2g, "m2g_default_grammar_dir", ctypes.c_char_p)

rt = _load("mtlrt")
_fn(rt, "mtlrt_set_diag", None, vp, ctypes.c_char_p)
_fn(rt, "mtlrt_context_create", vp, ctypes.POINTER(MtlrtContextOptions))
_fn(rt, "mtlrt_context_destroy", None, vp)
_fn(rt, "mtlrt_context_device_name", ctypes.c_char_p, vp)
_fn(rt, "mtlrt_context_simd_subgroup_size", ctypes.c_uint32, vp)
_fn(rt, "mtlrt_context_push_constant_words", ctypes.c_bool, vp)
_fn(rt, "mtlrt_context_validation_messages", ctypes.c_uint32, vp)
_fn(rt, "mtlrt_reflection_parse", vp, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p)
_fn(rt, "mtlrt_reflection_destroy", None, vp)
_fn(rt, "mtlrt_pipeline_create", vp, vp, ctypes.c_char_p, ctypes.c_char_p, vp)
_fn(rt, "mtlrt_pipeline_destroy", None, vp)
_fn(rt, "mtlrt_buffer_create", vp, vp, ctypes.c_size_t)
_fn(rt, "mtlrt_buffer_destroy", None, vp)
_fn(rt, "mtlrt_buffer_write", ctypes.c_bool, vp, vp, ctypes.c_size_t)
_fn(rt, "mtlrt_buffer_read", ctypes.c_bool, vp, vp, ctypes.c_size_t)
_fn(rt, "mtlrt_buffer_device_address", ctypes.c_bool, vp, ctypes.POINTER(ctypes.c_uint64))
_fn(rt, "mtlrt_dispatch", ctypes.c_bool, vp, ctypes.POINTER(MtlrtDispatch), ctypes.POINTER(MtlrtDispatchStats))


class MemStream:
    """A C FILE* whose text is read back in Python (open_memstream)."""

    def __init__(self):
        self._buf = ctypes.c_char_p()
        self._size = ctypes.c_size_t()
        self.file = libc.open_memstream(ctypes.byref(self._buf), ctypes.byref(self._size))
        self._read = 0

    def new_text(self):
        """What was written since the last call."""
        libc.fflush(self.file)
        data = ctypes.string_at(self._buf, self._size.value) if self._size.value else b""
        text = data[self._read:].decode("utf-8", "replace")
        self._read = len(data)
        return text

    def close(self):
        """Close and return everything written."""
        libc.fclose(self.file)
        data = ctypes.string_at(self._buf, self._size.value) if self._size.value else b""
        libc.free(self._buf)
        self.file = None
        return data.decode("utf-8", "replace")


class Runtime:
    """The one Vulkan context of the process (created on first use): device from env MTL2GLSL_DEVICE (an index
    or a name substring), validation layer with MTL2GLSL_VALIDATE=1."""

    def __init__(self):
        self.diag = MemStream()
        rt.mtlrt_set_diag(self.diag.file, b"mtl2glsl")
        dev = os.environ.get("MTL2GLSL_DEVICE")
        opts = MtlrtContextOptions(device=dev.encode() if dev else None,
                                   validate=os.environ.get("MTL2GLSL_VALIDATE", "") not in ("", "0"), quiet=True)
        self.ctx = rt.mtlrt_context_create(ctypes.byref(opts))
        if not self.ctx:
            raise DeviceError("cannot create a Vulkan context:\n" + self.diag.new_text().rstrip())
        self.device_name = rt.mtlrt_context_device_name(self.ctx).decode()
        self.simd_subgroup_size = rt.mtlrt_context_simd_subgroup_size(self.ctx)
        self.push_constant_words = bool(rt.mtlrt_context_push_constant_words(self.ctx))
        self.lock = threading.RLock()

    def error(self, what):
        """A DeviceError carrying the runtime's messages since the last call."""
        text = self.diag.new_text().rstrip()
        return DeviceError(what + (":\n" + text if text else ""))

    def validation_messages(self):
        return rt.mtlrt_context_validation_messages(self.ctx)


_runtime = None
_runtime_lock = threading.Lock()


def runtime():
    global _runtime
    if _runtime is None:
        with _runtime_lock:
            if _runtime is None:
                _runtime = Runtime()
    return _runtime


def translate(path, text, only_entry=None, sources=None, subgroup_size=0, push_constant_words=False):
    """Translate Metal TEXT (named PATH in diagnostics). Returns ({entry: (glsl, reflect_json)}, diagnostics);
    raises TranslationError when anything failed."""
    diag = MemStream()
    src_list = None
    if sources:
        flat = [s.encode() for pair in sources for s in pair] + [None]
        src_list = (ctypes.c_char_p * len(flat))(*flat)
    gd = _grammar_dir()
    opts = M2gOptions(grammar_dir=gd.encode() if gd else None,
                      only_entry=only_entry.encode() if only_entry else None, diag=diag.file,
                      subgroup_size=subgroup_size, sources=src_list, push_constant_words=push_constant_words)
    res = m2g.m2g_translate_source(path.encode(), text.encode(), ctypes.byref(opts))
    if not res:
        diag.close()
        raise MemoryError("mtl2glsl: out of memory translating %s" % path)
    try:
        r = res.contents
        entries = {}
        failed = []
        for i in range(r.n_entries):
            e = r.entries[i]
            name = e.name.decode()
            if e.glsl and e.reflect_json:
                entries[name] = (e.glsl.decode(), e.reflect_json.decode())
            else:
                failed.append(name)
        n_errors, parse_failed = r.n_errors, r.parse_failed
    finally:
        m2g.m2g_result_free(res)
    text_diag = diag.close()
    if parse_failed or n_errors or failed:
        what = "cannot parse %s" % path if parse_failed else "translation of %s failed" % path
        if failed:
            what += " (entry point%s %s)" % ("s" if len(failed) > 1 else "", ", ".join(failed))
        raise TranslationError(what, text_diag)
    return entries, text_diag
