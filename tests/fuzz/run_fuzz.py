#!/usr/bin/python3
"""Runs one libFuzzer target for a bounded time and fails on any finding (docs/fuzzing.md).

    run_fuzz.py --fuzzer PATH --work DIR --seconds N [--prefix-byte B] SEED_GLOB...

The corpus lives in DIR/corpus (kept between runs: a long run goes on where the last stopped) and starts from the
seed files (each prefixed with byte B when given); findings go to DIR/artifacts/ (crash-*, leak-*, timeout-*,
oom-*; slow-unit-* files are kept there too but are no finding). Prints the executions, the CPU time spent (the
fuzzer and the processes it starts, e.g. clang's preprocessor) and the findings, as `fuzz: NAME: ...` and a closing
`N passed, N failed` line.
"""
import argparse
import glob
import hashlib
import os
import re
import resource
import shlex
import subprocess
import sys
import time

# Per input: a time limit (a hang is a finding), memory (a huge allocation is a finding: -malloc_limit_mb follows
# -rss_limit_mb) and the longest input tried.
FUZZ_FLAGS = ["-timeout=60", "-rss_limit_mb=4096", "-max_len=65536", "-print_final_stats=1", "-reload=0"]


def seed_corpus(corpus, globs, prefix):
    os.makedirs(corpus, exist_ok=True)
    n = 0
    for pattern in globs:
        for path in sorted(glob.glob(pattern)):
            if not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                data = (bytes([prefix]) if prefix is not None else b"") + f.read()
            name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
            with open(os.path.join(corpus, name), "wb") as f:
                f.write(data)
            n += 1
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fuzzer", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--seconds", type=int, required=True)
    ap.add_argument("--prefix-byte", type=int)
    ap.add_argument("--jobs", type=int, default=1, help="fuzzing processes (libFuzzer -fork)")
    ap.add_argument("seeds", nargs="*")
    args = ap.parse_args()
    name = os.path.basename(args.fuzzer)
    corpus, artifacts = os.path.join(args.work, "corpus"), os.path.join(args.work, "artifacts")
    os.makedirs(artifacts, exist_ok=True)
    n_seeds = seed_corpus(corpus, args.seeds, args.prefix_byte)
    before = set(os.listdir(artifacts))
    cmd = [args.fuzzer, corpus, "-max_total_time=%d" % args.seconds, "-artifact_prefix=" + artifacts + "/"] + FUZZ_FLAGS
    if args.jobs > 1:
        cmd += ["-fork=%d" % args.jobs, "-ignore_crashes=0"]
    print("$ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    start = time.time()
    log_path = os.path.join(args.work, "fuzz.log")
    with open(log_path, "w") as log:
        p = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    wall = time.time() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    with open(log_path, errors="replace") as f:
        log = f.read()
    execs = re.findall(r"stat::number_of_executed_units:\s*(\d+)", log)
    if not execs:
        execs = re.findall(r"#(\d+)\s", log)
    # slow-unit-* files are inputs that took over 10 s (libFuzzer's report, not a failure: a loaded machine makes
    # them); a hang past -timeout is a timeout-* finding
    findings = sorted(f for f in set(os.listdir(artifacts)) - before if not f.startswith("slow-unit-"))
    failed = p.returncode != 0 or bool(findings)
    if failed:
        print("\n".join(log.rstrip().splitlines()[-60:]))
        for f in findings:
            print("finding: %s\n  reproduce: %s %s" % (os.path.join(artifacts, f), args.fuzzer, os.path.join(artifacts, f)))
    print("fuzz: %s: %s executions in %.0f s (%.1f CPU-minutes, %d seeds, corpus %d), exit %d, findings: %d" % (
        name, execs[-1] if execs else "?", wall, cpu / 60, n_seeds, len(os.listdir(corpus)), p.returncode,
        len(findings)))
    print("%d passed, %d failed" % (0 if failed else 1, 1 if failed else 0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
