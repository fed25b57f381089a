#!/usr/bin/python3
"""MLX's implicit-GEMM 3-D convolution on SIMD-group matrices (kernels/steel/conv/kernels/steel_conv_3d.metal,
launched by implicit_gemm_conv_3D_gpu in mlx/backend/metal/conv.cpp) against NumPy: out (N, oD, oH, oW, O) from in
(N, D, H, W, C) and weights (O, kD, kH, kW, C / groups), channels last: strides, kernel dilation, low padding,
groups and flip.

dispatch_conv_3D_gpu takes this route without input dilation when C / groups is a multiple of 16 and O / groups
at most 16 or a multiple of 16, unless small_kd_conv_3D_gpu takes it (one group, N 1, kD <= 7, depth stride and
dilation 1, no depth padding: per-frame 2-D convolutions); with one group and other channel counts it pads C and O
up to multiples of 16 (pad_and_slice_conv_3D_gpu: zero channels, here added in NumPy) and runs this kernel into an
intermediate of the padded O, which the output then views (compared whole here: the padded channels are zero).
Tiles as the 2-D kernel's: bm 32 (64 from M 8192 with 64 channels a group), bn 64 if N >= 64 else 32, bk 16, wm =
wn = 2, or bn 8, wm 4, wn 1 for N <= 16. `implicit_gemm_conv_3d_<T>_bm.._bn.._bk16_wm.._wn.._filter_<s|l>`: the
small filter (every kernel extent <= 16: bounds as bit masks) or the large one. Buffers: in 0, weights 1, out 2,
MLXConvParams<3> 3 (24 ints, three int64[5] at 96, groups, flip: 224 bytes), ImplicitGemmConv3DParams 4 (11
ints). Threadgroups (32, wn, wm), grid (tiles_n, tiles_m, groups).

The weight loader reads whole bn-row tiles without a bound (bn 8 excepted): the weight buffer carries the rows
the last tile reads past O / groups, filled with NaN, as in steel_conv.py.

Inputs are multiples of 1/8 with few significant bits: every product and partial sum is exact in float32, the
accumulator, and half and bfloat16 outputs are that exact value rounded once: compared exactly."""
import struct

import numpy as np

from mlxcase import (EXACT, TNAME, Bytes, Out, conv_out_shape, conv_params, conv_reference, float_buffer,
                     implicit_gemm_tiles, reference, rng)

ref = reference("steel/conv/kernels/steel_conv_3d.metal")
r = rng(1527)


