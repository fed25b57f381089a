#!/usr/bin/python3
"""Reference for samples/threads.metal: Metal's thread attributes computed from their definitions.

dispatchThreads (--grid G, threadgroup T): the grid is exactly G threads; threadgroups_per_grid = ceil(G / T);
a threadgroup at the edge is partial and its threads_per_threadgroup is the partial size min(T, G - group * T)
(the missing threads do not exist). thread_index_in_threadgroup linearizes thread_position_in_threadgroup with the
threadgroup's own size (threads_per_threadgroup), so it runs densely from 0 in partial threadgroups too.
dispatchThreadgroups (--threadgroups N, threadgroup T): G = N * T, every threadgroup full.
"""
import itertools

import numpy as np
from refcase import Out, Reference, dim3, groups_for

ref = Reference("threads.metal")


def attributes(grid, tg, dims):
    """One row per thread in the order of its linear grid index; columns as the kernel writes them."""
    G, T = np.array(dim3(grid)), np.array(dim3(tg))
    groups = np.array(groups_for(G, T))
    rows = []
    for z, y, x in itertools.product(range(G[2]), range(G[1]), range(G[0])):
        gid = np.array([x, y, z])
        group = gid // T
        lid = gid - group * T
        size = np.minimum(T, G - group * T)
        flat = (lid[2] * size[1] + lid[1]) * size[0] + lid[0]
        fields = [gid, lid, group, G, size, groups]
        rows.append(np.concatenate([f[:dims] for f in fields] + [[flat]]))
    return np.array(rows, dtype=np.uint32)


def add(name, entry, dims, tg, grid=None, threadgroups=None):
    total = grid if grid is not None else [n * t for n, t in zip(dim3(threadgroups), dim3(tg))]
    style = dict(grid=grid) if grid is not None else dict(threadgroups=threadgroups)
    ref.case(name, entry, {0: Out(attributes(total, tg, dims))}, threadgroup=tg, **style)


add("thread_ids_3d_grid10x6x3_tg4x4x2", "thread_ids_3d", 3, (4, 4, 2), grid=(10, 6, 3))     # partial in x, y, z
add("thread_ids_3d_grid8x4x2_tg4x2x2", "thread_ids_3d", 3, (4, 2, 2), grid=(8, 4, 2))       # exact cover
add("thread_ids_3d_groups3x2x2_tg4x2x2", "thread_ids_3d", 3, (4, 2, 2), threadgroups=(3, 2, 2))
add("thread_ids_2d_grid20x7_tg8x4", "thread_ids_2d", 2, (8, 4), grid=(20, 7))               # partial in x and y
add("thread_ids_2d_groups2x3_tg8x8", "thread_ids_2d", 2, (8, 8), threadgroups=(2, 3))
add("thread_ids_3d_grid1x1x5_tg1x1x4", "thread_ids_3d", 3, (1, 1, 4), grid=(1, 1, 5))       # z only

if __name__ == "__main__":
    raise SystemExit(ref.main())
