#!/usr/bin/python3
"""Runs ggml's own kernels against NumPy (tests/corpus/ggml_exec.py lists the cases).

    run_ggml_exec.py --mtl2glsl PATH --mtlrun PATH --root LLAMA_RN_PACKAGE [-v]

ggml-metal.metal holds 616 entry points, some of which do not translate yet, so the file is translated once into a
temporary folder (GLSL and reflection), and tests/run_exec.py runs each case's entry point from there under the
validation layer, outputs poisoned. Exit status 0 only when every case passed.
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--mtlrun", required=True)
    ap.add_argument("--root", required=True, help="the llama.rn package folder (cpp/ggml-metal/ggml-metal.metal)")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    src = os.path.join(args.root, "cpp", "ggml-metal", "ggml-metal.metal")
    if not os.path.isfile(src):
        print("no %s" % src, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="mtl2glsl-ggml-") as out:
        for emit in ("glsl", "reflect"):  # exit 1 is expected: other entry points fail; the cases' files must exist
            # 32-wide SIMD-groups built in shared memory (argmax's simd_max), so that they run on any device
            p = subprocess.run([args.mtl2glsl, "--virtual-subgroups", "--emit=" + emit, "-o", out + "/", src],
                               capture_output=True, text=True, errors="replace", timeout=900)
            if p.returncode not in (0, 1) or "Sanitizer" in p.stderr or "runtime error:" in p.stderr:
                print("mtl2glsl --emit=%s exited %d\n%s" % (emit, p.returncode, p.stderr[-4000:]), file=sys.stderr)
                return 1
        env = dict(os.environ, MTL2GLSL_GGML_DIR=args.root)
        cmd = [sys.executable, os.path.join(os.path.dirname(HERE), "run_exec.py"), "--mtlrun", args.mtlrun, "--samples", "/",
               "--glsl-dir", out, os.path.join(HERE, "ggml_exec.py")] + (["-v"] if args.v else [])
        return subprocess.run(cmd, env=env).returncode


if __name__ == "__main__":
    sys.exit(main())
