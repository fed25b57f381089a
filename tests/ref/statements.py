#!/usr/bin/python3
"""Reference for samples/statements.metal: a line-by-line Python transcription, one thread at a time."""
import math

import numpy as np
from refcase import Out, Reference, Scalar, groups_for, rng

U32 = 0xFFFFFFFF


def c_rem(a, b):
    """C's % on ints: truncates toward zero, the remainder has the sign of a."""
    return int(math.fmod(a, b))


def collatz_steps(n):
    steps = 0
    while n != 1 and steps < 200:
        n = n // 2 if n % 2 == 0 else (3 * n + 1) & U32
        steps += 1
    return steps


def thread(v):
    f32 = np.float32
    acc = f32(0)
    for k in range(16):
        if k % 3 == 1:
            continue
        if k > (v & 15):
            break
        acc = f32(acc + f32(k))
    countdown, iters = v & 7, 0
    while True:
        iters += 1
        countdown -= 1
        if not countdown > 0:
            break
    s = {0: 1.0, 1: 2.0, 2: 2.0, 3: -1.0}[v & 3]
    w = f32(1)
    acc = f32(acc + f32(2 * s))            # the inner, shadowing w
    acc = f32(acc - f32(3))                # the inner, shadowing v = 3
    w = f32(f32(f32(w * f32(3)) - f32(0.5)) / f32(2))
    bits = v & U32
    bits = (bits << 2) & U32
    bits |= 1
    bits ^= 0x5
    bits >>= 1
    bits &= 0xFF
    rem = c_rem(v, 7) - 1
    steps = collatz_steps((v & 63) + 1)
    return [acc, f32(iters) + f32(s), f32(f32(w + f32(bits)) + f32(rem)), -f32(steps) if v < 0 else f32(steps)]


ref = Reference("statements.metal")
r = rng(8)
for name, n, tg, style in (("statements_grid500_tg64", 500, 64, "grid"),
                           ("statements_groups_tg32", 500, 32, "groups")):   # 512 threads, guard i >= n
    v = r.integers(-1000, 1000, n, dtype=np.int32)
    v[:16] = np.arange(-8, 8)
    expected = np.array([thread(int(t)) for t in v], dtype=np.float32)
    grid = dict(grid=n) if style == "grid" else dict(threadgroups=groups_for(n, tg))
    ref.case(name, "statements", {0: v, 1: Out(expected), 2: Scalar("uint", n)}, threadgroup=tg, **grid)

if __name__ == "__main__":
    raise SystemExit(ref.main())
