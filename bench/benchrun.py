"""What the bench/*.py scripts share: translate one entry point into a folder and write the run.sh line that
times it on the machine to measure (GPU timestamps, median of 20 runs, printed with the GB/s it implies)."""
import os
import subprocess


def header(columns):
    """The first lines of run.sh: COLUMNS names what each timing line prints before the figures."""
    return ["#!/bin/sh", 'cd "$(dirname "$0")"', "MTLRUN=${MTLRUN:-mtlrun}", 'echo "%s gpu_ms_median GB/s"' % columns]


def translate(mtl2glsl, options, entry, source, out, rel):
    """ENTRY of SOURCE as OUT/REL.comp and OUT/REL.json (REL: "group/variant/entry")."""
    kdir = os.path.join(out, os.path.dirname(rel))
    os.makedirs(kdir, exist_ok=True)
    for emit in ([], ["--emit=reflect"]):
        subprocess.run([mtl2glsl] + options + emit + ["--entry", entry, "-o", kdir + "/", source], check=True)


def timing_line(rel, run, label, nbytes):
    """The run.sh line that runs REL with mtlrun arguments RUN and prints LABEL, the median and NBYTES / time."""
    cmd = "$MTLRUN %s.comp --reflect %s.json %s --timestamps --repeat 20" % (rel, rel, " ".join(run))
    return ('t=$(%s 2>&1 | sed -n "s/^gpu_time_ms: //p"); '
            'if [ -n "$t" ]; then echo "%s $t $(awk "BEGIN{printf \\"%%.1f\\", %d/($t*1e6)}")"; '
            'else echo "%s refused"; fi' % (cmd, label, nbytes, label))
