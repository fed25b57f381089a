#!/usr/bin/python3
"""MLX's general implicit-GEMM 2-D convolution (kernels/steel/conv/kernels/steel_conv_general.metal, launched by
implicit_gemm_conv_2D_general_gpu in mlx/backend/metal/conv.cpp) against NumPy: out (N, oH, oW, O) from in (N, H,
W, C) and weights (O, kH, kW, C), channels last, with input dilation (what conv_transpose asks for, with flip),
strides, kernel dilation and padding, channels of any count.

dispatch_conv_2D_gpu takes this route for one group when the input is dilated and C and O are multiples of 16 or
the output has at least 256 pixels, or, without input dilation, when the channels do not fit the specialized kernel
(C > 4 and not a multiple of 16, or O > 16 and not a multiple of 16) and the output has at least 256 pixels
(asserted per case). The output pixels are split into f_out_jump_h x f_out_jump_w classes (f_out_jump = lcm(idil,
stride) / stride), one grid z each, whose pixels see the dilated input through the same weight rows: from
weight_base on, every f_wgt_jump = lcm(idil, kdil) / kdil (a class may see none: its pixels are zero). The host
writes those bases (Conv2DGeneralBaseInfo: weight_base, weight_size) per class. Tiles bm 32, bn 32 (64 only with
bm 64: 8192 pixels per class and 64 channels), bk 16, wm = wn = 2: threadgroups (32, 2, 2), grid (tiles_n,
tiles_m of N * the class's pixels, classes). Buffers: in 0, weights 1, out 2, MLXConvParams<2> 3,
ImplicitGemmConv2DParams 4, Conv2DGeneralJumpParams 5 (8 ints), base_h 6 and base_w 7 (int pairs). Function
constant align_C 200 (C a multiple of 16; else the last 16 channels are loaded with bounds).

Inputs are multiples of 1/8 with few significant bits: every product and partial sum is exact in float32, the
accumulator, and half and bfloat16 outputs are that exact value rounded once: compared exactly."""
import math
import struct

import numpy as np

from mlxcase import (EXACT, TNAME, Bytes, Out, Scalar, conv_out_shape, conv_params, conv_reference, float_buffer,
                     i32, reference, rng)

ref = reference("steel/conv/kernels/steel_conv_general.metal")
r = rng(1526)


