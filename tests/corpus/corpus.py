#!/usr/bin/python3
"""corpus.py: how much of a real Metal kernel library mtl2glsl lists and translates to valid GLSL.

For each kernel file of a library (globs under its source root):
  1. the translator's listing: `mtl2glsl --list-entries FILE`;
  2. an independent count: clang's own preprocessor (`clang -E`, the translator's language flags, prelude and
     defines), then regular expressions over the preprocessed text: every `[[host_name("...")]]` (adjacent string
     literals joined) plus every non-template kernel definition (`kernel void NAME(...) {`, `[[kernel]]`,
     `__kernel`); the two are compared as sets of names, and the missing and extra names reported;
  3. the front end's errors: `mtl2glsl --syntax-only FILE` (clang's errors; failure isolation's notes name the
     entry points each one stops);
  4. `mtl2glsl -o DIR/ FILE`, then every written .comp through `glslangValidator -V --target-env vulkan1.1` and
     `spirv-val`; per entry: listed, counted, translated, valid, and for a failure its message (the error whose
     note names it; with --attribute entry, its own errors when translated alone). --list-only skips this step.
The matrix kernels (simdgroup_matrix, Metal 4 tensors: the matrix issue's) are found by text and counted apart.
Failures are grouped by message pattern (quoted names and numbers normalized; the most frequent names are kept);
so are the front-end errors, and the translation's errors with each source location counted once.
Prints a per-file table and a summary; --markdown / --json write the same; --check compares with the figures
recorded in figures.json (exit 1 when coverage is below them). A translator crash, a sanitizer report or a timeout
is a failure of the entries it cost, never a crash of this script.

  corpus.py --mtl2glsl build/translator/mtl2glsl --library ggml --root DIR            (settings from figures.json)
  corpus.py --mtl2glsl M --name mine --root DIR --files 'kernels/*.metal' -I . -D X=1  (any library)
Exit status: 0 done (and --check passed), 1 --check failed, 2 usage or setup error.
"""
import argparse
import collections
import concurrent.futures
import datetime
import fnmatch
import glob
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.dirname(os.path.dirname(HERE))
DEFAULT_GRAMMAR = os.path.join(TREE, "grammar")
DEFAULT_FIGURES = os.path.join(HERE, "figures.json")

# The language flags of translator/front/parse.c parse_program (keep in step: tests/selftest/test_corpus.py
# checks that every -D there is here).
CLANG_FLAGS = ["-x", "clcpp", "-cl-std=clc++2021", "-cl-no-stdinc", "-ffp-contract=off",
               "-Xclang", "-cl-ext=-cl_khr_fp64,-__opencl_c_fp64"]
TRANSLATOR_DEFINES = ["__METAL_VERSION__=320", "__METAL_MACOS__", "__HAVE_MTL2GLSL__=1"]  # 320: M2G_DEFAULT_METAL_VERSION
TRANSLATOR_INCLUDES = ["metal_types"]   # -include: what Apple's compiler knows before any #include (__METAL__, float4)

# ---- the independent count ----------------------------------------------------------------------------------

STRING_LIT = r'"(?:[^"\\\n]|\\.)*"'
# host_name alone or among other attributes: [[host_name("k")]], [[kernel, host_name("k")]]
HOST_NAME_RE = re.compile(r"(?<![\w.])host_name\s*\(\s*((?:%s\s*)+)\)" % STRING_LIT)
# `kernel void NAME(`, `[[kernel]] void NAME(` (kernel alone or in a list), `__kernel void NAME(`, attributes allowed
# between the words
ATTR = r"(?:\[\[(?:[^\]]|\](?!\]))*\]\]\s*)*"
KERNEL_DEF_RE = re.compile(r"(?:\[\[(?:[^\]]*,)?\s*kernel\s*(?:,[^\]]*)?\]\]|(?<![\w.])__kernel\b|(?<![\w.])kernel\b)\s*" + ATTR +
                           r"void\s+" + ATTR + r"([A-Za-z_]\w*)\s*\(")
ATTR_RE = re.compile(r"\[\[(?:[^\]]|\](?!\]))*\]\]")
TEMPLATE_HEAD_RE = re.compile(r"^\s*template\s*<")
LIT_RE = re.compile(STRING_LIT)


def join_literals(text):
    """The value of adjacent C string literals `"a" "b"` (simple escapes decoded)."""
    out = ""
    for lit in LIT_RE.findall(text):
        out += re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), lit[1:-1])
    return out


def strip_preprocessed(text):
    """Preprocessed text without line markers and pragmas (`# 12 "file"`, `#pragma ...`)."""
    return "\n".join("" if line.lstrip().startswith("#") else line for line in text.split("\n"))


def matching_paren(text, i):
    """Index just past the `)` that closes the `(` at TEXT[i], skipping string and character literals; -1 if none."""
    depth, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def declaration_window(text, pos):
    """The text of the declaration that PRECEDES POS: from just after the last `;`, `{` or `}` before it."""
    start = max(text.rfind(";", 0, pos), text.rfind("{", 0, pos), text.rfind("}", 0, pos)) + 1
    return start, text[start:pos]


def count_entries(text):
    """Entry point names in preprocessed Metal TEXT, in order of appearance: every [[host_name]] that is not on a
    template's own definition, then-or-else the name of every non-template kernel definition without one."""
    text = strip_preprocessed(text)
    names = []   # (offset, name)
    host_spans = []
    for m in HOST_NAME_RE.finditer(text):
        start, window = declaration_window(text, m.start())
        if TEMPLATE_HEAD_RE.match(ATTR_RE.sub(" ", window)):
            continue   # [[host_name]] on a template's definition: its instances are the entry points
        names.append((m.start(), join_literals(m.group(1))))
        host_spans.append(m.start())
    for m in KERNEL_DEF_RE.finditer(text):
        close = matching_paren(text, m.end() - 1)
        if close < 0:
            continue
        rest = ATTR_RE.sub(" ", text[close:close + 4000]).lstrip()
        if not rest.startswith("{"):
            continue   # a declaration or an explicit instantiation, not a definition
        start, window = declaration_window(text, m.start())
        if TEMPLATE_HEAD_RE.match(ATTR_RE.sub(" ", window)):
            continue   # a kernel template: counted by its [[host_name]] instances
        if any(start <= h < m.start(1) for h in host_spans):
            continue   # a plain kernel renamed by [[host_name]]: counted above
        names.append((m.start(), m.group(1)))
    seen = set()   # `[[host_name("k")]] kernel void k(...);` redeclaring a plain kernel k is that one entry point
    return [n for _, n in sorted(names) if not (n in seen or seen.add(n))]


