#!/bin/bash
# package.consumer: mtl2glsl as a build step, from an installed package (docs/build-integration.md).
#   1. `cmake --install BUILD --prefix TMP/prefix`, then move the prefix (the package must be relocatable) and check
#      what is there: programs, runtime library and header, prelude, CMake package, pkg-config file, man pages.
#   2. Build samples/consumer (a copy) against it with CMake + Ninja, CMake + Unix Makefiles, and plain make with
#      pkg-config (its Makefile), and run each program: it checks its kernels against a C reference, exit 0.
#      mtl2glsl_add_kernels(... SPECS ...) stops the configure step with a message (not supported yet).
#   3. For each build: building again translates nothing; touching kernels/common.h translates again exactly
#      affine.metal (the kernel that includes it), not rowsum.metal.
#   4. Golden tests (docs/golden-tests.md): the consumer's golden/ folder, registered by mtl2glsl_add_golden_tests,
#      passes under ctest; golden/make_goldens.py (NumPy) writes exactly the committed files again; a deliberately
#      broken kernel added with one more mtl2glsl_add_golden_tests line fails, and its report names the first
#      wrong element with NumPy's value; mtltest --junit; bad arguments to the CMake function stop the configure.
#   5. samples/consumer_cxx, a C++-only CMake project (project(x CXX)) that adopts its own Vulkan device, built and
#      run; it prints nothing on stderr (the runtime prints only through a log callback).
# usage: tests/package.sh BUILD_DIR C_COMPILER
set -euo pipefail
BUILD=$(cd "$1" && pwd)
CC_FOR_CONSUMER=$2 # the package's own compiler: a sanitized libmtlrt.so needs the same sanitizer runtime
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() { echo "package: FAIL: $*" >&2; exit 1; }

echo "== install"
cmake --install "$BUILD" --prefix "$TMP/staged" >/dev/null
mv "$TMP/staged" "$TMP/prefix"
P=$TMP/prefix
for f in bin/mtl2glsl bin/mtlrun bin/mtltest lib/libmtlrt.so include/mtl2glsl/mtlrt.h include/mtl2glsl/mtlrt_vulkan.h \
         include/mtl2glsl/dtype.def \
         share/mtl2glsl/grammar/metal_stdlib lib/cmake/mtl2glsl/mtl2glsl-config.cmake \
         lib/cmake/mtl2glsl/mtl2glsl-config-version.cmake lib/cmake/mtl2glsl/Mtl2glslAddKernels.cmake \
         lib/cmake/mtl2glsl/Mtl2glslAddGoldenTests.cmake lib/pkgconfig/mtlrt.pc share/man/man1/mtl2glsl.1 \
         share/man/man1/mtlrun.1 share/man/man1/mtltest.1; do
    [ -e "$P/$f" ] || fail "not installed: $f"
done
# The installed translator finds the installed prelude beside itself, not the source tree's.
"$P/bin/mtl2glsl" --version | grep -qxF "prelude: $P/bin/../share/mtl2glsl/grammar" ||
    fail "installed mtl2glsl does not use its own prelude: $("$P/bin/mtl2glsl" --version | tail -1)"
# The installed mtlrun translates a .metal source with the installed prelude and runs it.
"$P/bin/mtlrun" "$ROOT/samples/axpy.metal" --grid 100 --threadgroup 32 --buffer 0=float32:100 --buffer 1=float32:100 \
    --scalar 2=float:2 --validate >"$TMP/mtlrun.log" 2>&1 || { cat "$TMP/mtlrun.log"; fail "installed mtlrun"; }
PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --libs mtlrt | grep -q -- -lmtlrt || fail "pkg-config --libs mtlrt"
# The Python package from the moved prefix finds the prefix's libraries and prelude (its _paths.py) and runs a kernel
# (docs/python.md). Not for sanitized libraries, which an unsanitized python3 cannot load.
PYDIR=$(find "$P/lib" -maxdepth 3 -type d -path "*/python3*/dist-packages" | head -1)
[ -n "$PYDIR" ] && [ -e "$PYDIR/mtl2glsl/_paths.py" ] && [ -e "$P/lib/libmtl2glsl.so" ] || fail "Python package not installed"
# (grep reads all of nm's output: with -q it could stop early, and under pipefail nm's SIGPIPE would read as "no match")
if ! nm -D --undefined-only "$P/lib/libmtl2glsl.so" | grep __asan_ >/dev/null; then
    (cd "$TMP" && env -u MTL2GLSL_LIBRARY_PATH -u MTL2GLSL_GRAMMAR_DIR PYTHONPATH="$PYDIR" /usr/bin/python3 -c '
import os, sys, numpy as np, mtl2glsl
from mtl2glsl import _lib
assert _lib.m2g._name.startswith(sys.argv[1]), _lib.m2g._name
lib = mtl2glsl.compile_shader("kernel void f(device float* x, uint i [[thread_position_in_grid]]) { x[i] = 2 * i; }")
x = np.zeros(8, np.float32); lib.f(x); assert (x == 2 * np.arange(8)).all(), x
' "$P/lib/") >"$TMP/python.log" 2>&1 || { cat "$TMP/python.log"; fail "installed Python package"; }
fi

# Files of BUILD_DIR newer than the stamp among the generated kernels: "affine rowsum", "affine", "".
newer_kernels() {   # GEN_DIR STAMP
    local out=""
    for k in affine rowsum; do
        [ "$1/$k.metal.c" -nt "$2" ] && out="$out $k"
    done
    echo "${out# }"
}

# Build, run, rebuild with nothing touched, rebuild after touching the header. BUILD_CMD runs in the project copy.
check_build() {   # NAME GEN_DIR PROGRAM BUILD_CMD...
    local name=$1 gen=$2 prog=$3
    shift 3
    echo "== $name: build"
    "$@" >"$TMP/$name.log" 2>&1 || { cat "$TMP/$name.log"; fail "$name: build failed"; }
    echo "== $name: run"
    "$prog" || fail "$name: the consumer program failed"
    sleep 1 # file times: the next change must be visibly newer than the outputs
    touch "$TMP/$name.stamp"
    "$@" >"$TMP/$name.log" 2>&1 || { cat "$TMP/$name.log"; fail "$name: rebuild failed"; }
    [ -z "$(newer_kernels "$gen" "$TMP/$name.stamp")" ] || { cat "$TMP/$name.log"; fail "$name: a build with nothing changed translated again: $(newer_kernels "$gen" "$TMP/$name.stamp")"; }
    sleep 1
    touch "$TMP/$name.stamp2" "$SRC/kernels/common.h"
    "$@" >"$TMP/$name.log" 2>&1 || { cat "$TMP/$name.log"; fail "$name: rebuild after touching common.h failed"; }
    local again
    again=$(newer_kernels "$gen" "$TMP/$name.stamp2")
    [ "$again" = affine ] || { cat "$TMP/$name.log"; fail "$name: touching kernels/common.h translated '$again' again; expected exactly 'affine'"; }
    "$prog" >/dev/null || fail "$name: the rebuilt consumer program failed"
    echo "$name: ok (nothing touched: nothing translated; common.h touched: affine only)"
}

# SPECS (body-only kernel specs, issue 6) is refused with a clear configure-time error.
mkdir -p "$TMP/specs"
cat >"$TMP/specs/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(specs LANGUAGES C)
find_package(mtl2glsl CONFIG REQUIRED)
mtl2glsl_add_kernels(TARGET k SOURCES k.metal SPECS k.json)
CMAKE
if cmake -S "$TMP/specs" -B "$TMP/specs/build" -DCMAKE_PREFIX_PATH="$P" >"$TMP/specs.log" 2>&1 ||
   ! grep -q "SPECS is not supported yet" "$TMP/specs.log"; then
    cat "$TMP/specs.log"; fail "mtl2glsl_add_kernels(SPECS ...) is not refused with its message"
fi

SRC=$TMP/consumer
cp -r "$ROOT/samples/consumer" "$SRC"
rm -rf "$SRC/gen" "$SRC/consumer"
for gen in Ninja "Unix Makefiles"; do
    dir=$TMP/build-${gen// /-}
    cmake -S "$SRC" -B "$dir" -G "$gen" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$CC_FOR_CONSUMER" \
        >"$TMP/configure.log" 2>&1 || { cat "$TMP/configure.log"; fail "$gen: configure failed"; }
    check_build "${gen// /-}" "$dir/consumer_kernels" "$dir/consumer" cmake --build "$dir"
done
check_build plain-make "$SRC/gen" "$SRC/consumer" \
    env PKG_CONFIG_PATH="$P/lib/pkgconfig" make -C "$SRC" CC="$CC_FOR_CONSUMER"
# Golden tests through ctest (mtl2glsl_add_golden_tests in the consumer's CMakeLists.txt), with the installed mtltest.
echo "== golden tests"
GB=$TMP/build-Ninja
ctest --test-dir "$GB" -L golden --output-on-failure >"$TMP/golden.log" 2>&1 &&
    grep -q "100% tests passed, 0 tests failed out of 3" "$TMP/golden.log" || { cat "$TMP/golden.log"; fail "golden tests"; }
"$P/bin/mtltest" --junit "$TMP/golden.xml" "$SRC/golden" >"$TMP/golden.log" 2>&1 &&
    grep -q 'tests="3" failures="0" errors="0" skipped="0"' "$TMP/golden.xml" || { cat "$TMP/golden.log" "$TMP/golden.xml"; fail "mtltest --junit"; }
# The goldens are NumPy's: make_goldens.py writes the committed files again, byte for byte (mtl2glsl.golden is plain
# Python, so the source tree's package serves, whatever the libraries' build).
PYTHONPATH=$ROOT/python /usr/bin/python3 "$SRC/golden/make_goldens.py" >"$TMP/make.log" 2>&1 || { cat "$TMP/make.log"; fail "make_goldens.py"; }
diff -r "$ROOT/samples/consumer/golden" "$SRC/golden" || fail "golden/make_goldens.py does not write the committed goldens"
# A deliberately broken kernel (element 613 wrong) against affine's golden, added with one more line in CMake.
mkdir -p "$SRC/golden_broken"
sed 's/y\[i\] = leaky(scale \* x\[i\] + bias);/y[i] = i == 613u ? 0.0f : leaky(scale * x[i] + bias);/' \
    "$SRC/kernels/affine.metal" >"$SRC/golden_broken/affine_broken.metal"
grep -q "i == 613u" "$SRC/golden_broken/affine_broken.metal" || fail "could not break affine.metal"
sed -e 's#"../kernels/affine.metal"#"affine_broken.metal"#' -e 's#"affine.y.golden.npy"#"../golden/affine.y.golden.npy"#' \
    "$SRC/golden/affine.golden.json" >"$SRC/golden_broken/affine_broken.golden.json"
echo 'mtl2glsl_add_golden_tests(DIRECTORY golden_broken LABELS broken PREFIX broken)' >>"$SRC/CMakeLists.txt"
cmake "$GB" >"$TMP/golden.log" 2>&1 || { cat "$TMP/golden.log"; fail "reconfigure with golden_broken"; }
if ctest --test-dir "$GB" -L broken --output-on-failure >"$TMP/broken.log" 2>&1; then
    cat "$TMP/broken.log"; fail "the broken kernel's golden test passed"
fi
want=$(/usr/bin/python3 -c 'import numpy as np, sys; print("%.9g" % np.load(sys.argv[1])[613])' "$SRC/golden/affine.y.golden.npy")
for text in "broken.affine_broken .*Failed" "FAIL   affine_broken" \
            "output 1 (y) differs from ../golden/affine.y.golden.npy (1 of 1000 elements over the tolerance):" \
            "    \[613\]: got 0, expected $want (abs err" "max abs err .* at \[613\]" \
            "actual output written to .*golden/affine.y.actual.npy"; do
    grep -q -- "$text" "$TMP/broken.log" || { cat "$TMP/broken.log"; fail "the broken kernel's report lacks '$text'"; }
done
[ -e "$SRC/golden/affine.y.actual.npy" ] || fail "no actual output beside the golden"
rm "$SRC/golden/affine.y.actual.npy"
echo "golden tests: ok (3 pass; the broken kernel fails at [613], got 0, expected $want)"
# mtl2glsl_add_golden_tests refuses a folder that is not there, and one without tests.
mkdir -p "$TMP/gt/empty"
for dir in nowhere empty; do
    cat >"$TMP/gt/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(gt LANGUAGES NONE)
find_package(mtl2glsl CONFIG REQUIRED)
mtl2glsl_add_golden_tests(DIRECTORY $dir)
CMAKE
    if cmake -S "$TMP/gt" -B "$TMP/gt/build-$dir" -DCMAKE_PREFIX_PATH="$P" >"$TMP/gt.log" 2>&1 ||
       ! grep -q "mtl2glsl_add_golden_tests: .*\(is not a folder\|no golden test files\)" "$TMP/gt.log"; then
        cat "$TMP/gt.log"; fail "mtl2glsl_add_golden_tests(DIRECTORY $dir) is not refused with its message"
    fi
done
# A C++ program from a C++-only project: the headers are extern "C", and the package enables C for the generated
# launchers.
echo "== C++ consumer"
cp -r "$ROOT/samples/consumer_cxx" "$TMP/consumer_cxx"
case "$CC_FOR_CONSUMER" in
    *clang*) CXX_FOR_CONSUMER=${CC_FOR_CONSUMER/clang/clang++} ;;
    *gcc*) CXX_FOR_CONSUMER=${CC_FOR_CONSUMER/gcc/g++} ;;
    *) CXX_FOR_CONSUMER=c++ ;;
