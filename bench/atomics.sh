#!/bin/sh
# Benchmark: what a float atomic max costs as the translator builds it (a compare-exchange loop on the bits,
# docs/translator.md "Atomics") against a native float add and a native uint max, 2^LOG2 threads updating 64
# words (GPU time, median of 20 runs: mtlrun --timestamps --repeat 20). docs/performance.md has the figures.
#   bench/atomics.sh MTL2GLSL MTLRUN [LOG2 (default 20)]
set -eu
MTL2GLSL=$1 MTLRUN=$2 LOG2=${3:-20}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
SRC=$(dirname "$0")/atomics.metal
/usr/bin/python3 -c "import numpy as n, sys; x = n.random.default_rng(1).uniform(-1, 1, 1 << int(sys.argv[2])).astype(n.float32)
n.save(sys.argv[1] + '/x.npy', x); n.save(sys.argv[1] + '/u.npy', x.view(n.uint32))" "$DIR" "$LOG2"
for k in float_add float_max uint_max; do
    "$MTL2GLSL" "$SRC" --entry $k -o "$DIR/$k.comp"
    "$MTL2GLSL" --emit=reflect "$SRC" --entry $k -o "$DIR/$k.json"
    in=x.npy t=float32
    if [ $k = uint_max ]; then in=u.npy t=uint32; fi
    printf '%s: ' $k
    "$MTLRUN" "$DIR/$k.comp" --reflect "$DIR/$k.json" --entry $k --grid $((1 << LOG2)),1,1 --threadgroup 256,1,1 \
        --buffer 0="$DIR/$in" --buffer 1=$t:64 --timestamps --repeat 20 2>&1 | grep '^gpu_time_ms:'
done
