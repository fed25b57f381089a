"""Errors are Python exceptions: the translator's located diagnostics (file:line:col, source line, caret) for bad
Metal in each convention, the runtime's messages, and argument errors naming the parameter."""
import numpy as np
import pytest

import mtl2glsl


def lines(e):
    return str(e.value).splitlines()


def test_compile_shader_diagnostic_is_located():
    src = """#include <metal_stdlib>
using namespace metal;
kernel void f(device float* x, uint i [[thread_position_in_grid]]) {
    x[i] = not_a_function(x[i]);
}"""
    with pytest.raises(mtl2glsl.TranslationError) as e:
        mtl2glsl.compile_shader(src)
    assert "compile_shader:4:12: error: use of undeclared identifier 'not_a_function'" in e.value.diagnostics
    ls = lines(e)
    i = ls.index("compile_shader:4:12: error: use of undeclared identifier 'not_a_function'")
    assert ls[i + 1] == "    x[i] = not_a_function(x[i]);" and ls[i + 2] == "           ^"


def test_unsupported_metal_is_an_error_not_output():
    with pytest.raises(mtl2glsl.TranslationError) as e:
        mtl2glsl.compile_shader("#include <metal_stdlib>\nusing namespace metal;\n"
                                "kernel void f(device long* x, uint i [[thread_position_in_grid]]) { x[i] = simd_sum(x[i]); }")
    assert "compile_shader:3:76: error: simd_sum on long is not supported yet" in str(e.value)


def test_metal_kernel_diagnostic_points_into_the_body():
    k = mtl2glsl.metal_kernel("bad_body", ["x"], ["out"], "uint i = thread_position_in_grid.x;\nout[i] = x[i] +* 2;")
    with pytest.raises(mtl2glsl.TranslationError) as e:
        k(inputs=[np.ones(10, np.float32)], grid=(10, 1, 1), threadgroup=(10, 1, 1), output_shapes=[(10,)],
          output_dtypes=[np.float32])
    ls = lines(e)
    i = ls.index("bad_body(source):2:16: error: indirection requires pointer operand ('int' invalid)")
    assert ls[i + 1:i + 3] == ["out[i] = x[i] +* 2;", "               ^"]


def test_metal_kernel_header_diagnostic():
    k = mtl2glsl.metal_kernel("bad_header", ["x"], ["out"], "out[0] = helper(x[0]);",
                              header="float helper(float v) { return v + undefined_y; }")
    with pytest.raises(mtl2glsl.TranslationError) as e:
        k(inputs=[np.ones(10, np.float32)], grid=(1, 1, 1), threadgroup=(1, 1, 1), output_shapes=[(1,)],
          output_dtypes=["float32"])
    assert "bad_header(header):1:36: error: use of undeclared identifier 'undefined_y'" in str(e.value)


def test_coreai_diagnostic_points_into_src():
    from mtl2glsl.coreai import MetalParameter, TorchMetalKernel
    torch = pytest.importorskip("torch")
    k = TorchMetalKernel("bad_src", ["x"], ["y"], "y[id] = x[id] * ;",
                         metal_params=[MetalParameter("id", "uint", "thread_position_in_grid")])
    with pytest.raises(mtl2glsl.TranslationError) as e:
        k(torch.ones(4), threads_per_grid=(4, 1, 1), threads_per_thread_group=(4, 1, 1), result_shapes=[[4]])
    assert "bad_src(src):1:17: error: expected expression" in str(e.value)


def test_coreai_bad_attribute_names_the_field():
    from mtl2glsl.coreai import MetalParameter, TorchMetalKernel
    torch = pytest.importorskip("torch")
    k = TorchMetalKernel("bad_attr", ["x"], ["y"], "y[id] = x[id];",
                         metal_params=[MetalParameter("id", "uint", "thread_position_in_grids")])
    with pytest.raises(mtl2glsl.TranslationError) as e:
        k(torch.ones(4), threads_per_grid=(4, 1, 1), threads_per_thread_group=(4, 1, 1), result_shapes=[[4]])
    assert "bad_attr: error: field 'metal_params[0].attribute': 'thread_position_in_grids' is not a Metal thread " \
           "attribute" in str(e.value)


LIB_SRC = """#include <metal_stdlib>
using namespace metal;
kernel void g(device float* x, constant uint& n, uint i [[thread_position_in_grid]]) { if (i < n) x[i] = 1; }
kernel void tgm(device float* x, threadgroup float* scratch [[threadgroup(0)]],
                uint i [[thread_position_in_grid]], uint t [[thread_position_in_threadgroup]]) {
    scratch[t] = float(i);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    x[i] = scratch[t];
}"""


def test_argument_errors_name_the_parameter():
    lib = mtl2glsl.compile_shader(LIB_SRC)
    with pytest.raises(TypeError, match=r"argument 0 \(x\) of kernel g: expected float32 data for `device float\* x`"
                                        r", got int32"):
        lib.g(np.ones(4, np.int32), 3)
    with pytest.raises(OverflowError, match=r"argument 1 \(n\) of kernel g: -3 does not fit Metal uint"):
        lib.g(np.ones(4, np.float32), -3)
    with pytest.raises(TypeError, match=r"kernel g takes 2 arguments \(buffers 0 \(x\), 1 \(n\)\), got 1"):
        lib.g(np.ones(4, np.float32))
    with pytest.raises(ValueError, match="threadgroup 2000x1x1 has more than its 1024 threads"):
        lib.g(np.ones(4, np.float32), 3, group_size=2000)
    with pytest.raises(AttributeError, match="the library has no kernel 'h'"):
        lib.h


def test_runtime_message_becomes_device_error():
    lib = mtl2glsl.compile_shader(LIB_SRC)
    with pytest.raises(mtl2glsl.DeviceError) as e:  # [[threadgroup(0)]] needs a size: the runtime says so
        lib.tgm(np.zeros(64, np.float32), threads=64, group_size=32)
    assert "kernel tgm: dispatch failed" in str(e.value) and "threadgroup" in str(e.value)
    x = np.zeros(64, np.float32)
    lib.tgm(x, threads=64, group_size=32, threadgroup_memory={0: 32 * 4})
    np.testing.assert_array_equal(x, np.arange(64))


def test_bad_dtype_names():
    with pytest.raises(ValueError, match="unknown dtype 'float33'"):
        mtl2glsl.dtype("float33")
    with pytest.raises(ValueError, match="dtype float64 has no Metal type"):
        mtl2glsl.dtype(np.float64)
