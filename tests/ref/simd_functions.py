#!/usr/bin/python3
"""Reference for samples/simd_functions.metal: every SIMD-group and quad-group function, lane by lane.

Metal's rules as the reference applies them: a SIMD-group is 32 consecutive threads of the threadgroup, a quad
4; threads past a partial threadgroup's end do not exist; reductions, scans, ballots, all/any, is_first and
broadcast_first count only active lanes (the branch leaves lanes 0, 3, 6, ... out); shuffle_up/down leave lanes
whose source is past either end of the group unchanged; rotate wraps; shuffle_and_fill takes lanes past the end
from `fill` (Metal's example: fill_up(data, fill, 2) on [a..h] = [fg fh a b c d e f]), within `modulo`-lane
vectors when given.
"""
import numpy as np
from refcase import WIDTHS, Out, Reference, rng

ref = Reference("simd_functions.metal")
COLUMNS = 99
MISSING = np.float32(-12345.0)
F16 = np.float16


def lane_values(lane):
    f = np.float32(lane) * np.float32(0.5) - np.float32(3.0)
    i = int((lane * 7) % 11) - 5
    u = (lane * 37) % 64 + 1
    h = F16(lane) * F16(0.25)
    g = np.float32(1.0) + np.float32(lane) / np.float32(64.0)
    small = 2 if lane % 5 == 0 else 1
    return dict(f=f, i=i, u=u, h=h, g=g, small=small)


def prod(vals):
    p = 1.0
    for v in vals:
        p *= float(v)
    return p


def group_rows(n_lanes, G, lane):
    """Lanes 0..n-1 of a group exist; the quad / SIMD-group of `lane` within them."""
    base = lane - lane % G
    return base, min(G, n_lanes - base)


def simd_group_rows(lanes):
    """Rows (one per lane) of the SIMD-group with `lanes` existing lanes."""
    V = [lane_values(l) for l in range(lanes)]
    rows = np.full((lanes, COLUMNS), MISSING, dtype=np.float64)
    f = np.array([v["f"] for v in V], np.float64)
    i = np.array([v["i"] for v in V], np.int64)
    u = np.array([v["u"] for v in V], np.int64)
    h = np.array([v["h"] for v in V], np.float64)
    g = np.array([v["g"] for v in V], np.float64)
    small = np.array([v["small"] for v in V], np.int64)
    f4 = np.stack([f, -f, f * 2, g], axis=1)
    i2 = np.stack([i, -i], axis=1)
    u3 = np.stack([u, u + 1, np.arange(lanes)], axis=1)
    andr = np.bitwise_and.reduce(u + 64)
    orr = np.bitwise_or.reduce(u)
    xorr = np.bitwise_xor.reduce(u)
    for l in range(lanes):
        r = rows[l]
        r[0] = f.sum(); r[1] = prod(g); r[2] = f.min(); r[3] = i.max()
        r[4] = andr; r[5] = orr; r[6] = xorr
        r[7] = f[:l + 1].sum(); r[8] = i[:l].sum(); r[9] = prod(small[:l + 1]); r[10] = prod(g[:l])
        r[11] = prod(small); r[12] = u.min(); r[13] = f.max(); r[14] = u[:l + 1].sum(); r[15] = u[:l].sum()
        r[16] = f[(l * 5 + 3) % lanes]
        r[17] = f[l - 3] if l >= 3 else f[l]
        if l + 5 < lanes:
            r[18] = i[l + 5]
        elif lanes == 32:
            r[18] = i[l]
        if (l ^ 6) < lanes:
            r[19] = u[l ^ 6]
        if (l - 4) % 32 < lanes:
            r[20] = f[(l - 4) % 32]
        if (l + 9) % 32 < lanes:
            r[21] = i[(l + 9) % 32]
        if l >= 3:
            r[22] = f[l - 3]
        elif 29 + l < lanes:
            r[22] = f[29 + l] + 100.0
        if l + 7 < lanes:
            r[23] = i[l + 7]
        elif l + 7 - 32 < lanes and l + 7 >= 32:
            r[23] = i[l + 7 - 32] + 1000
        idx, base = l % 8, l - l % 8
        src = base + idx - 2 if idx >= 2 else base + 8 - 2 + idx
        if src < lanes:
            r[24] = u[src] if idx >= 2 else u[src] + 500
        idx, base = l % 16, l - l % 16
        src = base + idx + 3 if idx + 3 < 16 else base + idx + 3 - 16
        if src < lanes:
            r[25] = f[src] if idx + 3 < 16 else -f[src]
        if lanes > 2:
            r[26] = f[2]
        r[27] = i[0]
        ballot = sum(1 << k for k in range(lanes) if k % 3 == 1)
        r[28] = ballot & 0xffff; r[29] = ballot >> 16
        r[30] = 1.0; r[31] = float(lanes <= 20); r[32] = float(lanes > 7); r[33] = float(l == 0)
        active = (1 << lanes) - 1
        r[34] = active & 0xffff; r[35] = active >> 16
        r[36] = f4[:, 1].sum(); r[37] = f4[:, 2].max(); r[38] = i2[:, 1].max()
        if (l ^ 1) < lanes:
            r[39] = u3[l ^ 1, 2]
        r[40] = h.sum(); r[41] = h[:l + 1].sum(); r[42] = f4[:l, 3].sum(); r[43] = i2[:, 0].min()
        # divergence: lanes k % 3 != 0 active
        act = [k for k in range(lanes) if k % 3 != 0]
        if l % 3 != 0:
            r[44] = f[act].sum(); r[45] = i[act].max()
            r[46] = sum(u[k] for k in act if k < l)
            r[47] = prod(g[k] for k in act if k <= l)
            r[48] = f[act[0]]
            r[49] = float(l == act[0])
            a = sum(1 << k for k in act)
            r[50] = a & 0xffff; r[51] = a >> 16
            b = sum(1 << k for k in act if k > 10)
            r[52] = b & 0xffff; r[53] = b >> 16
            r[54] = 1.0
            r[55] = float(4 in act)
            r[56] = np.bitwise_and.reduce([u[k] | 1 for k in act])
            r[57] = sum(i[k] for k in act if k <= l)
            qb = l - l % 4
            qact = [k for k in range(qb, min(qb + 4, lanes)) if k % 3 != 0]
            r[58] = float(l == qact[0])
            r[59] = sum(1 << (k - qb) for k in qact)
            r[60] = f[qact].sum()
            r[61] = i[qact[0]]
        # quad-groups
        qb, qn = group_rows(lanes, 4, l)
        q = list(range(qb, qb + qn))
        ql = l - qb
        r[62] = f[q].sum(); r[63] = prod(g[q]); r[64] = i[q].min(); r[65] = u[q].max()
        r[66] = np.bitwise_and.reduce(u[q] + 64); r[67] = np.bitwise_or.reduce(u[q]); r[68] = np.bitwise_xor.reduce(u[q])
        r[69] = f[qb:l + 1].sum(); r[70] = i[qb:l].sum(); r[71] = prod(small[qb:l + 1]); r[72] = prod(g[qb:l])
        if 3 - ql < qn:
            r[73] = f[qb + 3 - ql]
        r[74] = f[l - 1] if ql >= 1 else f[l]
        if ql + 2 < qn:
            r[75] = i[l + 2]
        elif qn == 4:
            r[75] = i[l]
        if (ql ^ 1) < qn:
            r[76] = u[qb + (ql ^ 1)]
        if (ql + 3) % 4 < qn:
            r[77] = f[qb + (ql + 3) % 4]
            r[78] = i[qb + (ql + 3) % 4]
        if ql >= 1:
            r[79] = f[l - 1]
        elif 3 < qn:
            r[79] = -f[qb + 3]
        if ql + 2 < qn:
            r[80] = i[l + 2]
        elif ql + 2 >= 4 and ql + 2 - 4 < qn:
            r[80] = i[qb + ql + 2 - 4] + 100
        r[81] = f[qb]; r[82] = u[qb]
        r[83] = sum(1 << (k - qb) for k in q if k % 2 == 0)
        r[84] = float(all(f[k] > 0 for k in q)); r[85] = float(any(k == 5 for k in q))
        r[86] = float(ql == 0); r[87] = (1 << qn) - 1
        r[88] = f4[q, 0].sum(); r[89] = i2[q, 1].max(); r[90] = h[q].sum(); r[91] = u3[qb, 1]
        r[92] = f[q].min(); r[93] = f[q].max(); r[94] = u[qb:l].sum()
        r[95] = lanes
        r[96] = (-h * 2).sum()
        if (l ^ 3) < lanes:
            r[97] = h[l ^ 3]
        r[98] = (-h[qb:l + 1] * 2).sum()
    return rows


