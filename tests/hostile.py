#!/usr/bin/python3
"""Hostile inputs (issue 18): each was a hang, a crash, a write outside the output folder, undefined behaviour or an
exit status 0 with invalid GLSL. Now each is a clear error (exit 1, text expected on stderr) or a correct
translation (exit 0, the GLSL valid for glslangValidator and spirv-val), within a time limit, with no sanitizer
report.

    hostile.py --mtl2glsl PATH --mtlrun PATH [-v] [-k NAME]

Inputs too large or too odd for tests/errors/ (generated sources, .npy and reflection files, devices) are made here.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(os.path.dirname(HERE), "samples")
SANITIZER = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer")
TIMEOUT_S = 180  # generous: the sanitizer build under load; a hang is still caught


def kernel(body, before=""):
    return (before + "kernel void k(device float* o [[buffer(0)]], uint i [[thread_position_in_grid]]) {\n"
            + body + "\n}\n")


def npy(header, data=b""):
    h = header.encode()
    h += b" " * ((64 - (10 + len(h) + 1) % 64) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + bytes([len(h) & 255, len(h) >> 8]) + h + data


AXPY = os.path.join(SAMPLES, "axpy.metal")
AXPY_ARGS = ["--grid", "4", "--threadgroup", "4", "--buffer", "0=float32:4", "--buffer", "1=float32:4"]
REFLECT = {"entry": "k", "push_constant_size": 16, "buffers": [
    {"index": 0, "name": "o", "kind": "storage", "binding": 0, "type": "float", "scalar": "float",
     "element_size": 4, "address_space": "device", "pointer": True, "access": "read_write"}]}
GLSL = ("#version 450\nlayout(local_size_x = 1) in;\n"
        "layout(std430, binding = 0) buffer B { float o[]; };\nvoid main() { o[0] = 1.0; }\n")


def reflect(**changes):
    r = json.loads(json.dumps(REFLECT))
    for key, value in changes.items():
        (r["buffers"][0] if key in r["buffers"][0] or key in ("offset", "size") else r)[key] = value
    return json.dumps(r)


# (name, tool, files {NAME: text or bytes}, arguments ({d}: the folder of the files), exit status, stderr text)
# Exit status 0 means: translated, and the GLSL written to {d}/out/ must be valid.
CASES = [
    ("host_name escaping -o DIR/", "mtl2glsl",
     {"esc.metal": '[[host_name("../escaped")]] ' + kernel("o[i] = 1.0f;")}, ["-o", "{d}/out/", "{d}/esc.metal"], 1,
     "esc.metal:1:1: error: entry point name '../escaped' is not an identifier"),
    ("sum of 20,000 terms", "mtl2glsl", {"sum.metal": kernel("float x = 1.0f; o[i] = " + " + ".join(["x"] * 20000) + ";")},
     ["{d}/sum.metal"], 1, "sum.metal:2:4118: error: expression nested too deeply (more than 1024"),
    ("sum of 600 terms (past the converter's depth)", "mtl2glsl",
     {"sum.metal": kernel("float x = 1.0f; o[i] = " + " + ".join(["x"] * 600) + ";")}, ["{d}/sum.metal"], 1,
     "sum.metal:2:24: error: expression nested too deeply (more than 512 levels"),
    ("3,000 casts", "mtl2glsl", {"cast.metal": kernel("float x = 1.0f; o[i] = " + "(float)" * 3000 + "x;")},
     ["{d}/cast.metal"], 1, "error: expression nested too deeply"),
    ("3,000 unary minuses", "mtl2glsl", {"neg.metal": kernel("float x = 1.0f; o[i] = " + "-" * 3000 + "x;")},
     ["{d}/neg.metal"], 1, "error: expression nested too deeply"),
    ("if-else chain of 3,000", "mtl2glsl",
     {"ifs.metal": kernel("float x = 0.0f;\n" + "".join("if (i == %du) x = %d.0f; else " % (j, j) for j in range(3000))
                          + "x = -1.0f;\no[i] = x;")}, ["{d}/ifs.metal"], 1, "error: expression nested too deeply"),
    ("?: chain of 3,000", "mtl2glsl",
     {"tern.metal": kernel("o[i] = " + "".join("i == %du ? %d.0f : " % (j, j) for j in range(3000)) + "-1.0f;")},
     ["{d}/tern.metal"], 1, "error: expression nested too deeply"),
    ("if-else chain of 100 (translated)", "mtl2glsl",
     {"ifs.metal": kernel("float x = 0.0f;\n" + "".join("if (i == %du) x = %d.0f; else " % (j, j) for j in range(100))
                          + "x = -1.0f;\no[i] = x;")}, ["-o", "{d}/out/", "{d}/ifs.metal"], 0, ""),
    ("identifier of 100,000 characters", "mtl2glsl",
     {"long.metal": kernel("float %s = 1.0f; o[i] = %s;" % ("a" * 100000, "a" * 100000))}, ["{d}/long.metal"], 1,
     "long.metal:2:7: error: identifier of 100000 characters: the limit is 255"),
    ("non-ASCII identifiers (renamed)", "mtl2glsl",
     {"utf8.metal": kernel("float \u00e9t\u00e9 = 1.0f; float x$y = 2.0f; o[i] = \u00e9t\u00e9 + x$y;")},
     ["-o", "{d}/out/", "{d}/utf8.metal"], 0, ""),
    ("non-ASCII kernel name", "mtl2glsl",
     {"utf8k.metal": "kernel void k\u00e9(device float* o [[buffer(0)]]) { o[0] = 1.0f; }\n"},
     ["-o", "{d}/out/", "{d}/utf8k.metal"], 1, "error: entry point name 'k\u00e9' is not an identifier"),
    ("overflowing half literals (infinity)", "mtl2glsl",
     {"half.metal": kernel("half h = 1e6h; half g = -70000.0h; float f = 1e39f; o[i] = h + g + f;")},
     ["-o", "{d}/out/", "{d}/half.metal"], 0, ""),
    ("constant array of 200,000 elements", "mtl2glsl",
     {"table.metal": "constant float tab[200000] = {" + ",".join("%d.0f" % (j % 7) for j in range(200000)) + "};\n"
      + kernel("o[i] = tab[i];")}, ["{d}/table.metal"], 1,
     "table.metal:1:30: error: initializer list of 200000 elements: the limit is 65532"),
    ("constant array of 40,000 elements on one line (translated, linear time)", "mtl2glsl",
     {"table.metal": "constant float tab[40000] = {" + ",".join("%d.0" % (j % 7) for j in range(40000)) + "};\n"
      + kernel("o[i] = tab[i];")}, ["-o", "{d}/out/", "{d}/table.metal"], 0, ""),
    ("threadgroup array of 2^30 floats", "mtl2glsl",
     {"tg.metal": kernel("threadgroup float t[1 << 30]; t[i] = 1.0f; o[i] = t[0];")}, ["{d}/tg.metal"], 1,
     "tg.metal:2:19: error: float[1073741824] (4294967296 bytes; one type holds at most 268435456"),
    ("struct of arrays past the type limit", "mtl2glsl",
     {"st.metal": "struct S { float a[1 << 25]; float b[1 << 25]; float c[1 << 25]; float d[1 << 25]; };\n"
      "kernel void k(device S* s [[buffer(0)]], uint i [[thread_position_in_grid]]) { s->a[i] = s->d[i]; }\n"},
     ["{d}/st.metal"], 1, "S (536870912 bytes; one type holds at most 268435456"),
    ("-o /dev/full", "mtl2glsl", {"ok.metal": kernel("o[i] = 1.0f;")}, ["-o", "/dev/full", "{d}/ok.metal"], 1,
     "mtl2glsl: error: cannot write '/dev/full': No space left on device"),
    ("stdout to /dev/full", "mtl2glsl", {"ok.metal": kernel("o[i] = 1.0f;")}, ["{d}/ok.metal", ">/dev/full"], 1,
     "mtl2glsl: error: cannot write to standard output"),
    ("include bomb (preprocessed size)", "mtl2glsl",
     {"bomb.metal": '#include "b.h"\n' + kernel("o[i] = 1.0f;"),
      "b.h": "\n".join('#include "c.h"' for _ in range(64)),
      "c.h": "\n".join('#include "f.h"' for _ in range(64)),
      "f.h": 'constant char s[] = "%s";\n' % ("x" * 70000)},
     ["{d}/bomb.metal"], 1, "is more than 268435456 bytes after preprocessing, the limit"),
    # mtlrun
    ("--bytes N=DIR", "mtlrun", {}, [AXPY] + AXPY_ARGS + ["--bytes", "2={d}"], 1, "is a directory"),
    ("--buffer N=DIR.npy", "mtlrun", {"x.npy/": ""}, [AXPY] + AXPY_ARGS[:4] + ["--buffer", "0={d}/x.npy",
                                                                                 "--buffer", "1=float32:4",
                                                                                 "--scalar", "2=float:1"], 1,
     "is a directory"),
    (".npy header of 2^40 elements", "mtlrun", {"big.npy": npy("{'descr': '<f4', 'fortran_order': False, "
                                                              "'shape': (1099511627776,), }", bytes(16))},
     [AXPY] + AXPY_ARGS[:4] + ["--buffer", "0={d}/big.npy", "--buffer", "1=float32:4", "--scalar", "2=float:1"], 1,
     "big.npy: file ends before the data its header announces (1099511627776 elements of 4 bytes; 16 bytes"),
    (".npy shape past 2^64", "mtlrun", {"big.npy": npy("{'descr': '<f4', 'fortran_order': False, "
                                                      "'shape': (99999999999999999999999,), }", bytes(16))},
     [AXPY] + AXPY_ARGS[:4] + ["--buffer", "0={d}/big.npy", "--buffer", "1=float32:4", "--scalar", "2=float:1"], 1,
     "cannot read the shape"),
    (".npy fortran_order Maybe", "mtlrun", {"maybe.npy": npy("{'descr': '<f4', 'fortran_order': Maybe, "
                                                            "'shape': (4,), }", bytes(16))},
     [AXPY] + AXPY_ARGS[:4] + ["--buffer", "0={d}/maybe.npy", "--buffer", "1=float32:4", "--scalar", "2=float:1"], 1,
     "has no 'fortran_order': True or False"),
    ("ulong: -1", "mtlrun", {}, [AXPY] + AXPY_ARGS + ["--scalar", "2=ulong: -1"], 1, "' -1' is not a valid uint64"),
    ("uint:-1", "mtlrun", {}, [AXPY] + AXPY_ARGS + ["--scalar", "2=uint:-1"], 1, "'-1' is not a valid uint32"),
    ("float:1e999", "mtlrun", {}, [AXPY] + AXPY_ARGS + ["--scalar", "2=float:1e999"], 1,
     "'1e999' is not a valid float32"),
    ("float:1e39", "mtlrun", {}, [AXPY] + AXPY_ARGS + ["--scalar", "2=float:1e39"], 1, "'1e39' is not a valid float32"),
    ("array past 4 GiB", "mtlrun", {}, [AXPY] + AXPY_ARGS[:4] + ["--buffer", "0=float32:65536x65536",
                                                                  "--buffer", "1=float32:4", "--scalar", "2=float:1"],
     1, "holds more than 4294967295 bytes, the limit"),
    ("dispatch of 65535^3 threads on lavapipe", "mtlrun", {},
     [AXPY, "--grid", "65535,65535,65535", "--threadgroup", "1", "--buffer", "0=float32:4", "--buffer", "1=float32:4",
      "--scalar", "2=float:1", "--device", "llvmpipe"], 1, "the limit for a CPU device"),
    ("reflection element_size 0", "mtlrun", {"k.comp": GLSL, "k.json": reflect(element_size=0)},
     ["{d}/k.comp", "--reflect", "{d}/k.json", "--grid", "1", "--threadgroup", "1", "--buffer", "0=float32:1"], 1,
     "index must be 0..30 and element_size 1..268435456"),
    ("reflection index 4e9", "mtlrun", {"k.comp": GLSL, "k.json": reflect(index=4000000000)},
     ["{d}/k.comp", "--reflect", "{d}/k.json", "--grid", "1", "--threadgroup", "1", "--buffer", "0=float32:1"], 1,
     "index must be 0..30"),
    ("reflection push constants past the block", "mtlrun", {"k.comp": GLSL, "k.json": reflect(
        kind="push_constant", offset=4294967292, size=8)},
     ["{d}/k.comp", "--reflect", "{d}/k.json", "--grid", "1", "--threadgroup", "1", "--scalar", "0=float:1"], 1,
     "push constant bytes"),
    ("reflection push_constant_size 2^32-1", "mtlrun", {"k.comp": GLSL, "k.json": reflect(
        push_constant_size=4294967295)},
     ["{d}/k.comp", "--reflect", "{d}/k.json", "--grid", "1", "--threadgroup", "1", "--buffer", "0=float32:1"], 1,
     "push_constant_size 4294967295 is not within 16..4096"),
    ("reflection given as a directory", "mtlrun", {"k.comp": GLSL, "r.json/": ""},
     ["{d}/k.comp", "--reflect", "{d}/r.json", "--grid", "1", "--threadgroup", "1", "--buffer", "0=float32:1"], 1,
     "cannot read"),
]


def write_files(tmp, files):
    for name, text in files.items():
        path = os.path.join(tmp, name)
        if name.endswith("/"):
            os.makedirs(path, exist_ok=True)
            continue
        with open(path, "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode())


def valid_glsl(out_dir):
    """Problems of the .comp files in OUT_DIR under glslangValidator and spirv-val (none written is one)."""
    comps = [f for f in os.listdir(out_dir) if f.endswith(".comp")] if os.path.isdir(out_dir) else []
    if not comps:
        return ["no .comp written to %s" % out_dir]
    bad = []
    for comp in comps:
        spv = os.path.join(out_dir, comp + ".spv")
        p = subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.2", "-S", "comp",
                            os.path.join(out_dir, comp), "-o", spv], capture_output=True, text=True, errors="replace",
                           timeout=TIMEOUT_S)
        if p.returncode:
            bad.append("glslangValidator rejects %s: %s" % (comp, p.stdout[-400:]))
            continue
        p = subprocess.run(["spirv-val", "--target-env", "vulkan1.2", spv], capture_output=True, text=True, errors="replace",
                           timeout=TIMEOUT_S)
        if p.returncode:
            bad.append("spirv-val rejects %s: %s" % (comp, (p.stdout + p.stderr)[-400:]))
    return bad


def run_case(args, case, verbose):
    name, tool, files, argv, status, text = case
    with tempfile.TemporaryDirectory(prefix="mtl2glsl-hostile-") as top:
        tmp = os.path.join(top, "in")  # the folder given; nothing may be written next to it
        os.mkdir(tmp)
        write_files(tmp, files)
        before = sorted(os.listdir(top))
        stdout = subprocess.PIPE
        argv = [a.replace("{d}", tmp) for a in argv]
        if ">/dev/full" in argv:
            argv.remove(">/dev/full")
            stdout = open("/dev/full", "w")
        cmd = [args.mtl2glsl if tool == "mtl2glsl" else args.mtlrun] + argv
        if tool == "mtlrun":
            cmd.append("--validate")
        try:
            p = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, timeout=TIMEOUT_S, cwd=tmp)
            rc, out, err = p.returncode, (p.stdout or b"").decode(errors="replace"), p.stderr.decode(errors="replace")
        except subprocess.TimeoutExpired:
            rc, out, err = 124, "", "timed out after %d s" % TIMEOUT_S
        if stdout is not subprocess.PIPE:
            stdout.close()
        bad = []
        if rc < 0 or rc >= 124:
            bad.append("crashed or hung (exit status %d)" % rc)
        elif rc != status:
            bad.append("exit status %d, expected %d" % (rc, status))
        if text and text not in err:
            bad.append("stderr lacks: %s" % text)
        if any(s in out + err for s in SANITIZER):
            bad.append("sanitizer report")
        if sorted(os.listdir(top)) != before:
            bad.append("wrote outside the folder given: %s" % sorted(set(os.listdir(top)) - set(before)))
        if status == 0 and rc == 0 and tool == "mtl2glsl":
            bad += valid_glsl(os.path.join(tmp, "out"))
    if bad or verbose:
        shown = " ".join(c if len(c) < 80 else c[:40] + "..." for c in cmd)
        print("%s: %s\n  $ %s\n  %s" % ("FAIL" if bad else "PASS", name, shown,
                                        "\n  ".join(bad + err.rstrip().splitlines()[-4:])[:3000]))
    return not bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--mtlrun", required=True)
    ap.add_argument("-k", help="run only the cases whose name contains this")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    args.mtl2glsl, args.mtlrun = os.path.abspath(args.mtl2glsl), os.path.abspath(args.mtlrun)
    cases = [c for c in CASES if not args.k or args.k in c[0]]
    results = [run_case(args, c, args.verbose) for c in cases]
    print("%d passed, %d failed" % (results.count(True), results.count(False)))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
