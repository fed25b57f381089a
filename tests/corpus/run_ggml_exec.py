#!/usr/bin/python3
"""Runs ggml's own kernels against NumPy (tests/corpus/ggml_exec*.py list the cases).

    run_ggml_exec.py --mtl2glsl PATH --mtlrun PATH --root LLAMA_RN_PACKAGE [--width N] [--case NAME ...] [-v]

ggml-metal.metal holds 616 entry points, so the file is translated once into a temporary folder (GLSL and
reflection), and tests/run_exec.py runs each case's entry point from there under the validation layer, outputs
poisoned. ggml's kernels are written for 32-wide SIMD-groups; --width N builds them for N-wide subgroups (the
widths of refcase.WIDTH_ARGS: 8 the device's own subgroups with the SIMD-group emulated across them, 4, 16, 32
and 64 subgroups built in shared memory); the default is 32 from shared memory, which runs on any device.
Exit status 0 only when every case passed.
"""
import argparse
import concurrent.futures
import glob
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
    ap.add_argument("--width", type=int, default=32, choices=(4, 8, 16, 32, 64), help="subgroup width (default 32)")
    ap.add_argument("--case", action="append", default=[], help="run only this case (repeatable)")
    ap.add_argument("-v", action="store_true")
    args = ap.parse_args()
    src = os.path.join(args.root, "cpp", "ggml-metal", "ggml-metal.metal")
    if not os.path.isfile(src):
        print("no %s" % src, file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="mtl2glsl-ggml-") as out:
        # by default 32-wide SIMD-groups built in shared memory, so that they run on any device; the GLSL and the
        # reflection are translated side by side (each pass parses the whole file)
        width = ["--subgroup-size=%d" % args.width] + ([] if args.width == 8 else ["--virtual-subgroups"])
        procs = [(emit, subprocess.Popen([args.mtl2glsl] + width + ["--emit=" + emit, "-o", out + "/", src],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace"))
                 for emit in ("glsl", "reflect")]
        for emit, p in procs:
            _, err = p.communicate(timeout=900)
            # exit 1 (an entry point that does not translate) is not this test's failure: its cases' files must exist
            if p.returncode not in (0, 1) or "Sanitizer" in err or "runtime error:" in err:
                print("mtl2glsl --emit=%s exited %d\n%s" % (emit, p.returncode, err[-4000:]), file=sys.stderr)
                return 1
        env = dict(os.environ, MTL2GLSL_GGML_DIR=args.root)
        jobs = []
        for script in sorted(glob.glob(os.path.join(HERE, "ggml_exec*.py"))):
            names = subprocess.run([sys.executable, script, "--list"], env=env, capture_output=True, text=True).stdout.split()
            cases = [c for c in args.case if c in names]
            if args.case and not cases:
                continue
            cmd = [sys.executable, os.path.join(os.path.dirname(HERE), "run_exec.py"), "--mtlrun", args.mtlrun,
                   "--samples", "/", "--glsl-dir", out, script] + (["-v"] if args.v else [])
            for c in cases:
                cmd += ["--case", c]
            jobs.append((script, cmd))

        def run(job):
            return job[0], subprocess.run(job[1], env=env, capture_output=True, text=True, errors="replace")
        rc = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:   # two case scripts at a time
            for script, p in pool.map(run, jobs):
                print("== %s (%d-wide subgroups)" % (os.path.basename(script), args.width))
                sys.stdout.write(p.stdout + p.stderr)
                sys.stdout.flush()
                rc |= p.returncode
        return rc


if __name__ == "__main__":
    sys.exit(main())
