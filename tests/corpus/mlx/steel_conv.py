#!/usr/bin/python3
"""MLX's implicit-GEMM 2-D convolution on SIMD-group matrices (kernels/steel/conv/kernels/steel_conv.metal, launched
by implicit_gemm_conv_2D_gpu in mlx/backend/metal/conv.cpp) against NumPy: out (N, oH, oW, O) from in (N, H, W, C)
and weights (O, kH, kW, C / groups), channels last, as mx.conv2d and mx.conv_general compute it: strides, kernel
dilation, low padding (the high padding only sizes the output), groups, and flip (the weights turned 180 degrees:
a true convolution, as conv_transpose asks for).

dispatch_conv_2D_gpu takes this route without input dilation when the channels fit the kernel (C <= 4 or C % 16 ==
0, and O <= 16 or O % 16 == 0; with groups: per group) and winograd does not apply (asserted per case). The
implicit GEMM is M = N * oH * oW, N = O / groups, K = kH * kW * C / groups; tiles bm 32 (64 from M 8192 with 64
channels a group), bn 64 if N >= 64 else 32, bk 16, wm = wn = 2, or bn 8, wm 4, wn 1 for N <= 16. Kernel
`implicit_gemm_conv_2d_<T>_bm.._bn.._bk16_wm.._wn.._channel_<l|1-4>_filter_<s|l>`: channel n for 1 to 4 channels a
group (whose K steps over kH * kW * 4 padded values), else l with the small filter (kH, kW <= 16: bounds as
bit masks per row) or the large one. Buffers: in 0, weights 1, out 2, MLXConvParams<2> 3 (C layout: 17 ints,
three int64[4] stride arrays at 72, groups, bool flip: 176 bytes), ImplicitGemmConv2DParams 4 (10 ints with the
host's input jumps). Threadgroups (32, wn, wm), grid (tiles_n, tiles_m, groups).

The weight loaders read whole bn-row tiles without a bound (bn 8 excepted): where O / groups is not a multiple of
bn, MLX's buffer ends and the last tile reads past it and drops the products. Here the weight buffer carries those
rows, filled with NaN: a dropped product that reached the output would show.

Inputs are multiples of 1/8 with few significant bits: every product and partial sum is exact in float32, the
accumulator, and half and bfloat16 outputs are that exact value rounded once: compared exactly."""
import struct

import numpy as np

from mlxcase import (EXACT, TNAME, Bytes, Out, conv_out_shape, conv_params, conv_reference, float_buffer,
                     implicit_gemm_tiles, reference, rng)

ref = reference("steel/conv/kernels/steel_conv.metal")
r = rng(1525)


