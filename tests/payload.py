#!/usr/bin/python3
"""Packs the execution cases for a machine that has a GPU but not the translator (e.g. the NVIDIA device).

    payload.py --mtl2glsl PATH --out DIR [--subgroup-size N] [--tensor-cores] [tests/ref/SAMPLE.py ...]

(tests/corpus/ggml_exec.py is a reference script too, with MTL2GLSL_GGML_DIR naming the llama.rn package; so are
tests/corpus/mlx/*.py, with MTL2GLSL_MLX_DIR naming the MLX checkout and -I that checkout. Kernels of a library
file are translated one entry point at a time.)

For each case of each reference script: the kernel translated here for the target device (cases built for
real 8-wide subgroups are translated for the device's --subgroup-size instead; virtual widths stay as they are),
with --tensor-cores, kernels translated for native 32-wide subgroups get mtl2glsl --tensor-cores (SIMD-group
matrix products on tensor cores: the device must have them, mtlrun --list-devices says; a case whose mtlrun_args say
--tensor-cores=off does not), its inputs and NumPy's expected outputs, and one line of DIR/run.sh that runs it with `mtlrun KERNEL.comp
--reflect KERNEL.json ... --check N=EXPECTED.npy`. On the device: `MTLRUN=/path/to/mtlrun sh DIR/run.sh`
prints PASS/FAIL per output buffer (one run each, with its tolerance) and exits non-zero if any failed.
Cases of several launches, or binding one buffer at two indices, run as mtlrun pipelines: DIR holds a copy of
tests/run_exec.py and compare.py, which write the pipeline file and check every output from the manifest made here
(`run_exec.py --manifest-dir`). The device needs python3 with NumPy.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def join3(v):
    return ",".join(str(int(x)) for x in v)


def translator_options(args, case):
    """The case's translator options (widths, --push-constant-words, --mma-lanes), real (non-virtual) widths replaced
    by the target's, and --tensor-cores (args.tensor_cores) where that is native 32 wide; and the rest, mtlrun's."""
    extra = case.get("mtlrun_args", [])
    opts, rest, i, tensor_cores = [], [], 0, args.tensor_cores
    while i < len(extra):
        if extra[i] == "--subgroup-size":
            opts += ["--subgroup-size=" + extra[i + 1]]
            i += 2
        elif extra[i] in ("--virtual-subgroups", "--push-constant-words", "--mma-lanes"):
            opts.append(extra[i])
            i += 1
        elif extra[i].split("=", 1)[0] == "--tensor-cores":   # the case's own choice: off keeps exact products
            value = extra[i].split("=", 1)[1] if "=" in extra[i] else extra[i + 1]
            tensor_cores = tensor_cores and value != "off"
            i += 1 if "=" in extra[i] else 2
        else:
            rest.append(extra[i])
            i += 1
    words = [o for o in ("--push-constant-words", "--mma-lanes") if o in opts]
    opts = [o for o in opts if o not in words]
    if opts and "--virtual-subgroups" not in opts:
        opts = ["--subgroup-size=%d" % args.subgroup_size]
    opts = opts or ["--subgroup-size=%d" % args.subgroup_size]
    if tensor_cores and opts == ["--subgroup-size=32"]:
        words.append("--tensor-cores")
    return opts + words, rest


def raw_output(sdir, case, o):
    """Whether output O is a `device char*` buffer (refcase raw): int8 bytes whose expected values have another
    dtype, compared by NumPy on the device after a view."""
    import numpy as np
    for b in case["buffers"]:
        if b.get("index") != o["index"]:
            continue
        dtype = b.get("dtype") or (np.load(os.path.join(sdir, b["file"]), mmap_mode="r").dtype.name if "file" in b else None)
        expected = np.load(os.path.join(sdir, o["expected"]), mmap_mode="r").dtype.name
        return dtype == "int8" and expected != "int8"
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--subgroup-size", type=int, default=32)
    ap.add_argument("--tensor-cores", action="store_true", help="translate kernels built for native 32-wide subgroups "
                    "with mtl2glsl --tensor-cores (for a device whose mtlrun --list-devices says yes to tensor cores)")
    ap.add_argument("-I", dest="includes", action="append", default=[], help="include folder for the translator")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2, help="translator runs at once")
    ap.add_argument("refs", nargs="*")
    args = ap.parse_args()
    refs = args.refs or sorted(f for f in glob.glob(os.path.join(HERE, "ref", "*.py")) if not f.endswith("refcase.py"))
    out = os.path.abspath(args.out)
    lines = ['#!/bin/sh', 'cd "$(dirname "$0")"', 'MTLRUN=${MTLRUN:-mtlrun}', 'pass=0; fail=0']
    jobs, needed = {}, []   # translator runs by target (each once), and the entry points the cases run
    for ref in refs:
        sample = os.path.basename(ref)[:-3]
        sdir = os.path.join(out, sample)
        subprocess.run([sys.executable, ref, sdir], check=True)
        with open(os.path.join(sdir, "manifest.json")) as f:
            manifest = json.load(f)
        source = os.path.join(ROOT, "samples", manifest["sample"])
        for case in manifest["cases"]:
            pipeline = "pipeline" in case or any("same_as" in b for b in case.get("buffers", []))
            if pipeline and "pipeline" in case and len({k["entry"] for k in case["pipeline"]["launches"]}) > 1:
                entries = [k["entry"] for k in case["pipeline"]["launches"]]
                options = {json.dumps(translator_options(args, k)[0]) for k in case["pipeline"]["launches"]}
                assert len(options) == 1, case["name"]   # one translation (widths) for all of a pipeline's kernels
                opts, rest = translator_options(args, case["pipeline"]["launches"][0])
            else:
                entries = [case["entry"]]
                opts, rest = translator_options(args, case)
            kdir = os.path.join(sdir, "k_" + "_".join(o.strip("-").replace("=", "") for o in opts))
            inc = [a for d in args.includes for a in ("-I", d)]
            library = not os.path.abspath(source).startswith(os.path.join(ROOT, "samples") + os.sep)
            if library:   # thousands of entry points (MLX): only the case's
                os.makedirs(kdir, exist_ok=True)
                for entry in entries:
                    for emit, ext in (([], ".comp"), (["--emit=reflect"], ".json")):
                        target = os.path.join(kdir, entry + ext)
                        jobs.setdefault(target, [args.mtl2glsl] + inc + opts + emit + ["--entry", entry, "-o", target, source])
            else:
                os.makedirs(kdir, exist_ok=True)
                for emit in ([], ["--emit=reflect"]):  # exit 1: some entry points of a library failed
                    jobs.setdefault((kdir, tuple(emit)), [args.mtl2glsl] + inc + opts + emit + ["-o", kdir + "/", source])
            needed += [(source, kdir, entry) for entry in entries]
            rel = os.path.relpath(kdir, out)
            if pipeline:
                # several launches, or a buffer bound twice: an mtlrun pipeline, written and checked on the device by
                # run_exec.py from the manifest made here (its translation options are the translator's: rest only)
                name = case["name"]
                lines.append('if python3 run_exec.py --manifest-dir %s --glsl-dir %s --mtlrun "$MTLRUN" --case %s '
                             '>err.txt 2>&1; then pass=$((pass+1)); echo "PASS %s (pipeline)"; '
                             'else fail=$((fail+1)); echo "FAIL %s"; cat err.txt; fi'
                             % (shlex.quote(sample), shlex.quote(rel), shlex.quote(name), name, name))
                continue
            cmd = ["$MTLRUN", "%s/%s.comp" % (rel, case["entry"]), "--reflect", "%s/%s.json" % (rel, case["entry"]),
                   "--entry", case["entry"]]
            cmd += ["--grid", join3(case["grid"])] if "grid" in case else ["--threadgroups", join3(case["threadgroups"])]
            cmd += ["--threadgroup", join3(case["threadgroup"])] + rest
            for b in case["buffers"]:
                if "file" in b:
                    cmd += ["--buffer", "%d=%s/%s" % (b["index"], sample, b["file"])]
                elif "bytes" in b:
                    cmd += ["--bytes", "%d=%s/%s" % (b["index"], sample, b["bytes"])]
                else:
                    cmd += ["--buffer", "%d=%s:%s" % (b["index"], b["dtype"], "x".join(str(d) for d in b["shape"]) or "1")]
            for s in case["scalars"]:
                cmd += ["--scalar", "%d=%s:%s" % (s["index"], s["type"], s["value"])]
            cmd += ["--poison", "--validate"]   # the device carries VK_LAYER_KHRONOS_validation (docs/corpus.md)
            for o in case["outputs"]:   # one run per output: each has its own tolerance
                name = "%s/%d" % (case["name"], o["index"])
                raw = raw_output(sdir, case, o)
                if o.get("unordered") or o.get("bits") or o.get("bf16") or raw:
                    # order decided by atomics: compare sorted copies; bits: bit for bit (NumPy on the device)
                    got = "%s/%s_got%d.npy" % (sample, case["name"], o["index"])
                    run = " ".join(c if c.startswith("$") else shlex.quote(c)
                                   for c in cmd + ["--out", "%d=%s" % (o["index"], got)])
                    py = ("import numpy as n, sys; a = n.sort(n.load(sys.argv[1]), axis=None); "
                          "b = n.sort(n.load(sys.argv[2]), axis=None); sys.exit(0 if n.array_equal(a, b) else 1)")
                    if raw:   # the buffer's bytes read as the expected dtype, with the output's tolerance
                        py = ("import numpy as n, sys; b = n.load(sys.argv[2]); a = n.load(sys.argv[1]).view(b.dtype).reshape(b.shape); "
                              "sys.exit(0 if (n.allclose(a, b, rtol=%r, atol=%r, equal_nan=%r) if b.dtype.kind == 'f' else n.array_equal(a, b)) else 1)"
                              % (o["rtol"], o["atol"], bool(o.get("nan_ok"))))
                    elif o.get("bf16"):   # bfloat16 bits compared as values, with the output's tolerance
                        py = ("import numpy as n, sys; f = lambda p: (n.load(p).astype(n.uint32) << 16).view(n.float32); "
                              "sys.exit(0 if n.allclose(f(sys.argv[1]), f(sys.argv[2]), rtol=%r, atol=%r, equal_nan=%r) else 1)"
                              % (o["rtol"], o["atol"], bool(o.get("nan_ok"))))
                    elif o.get("bits"):
                        py = ("import numpy as n, sys; a = n.load(sys.argv[1]); b = n.load(sys.argv[2]); "
                              "sys.exit(0 if a.dtype == b.dtype and n.array_equal(a.view('u%d' % a.itemsize), b.view('u%d' % b.itemsize)) else 1)")
                    lines.append('if %s >err.txt 2>&1 && python3 -c %s %s %s >>err.txt 2>&1; then pass=$((pass+1)); '
                                 'echo "PASS %s (unordered or bitwise)"; else fail=$((fail+1)); echo "FAIL %s"; cat err.txt; fi'
                                 % (run, shlex.quote(py), shlex.quote(got), shlex.quote("%s/%s" % (sample, o["expected"])),
                                    name, name))
                    continue
                check = cmd + ["--check", "%d=%s/%s" % (o["index"], sample, o["expected"]), "--rtol", str(o["rtol"]),
                               "--atol", str(o["atol"])]
                text = " ".join(c if c.startswith("$") else shlex.quote(c) for c in check)
                lines.append('if %s >err.txt 2>&1; then pass=$((pass+1)); echo "PASS %s"; else fail=$((fail+1)); '
                             'echo "FAIL %s"; cat err.txt; fi' % (text, name, name))
    # the translations, args.jobs at once (the translator exits 1 when some entry points of a file failed)
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for cmd, rc in zip(jobs.values(), pool.map(lambda c: subprocess.run(c).returncode, jobs.values())):
            if rc not in (0, 1):
                sys.exit("payload: %s exited %d" % (" ".join(cmd), rc))
    for source, kdir, entry in needed:
        if not os.path.exists(os.path.join(kdir, entry + ".comp")):
            sys.exit("payload: %s: entry point %s was not translated" % (source, entry))
    for script in ("run_exec.py", "compare.py"):   # pipeline cases are checked by run_exec.py on the device
        shutil.copy(os.path.join(HERE, script), os.path.join(out, script))
    lines.append('echo "$pass passed, $fail failed"')
    lines.append('[ "$fail" -eq 0 ]')
    with open(os.path.join(out, "run.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s/run.sh" % out)


if __name__ == "__main__":
    sys.exit(main())
