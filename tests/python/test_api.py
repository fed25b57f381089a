"""The package's behaviour as each convention defines it: compile_shader's argument binding, defaults and write-back,
metal_kernel's generated signature (templates, 0-d and small inputs, shapes/strides, init_value, atomics),
TorchMetalKernel's result dtypes, device arrays, dtypes, caching, verbose output and the timing helper."""
import numpy as np
import pytest

import mtl2glsl
from mtl2glsl import _compile

HEADER = "#include <metal_stdlib>\nusing namespace metal;\n"


def poisoned(shape, dtype=np.float32):
    a = np.empty(shape, dtype)
    a.view(np.uint8)[...] = 0xFF if np.dtype(dtype).kind == "f" else 0xA5  # NaN for floats
    return a


# ---- compile_shader ----

def test_threads_default_to_first_tensor_and_write_back():
    lib = mtl2glsl.compile_shader(HEADER + """
kernel void fill_index(device uint* out, device const float* unused, uint i [[thread_position_in_grid]]) {
    out[i] = i * 3;
}""")
    out = poisoned(1000, np.uint32)
    lib.fill_index(out, np.zeros(5, np.float32))  # threads = out.size (the first tensor), not 5
    np.testing.assert_array_equal(out, np.arange(1000) * 3)
    k = lib.fill_index
    assert (k.max_threads_per_threadgroup, k.thread_execution_width, k.static_thread_group_memory_length) == \
        (1024, 32, 0)


def test_scalars_lists_and_casts_are_packed_to_the_parameter_types():
    lib = mtl2glsl.compile_shader(HEADER + """
struct P { float a; int b; };
kernel void pack(device float* out, constant half* h, constant uint3& dims, constant uint& flag,
                 constant long& big, constant P& p, constant float* table, uint i [[thread_position_in_grid]]) {
    out[0] = float(h[0]); out[1] = float(dims.x + dims.y + dims.z); out[2] = flag ? 1.0f : -1.0f;
    out[3] = float(big >> 32); out[4] = p.a + float(p.b); out[5] = table[0] + table[1] + table[2];
}""")
    out = poisoned(6)
    p = np.array([(1.5, 2)], dtype=[("a", "<f4"), ("b", "<i4")]).tobytes()
    lib.pack(out, 0.25, [1, 2, 3], True, 5 << 32, p, [1.0, 2.0, 4.0], threads=1)
    np.testing.assert_array_equal(out, [0.25, 6, 1, 5, 3.5, 7])
    out = poisoned(6)
    lib.pack(out, 0.1, [1, 2, 3], False, 0, p, [1.0, 2.0, 4.0], threads=1, arg_casts={1: "fp16"})
    assert out[0] == np.float32(np.float16(0.1)) and out[2] == -1