def bases(n_out_jump, wS, st, pad, kdil, idil, flip, wgt_jump):
    """The host's Conv2DGeneralBaseInfo of one axis: per output class i, the first weight row whose input position
    (from i * st - pad) lands on an input value of the dilated input, and how many rows it steps through."""
    step = -kdil if flip else kdil
    out = []
    for i in range(n_out_jump):
        pos = i * st - pad + ((wS - 1) * kdil if flip else 0)
        base = 0
        while base < wS and pos % idil != 0:
            base += 1
            pos += step
        out += [base, (wS - base + wgt_jump - 1) // wgt_jump]
    return out


def case(dt, N, H, W, C, O, k, st=(1, 1), pad=(0, 0), pad_hi=None, kdil=(1, 1), idil=(1, 1), flip=False, width=32):
    """A convolution of in (N, H, W, C) dilated by IDIL with weights (O, k[0], k[1], C)."""
    pad_hi = pad if pad_hi is None else pad_hi
    oS = conv_out_shape((H, W), k, st, pad, pad_hi, kdil, idil)
    out_large = N * oS[0] * oS[1] >= 256
    specialized = (C <= 4 or C % 16 == 0) and (O <= 16 or O % 16 == 0)
    if idil == (1, 1):   # dispatch_conv_2D_gpu: pad_in_channels_conv_2D_gpu or the specialized kernel otherwise
        assert not specialized and out_large
        assert st != (1, 1) or not (O <= 16 or O % 16 == 0) or k[0] * k[1] < 9
    else:
        assert (C % 16 == 0 and O % 16 == 0) or out_large
    wgt_jump = [math.lcm(i, d) // d for i, d in zip(idil, kdil)]
    out_jump = [math.lcm(i, t) // t for i, t in zip(idil, st)]
    adj = [-(-o // j) for o, j in zip(oS, out_jump)]
    adj_m = N * adj[0] * adj[1]
    bm = 64 if adj_m >= 8192 and C >= 64 else 32
    bn = 64 if bm == 64 and O >= 64 else 32
    bk = 16
    tn, tm = -(-O // bn), -(-adj_m // bm)

    x64 = r.integers(-8, 9, (N, H, W, C)) / 8.0
    w64 = r.integers(-8, 9, (O, k[0], k[1], C)) / 8.0
    want = conv_reference(x64, w64, st, pad, oS, kdil, idil, 1, flip)

    in_st = (H * W * C, W * C, C, 1)
    wt_st = (k[0] * k[1] * C, k[1] * C, C, 1)
    out_st = (oS[0] * oS[1] * O, oS[1] * O, O, 1)
    params = conv_params(N, C, O, (H, W), k, oS, st, pad, kdil, idil, in_st, wt_st, out_st, 1, flip)
    sign = -1 if flip else 1
    ijw, ijh = in_st[2] * kdil[1], in_st[1] * kdil[0]
    gparams = struct.pack("<10i", N * oS[0] * oS[1], O, k[0] * k[1] * C, -(-C // bk), sign * ijw,
                          sign * (ijh - (k[1] - 1) * ijw), bk - sign * (k[0] - 1) * ijh - sign * (k[1] - 1) * ijw,
                          tn, tm, 0)
    jparams = struct.pack("<8i", *wgt_jump, *out_jump, *adj, adj[0] * adj[1], adj_m)
    base_h = bases(out_jump[0], k[0], st[0], pad[0], kdil[0], idil[0], flip, wgt_jump[0])
    base_w = bases(out_jump[1], k[1], st[1], pad[1], kdil[1], idil[1], flip, wgt_jump[1])
    bufs = {0: float_buffer(x64, dt).reshape(-1), 1: float_buffer(w64, dt).reshape(-1),
            2: Out(float_buffer(want, dt).reshape(-1), tol=EXACT, bf16=dt == "bf16"), 3: Bytes(params),
            4: Bytes(gparams), 5: Bytes(jparams), 6: i32(base_h), 7: i32(base_w)}
    tname = TNAME[dt]
    entry = "implicit_gemm_conv_2d_general_%s_bm%d_bn%d_bk%d_wm2_wn2" % (tname, bm, bn, bk)
    name = "mlx_conv2d_general_%s_n%d_%dx%dx%d_o%d_k%dx%d%s%s%s%s%s%s" % (
        tname, N, H, W, C, O, k[0], k[1], "_s%dx%d" % st if st != (1, 1) else "",
        "_p%d%d%d%d" % (pad + pad_hi) if pad != (0, 0) or pad_hi != (0, 0) else "",
        "_d%dx%d" % kdil if kdil != (1, 1) else "", "_i%dx%d" % idil if idil != (1, 1) else "",
        "_flip" if flip else "", "_w%d" % width if width != 32 else "")
    ref.case(name, entry, bufs, threadgroup=(32, 2, 2), threadgroups=(tn, tm, out_jump[0] * out_jump[1]),
             constants={200: Scalar("bool", C % bk == 0)}, width=width)


# 32-wide virtual subgroups (Metal's SIMD-group width), one case on lavapipe's own 8-wide subgroups
# conv_transpose2d's form, stride 2 (input dilation 2, flip, padding k - 1 - p): 2 x 2 output classes
case(np.float32, 1, 6, 7, 16, 32, (3, 3), pad=(1, 1), pad_hi=(2, 2), idil=(2, 2), flip=True)
# 5 channels in, 20 out (neither fits the specialized kernel), stride 2: one class, align_C false (only the
# bounded last step), 289 pixels
case(np.float32, 1, 34, 34, 5, 20, (3, 3), st=(2, 2), pad=(1, 1))
case(np.float32, 1, 34, 34, 5, 20, (3, 3), st=(2, 2), pad=(1, 1), width=8)
# 20 channels (one whole step of 16, then 4 with bounds), stride 3 with input dilation 2 (2 x 2 classes) and
# kernel dilation 2
case(np.float16, 4, 12, 12, 20, 16, (3, 3), st=(3, 3), pad=(2, 2), kdil=(2, 2), idil=(2, 2))
# input dilation 3 on a 2 x 3 kernel: 3 x 3 classes, the ones no weight row reaches stay zero; flip; 16 outputs
# in a 32-wide tile
case("bf16", 2, 5, 4, 16, 16, (2, 3), pad=(1, 2), pad_hi=(0, 1), idil=(3, 3), flip=True)

if __name__ == "__main__":
    raise SystemExit(ref.main())
