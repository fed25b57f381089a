"""mtl2glsl.golden: recording golden tests as a Mac script would, against stand-ins for torch.mps and MLX.

Apple's torch.mps.compile_shader and mlx.core.fast.metal_kernel cannot run here; the package's own
mtl2glsl.torch.compile_shader and mtl2glsl.mlx (which take the same calls) stand in for them, and a pure-NumPy fake
library shows that the recorder needs none of the package's libraries. Every golden the recorder writes is checked
against NumPy here, and every test file it writes is run by mtltest (env MTL2GLSL_MTLTEST, set by ctest).
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import mtl2glsl
import mtl2glsl.mlx as mx
import mtl2glsl.torch
from mtl2glsl import golden
from mtl2glsl.golden import Recorder, RecordingError

torch = pytest.importorskip("torch")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SOURCE = """#include <metal_stdlib>
using namespace metal;
kernel void axpy(device const float* x, device float* y, constant float& a, uint i [[thread_position_in_grid]]) {
    y[i] = a * x[i] + y[i];
}
kernel void scale(device const float* x, device float* y, constant float& a, uint i [[thread_position_in_grid]]) {
    y[i] = a * x[i];
}
kernel void scale_first_half(device const float* x, device float* y, uint i [[thread_position_in_grid]]) {
    if (i < 50) y[i] = 2.0f * x[i];
}
kernel void scale_half(device const half* x, device half* y, constant int& s, uint i [[thread_position_in_grid]]) {
    y[i] = x[i] * half(s);
}
kernel void bf_affine(device const bfloat* x, device bfloat* y, uint i [[thread_position_in_grid]]) {
    y[i] = bfloat(float(x[i]) * 2.0f + 1.0f);
}
kernel void compact(device const int* x, device int* out, device atomic_int* count, uint i [[thread_position_in_grid]]) {
    if (x[i] > 0) out[atomic_fetch_add_explicit(count, 1, memory_order_relaxed)] = x[i];
}
"""


def mtltest(*args):
    exe = os.environ.get("MTL2GLSL_MTLTEST") or os.path.join(os.environ.get("MTL2GLSL_LIBRARY_PATH", "build"),
                                                             "runtime", "mtltest")
    p = subprocess.run([exe] + list(args), capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def load(path):
    with open(path) as f:
        return json.load(f)


def test_compile_shader_recording(tmp_path):
    """lib.axpy(x, y, 2.5) as a torch script calls it: y updated in place, a test with the inputs, the dispatch
    torch chooses, and y's golden; read-only x is no output."""
    rec = Recorder(str(tmp_path), compile_shader=mtl2glsl.torch.compile_shader)
    lib = rec.compile_shader(SOURCE)
    x = torch.from_numpy(np.linspace(-1, 1, 300, dtype=np.float32))
    y = torch.from_numpy(np.arange(300, dtype=np.float32))
    y0 = y.numpy().copy()
    lib.axpy(x, y, 2.5)
    want = (np.float32(2.5) * x.numpy() + y0).astype(np.float32)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-6)  # the script's own result is unchanged
    doc = load(tmp_path / "axpy.golden.json")
    assert doc["mtltest"] == 1 and doc["kernel"]["entry"] == "axpy" and "\n".join(doc["kernel"]["text"]) == SOURCE
    assert doc["dispatch"] == {"threads": [300], "threadgroup": [300]}  # torch: threads = numel, group min(n, max)
    assert doc["buffers"]["2"] == {"value": 2.5} and set(doc["outputs"]) == {"1"}
    np.testing.assert_array_equal(np.load(tmp_path / doc["buffers"]["1"]["npy"]), y0)
    np.testing.assert_allclose(np.load(tmp_path / doc["outputs"]["1"]["golden"]), want, rtol=1e-6)
    lib.axpy(x, y, 1.0, threads=256, group_size=64)  # a second call: its own test, with the dispatch given
    doc2 = load(tmp_path / "axpy_2.golden.json")
    assert doc2["dispatch"] == {"threads": [256], "threadgroup": [64]}
    rc, out = mtltest("--validate", str(tmp_path))
    assert rc == 0 and "2 passed, 0 failed, 0 skipped" in out, out