def test_group_size_and_multi_dimensional_threads():
    lib = mtl2glsl.compile_shader(HEADER + """
kernel void where(device uint* out, constant uint& w, uint2 p [[thread_position_in_grid]],
                  uint2 tg [[threads_per_threadgroup]], uint2 grid [[threads_per_grid]]) {
    out[p.y * w + p.x] = tg.x * 1000000 + tg.y * 10000 + grid.x * 100 + grid.y;
}""")
    out = poisoned((7, 9), np.uint32)
    lib.where(out, 9, threads=(9, 7), group_size=(4, 2))
    got = out.astype(np.int64)
    assert ((got % 10000) == 907).all()  # threads_per_grid is the grid asked for (dispatchThreads)
    assert set(np.unique(got // 10000)) <= {402, 401, 102, 101}  # full or partial threadgroups of 4x2
    out2 = poisoned((7, 9), np.uint32)
    lib.where(out2, 9, threads=(9, 7))  # group_size defaults to (max_threads, 1, 1), as torch's
    assert ((out2.astype(np.int64) % 10000) == 907).all()


def test_torch_tensors_written_in_place_and_device_arrays_stay():
    torch = pytest.importorskip("torch")
    lib = mtl2glsl.compile_shader(HEADER + """
kernel void add1(device float* x, uint i [[thread_position_in_grid]]) { x[i] += 1.0f; }""")
    t = torch.arange(10, dtype=torch.float32)
    col = torch.arange(12, dtype=torch.float32).reshape(3, 4)[:, 1]  # not contiguous: copied in and back
    lib.add1(t)
    lib.add1(col)
    assert torch.equal(t, torch.arange(10, dtype=torch.float32) + 1)
    assert torch.equal(col, torch.tensor([2.0, 6.0, 10.0]))
    d = mtl2glsl.array(np.zeros(10, np.float32))
    for _ in range(3):
        lib.add1(d)
    np.testing.assert_array_equal(np.asarray(d), 3)


def test_complex64_is_float2():
    lib = mtl2glsl.compile_shader(HEADER + """
kernel void cmul(device const float2* a, device const float2* b, device float2* c, uint i [[thread_position_in_grid]]) {
    c[i] = float2(a[i].x * b[i].x - a[i].y * b[i].y, a[i].x * b[i].y + a[i].y * b[i].x);
}""")
    rng = np.random.default_rng(1)
    a = (rng.standard_normal(100) + 1j * rng.standard_normal(100)).astype(np.complex64)
    b = (rng.standard_normal(100) + 1j * rng.standard_normal(100)).astype(np.complex64)
    c = np.full(100, np.nan, np.complex64)
    lib.cmul(a, b, c)
    np.testing.assert_allclose(c, a * b, rtol=1e-5, atol=1e-6)
    k = mtl2glsl.metal_kernel("conj", ["z"], ["out"], "uint i = thread_position_in_grid.x;\n"
                              "out[i] = complex64_t(z[i].x, -z[i].y);")
    out = k(inputs=[a], grid=(100, 1, 1), threadgroup=(32, 1, 1), output_shapes=[a.shape],
            output_dtypes=[mtl2glsl.complex64])[0]
    np.testing.assert_array_equal(np.asarray(out), np.conj(a))


def test_translation_is_cached_per_source():
    src = HEADER + "kernel void once(device float* x, uint i [[thread_position_in_grid]]) { x[i] = 7; }\n"
    n = len(_compile._translations)
    a, b = mtl2glsl.compile_shader(src), mtl2glsl.compile_shader(src)
    assert len(_compile._translations) == n + 1
    x = np.zeros(4, np.float32)
    a.once(x)
    b.once(x)
    np.testing.assert_array_equal(x, 7)


def test_verbose_prints_glsl(capsys):
    lib = mtl2glsl.compile_shader(HEADER + "kernel void v(device float* x, uint i [[thread_position_in_grid]]) "
                                  "{ x[i] = 1; }", verbose=True)
    assert "#version 450" in capsys.readouterr().err
    assert "void main()" in lib.v.glsl


# ---- metal_kernel ----

def test_mlx_templates_small_and_0d_inputs_and_shapes():
    k = mtl2glsl.metal_kernel(
        "mix", ["x", "lut", "scale"], ["out"],
        """uint i = thread_position_in_grid.x;
           if (FLIP) out[i] = T(N) * scale * x[i] + lut[i % 3];
           else out[i] = x[i] + T(x_ndim) + T(x_shape[0]);""")
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    lut = np.array([10, 20, 30], np.float32)  # fewer than 8 elements: `const constant float* lut`
    r = k(inputs=[x, lut, np.float32(0.5)], template=[("T", mtl2glsl.float32), ("N", 4), ("FLIP", True)],
          grid=(12, 1, 1), threadgroup=(5, 1, 1), output_shapes=[(3, 4)], output_dtypes=["float32"])[0]
    np.testing.assert_array_equal(np.asarray(r), (2 * x.ravel() + np.tile(lut, 4)).reshape(3, 4))
    r = k(inputs=[x, lut, np.float32(0.5)], template=[("T", "float32"), ("N", 4), ("FLIP", False)],
          grid=(12, 1, 1), threadgroup=(64, 1, 1), output_shapes=[(3, 4)], output_dtypes=[np.float32])[0]
    np.testing.assert_array_equal(np.asarray(r), x + 2 + 3)
    assert len(k._variants) == 2  # one translation per template
    src = k._variants[next(iter(k._variants))][0].metal
    assert "const constant float* lut" in src and "const constant float& scale" in src
    assert "custom_kernel_mix_float_4_true(" in src


def test_mlx_strided_input_bound_as_stored():
    k = mtl2glsl.metal_kernel(
        "strided", ["x"], ["out"],
        """uint2 p = thread_position_in_grid.xy;   // out (rows, cols) = x as the view sees it
           out[p.y * uint(x_shape[1]) + p.x] = x[p.y * x_strides[0] + p.x * x_strides[1]];""",
        ensure_row_contiguous=False)
    base = np.arange(30, dtype=np.float32).reshape(5, 6)
    view = base.T  # (6, 5), strides (1, 6) elements
    r = k(inputs=[view], grid=(5, 6, 1), threadgroup=(4, 4, 1), output_shapes=[(6, 5)],
          output_dtypes=[mtl2glsl.float32])[0]
    np.testing.assert_array_equal(np.asarray(r), view)


def test_mlx_init_value_and_atomic_outputs():
    k = mtl2glsl.metal_kernel("hist", ["v"], ["h"],
                              "atomic_fetch_add_explicit(&h[v[thread_position_in_grid.x]], 1, memory_order_relaxed);",
                              atomic_outputs=True)
    v = np.random.default_rng(2).integers(0, 10, 1000).astype(np.int32)
    h = k(inputs=[v], grid=(1000, 1, 1), threadgroup=(128, 1, 1), output_shapes=[(10,)],
          output_dtypes=[mtl2glsl.int32], init_value=5)[0]
    np.testing.assert_array_equal(np.asarray(h), np.bincount(v, minlength=10) + 5)


def test_mlx_threadgroup_clamped_to_grid():
    k = mtl2glsl.metal_kernel("tg", [], ["out"], "out[0] = threads_per_threadgroup.x;")
    r = k(inputs=[], grid=(3, 1, 1), threadgroup=(256, 1, 1), output_shapes=[(1,)], output_dtypes=["uint32"])[0]
    assert np.asarray(r)[0] == 3


def test_mlx_verbose_prints_metal_and_glsl(capsys):
    k = mtl2glsl.metal_kernel("verbose_k", ["x"], ["y"], "y[thread_position_in_grid.x] = x[thread_position_in_grid.x];")
    k(inputs=[np.ones(4, np.float32)], grid=(4, 1, 1), threadgroup=(4, 1, 1), output_shapes=[(4,)],
      output_dtypes=["float32"], verbose=True)
    err = capsys.readouterr().err
    assert "[[kernel]] void custom_kernel_verbose_k(" in err and "#version 450" in err


# ---- device arrays and dtypes ----

def test_device_arrays_and_bfloat16_for_numpy():
    x = np.array([1.0, 1.00390625, 3.14159, -2.5e-3, np.inf], np.float32)
    b = mtl2glsl.array(x, mtl2glsl.bfloat16)
    assert b.dtype == "bfloat16" and b.shape == (5,) and b.nbytes == 10
    np.testing.assert_array_equal(b.numpy(raw=True), [0x3F80, 0x3F80, 0x4049, 0xBB24, 0x7F80])
    np.testing.assert_array_equal(np.asarray(b), mtl2glsl.bfloat16_bits_to_float32(b.numpy(raw=True)))
    assert mtl2glsl.dtype("half") is mtl2glsl.float16 and mtl2glsl.float32 == np.float32
    z = mtl2glsl.zeros((2, 3), "int32")
    assert z.tolist() == [[0, 0, 0], [0, 0, 0]] and z.reshape(3, 2).shape == (3, 2)
    torch = pytest.importorskip("torch")
    t = b.torch()
    assert t.dtype == torch.bfloat16 and torch.equal(t.float(), torch.from_numpy(np.asarray(b)))


# ---- TorchMetalKernel ----

def test_coreai_result_dtypes():
    torch = pytest.importorskip("torch")
    from mtl2glsl.coreai import MetalParameter, TorchMetalKernel
    k = TorchMetalKernel("halve", ["x"], ["y", "n"], "y[i] = x[i] / 2; n[i] = int(x[i]);",
                         torch_defn=lambda x: (x / 2, x.to(torch.int32)),
                         metal_params=[MetalParameter("i", "uint", "thread_position_in_grid")])
    x = torch.arange(8, dtype=torch.float16)
    y, n = k(x, threads_per_grid=(8, 1, 1), threads_per_thread_group=(8, 1, 1), result_shapes=[[8], [8]])
    assert y.dtype == torch.float16 and n.dtype == torch.int32
    assert torch.equal(y, x / 2) and torch.equal(n, x.int())
    k2 = TorchMetalKernel("copy", ["x"], ["y"], "y[i] = x[i];",
                          metal_params=[MetalParameter("i", "uint", "thread_position_in_grid")])
    y = k2(x.float(), threads_per_grid=(8, 1, 1), threads_per_thread_group=(8, 1, 1), result_shapes=[[8]],
           result_dtypes=[torch.float32])
    assert y.dtype == torch.float32


# ---- timing helper ----

def test_time_group_sizes():
    lib = mtl2glsl.compile_shader(HEADER + "kernel void t(device float* x, uint i [[thread_position_in_grid]]) "
                                  "{ x[i] = sqrt(float(i)); }")
    x = np.zeros(1 << 16, np.float32)
    res = mtl2glsl.time_group_sizes(lib.t, x, group_sizes=(32, 256, 2048), repeat=3, file=None)
    assert set(res) == {32, 256} and all(ms > 0 for ms in res.values())  # 2048 is over the limit: skipped
    np.testing.assert_allclose(x, np.sqrt(np.arange(1 << 16, dtype=np.float32)), rtol=1e-6)


def test_coreai_complex64_and_bfloat16_template():
    torch = pytest.importorskip("torch")
    from mtl2glsl.coreai import MetalParameter, TorchMetalKernel
    k = TorchMetalKernel("cscale", ["z", "w"], ["out"],
                         "out[i] = float2(z[i].x * w[i].x - z[i].y * w[i].y, z[i].x * w[i].y + z[i].y * w[i].x);",
                         torch_defn=lambda z, w: z * w,
                         metal_params=[MetalParameter("i", "uint", "thread_position_in_grid")])
    g = torch.Generator().manual_seed(8)
    z = torch.randn(50, generator=g, dtype=torch.complex64)
    w = torch.randn(50, generator=g, dtype=torch.complex64)
    out = k(z, w, threads_per_grid=(50, 1, 1), threads_per_thread_group=(16, 1, 1), result_shapes=[[50]])
    assert out.dtype == torch.complex64
    assert torch.allclose(out, z * w, rtol=1e-5, atol=1e-6)
