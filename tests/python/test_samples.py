"""samples/python/*: each kernel of the three styles against a reference written here, in NumPy or torch on the CPU
(not from the kernels' code). Outputs are poisoned before each run (conftest.py)."""
import math

import numpy as np
import pytest

import mtl2glsl

torch = pytest.importorskip("torch")


# ---- references ----

def ref_gelu(x):
    x = x.astype(np.float64)
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def ref_rmsnorm(x, w, eps):
    x = x.astype(np.float64)
    return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps) * w


def ref_softmax(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def ref_rope_half(x, positions, base=10000.0):
    """Rotate-half RoPE of x (B, H, S, D) at POSITIONS (S,)."""
    D = x.shape[-1]
    inv = base ** (-np.arange(0, D, 2, dtype=np.float64) / D)
    ang = positions.astype(np.float64)[:, None] * inv[None, :]
    c, s = np.cos(ang), np.sin(ang)
    x1, x2 = x[..., :D // 2].astype(np.float64), x[..., D // 2:].astype(np.float64)
    return np.concatenate([x1 * c - x2 * s, x1 * s + x2 * c], axis=-1)


def quantize4(rng, N, K, group):
    """Random 4-bit weights: codes (N, K) in 0..15, per-group float16 scales and biases."""
    q = rng.integers(0, 16, (N, K)).astype(np.uint8)
    scales = rng.uniform(0.01, 0.1, (N, K // group)).astype(np.float16)
    biases = rng.uniform(-0.5, 0.5, (N, K // group)).astype(np.float16)
    w = np.repeat(scales.astype(np.float64), group, axis=1) * q + np.repeat(biases.astype(np.float64), group, axis=1)
    return q, scales, biases, w


def close(got, want, rtol, atol):
    got = np.asarray(got, dtype=np.float64)
    assert not np.isnan(got).any(), "NaN (poison) left in the output"
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


# ---- MLX style (samples/python/mlx_kernels.py) ----

@pytest.fixture(scope="module")
def mlx_s():
    import mlx_kernels
    return mlx_kernels


@pytest.mark.parametrize("dt", ["float32", "float16", "bfloat16"])
def test_mlx_gelu(mlx_s, rng, dt):
    x = rng.uniform(-4, 4, 1000).astype(np.float32)
    xa = mtl2glsl.array(x, dt)
    y = mlx_s.gelu(xa)
    assert y.dtype == dt and y.shape == (1000,)
    xin = np.asarray(xa).astype(np.float64)  # the input as rounded to DT
    tol = {"float32": 1e-5, "float16": 2e-3, "bfloat16": 1.6e-2}[dt]
    close(y, ref_gelu(xin), tol, tol)


@pytest.mark.parametrize("rows,d", [(6, 300), (3, 20), (1, 4096)])
def test_mlx_rmsnorm(mlx_s, rng, rows, d):
    x = rng.standard_normal((rows, d)).astype(np.float32)
    w = rng.uniform(0.5, 1.5, d).astype(np.float32)
    close(mlx_s.rmsnorm(mtl2glsl.mlx.array(x), w, 1e-5), ref_rmsnorm(x, w, 1e-5), 1e-5, 1e-6)


@pytest.mark.parametrize("shape,dt,threads", [((3, 1000), "float32", 128), ((2, 5, 77), "float16", 64),
                                             ((4, 2048), "float32", 1024)])
def test_mlx_softmax(mlx_s, rng, shape, dt, threads):
    x = rng.standard_normal(shape).astype(np.float32) * 3
    xa = mtl2glsl.array(x, dt)
    tol = 1e-5 if dt == "float32" else 2e-3
    close(mlx_s.softmax(xa, threads), ref_softmax(np.asarray(xa)), tol, 1e-6 if dt == "float32" else 1e-4)


def test_mlx_rope(mlx_s, rng):
    x = rng.standard_normal((2, 3, 16, 64)).astype(np.float32)
    pos = np.arange(5, 21).astype(np.int32)
    close(mlx_s.rope(x, pos), ref_rope_half(x, pos), 2e-5, 2e-5)


@pytest.mark.parametrize("N,K,group", [(64, 512, 32), (7, 256, 64)])
def test_mlx_qmv(mlx_s, rng, N, K, group):
    q, scales, biases, w = quantize4(rng, N, K, group)
    packed = (q[:, 0::2] | (q[:, 1::2] << 4)).astype(np.uint8)
    x = rng.standard_normal(K).astype(np.float32)
    close(mlx_s.qmv(packed, scales, biases, x, group), w @ x.astype(np.float64), 1e-4, 1e-4)


def test_mlx_pipeline_stays_on_device(mlx_s, rng):
    keys_np = rng.integers(0, 100, 5000).astype(np.uint32)
    keys = mtl2glsl.mlx.array(keys_np)
    counts, offsets, sorted_keys, order = mlx_s.counting_sort(keys, 100)
    for a in (counts, offsets, sorted_keys, order):  # every result is a device array, never copied to the host
        assert isinstance(a, mtl2glsl.DeviceArray)
    want_counts = np.bincount(keys_np, minlength=100)
    np.testing.assert_array_equal(np.asarray(counts), want_counts)
    np.testing.assert_array_equal(np.asarray(offsets), np.concatenate([[0], np.cumsum(want_counts)[:-1]]))
    np.testing.assert_array_equal(np.asarray(sorted_keys), np.sort(keys_np))
    o = np.asarray(order)
    np.testing.assert_array_equal(np.sort(o), np.arange(5000))
    np.testing.assert_array_equal(keys_np[o], np.sort(keys_np))


def test_mlx_bfloat(mlx_s, rng):
    x = rng.standard_normal(300).astype(np.float32)
    xb = mtl2glsl.array(x, mtl2glsl.bfloat16)
    y = mlx_s.axpb_bf16(xb, 1.5, -0.25)
    assert y.dtype == mtl2glsl.bfloat16
    want = 1.5 * np.asarray(xb).astype(np.float64) - 0.25
    close(y, want, 8e-3, 1e-6)
    # bfloat16 results are the float results rounded to bfloat16, exactly
    np.testing.assert_array_equal(y.numpy(raw=True), mtl2glsl.float32_to_bfloat16_bits(
        (np.float32(1.5) * np.asarray(xb) + np.float32(-0.25)).astype(np.float32)))


# ---- torch.mps.compile_shader style (samples/python/torch_kernels.py) ----

@pytest.fixture(scope="module")
def torch_s():
    import torch_kernels
    return torch_kernels


@pytest.mark.parametrize("dt", [torch.float32, torch.float16])
def test_torch_silu(torch_s, poisoned_torch, dt):
    x = torch.linspace(-6, 6, 1001).to(dt)
    y = torch_s.silu(x)
    want = torch.nn.functional.silu(x.double())
    tol = 1e-6 if dt == torch.float32 else 2e-3
    close(y.double().numpy(), want.numpy(), tol, tol)


@pytest.mark.parametrize("rows,dim,group", [(5, 1000, 128), (3, 33, 64), (2, 4096, 1024)])
def test_torch_rmsnorm(torch_s, poisoned_torch, rows, dim, group):
    g = torch.Generator().manual_seed(1)
    x, w = torch.randn(rows, dim, generator=g), torch.rand(dim, generator=g) + 0.5
    want = x.double() / torch.sqrt(x.double().pow(2).mean(-1, keepdim=True) + 1e-5) * w.double()
    close(torch_s.rmsnorm(x, w, 1e-5, group).numpy(), want.numpy(), 1e-5, 1e-6)


@pytest.mark.parametrize("rows,n", [(4, 1000), (9, 31)])
def test_torch_softmax(torch_s, poisoned_torch, rows, n):
    x = torch.randn(rows, n, generator=torch.Generator().manual_seed(2)) * 4
    close(torch_s.softmax(x).numpy(), torch.softmax(x.double(), -1).numpy(), 1e-5, 1e-7)


def test_torch_rope(torch_s, poisoned_torch):
    BH, S, D = 6, 10, 32
    q = torch.randn(BH, S, D, generator=torch.Generator().manual_seed(3))
    ang = torch.arange(S, dtype=torch.float64)[:, None] * (10000.0 ** (-torch.arange(0, D, 2) / D))[None, :]
    cos_t, sin_t = torch.cos(ang).float(), torch.sin(ang).float()
    qc = torch.view_as_complex(q.double().reshape(BH, S, D // 2, 2).contiguous())
    want = torch.view_as_real(qc * torch.polar(torch.ones_like(ang), ang)).reshape(BH, S, D)
    close(torch_s.rope(q, cos_t, sin_t).numpy(), want.numpy(), 1e-5, 1e-5)


def test_torch_qmv4(torch_s, poisoned_torch, rng):
    N, K, group = 33, 512, 32
    q, scales, biases, w = quantize4(rng, N, K, group)
    words = (q[:, 0::4].astype(np.uint16) | (q[:, 1::4].astype(np.uint16) << 4) |
             (q[:, 2::4].astype(np.uint16) << 8) | (q[:, 3::4].astype(np.uint16) << 12))
    x = rng.standard_normal(K).astype(np.float32)
    y = torch_s.qmv4(torch.from_numpy(words.view(np.int16)), torch.from_numpy(scales), torch.from_numpy(biases),
                     torch.from_numpy(x), group)
    close(y.numpy(), w @ x.astype(np.float64), 1e-4, 1e-4)


@pytest.mark.parametrize("on_device", [True, False])
def test_torch_pipeline(torch_s, rng, on_device):
    n, bins = 3000, 256
    keys_np = rng.integers(0, bins, n).astype(np.uint32)
    if on_device:  # DeviceArrays: the three kernels pass them along with no copy to the host
        z = mtl2glsl.zeros
        keys, counts, offsets, cursor = mtl2glsl.array(keys_np), z(bins, "uint32"), z(bins, "uint32"), \
            z(bins, "uint32")
        sorted_keys, order = mtl2glsl.full(n, 0xA5A5A5A5, "uint32"), mtl2glsl.full(n, 0xA5A5A5A5, "uint32")
    else:  # torch tensors (int32: torch 1.13 has no uint32), copied in and written back by each call
        keys = torch.from_numpy(keys_np.view(np.int32))
        counts, offsets, cursor = (torch.zeros(bins, dtype=torch.int32) for _ in range(3))
        sorted_keys, order = torch.full((n,), -1, dtype=torch.int32), torch.full((n,), -1, dtype=torch.int32)
    torch_s.counting_sort(keys, counts, offsets, cursor, sorted_keys, order)
    host = (lambda a: np.asarray(a).view(np.uint32)) if on_device else (lambda t: t.numpy().view(np.uint32))
    want = np.bincount(keys_np, minlength=bins)
    np.testing.assert_array_equal(host(counts), want)
    np.testing.assert_array_equal(host(offsets), np.concatenate([[0], np.cumsum(want)[:-1]]))
    np.testing.assert_array_equal(host(sorted_keys), np.sort(keys_np))
    np.testing.assert_array_equal(keys_np[host(order)], np.sort(keys_np))


def test_torch_bfloat(torch_s, poisoned_torch):
    x = torch.randn(777, generator=torch.Generator().manual_seed(4)).to(torch.bfloat16)
    y = torch_s.scale_bf16(x, 0.75)
    assert y.dtype == torch.bfloat16
    assert torch.equal(y, (x.float() * 0.75).to(torch.bfloat16))


# ---- Core AI style (samples/python/coreai_kernels.py) ----

@pytest.fixture(scope="module")
def coreai_s():
    import coreai_kernels
    return coreai_kernels


def test_coreai_add(coreai_s):
    g = torch.Generator().manual_seed(5)
    x, y = torch.randn(1000, generator=g), torch.randn(1000, generator=g)
    out = coreai_s.vector_add(x, y, threads_per_grid=(1000, 1, 1), threads_per_thread_group=(128, 1, 1),
                              result_shapes=[[1000]])
    assert isinstance(out, torch.Tensor) and out.dtype == torch.float32
    assert torch.equal(out, x + y)


def test_coreai_sincos(coreai_s):
    x = torch.linspace(-10, 10, 999)
    s, c = coreai_s.sincos(x, threads_per_grid=(1024, 1, 1), threads_per_thread_group=(256, 1, 1),
                           result_shapes=[[999], [999]])
    close(s.numpy(), np.sin(x.double().numpy()), 1e-6, 1e-6)
    close(c.numpy(), np.cos(x.double().numpy()), 1e-6, 1e-6)


@pytest.mark.parametrize("dt,tol", [(torch.float32, 1e-5), (torch.float16, 2e-3), (torch.bfloat16, 1.6e-2)])
def test_coreai_typed_matmul(coreai_s, dt, tol):
    g = torch.Generator().manual_seed(6)
    a, b = torch.randn(21, 13, generator=g).to(dt), torch.randn(13, 30, generator=g).to(dt)
    c = coreai_s.matmul(a, b, threads_per_grid=(32, 24, 1), threads_per_thread_group=(8, 8, 1),
                        result_shapes=[[21, 30]])
    assert c.dtype == dt  # from torch_defn
    close(c.double().numpy(), (a.double() @ b.double()).numpy(), tol, tol)


def test_coreai_module(coreai_s):
    g = torch.Generator().manual_seed(7)
    a, b, bias = torch.randn(5, 7, generator=g), torch.randn(7, 3, generator=g), torch.randn(5, 3, generator=g)
    close(coreai_s.AddThenMatmul()(a, b, bias).numpy(), (a.double() @ b.double() + bias.double()).numpy(),
          1e-5, 1e-5)
