#!/usr/bin/python3
"""Benchmark: what the pointer lowering costs (docs/performance.md, docs/translator.md "Pointers").

    bench/pointers.py --mtl2glsl PATH --out DIR [--scale S]      then on the machine to measure:
    MTLRUN=/path/to/mtlrun sh DIR/run.sh

Translates the same work written three ways and writes run.sh, which times each with GPU timestamps (median of
20 runs) on zero-filled buffers:
    q4 pointer     samples/pointers.metal q4_matvec: 4-bit blocks walked through uchar/ushort pointers (indices)
    q4 index       bench/pointers.metal q4_matvec_index: the same with plain indices into the bytes
    add4 pointer   float4 pointers walked along a row (the index lowering: one uint per pointer)
    add4 index     the same with indices into float4 buffers
    add4 address   the source pointer chosen at run time between two buffers: a buffer reference
                   (GL_EXT_buffer_reference) plus the index
One thread per row in every kernel, as the Metal code is written.
"""
import argparse
import os

import benchrun

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def kernels(scale):
    rows, nb = 4096 * scale, 64            # q4: rows x (64 blocks of 32 weights), 18 bytes a block
    arows, cols = 2048 * scale, 1024       # add4: rows x cols floats
    q4 = ["--grid", str(rows), "--threadgroup", "64", "--buffer", "0=uint8:%d" % (rows * nb * 18),
          "--buffer", "1=float32:%d" % (nb * 32), "--buffer", "2=float32:%d" % rows, "--scalar", "3=uint:%d" % nb]
    add = ["--grid", str(arows), "--threadgroup", "64"] + \
          sum([["--buffer", "%d=float32:%dx%d" % (i, arows, cols)] for i in range(3)], []) + ["--scalar", "3=uint:%d" % cols]
    q4_bytes = rows * nb * 18 + rows * 4
    add_bytes = 3 * arows * cols * 4       # read dst and src, write dst
    return [
        ("q4", "pointer", "samples/pointers.metal", "q4_matvec", q4, q4_bytes),
        ("q4", "index", "bench/pointers.metal", "q4_matvec_index", q4, q4_bytes),
        ("add4", "pointer", "bench/pointers.metal", "add4_pointer", add, add_bytes),
        ("add4", "index", "bench/pointers.metal", "add4_index", add, add_bytes),
        ("add4", "address", "bench/pointers.metal", "add4_address", add, add_bytes),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--scale", type=int, default=1, help="problem size multiplier")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    lines = benchrun.header("kernel lowering")
    for kernel, lowering, source, entry, run, nbytes in kernels(args.scale):
        rel = "%s/%s/%s" % (kernel, lowering, entry)
        benchrun.translate(args.mtl2glsl, [], entry, os.path.join(ROOT, source), out, rel)
        lines.append(benchrun.timing_line(rel, run, "%s %s" % (kernel, lowering), nbytes))
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s/run.sh" % out)


if __name__ == "__main__":
    main()
