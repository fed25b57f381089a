#!/usr/bin/python3
"""Runs execution cases of one sample on mtlrun and compares the outputs with NumPy's.

    run_exec.py --mtlrun PATH tests/ref/SAMPLE.py [--case NAME ...] [--keep DIR] [--glsl-dir DIR] [-v]

For each case of the reference script: write the inputs and expected outputs into a temporary directory,
run `mtlrun samples/SAMPLE.metal --entry E (--grid|--threadgroups) ... --threadgroup ... --poison --validate
--out N=FILE.npy`, then compare each output (tests/compare.py). A case fails when mtlrun exits non-zero, crashes
(signal, exit >= 128, sanitizer report), prints any validation-layer message, or an output differs.
Prints PASS/FAIL per case and exits 0 only when every case passed.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import compare  # noqa: E402

SAMPLES = os.path.join(os.path.dirname(HERE), "samples")
VALIDATION_RE = re.compile(r"Validation (Error|Warning)|VUID-|UNASSIGNED-")
SANITIZER_RE = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                          r"UndefinedBehaviorSanitizer|ThreadSanitizer")
RUN_TIMEOUT_S = 300


def join3(v):
    return ",".join(str(int(t)) for t in v)


def key(b):
    """A buffer's index, or its name in a kernel spec (samples/specs/NAME.json)."""
    return b["index"] if "index" in b else b["name"]


def split_launch_args(extra):
    """Extra mtlrun arguments split into the launch's own (-I DIR, -D NAME, --tensor-cores=X, --mma-lanes: a pipeline
    file takes them on each `run` line; mtlrun reads its command line's only as options of the whole run) and the
    rest."""
    launch, rest, extra = [], [], list(extra)
    while extra:
        a = extra.pop(0)
        if a in ("-I", "-D", "--tensor-cores") and extra:
            launch += [a, extra.pop(0)]
        elif a.startswith(("-I", "-D", "--tensor-cores=")) or a == "--mma-lanes":
            launch.append(a)
        else:
            rest.append(a)
    return launch, rest


# mtlrun's translation options and how many words of value each takes (--opt=VALUE is one word)
TRANSLATION_OPTIONS = {"--subgroup-size": 1, "--virtual-subgroups": 0, "--push-constant-words": 0, "--fast-math": 0,
                       "--check-bounds": 0, "--mma-lanes": 0, "--tensor-cores": 1, "-I": 1, "-D": 1}


def run_args(args, translated):
    """A case's mtlrun arguments; for GLSL translated already (--glsl-dir), without the translator's options (the
    translation chose them: tests/payload.py translates for the device's own subgroups)."""
    if not translated:
        return list(args)
    out, i = [], 0
    while i < len(args):
        name = args[i].split("=", 1)[0]
        if name in TRANSLATION_OPTIONS:
            i += 1 + (TRANSLATION_OPTIONS[name] if "=" not in args[i] else 0)
            continue
        out.append(args[i])
        i += 1
    return out