# ---- the matrix kernels (simdgroup_matrix, Metal 4 tensors): counted apart --------------------------------------

MATRIX_RE = re.compile(r"\b(?:simdgroup_matrix|simdgroup_(?:float|half|bfloat)\d+x\d+|simdgroup_load|simdgroup_store|"
                       r"simdgroup_multiply(?:_accumulate)?|make_filled_simdgroup_matrix|mpp|tensor_ops|matmul2d|"
                       r"tensor_inline|tensor_handle|tensor_offset|cooperative_tensor)\b")
IDENT_RE = re.compile(r"[A-Za-z_]\w*")
LINE_MARKER_RE = re.compile(r'^# \d+ "(.*)"')
NOT_NAMES = {"operator", "if", "for", "while", "switch", "return", "sizeof", "decltype", "static_assert"}


def user_text(text, skip_dirs):
    """Preprocessed TEXT (with line markers) without what came from files under SKIP_DIRS (the prelude, stubs)."""
    out, keep = [], True
    for line in text.split("\n"):
        m = LINE_MARKER_RE.match(line)
        if m:
            keep = not any(os.path.abspath(m.group(1)).startswith(d + os.sep) for d in skip_dirs)
        elif keep and not line.lstrip().startswith("#"):
            out.append(line)
    return "\n".join(out)


def skip_template_head(head):
    """HEAD without a leading `template <...>` (angle brackets balanced)."""
    m = re.match(r"\s*template\s*<", head)
    if not m:
        return head
    depth, i = 1, m.end()
    while i < len(head) and depth:
        depth += {"<": 1, ">": -1}.get(head[i], 0)
        i += 1
    return skip_template_head(head[i:])


