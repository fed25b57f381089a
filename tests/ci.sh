#!/bin/bash
# The test command (README): builds with gcc and -Werror and runs the whole ctest suite, then builds again with
# AddressSanitizer + UndefinedBehaviorSanitizer (clang, -DMTL2GLSL_SANITIZE=ON) and runs the whole suite again.
# Both must pass. Build trees: build/ci-gcc and build/ci-sanitize. Extra ctest arguments go through, e.g.
#   tests/ci.sh -L translate
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:-$(nproc)}
CTEST_ARGS=("$@")

run_suite() {   # NAME BUILD_DIR CMAKE_ARGS...
    local name=$1 build=$2
    shift 2
    echo "=== ci: $name: configure + build ($build)"
    cmake -S "$ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON "$@"
    cmake --build "$build" -j "$JOBS"
    echo "=== ci: $name: ctest"
    ctest --test-dir "$build" --output-on-failure -j "$JOBS" --timeout 600 "${CTEST_ARGS[@]}"
}

start=$(date +%s)
run_suite "gcc -Werror" "$ROOT/build/ci-gcc" -DCMAKE_C_COMPILER=gcc -DCMAKE_C_FLAGS=-Werror
run_suite "ASan+UBSan (clang)" "$ROOT/build/ci-sanitize" -DCMAKE_C_COMPILER=clang -DMTL2GLSL_SANITIZE=ON
echo "=== ci: both suites passed in $(( $(date +%s) - start )) s"
