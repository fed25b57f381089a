#!/usr/bin/python3
"""docs.man: the man pages match --help. Every option in PROGRAM --help (usage lines and the option column) must
appear in MAN.1, and every option a man page's .TP item names must be in --help.

usage: check_man.py PROGRAM MAN.1 [PROGRAM MAN.1 ...]"""
import re
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)")


def help_options(program):
    """Options of PROGRAM --help: every option in a usage line, and in the option column of option lines."""
    text = subprocess.run([program, "--help"], capture_output=True, text=True, check=True).stdout
    found = set()
    for line in text.splitlines():
        if line.startswith(("usage:", "       ")) and not line.strip().startswith("-") and "mtl" in line:
            found.update(OPTION.findall(line))
        elif re.match(r"^ {1,4}-", line):
            column = re.split(r"\s{2,}", line.strip())[0]
            found.update(OPTION.findall(column))
    return found


def man_text(path):
    """The page's text with roff escapes undone: \\- to -, fonts dropped."""
    text = open(path, encoding="utf-8").read()
    return re.sub(r"\\f[BIRP]", "", text).replace("\\-", "-").replace("\\e", "\\")


def man_items(text):
    """Options that the .TP items of the page name."""
    lines = text.splitlines()
    found = set()
    for i, line in enumerate(lines[:-1]):
        if line.startswith(".TP"):
            item = lines[i + 1].removeprefix(".B ").removeprefix(".I ")
            found.update(o.split("=")[0] for o in OPTION.findall(item))
    return found


def check(program, page):
    opts, text = help_options(program), man_text(page)
    errors = [f"{page}: option {o} of `{program} --help` is not in the man page"
              for o in sorted(opts) if not re.search(re.escape(o) + r"(?![A-Za-z0-9-])", text)]
    errors += [f"{page}: the man page documents {o}, which `{program} --help` does not list"
               for o in sorted(man_items(text) - opts)]
    if not opts:
        errors.append(f"{program} --help: no options found (has its format changed?)")
    print(f"{page}: {len(opts)} options of --help, {len(man_items(text))} documented items")
    return errors


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit(__doc__)
    errors = []
    for program, page in zip(args[::2], args[1::2]):
        errors += check(program, page)
    for e in errors:
        print("FAIL:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