esac
cmake -S "$TMP/consumer_cxx" -B "$TMP/build-cxx" -G Ninja -DCMAKE_PREFIX_PATH="$P" \
    -DCMAKE_CXX_COMPILER="$CXX_FOR_CONSUMER" -DCMAKE_C_COMPILER="$CC_FOR_CONSUMER" >"$TMP/cxx.log" 2>&1 ||
    { cat "$TMP/cxx.log"; fail "C++ consumer: configure failed"; }
cmake --build "$TMP/build-cxx" >"$TMP/cxx.log" 2>&1 || { cat "$TMP/cxx.log"; fail "C++ consumer: build failed"; }
"$TMP/build-cxx/consumer_cxx" 2>"$TMP/cxx.err" || { cat "$TMP/cxx.err"; fail "C++ consumer: the program failed"; }
if grep -v "^==" "$TMP/cxx.err" | grep -q .; then
    cat "$TMP/cxx.err"; fail "C++ consumer: something was printed on stderr"
fi
echo "C++ consumer: ok"

# The Makefile pattern rule of docs/build-integration.md, with a header in a directory whose name has a space.
echo "== %.spv pattern rule"
mkdir -p "$TMP/spv" "$TMP/inc dir"
cp "$ROOT/samples/consumer/kernels/common.h" "$TMP/inc dir/"
cp "$ROOT/samples/consumer/kernels/affine.metal" "$ROOT/samples/axpy.metal" "$TMP/spv/"   # one entry point each
cat >"$TMP/spv/Makefile" <<'MAKEFILE'
MTL2GLSL ?= mtl2glsl
%.spv: %.metal
	$(MTL2GLSL) --emit=spirv -o $@ -MD -MP -MF $*.d $(MTL2GLSLFLAGS) $<
-include *.d
MAKEFILE
spv_make() { make -C "$TMP/spv" MTL2GLSL="$P/bin/mtl2glsl" MTL2GLSLFLAGS='-I "../inc dir" -D LEAKY_SLOPE=0.5f' "$@"; }
spv_make affine.spv axpy.spv >"$TMP/spv.log" 2>&1 || { cat "$TMP/spv.log"; fail "%.spv rule: make failed"; }
grep -qF 'inc\ dir/common.h' "$TMP/spv/affine.d" || { cat "$TMP/spv/affine.d"; fail "depfile: the space is not escaped"; }
spv_make -q affine.spv axpy.spv || fail "%.spv rule: make -q says a fresh build is out of date"
sleep 1
touch "$TMP/inc dir/common.h"
spv_make -q axpy.spv || fail "%.spv rule: touching common.h made axpy.spv out of date"
if spv_make -q affine.spv; then fail "%.spv rule: touching common.h left affine.spv up to date"; fi
echo "%.spv rule: ok"
echo "package: PASS"
