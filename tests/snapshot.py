#!/usr/bin/python3
"""Snapshot test of the translator: samples/SAMPLE.metal -> golden/SAMPLE/ENTRY.comp and ENTRY.json.

    snapshot.py --mtl2glsl PATH SAMPLE [SAMPLE ...]            compare with golden/
    snapshot.py --mtl2glsl PATH --update SAMPLE [SAMPLE ...]   rewrite golden/ (tests/update-golden.sh)

A sample may ask for more snapshots with other translator options, one line each:
    // SNAPSHOT: --subgroup-size=8          -> golden/SAMPLE/subgroup-size-8/ENTRY.comp|json
For each sample: `mtl2glsl -o DIR/ samples/SAMPLE.metal` (GLSL) and `mtl2glsl --emit=reflect -o DIR/ ...`
must exit 0; `--list-entries` must name the same entry points; the set of files and each file's text must equal
golden/SAMPLE/; every ENTRY.json must parse and name its entry; and every ENTRY.comp must compile with
`glslangValidator -V --target-env vulkan1.1` and pass `spirv-val --target-env vulkan1.1`.
A kernel spec is named specs/NAME (samples/specs/NAME.json -> golden/specs/NAME/): its snapshot also holds
spec.metal, the Metal source built around the body (`mtl2glsl --emit=metal`, run from the repository root).
Exits 0 only when every sample passed.
"""
import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TIMEOUT_S = 120
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer")


def run(cmd, cwd=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=TIMEOUT_S, cwd=cwd)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % TIMEOUT_S
    except OSError as e:
        return 127, "", str(e)
    return p.returncode, p.stdout, p.stderr


def translate(mtl2glsl, source, outdir, problems, options=()):
    """Runs the translator twice (GLSL, reflection) into outdir; appends to problems."""
    for extra in ([], ["--emit=reflect"]):
        cmd = [mtl2glsl] + list(options) + extra + ["-o", outdir + os.sep, source]
        rc, out, err = run(cmd)
        what = " ".join(cmd)
        if rc != 0:
            problems.append("`%s` exited %d:\n%s%s" % (what, rc, out, err))
        elif any(m in err for m in SANITIZER_MARKS):
            problems.append("`%s`: sanitizer report:\n%s" % (what, err))
    rc, out, err = run([mtl2glsl, "--list-entries", source])
    if rc != 0:
        problems.append("`mtl2glsl --list-entries` exited %d:\n%s" % (rc, err))
        return None
    return sorted(line.strip() for line in out.splitlines() if line.strip())


def validate_glsl(comp, workdir, problems):
    spv = os.path.join(workdir, os.path.basename(comp) + ".spv")
    rc, out, err = run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", spv, comp])
    if rc != 0:
        problems.append("glslangValidator rejects %s:\n%s%s" % (os.path.basename(comp), out, err))
        return
    with open(comp) as f:   # the runtime enables scalarBlockLayout for shaders that use it
        scalar = ["--scalar-block-layout"] if "GL_EXT_scalar_block_layout" in f.read() else []
    rc, out, err = run(["spirv-val", "--target-env", "vulkan1.1"] + scalar + [spv])
    if rc != 0:
        problems.append("spirv-val rejects %s:\n%s%s" % (os.path.basename(spv), out, err))


def check_reflection(path, problems):
    name = os.path.basename(path)
    try:
        with open(path) as f:
            obj = json.load(f)
    except (OSError, ValueError) as e:
        problems.append("%s is not JSON: %s" % (name, e))
        return
    if not isinstance(obj, dict) or obj.get("entry") != name[: -len(".json")]:
        problems.append("%s: \"entry\" should be %r" % (name, name[: -len(".json")]))
    for key in ("buffers", "builtins", "push_constant_size"):
        if not isinstance(obj, dict) or key not in obj:
            problems.append("%s: no %r" % (name, key))


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


SNAPSHOT_FILES = (".comp", ".json", ".metal")


def compare_with_golden(outdir, golden, problems):
    made = sorted(f for f in os.listdir(outdir) if f.endswith(SNAPSHOT_FILES))
    want = sorted(f for f in os.listdir(golden) if f.endswith(SNAPSHOT_FILES)) if os.path.isdir(golden) else []
    for f in sorted(set(want) - set(made)):
        problems.append("golden has %s but the translator did not write it" % f)
    for f in sorted(set(made) - set(want)):
        problems.append("the translator wrote %s, golden/ has none (new entry? run tests/update-golden.sh)" % f)
    for f in sorted(set(made) & set(want)):
        a, b = read(os.path.join(golden, f)), read(os.path.join(outdir, f))
        if a != b:
            diff = difflib.unified_diff(a.splitlines(True), b.splitlines(True), "golden/" + f, "now/" + f)
            problems.append("%s differs from golden (run tests/update-golden.sh and review the diff):\n%s"
                            % (f, "".join(list(diff)[:80])))


