#!/bin/bash
# Builds mtl2glsl, translates samples/axpy.metal, runs it on the default Vulkan device and checks it against
# NumPy, with mtlrun and then from Python (the mtl2glsl package).
# On a fresh Debian 12 machine: tests/install-deps.sh && tests/demo.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
PY=/usr/bin/python3; [ -x "$PY" ] || PY=python3
cd "$ROOT"

echo "=== build ($BUILD)"
[ -f "$BUILD/CMakeCache.txt" ] || cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$BUILD" --target mtl2glsl mtlrun mtl2glsl_shared mtlrt_shared
tool() { find "$BUILD" -name "$1" -type f -perm -u+x -not -path '*/CMakeFiles/*' | head -n 1; }
MTL2GLSL=$(tool mtl2glsl)
MTLRUN=$(tool mtlrun)

echo "=== Vulkan devices (mtlrun --list-devices)"
"$MTLRUN" --list-devices || true

echo "=== samples/axpy.metal"
cat samples/axpy.metal

echo "=== GLSL (mtl2glsl samples/axpy.metal)"
"$MTL2GLSL" samples/axpy.metal

echo "=== run on the default device, compared with NumPy (tests/ref/axpy.py)"
"$PY" tests/run_exec.py --mtlrun "$MTLRUN" --case axpy_grid100000_tg256 -v tests/ref/axpy.py

echo "=== the same kernel from Python, as torch.mps.compile_shader would run it (docs/python.md)"
PYTHONPATH="$ROOT/python" MTL2GLSL_LIBRARY_PATH="$BUILD" "$PY" - <<'PYEOF'
import numpy as np
from mtl2glsl import compile_shader
lib = compile_shader(open("samples/axpy.metal").read())
x = np.arange(100000, dtype=np.float32); y = np.ones(100000, np.float32)
lib.axpy(x, y, 2.5)                       # y = 2.5 x + y, in place; threads = x.size
ok = np.allclose(y, 2.5 * np.arange(100000) + 1, rtol=1e-6)
print("lib.axpy(x, y, 2.5):", "PASS" if ok else "FAIL")
raise SystemExit(0 if ok else 1)
PYEOF
