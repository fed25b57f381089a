#!/usr/bin/python3
"""A stand-in for mtlrun that checks the command line run_exec.py builds and behaves as FAKE_MODE says:
good (writes the expected outputs), wrong (one element off), unwritten (leaves the poison), validation
(prints a validation-layer error but exits 0), crash (SIGSEGV), fail (exit 1), nofile (writes nothing).
It finds the expected outputs beside the inputs: CASE_got_bN.npy -> CASE_bN_expected.npy."""
import os
import re
import signal
import sys

import numpy as np

DTYPES = {"float32", "int32", "uint32", "float16", "int8", "uint8", "int16", "uint16", "int64", "uint64"}


def die(msg, code=2):
    print("fake_mtlrun: " + msg, file=sys.stderr)
    sys.exit(code)


def parse(argv):
    if not argv or not argv[0].endswith(".metal") or not os.path.exists(argv[0]):
        die("first argument must be an existing .metal file, got %r" % argv[:1])
    opts = {"buffer": [], "scalar": [], "bytes": [], "out": [], "constant": [], "flags": set()}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--virtual-subgroups", "--push-constant-words"):  # translation options: accepted, not checked
            i += 1
            continue
        if a in ("--poison", "--validate"):
            opts["flags"].add(a)
            i += 1
            continue
        if a == "--virtual-subgroups":
            i += 1
            continue
        if i + 1 >= len(argv):
            die("option %s needs a value" % a)
        v = argv[i + 1]
        key = a[2:]
        if key in ("entry",):
            opts[key] = v
        elif key in ("grid", "threadgroups", "threadgroup"):
            if not re.fullmatch(r"\d+(,\d+){0,2}", v):
                die("bad %s %r" % (a, v))
            opts[key] = [int(t) for t in v.split(",")]
        elif key in ("subgroup-size", "threadgroup-memory"):
            if not re.fullmatch(r"\d+(=\d+)?", v):
                die("bad %s %r" % (a, v))
        elif key in ("buffer", "scalar", "bytes", "out", "constant"):
            opts[key].append(v)
        elif key == "subgroup-size":
            if v not in ("4", "8", "16", "32", "64", "128"):
                die("bad --subgroup-size %r" % v)
        elif key == "threadgroup-memory":
            if not re.fullmatch(r"\d+=\d+", v):
                die("bad --threadgroup-memory %r" % v)
        else:
            die("unknown option " + a)
        i += 2
    return opts


def check(opts):
    if "entry" not in opts or "threadgroup" not in opts:
        die("needs --entry and --threadgroup")
    if ("grid" in opts) == ("threadgroups" in opts):
        die("exactly one of --grid / --threadgroups")
    if opts["flags"] != {"--poison", "--validate"}:
        die("run_exec must pass --poison and --validate")
    for b in opts["buffer"]:
        n, spec = b.split("=", 1)
        if spec.endswith(".npy"):
            np.load(spec)
        else:
            dtype, shape = spec.split(":")
            if dtype not in DTYPES or not re.fullmatch(r"\d+(x\d+)*", shape):
                die("bad --buffer %s" % b)
    for s in opts["scalar"]:
        if not re.fullmatch(r"\d+=(float|int|uint|bool|half|short|ushort|char|uchar|long|ulong):\S+", s):
            die("bad --scalar %s" % s)
    for s in opts["constant"]:
        if not re.fullmatch(r"\d+=(float|int|uint|bool|half|short|ushort|char|uchar):\S+", s):
            die("bad --constant %s" % s)
    for b in opts["bytes"]:
        if not os.path.exists(b.split("=", 1)[1]):
            die("no file for --bytes %s" % b)


def main():
    opts = parse(sys.argv[1:])
    check(opts)
    mode = os.environ.get("FAKE_MODE", "good")
    print("mtlrun: device: Fake Device (fake_mtlrun)", file=sys.stderr)
    if mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "fail":
        die("dispatch failed", 1)
    if mode == "validation":
        print("Validation Error: [ VUID-vkCmdDispatch-None-02697 ] fake", file=sys.stderr)
    if mode == "nofile":
        return 0
    for o in opts["out"]:
        n, path = o.split("=", 1)
        d, base = os.path.split(path)
        case = re.fullmatch(r"(.*)_got_b(\d+)\.npy", base)
        expected = np.load(os.path.join(d, "%s_b%s_expected.npy" % (case.group(1), case.group(2))))
        got = expected.copy()
        if mode == "wrong":
            got.reshape(-1)[got.size // 2] += 1
        elif mode == "unwritten":
            if got.dtype.kind == "f":
                got.reshape(-1)[-1] = np.nan
            else:
                got.view(np.uint8).reshape(-1)[-got.itemsize:] = 0xA5
        np.save(path, got)
    return 0


if __name__ == "__main__":
    sys.exit(main())
