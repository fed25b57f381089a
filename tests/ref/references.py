#!/usr/bin/python3
"""Reference for samples/references.metal: functions returning references into their object or arguments, reference
locals bound to them, one object passed to two references, in thread and threadgroup memory. Integer-valued floats:
every result is exact."""
import numpy as np
from refcase import Out, Reference, rng

ref = Reference("references.metal")
r = rng(1515)
EXACT = {"rtol": 0, "atol": 0}


def thread_refs(n):
    x = r.integers(-50, 50, (n, 8)).astype(np.float32)
    f = x.reshape(n, 4, 2).copy()          # frags[4] of float2 per thread
    f[:, 1] += (10, 20)                    # t.at(0, 1) += float2(10, 20)
    f[:, 2, 1] = f[:, 0, 0] * 2            # t.at(1, 0).y = t.at(0, 0).x * 2
    f[:, 3] *= 3                           # r (frags[3], bound while j was 1) *= 3
    f[:, 3, 0] += f[:, 2, 0]               # r.x += t.at(1, 0).x
    f[:, 0, 0] = -1                        # t.first(0).x = -1
    f[:, 2, 1] += -1                       # frag_of(t, 2).y += c.x, c bound to frags[0]
    out = f.reshape(n, 8).copy()
    out[:, 0] = -1 + f[:, 0, 1]            # c.x + c.y
    ref.case("references_thread_%d" % n, "thread_refs", {0: x.reshape(-1), 1: Out(out.reshape(-1), tol=EXACT)},
             threadgroup=32, grid=n)


def aliased_refs(n):
    a = r.integers(-6, 7, (n, 8)).astype(np.float32)
    acc = a * a + a                        # k = 0: acc = a * a + acc
    acc = a * a + acc                      # k = 1: the written value is read again (d and c one object)
    ref.case("references_aliased_%d" % n, "aliased_refs", {0: a.reshape(-1), 1: Out(acc.sum(axis=1), tol=EXACT)},
             threadgroup=32, grid=n)


def threadgroup_refs(groups):
    n = 64 * groups
    x = r.integers(-50, 50, n).astype(np.float32)
    rev = x.reshape(groups, 64)[:, ::-1].reshape(-1)
    want = np.concatenate([rev * 2 + 1, x * 3])
    ref.case("references_threadgroup_%d" % groups, "threadgroup_refs", {0: x, 1: Out(want, tol=EXACT)},
             threadgroup=64, grid=n)


thread_refs(37)
aliased_refs(45)
threadgroup_refs(3)

if __name__ == "__main__":
    raise SystemExit(ref.main())