def pipeline_command(mtlrun, kernel, case, workdir, validate, extra):
    """A case with a buffer bound at two indices (refcase.Same: ggml binds src0 again where an optional source is
    absent, and its kernels compare the addresses) runs as a one-launch pipeline (mtlrun --pipeline) whose shared
    buffers are bound at every index that names them."""
    q = lambda w: '"%s"' % w if any(c.isspace() for c in w) else w  # noqa: E731
    launch_args, extra = split_launch_args(extra)
    launch_args = run_args(launch_args, kernel[0].endswith(".comp"))
    lines, run, outs = [], [q(w) for w in kernel] + [q(a) for a in launch_args], {}
    run += ["--threadgroups" if "threadgroups" in case else "--grid", join3(case.get("threadgroups", case.get("grid")))]
    run += ["--threadgroup", join3(case["threadgroup"])]
    for b in case["buffers"]:
        i = b["index"]
        if "same_as" in b:
            run += ["--buffer", "%d=b%d" % (i, b["same_as"])]
        elif "bytes" in b:
            run += ["--bytes", "%d=%s" % (i, q(os.path.join(workdir, b["bytes"])))]
        else:
            src = q(os.path.join(workdir, b["file"])) if "file" in b else "%s:%s" % (
                b["dtype"], "x".join(str(int(d)) for d in b["shape"]) or "1")
            lines.append("buffer b%d = %s" % (i, src))
            run += ["--buffer", "%d=b%d" % (i, i)]
    for s in case["scalars"]:
        run += ["--scalar", "%d=%s:%s" % (s["index"], s["type"], s["value"])]
    run += [q(a) for a in run_args(case.get("mtlrun_args", []), kernel[0].endswith(".comp"))]
    lines.append("run " + " ".join(run))
    for o in case["outputs"]:
        outs[o["index"]] = os.path.join(workdir, "%s_got_b%s.npy" % (case["name"], o["index"]))
        lines.append("out b%d = %s" % (o["index"], q(outs[o["index"]])))
    path = os.path.join(workdir, "%s.pipeline" % case["name"])
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return [mtlrun, "--pipeline", path, "--poison"] + (["--validate"] if validate else []) + list(extra), outs


def launches_command(mtlrun, sample, case, workdir, validate, extra, glsl_dir):
    """A case of several launches on shared buffers (refcase.Reference.pipeline) as an mtlrun pipeline file."""
    q = lambda w: '"%s"' % w if any(c.isspace() for c in w) else w  # noqa: E731
    p = case["pipeline"]
    launch_args, extra = split_launch_args(extra)
    lines, outs = [], {}
    for b in p["buffers"]:
        src = q(os.path.join(workdir, b["file"])) if "file" in b else "%s:%s" % (b["dtype"], "x".join(str(d) for d in b["shape"]))
        lines.append("buffer %s = %s" % (b["name"], src))
    for a in p.get("addresses", []):
        lines.append("address %s+%d = %s+%d" % (a["buffer"], a["offset"], a["target"], a["target_offset"]))
    for k in p["launches"]:
        if glsl_dir:
            stem = os.path.join(glsl_dir, k["entry"])
            run = [q(stem + ".comp"), "--reflect", q(stem + ".json"), "--entry", k["entry"]]
        else:
            run = [q(sample), "--entry", k["entry"]] + [q(a) for a in launch_args]
        run += ["--threadgroups" if "threadgroups" in k else "--grid", join3(k.get("threadgroups", k.get("grid")))]
        run += ["--threadgroup", join3(k["threadgroup"])]
        for b in k["bind"]:
            if "bytes" in b:
                run += ["--bytes", "%d=%s" % (b["index"], q(os.path.join(workdir, b["bytes"])))]
            else:
                run += ["--buffer", "%d=%s" % (b["index"], b["buffer"])]
        for sc in k["scalars"]:
            run += ["--scalar", "%d=%s:%s" % (sc["index"], sc["type"], sc["value"])]
        run += [q(a) for a in run_args(k["mtlrun_args"], bool(glsl_dir))]
        lines.append("run " + " ".join(run))
    for o in case["outputs"]:
        outs[o["name"]] = os.path.join(workdir, "%s_got_%s.npy" % (case["name"], o["name"]))
        lines.append("out %s = %s" % (o["name"], q(outs[o["name"]])))
    path = os.path.join(workdir, "%s.pipeline" % case["name"])
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return [mtlrun, "--pipeline", path, "--poison"] + (["--validate"] if validate else []) + list(extra), outs


