#!/bin/sh
# Installs everything mtl2glsl needs to build and test on Debian 12 (run as root, or it uses sudo), then fetches
# the ggml kernels of the corpus.ggml test (tests/corpus/fetch-ggml.sh). libclang-rt-14-dev holds clang's sanitizer
# runtimes and libFuzzer (the sanitizer build, tests/fuzz).
set -eu
SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
    build-essential cmake ninja-build pkg-config \
    llvm-dev libclang-dev clang libclang-rt-14-dev \
    libshaderc-dev glslang-dev glslang-tools spirv-tools libspirv-cross-c-shared-dev \
    libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers \
    libcjson-dev python3 python3-numpy python3-pytest python3-torch
# npm fetches the ggml corpus; a machine whose Node.js already brings npm (NodeSource's nodejs conflicts with
# Debian's npm) keeps its own
command -v npm >/dev/null 2>&1 || $SUDO apt-get install -y --no-install-recommends npm
# ggml's Metal kernels for the corpus.ggml test, pinned and verified, unpacked outside the tree
# (${MTL2GLSL_CORPUS_DIR:-$HOME/.cache/mtl2glsl/corpus}/llama.rn-0.12.9)
"$(dirname "$0")/corpus/fetch-ggml.sh"
