#!/bin/sh
# Regenerates golden/SAMPLE/ENTRY.comp|json from the translator, for every sample (or those named).
#   tests/update-golden.sh [SAMPLE ...]          uses build/translator's mtl2glsl, building it first
#   MTL2GLSL=/path/to/mtl2glsl tests/update-golden.sh
# Then review the change as a diff (`git diff golden/`) and commit it with the code that caused it.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
if [ -z "${MTL2GLSL:-}" ]; then
    BUILD=${BUILD:-$ROOT/build}
    if [ ! -f "$BUILD/CMakeCache.txt" ]; then
        cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
    fi
    cmake --build "$BUILD" --target mtl2glsl
    MTL2GLSL=$(find "$BUILD" -name mtl2glsl -type f -perm -u+x | head -n 1)
fi
"$PY" "$ROOT/tests/snapshot.py" --mtl2glsl "$MTL2GLSL" --update "$@"
git -C "$ROOT" status --short golden/ || true