def mtlrun_command(mtlrun, sample, case, workdir, validate=True, extra=(), glsl_dir=None):
    """The mtlrun command line for one manifest case, and {index or name: output file}.
    With glsl_dir, runs the already translated glsl_dir/ENTRY.comp with --reflect glsl_dir/ENTRY.json.
    A kernel spec's case has entry null and its arrays by name."""
    if "pipeline" in case:
        return launches_command(mtlrun, sample, case, workdir, validate, extra, glsl_dir)
    if any("same_as" in b for b in case["buffers"]):
        if glsl_dir:
            stem = os.path.join(glsl_dir, case["entry"])
            kernel = [stem + ".comp", "--reflect", stem + ".json", "--entry", case["entry"]]
        else:
            kernel = [sample, "--entry", case["entry"]]
        return pipeline_command(mtlrun, kernel, case, workdir, validate, extra)
    if case["entry"] is None:
        cmd = [mtlrun, sample]
    elif glsl_dir:
        stem = os.path.join(glsl_dir, case["entry"])
        cmd = [mtlrun, stem + ".comp", "--reflect", stem + ".json", "--entry", case["entry"]]
    else:
        cmd = [mtlrun, sample, "--entry", case["entry"]]
    if "grid" in case:
        cmd += ["--grid", join3(case["grid"])]
    else:
        cmd += ["--threadgroups", join3(case["threadgroups"])]
    cmd += ["--threadgroup", join3(case["threadgroup"])]
    for b in case["buffers"]:
        if "file" in b:
            cmd += ["--buffer", "%s=%s" % (key(b), os.path.join(workdir, b["file"]))]
            if "transpose" in b:
                cmd += ["--transpose", "%s=%s" % (key(b), ",".join(str(p) for p in b["transpose"]))]
        elif "bytes" in b:
            cmd += ["--bytes", "%d=%s" % (b["index"], os.path.join(workdir, b["bytes"]))]
        else:
            shape = "x".join(str(int(d)) for d in b["shape"]) or "1"
            cmd += ["--buffer", "%s=%s:%s" % (key(b), b["dtype"], shape)]
    for s in case["scalars"]:
        cmd += ["--scalar", "%d=%s:%s" % (s["index"], s["type"], s["value"])]
    outs = {}
    for o in case["outputs"]:
        outs[key(o)] = os.path.join(workdir, "%s_got_b%s.npy" % (case["name"], key(o)))
        cmd += ["--out", "%s=%s" % (key(o), outs[key(o)])]
    cmd += run_args(case.get("mtlrun_args", []), bool(glsl_dir) and case["entry"] is not None)
    cmd += ["--poison"]
    if validate:
        cmd += ["--validate"]
    return cmd + run_args(extra, bool(glsl_dir) and case["entry"] is not None), outs


def check_process(proc):
    """Reasons the mtlrun run itself failed, from its exit status and what it printed."""
    text = (proc.stdout or "") + (proc.stderr or "")
    reasons = []
    if proc.returncode < 0 or proc.returncode >= 128:
        reasons.append("mtlrun crashed (exit status %d)" % proc.returncode)
    elif proc.returncode != 0:
        reasons.append("mtlrun exited %d" % proc.returncode)
    if SANITIZER_RE.search(text):
        reasons.append("sanitizer report in mtlrun's output")
    bad = [line for line in text.splitlines() if VALIDATION_RE.search(line)]
    if bad:
        reasons.append("validation message: " + bad[0].strip()[:300])
    return reasons