def case(dt, N, S, C, O, k, st=(1, 1, 1), pad=(0, 0, 0), pad_hi=None, kdil=(1, 1, 1), groups=1, flip=False,
         width=32):
    """A convolution of in (N, *S, C) with weights (O, *k, C / groups); PAD the low padding, PAD_HI the high one."""
    pad_hi = pad if pad_hi is None else pad_hi
    oS = conv_out_shape(S, k, st, pad, pad_hi, kdil, (1, 1, 1))
    x64 = r.integers(-8, 9, (N,) + tuple(S) + (C,)) / 8.0
    w64 = r.integers(-8, 9, (O,) + tuple(k) + (C // groups,)) / 8.0
    want = conv_reference(x64, w64, st, pad, oS, kdil, (1, 1, 1), groups, flip)
    cpg, opg = C // groups, O // groups
    shown = (C, O)
    mod16 = cpg % 16 == 0 and (opg <= 16 or opg % 16 == 0)
    assert mod16 or groups == 1
    if not mod16:   # pad_and_slice_conv_3D_gpu: zero channels up to multiples of 16, on C and on O
        xc, oc = -C % 16, -O % 16
        x64 = np.concatenate([x64, np.zeros(x64.shape[:-1] + (xc,))], axis=-1)
        w64 = np.concatenate([w64, np.zeros(w64.shape[:-1] + (xc,))], axis=-1)
        w64 = np.concatenate([w64, np.zeros((oc,) + w64.shape[1:])], axis=0)
        want = np.concatenate([want, np.zeros(want.shape[:-1] + (oc,))], axis=-1)
        C, O, cpg, opg = C + xc, O + oc, C + xc, O + oc
    else:
        assert groups > 1 or N > 1 or k[0] > 7 or st[0] != 1 or kdil[0] != 1 or pad[0] != 0, "small_kd_conv_3D_gpu"
    iM, iN, iK = N * oS[0] * oS[1] * oS[2], opg, k[0] * k[1] * k[2] * cpg
    bm, bn, bk, wm, wn, tm, tn = implicit_gemm_tiles(iM, iN, cpg)
    small_filter = max(k) <= 16

    D, H, W = S
    in_st = (D * H * W * C, H * W * C, W * C, C, 1)
    wt_st = (k[0] * k[1] * k[2] * cpg, k[1] * k[2] * cpg, k[2] * cpg, cpg, 1)
    out_st = (oS[0] * oS[1] * oS[2] * O, oS[1] * oS[2] * O, oS[2] * O, O, 1)
    params = conv_params(N, C, O, S, k, oS, st, pad, kdil, (1, 1, 1), in_st, wt_st, out_st, groups, flip)
    sign = -1 if flip else 1
    ijw, ijh, ijd = in_st[3] * kdil[2], in_st[2] * kdil[1], in_st[1] * kdil[0]
    gparams = struct.pack("<11i", iM, iN, iK, k[0] * k[1] * k[2] * -(-cpg // bk), sign * ijw,
                          sign * (ijh - (k[2] - 1) * ijw), sign * (ijd - (k[1] - 1) * ijh - (k[2] - 1) * ijw),
                          bk - sign * (k[0] - 1) * ijd - sign * (k[1] - 1) * ijh - sign * (k[2] - 1) * ijw,
                          tn, tm, 0)
    extra = tn * bn - iN if bn != 8 else 0   # rows the last weight tile reads past the buffer: NaN
    wbuf = np.concatenate([float_buffer(w64, dt).reshape(-1), float_buffer(np.full(extra * iK, np.nan), dt)])
    bufs = {0: float_buffer(x64, dt).reshape(-1), 1: wbuf,
            2: Out(float_buffer(want, dt).reshape(-1), tol=EXACT, bf16=dt == "bf16"), 3: Bytes(params),
            4: Bytes(gparams)}
    tname = TNAME[dt]
    entry = "implicit_gemm_conv_3d_%s_bm%d_bn%d_bk%d_wm%d_wn%d_filter_%s" % (
        tname, bm, bn, bk, wm, wn, "s" if small_filter else "l")
    name = "mlx_conv3d_%s_n%d_%s_o%d_k%s%s%s%s%s%s%s%s" % (
        tname, N, "x".join(map(str, tuple(S) + shown[:1])), shown[1], "x".join(map(str, k)),
        "_s" + "x".join(map(str, st)) if st != (1, 1, 1) else "",
        "_p" + "".join(map(str, pad + pad_hi)) if pad != (0, 0, 0) or pad_hi != (0, 0, 0) else "",
        "_d" + "x".join(map(str, kdil)) if kdil != (1, 1, 1) else "", "_g%d" % groups if groups > 1 else "",
        "_flip" if flip else "", "" if mod16 else "_padded16", "_w%d" % width if width != 32 else "")
    ref.case(name, entry, bufs, threadgroup=(32, wn, wm), threadgroups=(tn, tm, groups), width=width)


# 32-wide virtual subgroups (Metal's SIMD-group width), one case on lavapipe's own 8-wide subgroups
# two volumes (not the per-frame route), depth dilation 2, strides in H, padding on D and H; M = 150
case(np.float32, 2, (5, 6, 7), 16, 32, (2, 3, 3), st=(1, 2, 1), pad=(1, 1, 0), kdil=(2, 1, 1))
# O = 48 (bn 32: the last tile reads 16 rows past the weights), depth stride 2, 8-wide subgroups
case(np.float32, 1, (6, 5, 5), 16, 48, (3, 2, 2), st=(2, 1, 1), pad=(0, 1, 1), width=8)
# two groups of 16 channels (bn 8), flip
case(np.float16, 1, (4, 5, 6), 32, 32, (3, 3, 3), pad=(1, 1, 1), groups=2, flip=True)
# a 1 x 1 x 17 filter: the large-filter loader; 64 outputs (bn 64)
case("bf16", 1, (3, 2, 20), 16, 64, (1, 1, 17), pad=(1, 0, 8), pad_hi=(0, 0, 8))
# 3 channels in, 5 out: pad_and_slice_conv_3D_gpu's padded channels (C 16, O 16: bn 8), flip
case(np.float32, 1, (4, 7, 6), 3, 5, (2, 3, 3), st=(1, 2, 2), pad=(1, 1, 1), flip=True)

if __name__ == "__main__":
    raise SystemExit(ref.main())
