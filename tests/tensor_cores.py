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
On samples/sgmat_half_values.metal (float fragments, MLX's steel tiles), which products the proof that operands hold
half values only sends to the tensor cores: those of float fragments filled from half threadgroup memory, not those
of fragments scaled by a float, staged in float, or computed by another product (one kernel with both kinds).
On tests/tensor_cores/half_value_forms.metal, the forms the proof must see through (tc_*: on the tensor cores) or
refuse (exact_*: on the FP32 units), each entry point's one product checked, and its GLSL validated by glslang;
then the whole file translated at once must give each kernel the GLSL it gets alone (copies per caller are undone).
Exits non-zero on the first difference, naming it.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(os.path.dirname(HERE), "samples", "simdgroup_matrix.metal")
PRODUCTS = {"sgm_forms", "sgm_helpers", "sgm_shmem", "gemm_tiled_float", "gemm_tiled_half", "gemm_tiled_bfloat",
            "gemm_epilogue", "attention_block"}
HALF_PRODUCTS = {"gemm_tiled_half", "sgm_forms", "sgm_shmem", "gemm_epilogue", "attention_block"}  # half * half
HALF_VALUES = os.path.join(os.path.dirname(HERE), "samples", "sgmat_half_values.metal")
# entry point: (product calls on the tensor cores, product calls on the FP32 units), with --tensor-cores at 32
FORMS = os.path.join(HERE, "tensor_cores", "half_value_forms.metal")
PER_CALLER = {"tc_per_caller": (1, 1)}  # the helper copied for its first caller: one product of each kind
HALF_VALUE_CALLS = {"frag_gemm_half": (1, 0), "frag_gemm_scaled": (0, 1), "frag_gemm_float": (0, 1), "frag_chain": (1, 1)}


def translate(m2g, entry, opts, emit, sample=SAMPLE):
    r = subprocess.run([m2g, "--emit=" + emit, "--entry", entry] + opts + [sample], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("FAIL: mtl2glsl %s --entry %s exited %d:\n%s" % (" ".join(opts), entry, r.returncode, r.stderr))
    return json.loads(r.stdout)[0] if emit == "reflect" else r.stdout


def expect(what, got, want):
    if got != want:
        sys.exit("FAIL: %s: %r, expected %r" % (what, got, want))


def product_calls(glsl):
    """(calls of the _half products, calls of the FP32 ones) outside the helpers that define them"""
    calls = [ln for ln in glsl.splitlines() if not ln.startswith("vec2 ") and not ln.lstrip().startswith("return ")]
    half = sum(ln.count("simdgroup_multiply_accumulate_half(") + ln.count("simdgroup_multiply_half(") for ln in calls)
    fp32 = sum(ln.count(" simdgroup_multiply_accumulate(") + ln.count(" simdgroup_multiply(") for ln in calls)
    return half, fp32


def half_values(m2g):
    for e, (tc, fp32) in sorted(HALF_VALUE_CALLS.items()):
        r = translate(m2g, e, ["--tensor-cores"], "reflect", HALF_VALUES)
        expect("%s --tensor-cores: matrix_products" % e, r["simd"]["matrix_products"], "tensor_cores" if tc else "exact")
        expect("%s --tensor-cores: feature cooperativeMatrix" % e, "cooperativeMatrix" in r["features"], tc > 0)
        glsl = translate(m2g, e, ["--tensor-cores"], "glsl", HALF_VALUES)
        expect("%s --tensor-cores: product calls (tensor cores, FP32 units)" % e, product_calls(glsl), (tc, fp32))
        expect("%s --tensor-cores: float operands converted to half" % e, "f16vec2(am), f16vec2(bm)" in glsl, tc > 0)
        glsl = translate(m2g, e, [], "glsl", HALF_VALUES)
        expect("%s (default): product calls" % e, product_calls(glsl), (0, tc + fp32))
    print("PASS: %d entry points of %s" % (len(HALF_VALUE_CALLS), os.path.basename(HALF_VALUES)))


def forms(m2g):
    entries = subprocess.run([m2g, "--list-entries", FORMS], capture_output=True, text=True, check=True).stdout.split()
    expect("forms: entry points of both kinds", {e.split("_")[0] for e in entries}, {"tc", "exact"})
    for e in entries:
        tc = e.startswith("tc_")
        r = translate(m2g, e, ["--subgroup-size=32", "--tensor-cores"], "reflect", FORMS)
        expect("%s --tensor-cores: matrix_products" % e, r["simd"]["matrix_products"], "tensor_cores" if tc else "exact")
        glsl = translate(m2g, e, ["--subgroup-size=32", "--tensor-cores"], "glsl", FORMS)
        want = PER_CALLER.get(e, (1, 0) if tc else (0, 1))
        expect("%s --tensor-cores: product calls (tensor cores, FP32 units)" % e, product_calls(glsl), want)
        v = subprocess.run(["glslangValidator", "--stdin", "-S", "comp", "-V", "--target-env", "vulkan1.1", "-o", os.devnull],
                           input=glsl, capture_output=True, text=True)
        expect("%s --tensor-cores: glslang's verdict" % e, (v.returncode, v.stdout.strip()), (0, "stdin"))
    with tempfile.TemporaryDirectory() as d:  # the whole file at once: no kernel sees another's copies per caller
        subprocess.run([m2g, "--subgroup-size=32", "--tensor-cores", "-o", d + "/", FORMS], check=True, capture_output=True)
        for e in entries:
            with open(os.path.join(d, e + ".comp")) as f:
                whole = f.read().rstrip("\n").splitlines()
            alone = translate(m2g, e, ["--subgroup-size=32", "--tensor-cores"], "glsl", FORMS).rstrip("\n").splitlines()
            first = next((i for i, (a, b) in enumerate(zip(whole, alone)) if a != b), min(len(whole), len(alone)))
            expect("%s: translated with the whole file, line %d" % (e, first + 1),
                   whole[first] if first < len(whole) else None, alone[first] if first < len(alone) else None)
    print("PASS: %d entry points of %s" % (len(entries), os.path.basename(FORMS)))


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
    half_values(args.mtl2glsl)
    forms(args.mtl2glsl)
    return 0


if __name__ == "__main__":
    sys.exit(main())