def test_pure_outputs(tmp_path):
    """expect(outputs=[1]): y is recorded without data (mtltest poisons it), checked by a poisoned second run;
    a kernel that reads y, or leaves elements of it unwritten, is refused."""
    rec = Recorder(str(tmp_path), backend="mtl2glsl")
    rec.expect("scale", outputs=[1], tolerance={"1": {"ulp": 1}})
    rec.expect("axpy", outputs=[1])
    rec.expect("scale_first_half", outputs=[1])
    lib = rec.compile_shader(SOURCE)
    x = np.linspace(-3, 3, 100, dtype=np.float32)
    y = np.zeros(100, np.float32)
    lib.scale(x, y, 0.5)
    np.testing.assert_array_equal(y, x * np.float32(0.5))
    doc = load(tmp_path / "scale.golden.json")
    assert doc["buffers"]["1"] == {"dtype": "float32", "shape": [100]}
    assert doc["outputs"]["1"]["tolerance"] == {"ulp": 1}
    with pytest.raises(RecordingError, match="argument 1 is not a pure output"):
        lib.axpy(x, np.ones(100, np.float32), 2.0)
    with pytest.raises(RecordingError, match="argument 1 is not a pure output"):
        lib.scale_first_half(x, np.zeros(100, np.float32))
    rc, out = mtltest(str(tmp_path))
    assert rc == 0 and "1 passed" in out, out


def test_casts_half_bfloat_and_multisets(tmp_path):
    rec = Recorder(str(tmp_path), compile_shader=mtl2glsl.torch.compile_shader)
    rec.expect("compact", unordered=["1"])
    lib = rec.compile_shader(SOURCE)
    xh = torch.linspace(-2, 2, 64, dtype=torch.float16)
    yh = torch.zeros(64, dtype=torch.float16)
    lib.scale_half(xh, yh, 3, arg_casts={2: "int32"})
    doc = load(tmp_path / "scale_half.golden.json")
    assert doc["buffers"]["2"] == {"value": 3, "dtype": "int32"}
    np.testing.assert_array_equal(np.load(tmp_path / doc["outputs"]["1"]["golden"]),
                                  (xh.numpy() * np.float16(3)).astype(np.float16))
    xb = torch.linspace(-4, 4, 128).to(torch.bfloat16)
    yb = torch.zeros(128, dtype=torch.bfloat16)
    lib.bf_affine(xb, yb)
    doc = load(tmp_path / "bf_affine.golden.json")
    assert doc["buffers"]["0"]["dtype"] == "bfloat16" and doc["outputs"]["1"]["dtype"] == "bfloat16"
    bits = np.load(tmp_path / doc["outputs"]["1"]["golden"])
    assert bits.dtype == np.uint16
    want = golden.float32_to_bfloat16_bits(golden.bfloat16_bits_to_float32(
        np.load(tmp_path / doc["buffers"]["0"]["npy"])) * np.float32(2) + np.float32(1))
    np.testing.assert_array_equal(bits, want)
    x = torch.from_numpy(np.array([3, -1, 5, 0, 7, -2, 9, 4], np.int32))
    out = torch.full((8,), -1, dtype=torch.int32)
    count = torch.zeros(1, dtype=torch.int32)
    lib.compact(x, out, count)
    doc = load(tmp_path / "compact.golden.json")
    assert doc["outputs"]["1"]["unordered"] is True and set(doc["outputs"]) == {"1", "2"}
    assert sorted(np.load(tmp_path / doc["outputs"]["1"]["golden"]).tolist()) == [-1, -1, -1, 3, 4, 5, 7, 9]
    rc, out = mtltest(str(tmp_path))
    assert rc == 0 and "3 passed, 0 failed" in out, out


