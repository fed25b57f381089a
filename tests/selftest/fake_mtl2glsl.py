#!/usr/bin/python3
"""A stand-in for the mtl2glsl CLI, for the self-tests of snapshot.py and run_errors.py.

Translates nothing: it finds `kernel void NAME` / `[[kernel]] void NAME` and emits, per entry, a small valid
GLSL compute shader (or, with FAKE_MODE=badglsl, an invalid one) and a reflection object. Usage errors exit 2.
FAKE_MODE=diag:LINE:COL:TEXT prints that diagnostic for the input in the contract's form (path:line:col: error:,
source line, caret line) and exits 1; FAKE_MODE=nocaret omits the caret line; FAKE_MODE=crash raises SIGSEGV;
FAKE_MODE=asan prints an AddressSanitizer report; FAKE_MODE=exit0 prints the diagnostic but exits 0.
Front-end errors as failure isolation reports them: each use of an identifier named `mini_undeclared_*` is a clang
error, and (translation and --syntax-only) a note says it stops the entry points whose names contain `broken`,
which are not written. --syntax-only prints only those and writes nothing; FAKE_MODE=nosyntax refuses the option."""
import json
import os
import re
import signal
import sys

KERNEL_RE = re.compile(r"(?:\bkernel|\[\[kernel\]\])\s+void\s+(\w+)")
HOST_NAME_RE = re.compile(r'host_name\("(\w+)"\)')
INCLUDE_RE = re.compile(r'#\s*include\s+"([^"]+)"')


def frontend_errors(source, lines, entries):
    """The fake's clang errors (`mini_undeclared_*`) with their notes; the entry points they stop."""
    out, stopped = [], [e for e in entries if "broken" in e]
    for n, line in enumerate(lines, 1):
        m = re.search(r"\bmini_undeclared_\w+", line)
        if m:
            out.append("%s:%d:%d: error: use of undeclared identifier '%s'\n%s\n%s^" % (
                source, n, m.start() + 1, m.group(0), line, " " * m.start()))
    if out and stopped:
        first = out[0].split("\n")
        out.append("%s: note: the error above stops %d entry point%s: %s\n%s\n%s" % (
            first[0].split(": error:")[0], len(stopped), "" if len(stopped) == 1 else "s",
            ", ".join("'%s'" % e for e in stopped), first[1], first[2]))
    return out, (stopped if out else [])


def fake_entries(source, text):
    """Kernel names, host names written as literals, and the kernels of quoted includes when there are none."""
    entries = KERNEL_RE.findall(text) + HOST_NAME_RE.findall(text)
    if not entries:
        for inc in INCLUDE_RE.findall(text):
            path = os.path.join(os.path.dirname(source), inc)
            if os.path.exists(path):
                with open(path) as f:
                    entries += KERNEL_RE.findall(f.read())
    return list(dict.fromkeys(entries))   # once each, in order (a regex sees a kernel template and its instances)
GLSL = """#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(std430, set = 0, binding = 0) buffer out_buf { float out_data[]; };
layout(push_constant, std430) uniform mtl_params_t {
    uvec3 mtl_threads_per_grid;
    uint mtl_reserved;
} mtl_params;

// %s
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= mtl_params.mtl_threads_per_grid.x) {
        return;
    }
    out_data[i] = float(i);
}
"""


def usage(msg):
    print("mtl2glsl: error: " + msg, file=sys.stderr)
    sys.exit(2)


def main(argv):
    emit, out, source, entry, list_entries, syntax_only = "glsl", None, None, None, False, False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a.startswith("--emit="):
            emit = a.split("=", 1)[1]
            if emit not in ("glsl", "spirv", "reflect", "metal"):
                usage("unknown --emit value '%s'" % emit)
        elif a in ("-o", "--entry", "-I", "-D"):
            if i + 1 == len(argv):
                usage("%s needs a value" % a)
            i += 1
            if a in ("-o", "--entry"):   # include roots and defines: no effect on the fake's output
                out, entry = (argv[i], entry) if a == "-o" else (out, argv[i])
        elif a.startswith("--subgroup-size=") or a == "--virtual-subgroups":
            pass  # the width SIMD-group functions are built for: no effect on the fake's output
        elif a == "--list-entries":
            list_entries = True
        elif a == "--syntax-only" and os.environ.get("FAKE_MODE") != "nosyntax":
            syntax_only = True
        elif a.startswith("--subgroup-size=") or a == "--virtual-subgroups":
            pass  # SIMD-group width options: the fake's output does not depend on them
        elif a.startswith("-"):
            usage("unknown option '%s'" % a)
        else:
            source = a
        i += 1
    if source is None:
        usage("no input file")
    try:
        with open(source) as f:
            lines = f.read().split("\n")
    except OSError:
        print("mtl2glsl: error: cannot open '%s'" % source, file=sys.stderr)
        return 1
    mode = os.environ.get("FAKE_MODE", "")
    if mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "asan":
        print("==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1", file=sys.stderr)
        return 1
    if mode.startswith("diag:") or mode in ("nocaret", "exit0"):
        line, col, text = (mode.split(":", 3)[1:] if mode.startswith("diag:") else ("4", "5", "boom"))
        line, col = int(line), int(col)
        print("%s:%d:%d: error: %s" % (source, line, col, text), file=sys.stderr)
        print(lines[line - 1], file=sys.stderr)
        if mode != "nocaret":
            print(" " * (col - 1) + "^", file=sys.stderr)
        return 0 if mode == "exit0" else 1
    entries = fake_entries(source, "\n".join(lines))
    if source.endswith(".json"):   # a kernel spec: its kernel's name as MLX (or Core AI) gives it
        spec = json.loads("\n".join(lines))
        entries = [spec["name"] if "result_names" in spec else "custom_kernel_" + spec["name"]]
        if emit == "metal":
            sys.stdout.write("[[kernel]] void %s() {}\n" % entries[0])
            return 0
    if list_entries:
        print("\n".join(entries))
        return 0
    fe_errors, stopped = frontend_errors(source, lines, entries)
    for e in fe_errors:
        print(e, file=sys.stderr)
    if syntax_only:
        return 1 if fe_errors else 0
    if entry is not None:
        if entry not in entries:
            print("mtl2glsl: error: no entry point named '%s' in %s" % (entry, source), file=sys.stderr)
            return 1
        entries = [entry]
    for name in entries:
        if name in stopped:
            continue
        body = GLSL % name if mode != "badglsl" else "#version 450\nvoid main() { undeclared = 1; }\n"
        refl = json.dumps({"entry": name, "source": source, "push_constant_size": 16, "buffers": [],
                           "builtins": ["thread_position_in_grid"], "extensions": [], "features": []}, indent=2)
        text = refl + "\n" if emit == "reflect" else body
        if out is None:
            sys.stdout.write(text)
        elif out.endswith("/"):
            with open(os.path.join(out, name + (".json" if emit == "reflect" else ".comp")), "w") as f:
                f.write(text)
        else:
            with open(out, "w") as f:
                f.write(text)
    return 1 if fe_errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
