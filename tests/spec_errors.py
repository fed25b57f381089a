#!/usr/bin/python3
"""Bad kernel specs and unsupported bodies: mtl2glsl and mtlrun say what is wrong, naming the field (or the
position in the spec's source), and exit non-zero; never a crash or a sanitizer report.

    spec_errors.py --mtl2glsl PATH --mtlrun PATH [-v]

Each case writes a variant of a valid spec (or uses a sample of samples/specs/), runs one tool and checks its
exit status and that stderr contains the expected text.
"""
import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SPECS = os.path.join(os.path.dirname(HERE), "samples", "specs")
SANITIZER = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "UndefinedBehaviorSanitizer")

MLX = {
    "name": "relu", "input_names": ["x"], "output_names": ["out"],
    "source": ["uint i = thread_position_in_grid.x;", "out[i] = max(x[i], T(0));"],
    "call": {"inputs": {"x": {"dtype": "float32", "shape": [100]}}, "template": [["T", "float32"]],
             "output_shapes": [[100]], "output_dtypes": ["float32"], "grid": [100, 1, 1], "threadgroup": [32, 1, 1]},
}
COREAI = {
    "name": "add", "input_names": ["a"], "result_names": ["c"], "src": "c[id] = a[id] + TYPE(1);",
    "metal_params": [{"name": "id", "type": "uint", "attribute": "thread_position_in_grid"}],
    "template_dtypes": {"a": "TYPE"},
    "call": {"inputs": {"a": {"dtype": "float32", "shape": [10]}}, "result_shapes": [[10]],
             "result_dtypes": ["float32"], "threads_per_grid": [10], "threads_per_thread_group": [10]},
}


def edit(base, path, value):
    """A copy of BASE with the field at PATH (a list of keys) set to VALUE, or removed when VALUE is DELETE."""
    spec = copy.deepcopy(base)
    obj = spec
    for k in path[:-1]:
        obj = obj[k]
    if value is DELETE:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value
    return spec


DELETE = object()
MANY = dict(MLX, input_names=["a%d" % i for i in range(11)],
            source=" ".join("a%d_shape[0] + a%d_strides[0] + a%d_ndim;" % (i, i, i) for i in range(11)),
            call=dict(MLX["call"], inputs={"a%d" % i: {"dtype": "float32", "shape": [9]} for i in range(11)},
                      template=[]))