def top_level_chunks(text):
    """The top-level declarations of TEXT (namespaces and extern blocks looked through): [(head, whole text)]."""
    chunks, start, depth, stack, i, n = [], 0, 0, [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j
        elif c == "{":
            if depth == 0 and re.match(r"\s*(?:inline\s+)?(?:namespace\b[^;{}]*|extern\s*\"C\"\s*)$",
                                       text[start:i]):
                stack.append("ns")
                start = i + 1
            else:
                if depth == 0:
                    head_end = i
                depth += 1
                stack.append("b")
        elif c == "}":
            kind = stack.pop() if stack else "ns"
            if kind == "ns":
                start = i + 1
            else:
                depth -= 1
                if depth == 0 and not re.match(r"\s*;", text[i + 1:i + 40]):   # `struct X {...};` ends at its ;
                    chunks.append((text[start:head_end], text[start:i + 1]))
                    start = i + 1
        elif c == ";" and depth == 0:
            chunks.append((text[start:i], text[start:i + 1]))
            start = i + 1
        i += 1
    return chunks


GNU_ATTR_RE = re.compile(r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)")


def chunk_name(head):
    """The entity a top-level declaration defines: a struct's, a function's, an alias's name; None if unknown.
    Attributes are skipped, `[[...]]` and `__attribute__((...))` (MLX's METAL_FUNC) alike."""
    h = GNU_ATTR_RE.sub(" ", ATTR_RE.sub(" ", skip_template_head(head)))
    m = re.search(r"\b(?:struct|class|union)\s+(\w+)", h) or re.search(r"\busing\s+(\w+)\s*=", h) or \
        re.search(r"\btypedef\b.*?(\w+)\s*(?:\[[^\]]*\]\s*)*$", h, re.S) or re.search(r"(\w+)\s*(?:<[^()]*>)?\s*\(", h) or \
        re.search(r"(\w+)\s*(?:\[[^\]]*\]\s*)*(?:=.*)?$", h, re.S)
    return m.group(1) if m and m.group(1) not in NOT_NAMES else None


def matrix_entries(text):
    """The entry points of preprocessed user TEXT that need simdgroup_matrix or Metal 4 tensors, by text: the
    kernel's definition or instantiation mentions one (MATRIX_RE) or names, transitively, a top-level function,
    type or alias whose definition does. Name-based: an overload or a namesake of such an entity counts too."""
    chunks = [(chunk_name(h), set(IDENT_RE.findall(t)), bool(MATRIX_RE.search(t)), t) for h, t in
              top_level_chunks(strip_preprocessed(text))]
    tainted = {name for name, _, m, _ in chunks if m and name}
    while True:
        more = {name for name, ids, m, _ in chunks if name and name not in tainted and ids & tainted}
        if not more:
            break
        tainted |= more
    found = set()
    for name, ids, m, t in chunks:
        if m or ids & tainted:
            found.update(count_entries(t))
    return found


# Apple's headers: the standard library's and the Metal 4 tensor framework's (MLX's *_nax kernels)
MISSING_HEADER_RE = re.compile(r"fatal error: '(metal_\w+|MetalPerformancePrimitives/\w+\.h)' file not found")


def preprocess(opts, path, stub_dir):
    """clang -E of PATH as the translator parses it. Returns (text or None, error or None, stubbed headers).
    A missing Apple header (`<metal_NAME>`, `<MetalPerformancePrimitives/...>`) is stubbed (a file that includes
    <metal_stdlib>) and the run repeated,
    so that the count does not wait for the prelude to gain every header name; the stubs are reported."""
    stubbed = []
    while True:
        cmd = [opts.clang, "-E"] + CLANG_FLAGS + ["-isystem", opts.grammar_dir, "-isystem", stub_dir]
        cmd += ["-D" + d for d in TRANSLATOR_DEFINES]
        cmd += [a for inc in TRANSLATOR_INCLUDES for a in ("-include", inc)]
        cmd += ["-I" + i for i in opts.include] + ["-D" + d for d in opts.define] + [path]
        rc, out, err = run(cmd, opts.timeout)
        if rc == 0:
            return out, None, stubbed
        m = MISSING_HEADER_RE.search(err)
        if m and opts.stub_headers and m.group(1) not in stubbed and len(stubbed) < 64:
            stub = os.path.join(stub_dir, m.group(1))
            os.makedirs(os.path.dirname(stub), exist_ok=True)
            if not os.path.exists(stub):
                with open(stub, "w") as f:
                    f.write("#include <metal_stdlib>\n")
            stubbed.append(m.group(1))
            continue
        return None, first_error(err) or "clang -E exit status %s" % rc, stubbed


# ---- running tools ---------------------------------------------------------------------------------------------

def run(cmd, timeout, env=None):
    """(exit status, stdout, stderr); a timeout is status 'timeout', a missing program 'missing'."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "timeout", "", "timed out after %s s" % timeout
    except OSError as e:
        return "missing", "", str(e)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


DIAG_RE = re.compile(r"^(?:.*?:\d+:\d+: |[^\s:][^:]*: |mtl2glsl: )?(?:fatal )?error: (.*)$")
SANITIZER_RE = re.compile(r"^(?:SUMMARY: |==\d+==ERROR: )(\w+Sanitizer: .*)$|^.*runtime error: (.*)$", re.M)


def errors_of(stderr):
    """The error messages of a diagnostic stream, without their `file:line:col: error:` prefix, in order."""
    return [m.group(1).strip() for m in map(DIAG_RE.match, stderr.splitlines()) if m]


def first_error(stderr):
    errs = errors_of(stderr)
    return errs[0] if errs else None


LOC_ERROR_RE = re.compile(r"^(.*?:\d+:\d+): (?:fatal )?error: (.*)$")
STOPS_RE = re.compile(r"^(.*?:\d+:\d+): note: the error above stops (\d+) entry points?: (.*)$")


def error_sites(stderr):
    """The distinct errors of a diagnostic stream as `LOC\tmessage` (an error a template prints once per instance
    is one site), in order."""
    return list(dict.fromkeys("%s\t%s" % (m.group(1), m.group(2).strip())
                              for m in map(LOC_ERROR_RE.match, stderr.splitlines()) if m))


def stopped_by(stderr):
    """Failure isolation's notes (`LOC: note: the error above stops N entry points: 'a', 'b' and K more`): {entry
    point: the message of the error at LOC}, the first note naming an entry winning. Names past the sixth are not
    printed (`and K more`): those entry points are not in the map."""
    at, stops = {}, {}
    for line in stderr.splitlines():
        m = LOC_ERROR_RE.match(line)
        if m:
            at.setdefault(m.group(1), m.group(2).strip())
            continue
        m = STOPS_RE.match(line)
        if m and m.group(1) in at:
            for name in QUOTED_RE.findall(re.sub(r" and \d+ more$", "", m.group(3))):
                stops.setdefault(name, at[m.group(1)])
    return stops


def abnormal(rc, stderr):
    """A description of an abnormal end of the translator (crash, sanitizer report, timeout), or None."""
    if rc == "timeout":
        return "timeout: %s" % stderr
    if rc == "missing":
        return "cannot run: %s" % stderr
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = "signal %d" % -rc
        return "crash: killed by %s" % name
    m = SANITIZER_RE.search(stderr)
    if not m and rc == 2:
        return "usage error: %s" % (first_error(stderr) or stderr.strip()[:200])
    if m or rc not in (0, 1):
        detail = (m.group(1) or "UBSan: " + m.group(2)) if m else "exit status %d" % rc
        return "crash: %s" % detail
    return None


# ---- one file ----------------------------------------------------------------------------------------------------

def translator_cmd(opts, *args):
    cmd = [opts.mtl2glsl] + list(args)
    for i in opts.include:
        cmd += ["-I", i]
    for d in opts.define:
        cmd += ["-D", d]
    return cmd


def validate(comp, timeout):
    """None when COMP passes glslangValidator and spirv-val (as tests/snapshot.py runs them), else the reason."""
    spv = comp + ".spv"
    rc, out, err = run(["glslangValidator", "-V", "--target-env", "vulkan1.1", "-o", spv, comp], timeout)
    if rc != 0:
        msg = next((l.strip() for l in (out + err).splitlines() if l.startswith("ERROR:")), "exit status %s" % rc)
        return "glslangValidator: " + re.sub(r"^ERROR: (?:\S+:\d+: )?", "", msg)
    with open(comp, errors="replace") as f:
        scalar = ["--scalar-block-layout"] if "GL_EXT_scalar_block_layout" in f.read() else []
    rc, out, err = run(["spirv-val", "--target-env", "vulkan1.1"] + scalar + [spv], timeout)
    if rc != 0:
        msg = next((l.strip() for l in (out + err).splitlines() if l.strip()), "exit status %s" % rc)
        return "spirv-val: " + re.sub(r"^error: line \d+: ", "", msg)
    return None


def entry_message(opts, path, name, parse_errors, workdir):
    """--attribute entry: NAME translated alone (--entry NAME). Its message: the error whose note names it, else its
    first error that the file's parse alone does not print (PARSE_ERRORS: the errors of its own lowering), else
    None (it failed through one of the parse's errors, and no note says which)."""
    d = os.path.join(workdir, "e_" + re.sub(r"\W", "_", name)) + "/"
    rc, _, err = run(translator_cmd(opts, "--entry", name, "-o", d, path), opts.timeout)
    bad = abnormal(rc, err)
    if bad:
        return bad
    stops = stopped_by(err)
    if name in stops:
        return stops[name]
    own = errors_of(err)
    for e in parse_errors:
        if e in own:
            own.remove(e)
    return own[0] if own else None


def parse_errors_of(opts, path, workdir):
    """The errors the file's parse prints by itself: `--entry` of a name no kernel has."""
    _, _, err = run(translator_cmd(opts, "--entry", "__mtl2glsl_corpus_no_entry__", "-o",
                                   os.path.join(workdir, "none") + "/", path), opts.timeout)
    return [e for e in errors_of(err) if not e.startswith("no kernel named")]


def syntax_check(opts, path):
    """`mtl2glsl --syntax-only`: (its front-end error messages, abnormal end or None, {entry: the error stopping it})."""
    rc, _, err = run(translator_cmd(opts, "--syntax-only", path), opts.timeout)
    bad = abnormal(rc, err)
    return errors_of(err), bad, stopped_by(err)


def unattributed_message(errors, stops, nfailed, tried_alone):
    """The message of a failed entry point that no note names, from the file's ERRORS less those that notes
    attribute (STOPS): their one pattern when they have one, else which of them is unknown (TRIED_ALONE: the entry
    point was translated alone and printed no error of its own)."""
    noted = set(stops.values())
    rest = [e for e in errors if e not in noted] or list(errors)
    if not rest:
        return "no GLSL written and no error printed"
    if len(set(map(pattern, rest))) == 1 or nfailed == 1 and len(rest) == 1:
        return rest[0]
    if tried_alone:
        return "(one of the file's %d errors, printed before its lowering; no note names it)" % len(rest)
    return "(one of the file's %d errors: --attribute entry tells which)" % len(rest)


def process_file(opts, rel, workdir):
    """Everything about one kernel file: the listing, the count, the front-end errors (--syntax-only), and per entry
    its translation and validity (not with --list-only)."""
    path = os.path.join(opts.root, rel)
    rec = {"file": rel, "listed": [], "counted": None, "count_error": None, "stubbed_headers": [],
           "list_error": None, "translate_error": None, "file_errors": [], "frontend_errors": [],
           "syntax_error": None, "error_sites": [], "matrix": [], "entries": []}
    os.makedirs(workdir, exist_ok=True)
    stub_dir = os.path.join(workdir, "stubs")
    os.makedirs(stub_dir, exist_ok=True)

    # the count, the listing and the syntax check beside the translation (wall time: one big file is all of ggml)
    counting = opts.pool.submit(preprocess, opts, path, stub_dir)
    listing = opts.pool.submit(run, translator_cmd(opts, "--list-entries", path), opts.timeout)
    syntax = opts.pool.submit(syntax_check, opts, path)
    outdir = os.path.join(workdir, "out") + "/"
    os.makedirs(outdir, exist_ok=True)
    rc, err = 0, ""
    if not opts.list_only:
        rc, _, err = run(translator_cmd(opts, "-o", outdir, path), opts.timeout)

    text, rec["count_error"], rec["stubbed_headers"] = counting.result()
    if text is not None:
        rec["counted"] = count_entries(text)
        rec["matrix"] = sorted(matrix_entries(user_text(text, [opts.grammar_dir, os.path.abspath(stub_dir)])))
    lrc, out, lerr = listing.result()
    rec["listed"] = [l.strip() for l in out.splitlines() if l.strip()] if lrc != "timeout" else []
    rec["list_error"] = abnormal(lrc, lerr) or (first_error(lerr) if not rec["listed"] else None)
    rec["frontend_errors"], rec["syntax_error"], syntax_stops = syntax.result()
    rec["translate_error"] = abnormal(rc, err)
    rec["file_errors"] = errors_of(err)
    rec["error_sites"] = error_sites(err)
    stops = stopped_by(err) if not opts.list_only else syntax_stops
    written = {f[:-5] for f in os.listdir(outdir) if f.endswith(".comp")} if os.path.isdir(outdir) else set()

    names = list(dict.fromkeys(rec["listed"] + (rec["counted"] or [])))
    failed = [n for n in names if n in rec["listed"] and n not in written]
    # validations and --attribute entry's runs go to the shared pool: a library of one big file uses every job
    checks = {n: opts.pool.submit(validate, os.path.join(outdir, n + ".comp"), opts.timeout)
              for n in names if n in written and not opts.no_validate}
    per_entry = {}
    if opts.attribute == "entry" and not opts.list_only and not rec["translate_error"] and \
            [n for n in failed if n not in stops]:
        parse_errors = parse_errors_of(opts, path, workdir)
        per_entry = {n: opts.pool.submit(entry_message, opts, path, n, parse_errors, workdir)
                     for n in failed if n not in stops}
        per_entry = {n: f.result() for n, f in per_entry.items()}
    file_msg = rec["translate_error"] or rec["list_error"] or (rec["file_errors"][0] if rec["file_errors"] else None)
    for n in names:
        e = {"name": n, "listed": n in rec["listed"], "counted": rec["counted"] is not None and n in rec["counted"],
             "translated": n in written, "valid": False, "message": None, "frontend_error": syntax_stops.get(n),
             "matrix": n in rec["matrix"]}
        if e["translated"]:
            e["message"] = checks[n].result() if n in checks else None
            e["valid"] = e["message"] is None
        elif not e["listed"]:
            e["message"] = ("not listed: " if not rec["listed"] else "not listed, others are: ") + \
                (file_msg or "no error printed")
        elif opts.list_only:
            e["message"] = stops.get(n)   # a front-end error that stops it, if any: no translation was tried
        elif rec["translate_error"]:
            e["message"] = rec["translate_error"]
        elif n in stops:
            e["message"] = stops[n]
        elif per_entry.get(n):
            e["message"] = per_entry[n]
        else:
            e["message"] = unattributed_message(rec["file_errors"], stops, len(failed), n in per_entry)
        rec["entries"].append(e)
    if not opts.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return rec


# ---- grouping and summaries --------------------------------------------------------------------------------------

QUOTED_RE = re.compile(r"'([^']*)'")
NUMBER_RE = re.compile(r"(?<![\w.])\d+(?![\w.])")


def pattern(msg):
    """A message's group: quoted names become '_' and free-standing numbers N."""
    return NUMBER_RE.sub("N", QUOTED_RE.sub("'_'", msg or ""))


def group_failures(entries):
    """[(pattern, number of entries, Counter of the quoted names filling it)], most entries first."""
    groups = collections.OrderedDict()
    for e in entries:
        if e["valid"]:
            continue
        key = pattern(e["message"])
        g = groups.setdefault(key, [0, collections.Counter()])
        g[0] += 1
        fills = QUOTED_RE.findall(e["message"] or "")
        if fills:
            g[1][", ".join(fills)] += 1
    return sorted(((k, n, c) for k, (n, c) in groups.items()), key=lambda g: (-g[1], g[0]))


def group_frontend(records):
    """Every file's front-end (--syntax-only) errors grouped like the failures: [(pattern, errors, Counter)]."""
    return group_failures([{"valid": False, "message": m} for r in records for m in r["frontend_errors"]])


def group_sites(records):
    """The translation's errors grouped by message, each source location counted once: [(pattern, sites,
    Counter)]. Names the constructs that fail even where no entry point's own message is known."""
    return group_failures([{"valid": False, "message": site.split("\t", 1)[1]} for r in records
                           for site in r["error_sites"]])


def group_files(records):
    """The files that list nothing, grouped like entries by their first error: [(pattern, files, Counter)].
    (A file without an independent count has no known entry points, so only this table shows it.)"""
    return group_failures([{"valid": False, "message": r["list_error"] or "no error printed"}
                           for r in records if not r["listed"]])


def file_summary(rec):
    listed, counted = set(rec["listed"]), set(rec["counted"] or [])
    dup = lambda names: sorted(n for n, c in collections.Counter(names).items() if c > 1)
    return {
        "listed": len(rec["listed"]),
        "counted": None if rec["counted"] is None else len(rec["counted"]),
        "matched": len(listed & counted) if rec["counted"] is not None else None,
        "missing": sorted(counted - listed), "extra": sorted(listed - counted) if rec["counted"] is not None else [],
        "duplicates": dup(rec["listed"]) + dup(rec["counted"] or []),
        "entries": len(rec["entries"]),
        "translated": sum(e["translated"] for e in rec["entries"]),
        "valid": sum(e["valid"] for e in rec["entries"]),
        "frontend_errors": len(rec["frontend_errors"]),
        "matrix": sum(e["matrix"] for e in rec["entries"]),
        "matrix_valid": sum(e["matrix"] and e["valid"] for e in rec["entries"]),
        "frontend_stopped": sum(bool(e["frontend_error"]) for e in rec["entries"]),
        "crashes": int(any((err or "").startswith("crash") for err in (rec["translate_error"], rec["list_error"],
                                                                     rec["syntax_error"]))),
    }


def library_summary(records):
    s = {"files": len(records), "entries": 0, "listed": 0, "counted": 0, "matched": 0, "translated": 0,
         "valid": 0, "crashes": 0, "count_unavailable": 0, "missing": 0, "extra": 0, "frontend_errors": 0,
         "files_frontend_errors": 0, "frontend_stopped": 0, "matrix": 0, "matrix_valid": 0}
    for r in records:
        f = r["summary"]
        for k in ("entries", "listed", "translated", "valid", "crashes", "frontend_errors", "frontend_stopped",
                  "matrix", "matrix_valid"):
            s[k] += f[k]
        s["files_frontend_errors"] += f["frontend_errors"] > 0
        if f["counted"] is None:
            s["count_unavailable"] += 1
        else:
            s["counted"] += f["counted"]
            s["matched"] += f["matched"]
            s["missing"] += len(f["missing"])
            s["extra"] += len(f["extra"])
    s["valid_pct"] = round(100.0 * s["valid"] / s["entries"], 1) if s["entries"] else 0.0
    s["other"], s["other_valid"] = s["entries"] - s["matrix"], s["valid"] - s["matrix_valid"]
    s["other_valid_pct"] = round(100.0 * s["other_valid"] / s["other"], 1) if s["other"] else 0.0
    s["listing_exact"] = s["count_unavailable"] == 0 and s["missing"] == 0 and s["extra"] == 0 and \
        all(not r["summary"]["duplicates"] for r in records)
    return s


def fills_text(counter, top=3):
    return ", ".join("%s (%d)" % (k, n) for k, n in counter.most_common(top))


def num(value, list_only):
    """A translated or valid figure: '-' when --list-only did not translate."""
    return "-" if list_only else str(value)


def summary_line(s, list_only):
    line = "summary: %d files, %d entry points listed, %d counted independently%s, %d matched, %d missing, " \
        "%d extra, %d front-end errors in %d files (naming %d entry points they stop), " % (
            s["files"], s["listed"], s["counted"],
            " (count unavailable for %d files)" % s["count_unavailable"] if s["count_unavailable"] else "",
            s["matched"], s["missing"], s["extra"], s["frontend_errors"], s["files_frontend_errors"],
            s["frontend_stopped"])
    if list_only:
        return line + "not translated (--list-only), %d crashes" % s["crashes"]
    if s.get("not_validated"):
        return line + "%d translated (not validated: --no-validate), %d crashes" % (s["translated"], s["crashes"])
    return line + "%d translated, %d valid GLSL (%.1f%% of %d), %d crashes; outside the %d matrix kernels " \
        "(simdgroup_matrix, Metal 4 tensors): %d of %d valid (%.1f%%)" % (
            s["translated"], s["valid"], s["valid_pct"], s["entries"], s["crashes"], s["matrix"], s["other_valid"],
            s["other"], s["other_valid_pct"])


def text_report(lib, records, s, groups, mgroups, fgroups, fe_groups, site_groups, top):
    lo = lib["list_only"]
    lines = ["%s (%s): %d files%s" % (lib["name"], lib["version"], s["files"], " (--list-only)" if lo else ""), ""]
    hdr = "%-58s %6s %6s %6s %6s %6s %6s  %s" % ("file", "listed", "count", "match", "fe-err", "transl", "valid",
                                                "first error")
    lines.append(hdr)
    for r in records:
        f = r["summary"]
        err = r["list_error"] or next((e["message"] for e in r["entries"] if e["message"]), "") or \
            (r["frontend_errors"][0] if r["frontend_errors"] else "")
        lines.append("%-58s %6d %6s %6s %6d %6s %6s  %s" % (
            r["file"][-58:], f["listed"], "-" if f["counted"] is None else f["counted"],
            "-" if f["matched"] is None else f["matched"], f["frontend_errors"], num(f["translated"], lo),
            num(f["valid"], lo), (err or "")[:90]))
        if f["counted"] is None:
            lines.append("    independent count unavailable: %s" % r["count_error"])
        if f["missing"]:
            lines.append("    missing from the listing (%d): %s" % (len(f["missing"]), ", ".join(f["missing"][:12])))
        if f["extra"]:
            lines.append("    listed but not counted (%d): %s" % (len(f["extra"]), ", ".join(f["extra"][:12])))
        if f["duplicates"]:
            lines.append("    listed or counted twice: %s" % ", ".join(f["duplicates"][:12]))
        if r["stubbed_headers"]:
            lines.append("    count used stub headers: %s" % " ".join(r["stubbed_headers"]))
        if r["syntax_error"]:
            lines.append("    --syntax-only: %s" % r["syntax_error"])
    lines += ["", summary_line(s, lo)]
    for title, gs in (("front-end (clang) errors by message (errors; most frequent names):", fe_groups),
                      ("failures outside the matrix kernels, by message (entries; most frequent names):", groups),
                      ("failures of the matrix kernels, by message (entries; most frequent names):", mgroups),
                      ("translation errors by message (distinct source locations; most frequent names):",
                       site_groups),
                      ("files that list nothing, by their first error (files; most frequent names):", fgroups)):
        if gs:
            lines += ["", title]
            for key, n, fills in gs[:top]:
                lines.append("  %5d  %s%s" % (n, key[:140], "   [%s]" % fills_text(fills) if fills else ""))
    return "\n".join(lines) + "\n"


def md_escape(text):
    return (text or "").replace("|", "\\|").replace("\n", " ")


def md_groups(title, unit, gs, top):
    if not gs:
        return []
    out = [title, "", "| %s | message | names |" % unit, "| ---: | --- | --- |"]
    out += ["| %d | %s | %s |" % (n, md_escape(k), md_escape(fills_text(f))) for k, n, f in gs[:top]]
    if len(gs) > top:
        out.append("| %d | (%d more messages) | |" % (sum(n for _, n, _ in gs[top:]), len(gs) - top))
    return out + [""]


def markdown_report(lib, records, s, groups, mgroups, fgroups, fe_groups, site_groups, top):
    lo = lib["list_only"]
    out = ["## %s" % lib["name"], "",
           "Version: %s. Files: `%s` under the library root; include roots: %s; defines: %s." % (
               lib["version"], "`, `".join(lib["files"]), ", ".join("`%s`" % i for i in lib["include"]) or "none",
               ", ".join("`%s`" % d for d in lib["define"]) or "none"),
           "Measured %s with mtl2glsl %s%s." % (lib["date"], lib["translator"],
                                                 " (`--list-only`: nothing translated)" if lo else ""), "",
           "| files | entry points | listed | independent count | matched | front-end errors (files) | translated "
           "| valid GLSL | % valid | matrix kernels (valid) | others valid |",
           "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
           "| %d | %d | %d | %d%s | %d | %d (%d) | %s | %s | %s | %d (%s) | %s |" % (
               s["files"], s["entries"], s["listed"], s["counted"],
               " (%d files without)" % s["count_unavailable"] if s["count_unavailable"] else "",
               s["matched"], s["frontend_errors"], s["files_frontend_errors"], num(s["translated"], lo),
               num(s["valid"], lo), "-" if lo else "%.1f%%" % s["valid_pct"], s["matrix"],
               num(s["matrix_valid"], lo),
               "-" if lo else "%d of %d (%.1f%%)" % (s["other_valid"], s["other"], s["other_valid_pct"])), ""]
    out += md_groups("Front-end (clang) errors by message (`--syntax-only`; errors, the most frequent names in the "
                     "message):", "errors", fe_groups, top)
    out += md_groups("Failures outside the matrix kernels, by message (entry points; the most frequent names in the "
                     "message):", "entries", groups, top)
    out += md_groups("Failures of the matrix kernels (simdgroup_matrix, Metal 4 tensors), by message:", "entries",
                     mgroups, top)
    out += md_groups("Translation errors by message (each source location once; the most frequent names):",
                     "sites", site_groups, top)
    out += md_groups("Files that list nothing, by their first error:", "files", fgroups, top)
    out += ["<details><summary>Per file</summary>", "",
            "| file | listed | counted | matched | front-end errors | translated | valid | missing / extra "
            "| first error |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    for r in records:
        f = r["summary"]
        err = r["list_error"] or next((e["message"] for e in r["entries"] if e["message"]), "") or \
            (r["frontend_errors"][0] if r["frontend_errors"] else "")
        mism = ""
        if f["counted"] is None:
            mism = "count unavailable: " + (r["count_error"] or "")
        elif f["missing"] or f["extra"]:
            mism = "missing %d: %s; extra %d: %s" % (len(f["missing"]), " ".join(f["missing"][:5]),
                                                     len(f["extra"]), " ".join(f["extra"][:5]))
        out.append("| `%s` | %d | %s | %s | %d | %s | %s | %s | %s |" % (
            r["file"], f["listed"], "-" if f["counted"] is None else f["counted"],
            "-" if f["matched"] is None else f["matched"], f["frontend_errors"], num(f["translated"], lo),
            num(f["valid"], lo), md_escape(mism), md_escape(err)))
    out += ["", "</details>", ""]
    return "\n".join(out)


# ---- figures --------------------------------------------------------------------------------------------------

def library_version(root):
    pkg = os.path.join(root, "package.json")
    if os.path.exists(pkg):
        try:
            with open(pkg) as f:
                p = json.load(f)
            return "%s %s" % (p.get("name"), p.get("version"))
        except (OSError, ValueError):
            pass
    rc, top, _ = run(["git", "-C", root, "rev-parse", "--show-toplevel"], 30)
    if rc != 0 or os.path.realpath(top.strip()) != os.path.realpath(root):
        return "unknown"   # not a checkout of its own (a folder inside another repository's tree)
    rc, out, _ = run(["git", "-C", root, "rev-parse", "HEAD"], 30)
    return out.strip() if rc == 0 and out.strip() else "unknown"


def check_figures(fig, s, version, list_only=False):
    """Problems of summary S against the recorded figures FIG (a figures.json library entry); LIST_ONLY: the
    translated and valid floors are not checked (nothing was translated)."""
    problems = []
    if fig.get("version") and version != "unknown" and version != fig["version"]:
        problems.append("library version %s, but the figures were recorded for %s" % (version, fig["version"]))
    for key, what in (("min_listed", "listed"), ("min_matched", "matched"), ("min_translated", "translated"),
                      ("min_valid", "valid")):
        if (list_only and what in ("translated", "valid")) or (what == "valid" and s.get("not_validated")):
            continue
        if key in fig and s[what] < fig[key]:
            problems.append("%s entry points %d, below the recorded %d" % (what, s[what], fig[key]))
    if s["crashes"] > fig.get("max_crashes", 0):
        problems.append("%d translator crashes (recorded: at most %d)" % (s["crashes"], fig.get("max_crashes", 0)))
    if fig.get("listing_exact") and not s["listing_exact"]:
        problems.append("the listing differs from the independent count (%d missing, %d extra, count unavailable "
                        "for %d files)" % (s["missing"], s["extra"], s["count_unavailable"]))
    return problems


def record_figures(path, name, lib, s):
    """--record: writes the measured figures of library NAME into figures.json (its settings kept)."""
    with open(path) as f:
        figs = json.load(f)
    fig = figs.setdefault(name, {})
    fig.update({"version": lib["version"], "files": lib["files"], "include": lib["include"],
                "define": lib["define"], "measured": lib["date"], "entries": s["entries"],
                "counted": s["counted"], "min_listed": s["listed"], "min_matched": s["matched"],
                "frontend_errors": s["frontend_errors"], "max_crashes": s["crashes"],
                "listing_exact": s["listing_exact"]})
    if not lib["list_only"]:   # --list-only translates nothing: the translated and valid floors stay
        fig.update({"min_translated": s["translated"]})
        if not s.get("not_validated"):
            fig["min_valid"] = s["valid"]
    write_figures(path, figs)


def write_figures(path, figs):
    """figures.json with one line per setting."""
    libs = ["  %s: {\n%s\n  }" % (json.dumps(name), ",\n".join(
        "    %s: %s" % (json.dumps(k), json.dumps(v)) for k, v in fig.items())) for name, fig in figs.items()]
    with open(path, "w") as f:
        f.write("{\n" + ",\n".join(libs) + "\n}\n")


# ---- main ------------------------------------------------------------------------------------------------------

def expand_files(root, globs):
    files = []
    for g in globs:
        hits = sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, g), recursive=True)
                      if os.path.isfile(p))
        files += [h for h in hits if h not in files]
    return files