def run_case(args, manifest, case, workdir):
    sample = os.path.join(args.samples, manifest["sample"])
    cmd, outs = mtlrun_command(args.mtlrun, sample, case, workdir, validate=not args.no_validate,
                               extra=args.mtlrun_arg, glsl_dir=args.glsl_dir)
    if args.verbose:
        print("$ " + " ".join(shlex.quote(c) for c in cmd))
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return ["mtlrun did not finish in %d s" % RUN_TIMEOUT_S], ""
    except OSError as e:
        return ["cannot run mtlrun: %s" % e], ""
    log = (proc.stdout or "") + (proc.stderr or "")
    reasons = check_process(proc)
    if proc.returncode != 0:
        return reasons, log
    for o in case["outputs"]:
        path = outs[key(o)]
        if not os.path.exists(path):
            reasons.append("buffer %s: mtlrun wrote no %s" % (key(o), os.path.basename(path)))
            continue
        got = np.load(path)
        expected = np.load(os.path.join(workdir, o["expected"]))
        if got.dtype == np.int8 and expected.dtype != np.int8 and got.nbytes == expected.nbytes:
            got = got.view(expected.dtype).reshape(expected.shape)   # a `device char*` buffer's bytes (refcase raw)
        if o.get("unordered"):       # e.g. a stream compaction whose order an atomic counter decides
            got, expected = np.sort(got, axis=None), np.sort(expected, axis=None)
        if o.get("bf16") and got.dtype == expected.dtype == np.uint16:   # bfloat16 bits: compared as values
            got, expected = [(a.astype(np.uint32) << 16).view(np.float32) for a in (got, expected)]
        if o.get("bits"):            # bit for bit: NaN and -0.0 count
            uint = np.dtype("u%d" % expected.dtype.itemsize)
            got, expected = got.view(uint) if got.dtype == expected.dtype else got, expected.view(uint)
        ok, lines = compare(got, expected, o.get("rtol", 0.0), o.get("atol", 0.0), o.get("nan_ok", False),
                            o.get("labels"))
        if not ok:
            reasons.append("buffer %s differs from NumPy: %s" % (key(o), "\n".join(lines)))
    return reasons, log


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ref", nargs="?", help="tests/ref/SAMPLE.py")
    ap.add_argument("--manifest-dir", help="the cases a reference script already wrote into DIR (manifest.json and "
                    "its arrays), instead of running REF: how tests/payload.py runs pipeline cases on a machine "
                    "without the translator")
    ap.add_argument("--mtlrun", required=True)
    ap.add_argument("--case", action="append", help="run only this case (repeatable); default all")
    ap.add_argument("--cases-ending", help="run only the cases whose names end so (e.g. _w32)")
    ap.add_argument("--samples", default=SAMPLES, help="directory of the .metal samples")
    ap.add_argument("--glsl-dir", help="run DIR/ENTRY.comp + DIR/ENTRY.json (e.g. golden/SAMPLE) instead of "
                    "the .metal: tests the runtime without the translator")
    ap.add_argument("--keep", help="write inputs/outputs here and keep them")
    ap.add_argument("--no-validate", action="store_true", help="run without --validate (not for ctest)")
    ap.add_argument("--mtlrun-arg", action="append", default=[], help="extra argument for mtlrun")
    ap.add_argument("-v", "--verbose", action="store_true", help="print the command and mtlrun's output")
    args = ap.parse_args()
    if (args.ref is None) == (args.manifest_dir is None):
        ap.error("give a reference script or --manifest-dir, not both")

    with tempfile.TemporaryDirectory(prefix="mtl2glsl-exec-") as tmp:
        workdir = os.path.abspath(args.manifest_dir or args.keep or tmp)
        os.makedirs(workdir, exist_ok=True)
        gen = subprocess.run([sys.executable, args.ref, workdir], capture_output=True, text=True) if args.ref else None
        if gen is not None and gen.returncode != 0:
            print("FAIL: reference script %s failed:\n%s%s" % (args.ref, gen.stdout, gen.stderr))
            return 1
        with open(os.path.join(workdir, "manifest.json")) as f:
            manifest = json.load(f)
        cases = manifest["cases"]
        if args.case:
            unknown = set(args.case) - {c["name"] for c in cases}
            if unknown:
                print("FAIL: no case named %s in %s" % (", ".join(sorted(unknown)), args.ref))
                return 1
            cases = [c for c in cases if c["name"] in args.case]
        if args.cases_ending:
            cases = [c for c in cases if c["name"].endswith(args.cases_ending)]
            if not cases:
                sys.exit("run_exec: no case of %s ends with %s" % (args.ref, args.cases_ending))
        failed = 0
        for case in cases:
            reasons, log = run_case(args, manifest, case, workdir)
            where = "%s %s" % (manifest["sample"], case["name"])
            if args.verbose or reasons:
                for line in log.rstrip().splitlines()[-40:]:
                    print("  | " + line)
            if reasons:
                failed += 1
                print("FAIL: %s" % where)
                for r in reasons:
                    print("  " + r.replace("\n", "\n  "))
            else:
                print("PASS: %s" % where)
        print("%d passed, %d failed" % (len(cases) - failed, failed))
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