def case(dt, N, H, W, C, O, k, st=(1, 1), pad=(0, 0), pad_hi=None, kdil=(1, 1), groups=1, flip=False, width=32):
    """A convolution of in (N, H, W, C) with weights (O, k[0], k[1], C / groups); PAD the low padding, PAD_HI the
    high one (default PAD)."""
    pad_hi = pad if pad_hi is None else pad_hi
    cpg, opg = C // groups, O // groups
    assert C % groups == 0 and O % groups == 0
    oS = conv_out_shape((H, W), k, st, pad, pad_hi, kdil, (1, 1))
    # dispatch_conv_2D_gpu: no input dilation, channels that fit, not depthwise, not winograd
    assert (cpg <= 4 or cpg % 16 == 0) and (opg <= 16 or opg % 16 == 0)
    assert groups == 1 or not (cpg == 1 and opg == 1)
    assert groups > 1 or flip or st != (1, 1) or kdil != (1, 1) or k != (3, 3) or C % 32 or O % 32 \
        or N * H * W < 4096 or C + O < 256, "winograd's route"
    # implicit_gemm_conv_2D_gpu's plan
    iM, iN, iK = N * oS[0] * oS[1], opg, k[0] * k[1] * cpg
    bm, bn, bk, wm, wn, tm, tn = implicit_gemm_tiles(iM, iN, cpg)
    n_chan = cpg if cpg <= 4 else 0
    if cpg <= 2:
        k_iters = -(-iK // bk)
    elif cpg <= 4:
        k_iters = -(-(k[0] * k[1] * 4) // bk)
    else:
        k_iters = k[0] * k[1] * (-(-cpg // bk))
    small_filter = not n_chan and k[0] <= 16 and k[1] <= 16

    x64 = r.integers(-8, 9, (N, H, W, C)) / 8.0
    w64 = r.integers(-8, 9, (O, k[0], k[1], cpg)) / 8.0
    want = conv_reference(x64, w64, st, pad, oS, kdil, (1, 1), groups, flip)

    in_st = (H * W * C, W * C, C, 1)
    wt_st = (k[0] * k[1] * cpg, k[1] * cpg, cpg, 1)
    out_st = (oS[0] * oS[1] * O, oS[1] * O, O, 1)
    params = conv_params(N, C, O, (H, W), k, oS, st, pad, kdil, (1, 1), in_st, wt_st, out_st, groups, flip)
    sign = -1 if flip else 1
    ijw, ijh = in_st[2] * kdil[1], in_st[1] * kdil[0]
    jump_w = sign * ijw
    jump_h = sign * (ijh - (k[1] - 1) * ijw)
    jump_c = bk - sign * (k[0] - 1) * ijh - sign * (k[1] - 1) * ijw
    gparams = struct.pack("<10i", iM, iN, iK, k_iters, jump_w, jump_h, jump_c, tn, tm, 0)
    # the rows the last weight tile reads past O (NaN: never to reach the output)
    extra = tn * bn - iN if bn != 8 else 0
    wbuf = np.concatenate([float_buffer(w64, dt).reshape(-1),
                           float_buffer(np.full(extra * iK, np.nan), dt)])
    bufs = {0: float_buffer(x64, dt).reshape(-1), 1: wbuf,
            2: Out(float_buffer(want, dt).reshape(-1), tol=EXACT, bf16=dt == "bf16"), 3: Bytes(params),
            4: Bytes(gparams)}
    tname = TNAME[dt]
    entry = "implicit_gemm_conv_2d_%s_bm%d_bn%d_bk%d_wm%d_wn%d_channel_%s_filter_%s" % (
        tname, bm, bn, bk, wm, wn, n_chan or "l", "s" if small_filter else "l")
    name = "mlx_conv2d_%s_n%d_%dx%dx%d_o%d_k%dx%d%s%s%s%s%s%s" % (
        tname, N, H, W, C, O, k[0], k[1], "_s%dx%d" % st if st != (1, 1) else "",
        "_p%d%d%d%d" % (pad + pad_hi) if pad != (0, 0) or pad_hi != (0, 0) else "",
        "_d%dx%d" % kdil if kdil != (1, 1) else "", "_g%d" % groups if groups > 1 else "", "_flip" if flip else "",
        "_w%d" % width if width != 32 else "")
    ref.case(name, entry, bufs, threadgroup=(32, wn, wm), threadgroups=(tn, tm, groups), width=width)


# 32-wide virtual subgroups (Metal's SIMD-group width), one case on lavapipe's own 8-wide subgroups
# 3 x 3 'same' convolution, 16 channels in, 32 out: M = 162 (a partial 32-row tile), the small filter's masks
case(np.float32, 2, 9, 9, 16, 32, (3, 3), pad=(1, 1))
# strides 2, kernel dilation 2, uneven padding; O = 48 (bn 32: the last tile reads 16 rows past the weights)
case(np.float32, 1, 13, 11, 32, 48, (3, 2), st=(2, 2), pad=(2, 1), pad_hi=(0, 2), kdil=(2, 2))
# RGB input (channel_3: K over kH * kW * 4 padded values), 16 outputs (bn 8, wm 4, wn 1), stride 2
case(np.float32, 2, 12, 10, 3, 16, (5, 5), st=(2, 2), pad=(2, 2))
# one input channel (channel_1), 12 outputs (bn 8: the last tile checks O), width 8
case(np.float32, 1, 10, 10, 1, 12, (3, 3), pad=(1, 1), width=8)
# two groups of 16 channels (grid z), flip (a true convolution, as conv_transpose asks)
case(np.float16, 1, 8, 9, 32, 32, (3, 3), pad=(2, 2), groups=2, flip=True)
# a 1 x 17 filter: the large-filter loader (bounds per load)
case(np.float16, 1, 4, 20, 16, 16, (1, 17), pad=(0, 8))
case("bf16", 2, 7, 7, 16, 64, (2, 2), st=(1, 2), pad=(1, 0), pad_hi=(0, 1))

if __name__ == "__main__":
    raise SystemExit(ref.main())