def find_clang():
    for name in ("clang-14", "clang"):
        p = shutil.which(name) or (os.path.exists("/usr/bin/" + name) and "/usr/bin/" + name)
        if p:
            return p
    return None


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--mtl2glsl", required=True, help="the translator to measure")
    ap.add_argument("--root", required=True, help="the library's source root")
    ap.add_argument("--library", help="a library of --figures: its name, files, include roots and defines")
    ap.add_argument("--name", help="the library's name (default: --library, else the root's name)")
    ap.add_argument("--version-label", help="the library's version (default: package.json's, else the root's "
                    "git commit when it is a checkout)")
    ap.add_argument("--files", nargs="+", default=[], metavar="GLOB", help="kernel files, relative to the root "
                    "(** matches any folders)")
    ap.add_argument("-I", "--include", action="append", default=[], help="include root (relative: to --root)")
    ap.add_argument("-D", "--define", action="append", default=[], help="NAME[=VALUE] for every file")
    ap.add_argument("--grammar-dir", default=DEFAULT_GRAMMAR, help="the prelude for clang -E (default: %(default)s)")
    ap.add_argument("--clang", default=None, help="clang for the independent count (default: clang-14, clang)")
    ap.add_argument("--no-stub-headers", dest="stub_headers", action="store_false",
                    help="no stubs for <metal_NAME> headers the prelude lacks: the count is unavailable instead")
    ap.add_argument("--attribute", choices=("file", "entry"), default="file",
                    help="a failed entry's message: file (the file's error when it has one kind; fast) or entry "
                         "(each failed entry translated alone with --entry)")
    ap.add_argument("--no-validate", action="store_true",
                    help="do not run glslangValidator and spirv-val: every translated entry point counts as valid and "
                    "the valid floor is not checked (the sanitizer build's corpus test: the other build validates)")
    ap.add_argument("--list-only", action="store_true",
                    help="listing, independent count and --syntax-only only: no translation, no validation (fast)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="files processed at once (default 2)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per tool run (default 300)")
    ap.add_argument("--top", type=int, default=15, help="failure groups shown (default 15)")
    ap.add_argument("--markdown", metavar="FILE", help="write the tables as Markdown")
    ap.add_argument("--json", metavar="FILE", help="write everything, per entry, as JSON")
    ap.add_argument("--figures", default=DEFAULT_FIGURES, help="recorded figures (default: %(default)s)")
    ap.add_argument("--check", action="store_true", help="exit 1 when below the figures recorded for --library")
    ap.add_argument("--min-valid", type=int, help="exit 1 when fewer entry points give valid GLSL")
    ap.add_argument("--expect-listing-exact", action="store_true",
                    help="exit 1 when any listing differs from the independent count")
    ap.add_argument("--record", action="store_true", help="write the measured figures into --figures")
    ap.add_argument("--keep", metavar="DIR", help="keep the outputs (GLSL, SPIR-V) in DIR")
    ap.add_argument("-q", "--quiet", action="store_true", help="print the summary only")
    return ap.parse_args(argv)


def settings(opts):
    """Fills the library's files, include roots and defines from --figures when --library names one."""
    fig = {}
    if opts.library:
        try:
            with open(opts.figures) as f:
                fig = json.load(f).get(opts.library)
        except (OSError, ValueError) as e:
            sys.exit("corpus.py: error: cannot read %s: %s" % (opts.figures, e))
        if fig is None:
            sys.exit("corpus.py: error: %s has no library '%s'" % (opts.figures, opts.library))
        opts.files = opts.files or fig.get("files", [])
        opts.include = opts.include or fig.get("include", [])
        opts.define = opts.define or fig.get("define", [])
    opts.name = opts.name or opts.library or os.path.basename(os.path.abspath(opts.root))
    opts.root = os.path.abspath(opts.root)
    opts.include = [i if os.path.isabs(i) else os.path.normpath(os.path.join(opts.root, i)) for i in opts.include]
    opts.grammar_dir = os.path.abspath(opts.grammar_dir)
    opts.mtl2glsl = os.path.abspath(opts.mtl2glsl) if os.sep in opts.mtl2glsl else opts.mtl2glsl
    return fig


def main(argv):
    opts = parse_args(argv)
    fig = settings(opts)
    opts.clang = opts.clang or find_clang()
    for tool, what in ((opts.clang, "clang"), (shutil.which("glslangValidator"), "glslangValidator"),
                       (shutil.which("spirv-val"), "spirv-val"), (shutil.which(opts.mtl2glsl), opts.mtl2glsl)):
        if not tool:
            print("corpus.py: error: cannot find %s" % what, file=sys.stderr)
            return 2
    if not os.path.isdir(opts.root):
        print("corpus.py: error: no library root %s" % opts.root, file=sys.stderr)
        return 2
    files = expand_files(opts.root, opts.files)
    if not files:
        print("corpus.py: error: no kernel files match %s under %s" % (" ".join(opts.files), opts.root),
              file=sys.stderr)
        return 2
    rc, out, _ = run([opts.mtl2glsl, "--version"], 60)
    lib = {"name": opts.name, "version": opts.version_label or library_version(opts.root), "root": opts.root, "files": opts.files,
           "include": [os.path.relpath(i, opts.root) if i.startswith(opts.root) else i for i in opts.include],
           "define": opts.define, "date": datetime.date.today().isoformat(), "list_only": opts.list_only,
           "translator": out.split("\n")[0].replace("mtl2glsl ", "") if rc == 0 else "unknown"}

    base = opts.keep or tempfile.mkdtemp(prefix="mtl2glsl-corpus-")
    try:   # files in one pool; their validations and per-entry runs in another (no waiting on oneself)
        with concurrent.futures.ThreadPoolExecutor(max(1, opts.jobs)) as pool, \
                concurrent.futures.ThreadPoolExecutor(max(1, opts.jobs)) as opts.pool:
            jobs = [pool.submit(process_file, opts, rel, os.path.join(base, "%03d" % i)) for i, rel in
                    enumerate(files)]
            records = [j.result() for j in jobs]
    finally:
        if not opts.keep:
            shutil.rmtree(base, ignore_errors=True)
    for r in records:
        r["summary"] = file_summary(r)
    s = library_summary(records)
    s["not_validated"] = opts.no_validate and not opts.list_only
    # --list-only: the failures are the entry points not listed or stopped by a front-end error
    failures = [e for r in records for e in r["entries"] if e["message"] or not opts.list_only]
    groups = group_failures([e for e in failures if not e["matrix"]])
    mgroups = group_failures([e for e in failures if e["matrix"]])
    fgroups = group_files(records)
    fe_groups = group_frontend(records)
    site_groups = group_sites(records)

    report = text_report(lib, records, s, groups, mgroups, fgroups, fe_groups, site_groups, opts.top)
    sys.stdout.write(report[report.index("summary:"):] if opts.quiet else report)
    if opts.markdown:
        with open(opts.markdown, "w") as f:
            f.write(markdown_report(lib, records, s, groups, mgroups, fgroups, fe_groups, site_groups, opts.top))
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump({"library": lib, "summary": s, "frontend_errors": [
                {"pattern": k, "errors": n, "names": dict(c.most_common())} for k, n, c in fe_groups],
                "translation_errors": [
                {"pattern": k, "sites": n, "names": dict(c.most_common())} for k, n, c in site_groups], "failures": [
                {"pattern": k, "entries": n, "names": dict(c.most_common())} for k, n, c in groups],
                "matrix_failures": [
                {"pattern": k, "entries": n, "names": dict(c.most_common())} for k, n, c in mgroups],
                "files_listing_nothing": [
                {"pattern": k, "files": n, "names": dict(c.most_common())} for k, n, c in fgroups],
                "files": records}, f, indent=1)
            f.write("\n")
    if opts.record:
        record_figures(opts.figures, opts.name, lib, s)

    problems = check_figures(fig, s, lib["version"], opts.list_only) if opts.check and fig else []
    if opts.check and not fig:
        problems.append("--check needs --library NAME with figures in %s" % opts.figures)
    if opts.min_valid is not None and opts.no_validate:
        problems.append("--min-valid needs validation (not --no-validate)")
    elif opts.min_valid is not None and s["valid"] < opts.min_valid:
        problems.append("valid entry points %d, below --min-valid %d" % (s["valid"], opts.min_valid))
    if opts.expect_listing_exact and not s["listing_exact"]:
        problems.append("the listing differs from the independent count (%d missing, %d extra, count unavailable "
                        "for %d files)" % (s["missing"], s["extra"], s["count_unavailable"]))
    for p in problems:
        print("corpus.py: FAIL: %s" % p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
