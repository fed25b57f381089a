#!/usr/bin/python3
"""mtlrun refuses what it cannot run exactly, with a clear message and exit status 1 (never a wrong result).

    refusals.py --mtlrun PATH --mtl2glsl PATH

Cases: a kernel translated for 32-wide subgroups on a device whose subgroups are narrower (lavapipe: 8);
a [[threadgroup(n)]] parameter without a size; a size for a parameter the kernel does not have; a size that
is not a multiple of 16 bytes (Metal's rule).
"""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(os.path.dirname(HERE), "samples")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=120)
    return p.returncode, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtlrun", required=True)
    ap.add_argument("--mtl2glsl", required=True)
    args = ap.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        rms = os.path.join(SAMPLES, "rmsnorm.metal")
        rc, out = run([args.mtl2glsl, "--subgroup-size=32", "-o", tmp + "/", rms])
        rc2, out2 = run([args.mtl2glsl, "--subgroup-size=32", "--emit=reflect", "-o", tmp + "/", rms])
        if rc or rc2:
            failures.append("translating rmsnorm.metal failed:\n" + out + out2)
        rms_run = ["--grid", "64", "--threadgroup", "64", "--buffer", "0=float32:2x32", "--buffer", "1=float32:32",
                   "--buffer", "2=float32:2x32", "--scalar", "3=uint:2", "--scalar", "4=uint:32", "--scalar", "5=float:1"]
        radix = os.path.join(SAMPLES, "radix.metal")
        radix_run = ["--entry", "radix_prefix", "--threadgroups", "1", "--threadgroup", "64",
                     "--buffer", "0=uint32:10", "--buffer", "1=uint32:10", "--scalar", "2=uint:10"]
        cases = [
            ("32-wide kernel on narrower subgroups",
             [args.mtlrun, tmp + "/rmsnorm.comp", "--reflect", tmp + "/rmsnorm.json", "--device", "llvmpipe"] + rms_run,
             "was translated for 32-wide subgroups"),
            ("threadgroup memory without a size", [args.mtlrun, radix] + radix_run,
             "threadgroup buffer 0 (totals) of kernel radix_prefix: no size given"),
            ("threadgroup memory for a parameter that does not exist",
             [args.mtlrun, radix] + radix_run + ["--threadgroup-memory", "3=64"],
             "kernel radix_prefix has no [[threadgroup(3)]] parameter"),
            ("threadgroup memory not a multiple of 16 bytes",
             [args.mtlrun, radix] + radix_run + ["--threadgroup-memory", "0=66"],
             "66 bytes is not a multiple of 16 (Metal's rule for threadgroup memory lengths"),
        ]
        for name, cmd, text in cases:
            rc, out = run(cmd)
            if rc != 1 or text not in out or "Sanitizer" in out:
                failures.append("%s: expected exit 1 and `%s`, got exit %d:\n%s" % (name, text, rc, out))
    for f in failures:
        print("FAIL: " + f)
    print("%d refusal cases, %d failed" % (len(cases), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