def expected_rows(grid, tg):
    """All threads of a 1-D dispatchThreads grid: threadgroups of tg, the last one partial."""
    out = []
    for start in range(0, grid, tg):
        threads = min(tg, grid - start)
        for sg in range(0, threads, 32):
            out.append(simd_group_rows(min(32, threads - sg)))
    return np.concatenate(out).astype(np.float32)


def add(grid, tg, width):
    ref.case("simd_functions_grid%d_tg%d_w%d" % (grid, tg, width), "simd_functions",
             {0: Out(expected_rows(grid, tg), tol={"rtol": 2e-6, "atol": 1e-5})},
             threadgroup=tg, grid=grid, width=width)


def ids(grid, tg, width):
    gx, gy = grid
    tx, ty = tg
    out = np.zeros((gy, gx, 14), np.uint32)
    groups = (-(-gx // tx), -(-gy // ty))
    for y in range(gy):
        for x in range(gx):
            px, py = min(tx, gx - x // tx * tx), min(ty, gy - y // ty * ty)
            tid = (x % tx) + px * (y % ty)
            total = px * py
            out[y, x] = [tid, px * 1000 + py, tx * 1000 + ty, groups[0] * 1000 + groups[1], tid % 32, tid // 32, 32,
                         -(-total // 32), -(-(tx * ty) // 32), 32, tid % 4, tid // 4, -(-total // 4), -(-(tx * ty) // 4)]
    ref.case("simd_ids_%dx%d_tg%dx%d_w%d" % (gx, gy, tx, ty, width), "simd_ids", {0: Out(out.reshape(-1))},
             threadgroup=tg, grid=grid, width=width)


for width in WIDTHS:
    add(256, 128, width)     # whole SIMD-groups
    add(200, 64, width)      # a last threadgroup of 8 threads: one SIMD-group of 8 lanes
    add(45, 45, width)       # one threadgroup: SIMD-groups of 32 and 13 lanes, a last quad of 1 lane
    ids((37, 11), (16, 6), width)
add(96, 96, 4)

if __name__ == "__main__":
    raise SystemExit(ref.main())
