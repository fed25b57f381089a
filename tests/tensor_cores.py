#!/usr/bin/python3
"""Which kernels mtl2glsl --tensor-cores builds for tensor cores, and how (no GPU needed; docs/translator.md,
"Tensor cores").

    tensor_cores.py --mtl2glsl PATH [--entry NAME ...]

On samples/simdgroup_matrix.metal, per entry point, the reflection of the default translation and of
--tensor-cores at each width, and the GLSL's helpers:
  - products of two half matrices with --tensor-cores at native 32-wide subgroups: simd.matrix_products
    "tensor_cores", lanes "mma", feature cooperativeMatrix and extension GL_NV_cooperative_matrix, the _half form
    called; products of float or bfloat matrices stay exact on the FP32 units (no test of exactness in half), and
    a kernel with only those is untouched by --tensor-cores (matrix_products "exact", lanes "metal");
  - kernels without products (loads, stores, thread_elements): untouched by --tensor-cores (lanes "metal"),
    and renamed by --mma-lanes;
  - --tensor-cores with --virtual-subgroups, or at 16 or 64: exact products, lanes "metal", no cooperativeMatrix;
  - the default: exact, lanes "metal", and no fcoopmatNV in the GLSL.
Exits non-zero on the first difference, naming it.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(os.path.dirname(HERE), "samples", "simdgroup_matrix.metal")
PRODUCTS = {"sgm_forms", "sgm_helpers", "sgm_shmem", "gemm_tiled_float", "gemm_tiled_half", "gemm_tiled_bfloat",
            "gemm_epilogue", "attention_block"}
HALF_PRODUCTS = {"gemm_tiled_half", "sgm_forms", "sgm_shmem", "gemm_epilogue", "attention_block"}  # half * half


def translate(m2g, entry, opts, emit):
    r = subprocess.run([m2g, "--emit=" + emit, "--entry", entry] + opts + [SAMPLE], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("FAIL: mtl2glsl %s --entry %s exited %d:\n%s" % (" ".join(opts), entry, r.returncode, r.stderr))
    return json.loads(r.stdout)[0] if emit == "reflect" else r.stdout


def expect(what, got, want):
    if got != want:
        sys.exit("FAIL: %s: %r, expected %r" % (what, got, want))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--entry", action="append", help="check only this entry point (repeatable; the sanitizer build)")
    args = ap.parse_args()
    entries = subprocess.run([args.mtl2glsl, "--list-entries", SAMPLE], capture_output=True, text=True,
                             check=True).stdout.split()
    expect("entry points with products", PRODUCTS <= set(entries), True)
    if args.entry:
        expect("entry points asked for", set(args.entry) <= set(entries), True)
        entries = args.entry
    checked = 0
    for e in entries:
        products, tc = e in PRODUCTS, e in HALF_PRODUCTS
        r = translate(args.mtl2glsl, e, ["--tensor-cores"], "reflect")
        s = r["simd"]
        expect("%s --tensor-cores: matrix_products" % e, s["matrix_products"],
               "tensor_cores" if tc else "exact" if products else None)
        expect("%s --tensor-cores: lanes" % e, s["lanes"], "mma" if tc else "metal")
        expect("%s --tensor-cores: feature cooperativeMatrix" % e, "cooperativeMatrix" in r["features"], tc)
        expect("%s --tensor-cores: extension" % e, "GL_NV_cooperative_matrix" in r["extensions"], tc)
        glsl = translate(args.mtl2glsl, e, ["--tensor-cores"], "glsl")
        expect("%s --tensor-cores: coopMatMulAddNV in the GLSL" % e, "coopMatMulAddNV(" in glsl, tc)
        body = glsl.split("void main()")[1]
        expect("%s --tensor-cores: _half form called" % e,
               "simdgroup_multiply_accumulate_half(" in body or "simdgroup_multiply_half(" in body, tc)
        expect("%s --tensor-cores: no test of exactness in half" % e, "mtl_exact_in_half" in glsl, False)
        for opts in (["--tensor-cores", "--subgroup-size=32", "--virtual-subgroups"], ["--tensor-cores", "--subgroup-size=16"],
                     ["--tensor-cores", "--subgroup-size=64"], []):
            r = translate(args.mtl2glsl, e, opts, "reflect")
            what = "%s %s" % (e, " ".join(opts) or "(default)")
            expect(what + ": matrix_products", r["simd"]["matrix_products"], "exact" if products else None)
            expect(what + ": lanes", r["simd"]["lanes"], "metal")
            expect(what + ": feature cooperativeMatrix", "cooperativeMatrix" in r["features"], False)
        glsl = translate(args.mtl2glsl, e, [], "glsl")
        expect("%s (default): fcoopmatNV in the GLSL" % e, "fcoopmatNV" in glsl, False)
        r = translate(args.mtl2glsl, e, ["--mma-lanes", "--subgroup-size=32", "--virtual-subgroups"], "reflect")
        expect("%s --mma-lanes: lanes" % e, r["simd"]["lanes"], "mma")
        expect("%s --mma-lanes: matrix_products" % e, r["simd"]["matrix_products"], "exact" if products else None)
        checked += 1
    print("PASS: %d entry points of %s" % (checked, os.path.basename(SAMPLE)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
