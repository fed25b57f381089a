#!/bin/sh
# Installs everything mtl2glsl needs to build and test on Debian 12 (run as root, or it uses sudo).
set -eu
SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends \
    build-essential cmake ninja-build pkg-config \
    llvm-dev libclang-dev clang \
    libshaderc-dev glslang-dev glslang-tools spirv-tools libspirv-cross-c-shared-dev \
    libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers \
    libcjson-dev python3 python3-numpy python3-pytest python3-torch
