#!/usr/bin/python3
"""Runs MLX's own kernels against NumPy (tests/corpus/mlx/*.py describe the cases, one script per kernel file).

    run_mlx_exec.py --mtlrun PATH --root MLX_CHECKOUT [-v] [SCRIPT ...]

Each case runs through tests/run_exec.py: mtlrun translates the case's entry point from MLX's kernel file (with
-I MLX_CHECKOUT, as MLX's own build compiles it) and runs it under the validation layer, outputs poisoned. Without
SCRIPT, every script in tests/corpus/mlx/. Prints each script's summary and exits 0 only when every case passed.
"""
import argparse
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mtlrun", required=True)
    ap.add_argument("--root", required=True, help="the MLX checkout (mlx/backend/metal/kernels/)")
    ap.add_argument("-v", action="store_true")
    ap.add_argument("scripts", nargs="*")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if not os.path.isdir(os.path.join(root, "mlx", "backend", "metal", "kernels")):
        print("no mlx/backend/metal/kernels under %s" % root, file=sys.stderr)
        return 1
    scripts = args.scripts or sorted(p for p in glob.glob(os.path.join(HERE, "mlx", "*.py"))
                                     if os.path.basename(p) != "mlxcase.py")
    env = dict(os.environ, MTL2GLSL_MLX_DIR=root)
    failed = []
    for s in scripts:
        cmd = [sys.executable, os.path.join(os.path.dirname(HERE), "run_exec.py"), "--mtlrun", args.mtlrun,
               "--samples", "/", "--mtlrun-arg=-I", "--mtlrun-arg=" + root, s] + (["-v"] if args.v else [])
        print("== %s" % os.path.basename(s), flush=True)
        if subprocess.run(cmd, env=env).returncode != 0:
            failed.append(os.path.basename(s))
    print("mlx: %d of %d scripts passed%s" % (len(scripts) - len(failed), len(scripts),
                                              (": failed " + ", ".join(failed)) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
