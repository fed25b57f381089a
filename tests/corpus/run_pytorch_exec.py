#!/usr/bin/python3
"""Runs PyTorch's own MPS kernels against NumPy (tests/corpus/pytorch/*.py describe the cases, one script per
kernel file).

    run_pytorch_exec.py --mtlrun PATH --root PYTORCH_DIR [--case NAME ...] [-v] [SCRIPT ...]

PYTORCH_DIR holds aten/src/ATen/native/mps/kernels/*.metal and c10/metal/*.h (docs/corpus.md names the file
versions the cases were written for). Each case runs through tests/run_exec.py: mtlrun translates the case's entry
point with -I PYTORCH_DIR -I PYTORCH_DIR/aten/src (PyTorch's include roots) and runs it under the validation layer,
outputs poisoned. Without SCRIPT, every script in tests/corpus/pytorch/. Prints each script's summary and exits 0
only when every case passed.
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
    ap.add_argument("--root", required=True, help="the folder with aten/src/ATen/native/mps/kernels and c10/metal")
    ap.add_argument("--case", action="append", default=[], help="run only this case (repeatable)")
    ap.add_argument("-v", action="store_true")
    ap.add_argument("scripts", nargs="*")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if not os.path.isdir(os.path.join(root, "aten", "src", "ATen", "native", "mps", "kernels")):
        print("no aten/src/ATen/native/mps/kernels under %s" % root, file=sys.stderr)
        return 1
    scripts = args.scripts or sorted(p for p in glob.glob(os.path.join(HERE, "pytorch", "*.py"))
                                     if os.path.basename(p) != "torchcase.py")
    env = dict(os.environ, MTL2GLSL_PYTORCH_DIR=root)
    failed = []
    ran = 0
    for s in scripts:
        cmd = [sys.executable, os.path.join(os.path.dirname(HERE), "run_exec.py"), "--mtlrun", args.mtlrun,
               "--samples", "/", "--mtlrun-arg=-I", "--mtlrun-arg=" + root,
               "--mtlrun-arg=-I", "--mtlrun-arg=" + os.path.join(root, "aten", "src"), s]
        if args.case:
            names = subprocess.run([sys.executable, s, "--list"], env=env, capture_output=True, text=True,
                                   check=True).stdout.split()
            wanted = [c for c in args.case if c in names]
            if not wanted:
                continue
            cmd += ["--case=" + c for c in wanted]
        cmd += ["-v"] if args.v else []
        ran += 1
        print("== %s" % os.path.basename(s), flush=True)
        if subprocess.run(cmd, env=env).returncode != 0:
            failed.append(os.path.basename(s))
    if args.case and not ran:
        print("no script has the case(s) %s" % ", ".join(args.case), file=sys.stderr)
        return 1
    print("pytorch: %d of %d scripts passed%s" % (ran - len(failed), ran,
                                                  (": failed " + ", ".join(failed)) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