# (name, tool, spec (dict, or a samples/specs file name, or raw text), extra arguments, exit status, stderr text)
CASES = [
    ("missing input_names", "mtl2glsl", edit(MLX, ["input_names"], DELETE), [], 1, "missing field 'input_names'"),
    ("input_names not an array", "mtl2glsl", edit(MLX, ["input_names"], "x"), [], 1,
     "field 'input_names': expected an array of at most 16 names, got a string"),
    ("input name not an identifier", "mtl2glsl", edit(MLX, ["input_names"], ["x y"]), [], 1,
     "field 'input_names[0]': expected a name"),
    ("source of the wrong type", "mtl2glsl", edit(MLX, ["source"], 5), [], 1,
     "field 'source': expected a string or an array of strings (lines), got a number"),
    ("unknown dtype", "mtl2glsl", edit(MLX, ["call", "inputs", "x", "dtype"], "float33"), [], 1,
     "field 'call.inputs.x.dtype': unknown dtype 'float33'"),
    ("bfloat16", "mtl2glsl", edit(MLX, ["call", "output_dtypes"], ["bfloat16"]), [], 1,
     "field 'call.output_dtypes[0]': dtype bfloat16 is not supported yet (bfloat)"),
    ("float64", "mtl2glsl", edit(MLX, ["call", "inputs", "x", "dtype"], "float64"), [], 1,
     "dtype float64 has no Metal type"),
    ("shape of the wrong type", "mtl2glsl", edit(MLX, ["call", "inputs", "x", "shape"], [10, -1]), [], 1,
     "field 'call.inputs.x.shape[1]': expected a size (integer >= 0"),
    ("missing input", "mtl2glsl", edit(MLX, ["call", "inputs"], {}), [], 1, "missing field 'call.inputs.x'"),
    ("input not named", "mtl2glsl", edit(MLX, ["call", "inputs", "y"], {"dtype": "float32", "shape": [1]}), [], 1,
     "field 'call.inputs.y': 'y' is not one of input_names"),
    ("output shapes and names disagree", "mtl2glsl", edit(MLX, ["call", "output_shapes"], [[100], [100]]), [], 1,
     "field 'call.output_shapes': expected an array of 1 shapes (one per output name)"),
    ("missing output dtypes", "mtl2glsl", edit(MLX, ["call", "output_dtypes"], DELETE), [], 1,
     "missing field 'call.output_dtypes'"),
    ("template pair malformed", "mtl2glsl", edit(MLX, ["call", "template"], [["T"]]), [], 1,
     "field 'call.template[0]': expected a pair [NAME, VALUE]"),
    ("template dtype unknown", "mtl2glsl", edit(MLX, ["call", "template"], [["T", "floaty"]]), [], 1,
     "field 'call.template[0]': unknown dtype 'floaty'"),
    ("grid of zero", "mtl2glsl", edit(MLX, ["call", "grid"], [0, 1, 1]), [], 1,
     "field 'call.grid[0]': expected a positive integer"),
    ("grid of the wrong type", "mtl2glsl", edit(MLX, ["call", "grid"], "100"), [], 1,
     "field 'call.grid': expected an array of 1 to 3 positive integers, got a string"),
    ("threadgroup too large", "mtl2glsl", edit(MLX, ["call", "threadgroup"], [64, 32, 1]), [], 1,
     "64 x 32 x 1 = 2048 threads; a Metal threadgroup has at most 1024"),
    ("transpose not a permutation", "mtl2glsl",
     edit(MLX, ["call", "inputs", "x"], {"dtype": "float32", "shape": [10, 10], "transpose": [0, 0]}), [], 1,
     "field 'call.inputs.x.transpose': expected a permutation of 0..1"),
    ("misspelt optional field", "mtl2glsl", edit(MLX, ["call", "init_valeu"], 0), [], 1,
     "unknown field 'call.init_valeu' (expected one of: inputs template output_shapes"),
    ("misspelt top-level field", "mtl2glsl", edit(MLX, ["ensure_row_contigous"], False), [], 1,
     "unknown field 'ensure_row_contigous'"),
    ("Core AI: MLX field", "mtl2glsl", edit(COREAI, ["source"], "x"), [], 1,
     "unknown field 'source' (expected one of: name input_names result_names src"),
    ("more buffers than Metal has", "mtl2glsl", MANY, [], 1,
     "the signature needs 45 buffers (inputs, their shape/strides/ndim or extents, outputs); Metal has 31"),
    ("both forms", "mtl2glsl", edit(MLX, ["result_names"], ["c"]), [], 1,
     "both 'output_names' (MLX) and 'result_names' (Core AI) given"),
    ("neither form", "mtl2glsl", edit(MLX, ["output_names"], DELETE), [], 1,
     "missing field 'output_names' (MLX form) or 'result_names' (Core AI form)"),
    ("not JSON", "mtl2glsl", '{"name": "x",\n "input_names": [}', [], 1, "not valid JSON (near line 2)"),
    ("not an object", "mtl2glsl", "[1, 2]", [], 1, "field '(top level)': expected an object, got an array"),
    ("error in the body", "mtl2glsl", edit(MLX, ["source"], ["uint i = thread_position_in_grid.x;",
                                                              "out[i] = x[i] + undefined_thing;"]), [], 1,
     "SPEC.json(source):2:17: error: use of undeclared identifier 'undefined_thing'\n"
     "out[i] = x[i] + undefined_thing;\n                ^\n"),
    ("error in the header", "mtl2glsl", edit(MLX, ["header"], ["float helper(float v) {", "  return v +;", "}"]),
     [], 1, "SPEC.json(header):2:13: error: expected expression"),
    ("bad command-line array", "mtl2glsl", MLX, ["--array", "x=float32"], 1,
     "command line x=float32: expected FILE.npy or DTYPE:SHAPE"),
    ("bad command-line transpose", "mtl2glsl", MLX, ["--transpose", "x=1,0"], 1,
     "command line transpose x=1,0: expected a permutation of the 1 axes"),
    ("Core AI: unknown attribute", "mtl2glsl",
     edit(COREAI, ["metal_params", 0, "attribute"], "thread_pos"), [], 1,
     "field 'metal_params[0].attribute': 'thread_pos' is not a Metal thread attribute"),
    ("Core AI: metal_params entry malformed", "mtl2glsl", edit(COREAI, ["metal_params"], [{"name": "id"}]), [], 1,
     "field 'metal_params[0].type': expected a string, got nothing"),
    ("Core AI: template_dtypes of an unknown tensor", "mtl2glsl", edit(COREAI, ["template_dtypes"], {"z": "TYPE"}),
     [], 1, "field 'template_dtypes.z': 'z' is not an input or result name"),
    ("Core AI: MLX template arguments", "mtl2glsl", COREAI, ["--template", "T=float32"], 1,
     "template arguments are MLX's; a Core AI spec takes template_dtypes"),
    ("run: no grid", "mtlrun", edit(MLX, ["call", "grid"], DELETE), [], 1,
     "missing field 'call.grid' (or --grid X[,Y[,Z]] on the command line)"),
    ("run: dispatchThreadgroups", "mtlrun", MLX, ["--threadgroups", "4"], 2,
     "a kernel spec runs on a grid of threads (--grid)"),
    ("run: arrays by index", "mtlrun", MLX, ["--buffer", "0=float32:100"], 1,
     "give the call's arrays by name (--buffer NAME=FILE.npy or NAME=DTYPE:SHAPE)"),
    ("run: output that is not a parameter", "mtlrun", MLX, ["--out", "nope=/dev/null"], 1,
     "kernel custom_kernel_relu_float has no parameter named nope"),
    ("run: output given a file", "mtlrun", MLX, ["--buffer", "out=missing.npy"], 1,
     "command line out=missing.npy: cannot open 'missing.npy'"),
    # hostile specs (issue 18): each was a hang, undefined behaviour or silently accepted
    ("empty key", "mtl2glsl", edit(MLX, [""], 1), [], 1, "unknown field '' (expected one of"),
    ("run: empty key", "mtlrun", edit(MLX, ["call", ""], 1), [], 1, "unknown field 'call.' (expected one of"),
    ("two known keys joined by a space", "mtl2glsl", edit(MLX, ["call", "grid threadgroup"], [1]), [], 1,
     "unknown field 'call.grid threadgroup'"),
    ("part of a known key", "mtl2glsl", edit(MLX, ["call", "grid thread"], [1]), [], 1,
     "unknown field 'call.grid thread'"),
    ("trailing garbage", "mtl2glsl", json.dumps(MLX) + "\n}x", [], 1, "not valid JSON (near line 2)"),
    ("duplicate key", "mtl2glsl", json.dumps(MLX)[:-1] + ', "name": "other"}', [], 1, "field 'name' is given twice"),
    ("duplicate nested key", "mtl2glsl",
     json.dumps(MLX).replace('"grid": [100, 1, 1]', '"grid": [100, 1, 1], "grid": [1]'), [], 1,
     "field 'call.grid' is given twice"),
    ("NUL escape in the name", "mtl2glsl", json.dumps(MLX).replace('"relu"', '"re\\u0000lu"'), [], 1,
     "line 1: a NUL character (\\u0000) is not allowed in a spec"),
    ("NUL byte in the file", "mtl2glsl", json.dumps(MLX) + "\0", [], 1, "a NUL character (byte 0)"),
    ("name not an identifier", "mtl2glsl", edit(MLX, ["name"], "a-b"), [], 1,
     "field 'name': expected an identifier"),
    ("shape of 1e20", "mtl2glsl", edit(MLX, ["call", "inputs", "x", "shape"], [1e20]), [], 1,
     "field 'call.inputs.x.shape[0]': expected a size (integer >= 0, at most 2147483647), got a number out of range"),
    ("shape [2^32, 2^32]", "mtl2glsl", edit(MLX, ["call", "inputs", "x", "shape"], [2**32, 2**32]), [], 1,
     "field 'call.inputs.x.shape[0]': expected a size"),
    ("shape past the array limit", "mtl2glsl", edit(MLX, ["call", "output_shapes"], [[65536, 65536]]), [], 1,
     "array 'out': its shape holds more than 4294967295 bytes, the limit of one array"),
    ("command-line shape past int", "mtl2glsl", MLX, ["--array", "x=float32:99999999999999999999"], 1,
     "bad shape '99999999999999999999'"),
    ("init_value 1e999", "mtl2glsl", json.dumps(MLX)[:-2] + ', "init_value": 1e999}}', [], 1,
     "field 'call.init_value': expected a finite number or null, got a number out of range"),
    ("template int out of range", "mtl2glsl", edit(MLX, ["call", "template"], [["T", "float32"]]),
     ["--template", "N=99999999999"], 1, "99999999999 is out of the range of a template int"),
    ("template name not an identifier", "mtl2glsl", edit(MLX, ["call", "template"], [["T x", "float32"]]), [], 1,
     "template argument name 'T x' is not an identifier"),
    ("spec is a directory", "mtl2glsl", "DIR.json", [], 1, "cannot read: is a directory"),
    ("npy with fortran_order Maybe", "mtl2glsl", edit(MLX, ["call", "inputs", "x"], "maybe.npy"), [], 1,
     "'fortran_order' is neither True nor False"),
    ("npy shape past int", "mtl2glsl", edit(MLX, ["call", "inputs", "x"], "huge.npy"), [], 1,
     "has a shape this reader does not take"),
]