def test_metal_kernel_recording(tmp_path):
    """mx.fast.metal_kernel as an MLX script calls it: a kernel spec and a test per call."""
    rec = Recorder(str(tmp_path), metal_kernel=mx.fast.metal_kernel)
    k = rec.metal_kernel(name="myexp", input_names=["inp"], output_names=["out"],
                         source="uint e = thread_position_in_grid.x;\nout[e] = metal::exp(inp[e]) * T(S);")
    a = mx.array(np.linspace(-2, 2, 500, dtype=np.float32))
    out = k(inputs=[a], template=[("T", mx.float32), ("S", 3)], grid=(500, 1, 1), threadgroup=(128, 1, 1),
            output_shapes=[(500,)], output_dtypes=[mx.float32])[0]
    want = np.exp(np.linspace(-2, 2, 500, dtype=np.float32).astype(np.float64)) * 3
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-5)
    k(inputs=[a], template=[("T", mx.float32), ("S", 1)], grid=(500, 1, 1), threadgroup=(128, 1, 1),
      output_shapes=[(500,)], output_dtypes=[mx.float32], init_value=0)
    spec = load(tmp_path / "myexp.spec.json")
    assert spec["input_names"] == ["inp"] and spec["call"]["template"] == [["T", "float32"], ["S", 3]]
    assert spec["call"]["grid"] == [500, 1, 1] and spec["call"]["output_dtypes"] == ["float32"]
    assert load(tmp_path / "myexp_2.spec.json")["call"]["init_value"] == 0
    doc = load(tmp_path / "myexp.golden.json")
    assert doc["kernel"] == {"spec": "myexp.spec.json"} and set(doc["buffers"]) == {"inp"}
    np.testing.assert_allclose(np.load(tmp_path / doc["outputs"]["out"]["golden"]), want, rtol=1e-5)
    rc, out = mtltest("--validate", str(tmp_path))
    assert rc == 0 and "2 passed, 0 failed" in out, out


def test_recorder_without_the_libraries(tmp_path):
    """On a Mac: the package imports without its libraries, mtl2glsl.golden records, the rest says what is missing."""
    pkg = tmp_path / "pkg"
    os.makedirs(pkg)
    subprocess.run(["cp", "-r", os.path.join(ROOT, "python", "mtl2glsl"), str(pkg)], check=True)
    script = """
import numpy as np, sys
import mtl2glsl
from mtl2glsl.golden import Recorder
class FakeLibrary:  # a stand-in for torch.mps.compile_shader's library: its one kernel is NumPy
    max_threads_per_threadgroup = 1024
    def __init__(self, source):
        self.source = source
    def twice(self, x, y):
        y[:] = 2 * x
rec = Recorder(%r, compile_shader=FakeLibrary)
lib = rec.compile_shader("kernel void twice(device const float* x, device float* y, uint i [[thread_position_in_grid]]) { y[i] = 2 * x[i]; }")
x = np.arange(10, dtype=np.float32); y = np.zeros(10, np.float32)
lib.twice(x, y)
try:
    mtl2glsl.compile_shader
except ImportError as e:
    print("ImportError:", e)
""" % str(tmp_path / "rec")
    env = dict(os.environ, PYTHONPATH=str(pkg), MTL2GLSL_LIBRARY_PATH=str(tmp_path / "nowhere"))
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert p.returncode == 0, p.stderr
    assert "ImportError: mtl2glsl.compile_shader: mtl2glsl: cannot find libmtl2glsl.so" in p.stdout, p.stdout
    doc = load(tmp_path / "rec" / "twice.golden.json")
    np.testing.assert_array_equal(np.load(tmp_path / "rec" / doc["outputs"]["1"]["golden"]),
                                  2 * np.arange(10, dtype=np.float32))
    rc, out = mtltest(str(tmp_path / "rec"))
    assert rc == 0 and "1 passed" in out, out


def test_generate_matches_the_documented_definition():
    """uniform is SplitMix64 as docs/golden-tests.md defines it (mtltest's side: golden.runner's generator tests)."""
    seed, mask = 7, (1 << 64) - 1

    def splitmix(i):
        z = (seed + (i + 1) * 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    want = [np.float32(-1 + 2 * ((splitmix(i) >> 11) * 2.0 ** -53)) for i in range(5)]
    np.testing.assert_array_equal(golden.generate("uniform", "float32", (5,), seed=seed), want)
    with pytest.raises(ValueError, match="do not fit uint8"):
        golden.generate("arange", "uint8", (300,))


def test_golden_imports_without_the_libraries(tmp_path):
    """A Mac has numpy but none of our libraries: `from mtl2glsl import golden` must import there, and the rest of
    the package must say what is missing when used (a copy of the package where no build is beside it)."""
    import shutil
    shutil.copytree(os.path.join(ROOT, "python", "mtl2glsl"), tmp_path / "mtl2glsl",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("MTL2GLSL_LIBRARY_PATH", None)
    code = ("from mtl2glsl import golden\nimport mtl2glsl\n"
            "try:\n    mtl2glsl.compile_shader\nexcept ImportError as e:\n    print('missing:', e)\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=str(tmp_path), capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "missing: mtl2glsl.compile_shader: mtl2glsl: cannot find libmtl2glsl.so" in out.stdout