def variants(source):
    """[(subdirectory, translator options)]: the default snapshot, then each `// SNAPSHOT: OPTIONS` line."""
    out = [("", [])]
    with open(source, encoding="utf-8") as f:
        for line in f:
            if line.startswith("// SNAPSHOT:"):
                options = line[len("// SNAPSHOT:"):].split()
                out.append(("_".join(o.strip("-").replace("=", "-") for o in options), options))
    return out


def snapshot(args, sample):
    source = os.path.join(args.samples, sample + (".json" if sample.startswith("specs/") else ".metal"))
    if not os.path.exists(source):
        return ["no sample %s" % source]
    problems = []
    for sub, options in variants(source):
        problems += snapshot_variant(args, sample, source, sub, options)
    return problems


def snapshot_variant(args, sample, source, sub, options):
    golden = os.path.join(args.golden, sample, sub) if sub else os.path.join(args.golden, sample)
    problems = []
    with tempfile.TemporaryDirectory(prefix="mtl2glsl-snap-") as tmp:
        outdir = os.path.join(tmp, "out")
        os.makedirs(outdir)
        entries = translate(args.mtl2glsl, source, outdir, problems, options)
        if source.endswith(".json"):
            rc, out, err = run([args.mtl2glsl, "--emit=metal", os.path.relpath(source, ROOT)], cwd=ROOT)
            if rc != 0:
                problems.append("`mtl2glsl --emit=metal %s` exited %d:\n%s" % (source, rc, err))
            with open(os.path.join(outdir, "spec.metal"), "w") as f:
                f.write(out)
        comps = sorted(f for f in os.listdir(outdir) if f.endswith(".comp"))
        jsons = sorted(f for f in os.listdir(outdir) if f.endswith(".json"))
        if not comps:
            problems.append("no ENTRY.comp written")
        if [c[:-5] for c in comps] != [j[:-5] for j in jsons]:
            problems.append("each ENTRY.comp needs its ENTRY.json: %s vs %s" % (comps, jsons))
        if entries is not None and entries != [c[:-5] for c in comps]:
            problems.append("--list-entries says %s, -o DIR/ wrote %s" % (entries, comps))
        for c in comps:
            validate_glsl(os.path.join(outdir, c), tmp, problems)
        for j in jsons:
            check_reflection(os.path.join(outdir, j), problems)
        if args.update:
            if comps and not any(p.startswith("`") for p in problems):
                os.makedirs(golden, exist_ok=True)
                for f in os.listdir(golden):
                    if f.endswith(SNAPSHOT_FILES):
                        os.remove(os.path.join(golden, f))
                for f in os.listdir(outdir):
                    shutil.copy(os.path.join(outdir, f), golden)
                print("updated %s: %s" % (os.path.relpath(golden, args.golden), " ".join(sorted(os.listdir(outdir)))))
            else:
                problems.append("golden/%s not updated: the translation failed" % sample)
        else:
            compare_with_golden(outdir, golden, problems)
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples_to_check", nargs="*", metavar="SAMPLE", help="sample name (default: all)")
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--update", action="store_true", help="rewrite golden/SAMPLE/ from the translator's output")
    ap.add_argument("--samples", default=os.path.join(ROOT, "samples"))
    ap.add_argument("--golden", default=os.path.join(ROOT, "golden"))
    args = ap.parse_args()
    specs = os.path.join(args.samples, "specs")
    names = args.samples_to_check or (
        sorted(f[:-6] for f in os.listdir(args.samples) if f.endswith(".metal")) +
        sorted("specs/" + f[:-5] for f in (os.listdir(specs) if os.path.isdir(specs) else []) if f.endswith(".json")))
    failed = 0
    for name in names:
        problems = snapshot(args, name)
        if problems:
            failed += 1
            print("FAIL: %s" % name)
            for p in problems:
                print("  " + p.rstrip().replace("\n", "\n  "))
        else:
            print("PASS: %s" % name)
    print("%d passed, %d failed" % (len(names) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