def npy(path, header):
    """A version-1 .npy file with header dict text HEADER and 8 data bytes."""
    h = header.encode() + b" " * (118 - len(header)) + b"\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + bytes([len(h) & 255, len(h) >> 8]) + h + bytes(8))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mtl2glsl", required=True)
    ap.add_argument("--mtlrun", required=True)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    args.mtl2glsl, args.mtlrun = os.path.abspath(args.mtl2glsl), os.path.abspath(args.mtlrun)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="mtl2glsl-spec-errors-") as tmp:
        npy(os.path.join(tmp, "maybe.npy"), "{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }")
        npy(os.path.join(tmp, "huge.npy"), "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }")
        for name, tool, spec, extra, status, text in CASES:
            if spec == "DIR.json":
                path = os.path.join(tmp, spec)
                os.makedirs(path, exist_ok=True)
            elif isinstance(spec, str) and spec.endswith(".json"):
                path = os.path.join(SPECS, spec)
            else:
                path = os.path.join(tmp, "SPEC.json")
                with open(path, "w") as f:
                    f.write(spec if isinstance(spec, str) else json.dumps(spec, indent=1))
            cmd = [args.mtl2glsl if tool == "mtl2glsl" else args.mtlrun, path] + extra
            if tool == "mtlrun":
                cmd += ["--validate"]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=60, cwd=tmp)
            except subprocess.TimeoutExpired:
                p = subprocess.CompletedProcess(cmd, 124, "", "timed out after 60 s (a hang)")
            err = p.stderr.replace(tmp + "/", "")
            bad = []
            if p.returncode < 0 or p.returncode >= 128:
                bad.append("crashed (exit status %d)" % p.returncode)
            if p.returncode != status:
                bad.append("exit status %d, expected %d" % (p.returncode, status))
            if text not in err:
                bad.append("stderr lacks: %s" % text)
            if any(s in p.stdout + p.stderr for s in SANITIZER):
                bad.append("sanitizer report")
            if bad or args.verbose:
                print("%s: %s\n  $ %s\n  %s" % ("FAIL" if bad else "PASS", name, " ".join(cmd),
                                                "\n  ".join(bad + err.rstrip().splitlines()[-6:])))
            failed += bool(bad)
    print("%d passed, %d failed" % (len(CASES) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
