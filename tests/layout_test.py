#!/usr/bin/env python3
"""layout_test.py SRC - the module map of docs/internals.md ("Modules") holds in the sources.

Every .c/.h/.cpp/.def/.inc file of the tree belongs to the module its folder names (the
longest matching folder of MODULES below). Every `#include "X"` of such a file is resolved
to the project file named X (by path suffix, headers have unique names) and must go the
allowed way: to its own module or to one the table lets it use (ALLOWED). Headers private
to a module (PRIVATE) are included from their module only (and from tests/, which are
white-box). Includes that name no file of the tree (system headers, Verilator's, generated
ones such as ts_version.h) are not checked. The table itself must be free of circles.

Within one module, the files form units (a .c and the .h of the same name in one folder
are one unit) and the includes between units must not go round in a circle (unit A includes
a header of unit B, which includes one of A, directly or through others): fails naming
the circle.

Fails naming every include that goes the wrong way, so a new circle between modules fails
the suite instead of growing unseen. Exit 0 all well, 1 a violation, 2 usage."""
import os
import re
import sys

# folder (relative to the source tree) -> module; the longest matching folder wins
MODULES = {
    "rtl_model/regs": "regs",
    "rtl_model/hpm": "models", "rtl_model/mem": "models", "rtl_model/trace": "models",
    "rtl_model/core": "core",
    "runfolder": "runfolder",
    "elf": "elf",
    "decoder": "decoder",
    "cli/opts": "opts",
    "analysis": "analysis",
    "waves/gtkwave": "waves",
    "waves/fst": "fst",
    "sweep": "sweep",
    "cli": "cli",
    "sim/systemc": "systemc",
    "sim/systemc/ts_module_test.cpp": "tests",   # the TLM modules' unit test
    "sim": "sim",
    "firmware": "firmware",
    "tools": "tools",
    "tests": "tests",
}

# module -> the modules it may include (besides itself); docs/internals.md draws this table
ALLOWED = {
    "regs": [],
    "core": ["regs"],
    "runfolder": [],
    "opts": [],
    "fst": ["runfolder"],
    "models": ["regs"],
    "elf": ["runfolder"],
    "decoder": ["elf", "runfolder", "regs"],
    "analysis": ["decoder", "elf", "runfolder", "opts", "regs"],
    "waves": ["analysis", "decoder", "elf", "runfolder", "opts", "regs"],
    "sweep": ["analysis", "decoder", "elf", "runfolder", "opts", "regs"],
    "sim": ["models", "fst", "analysis", "decoder", "elf", "runfolder", "opts", "regs"],
    "cli": ["sim", "sweep", "waves", "analysis", "decoder", "elf", "runfolder", "opts", "regs"],
    "systemc": ["cli", "sim", "models", "fst", "analysis", "decoder", "elf", "runfolder", "opts", "regs"],
    "firmware": ["regs"],
    "tools": ["sim", "cli", "sweep", "waves", "analysis", "decoder", "elf", "runfolder", "opts", "models", "regs"],
    "tests": ["systemc", "cli", "sim", "sweep", "waves", "analysis", "decoder", "elf", "runfolder", "opts",
              "models", "fst", "firmware", "regs", "tools"],
}

# headers only their own module includes (tests/ may: white-box unit tests)
PRIVATE_DIRS = ["decoder/src"]
PRIVATE_FILES = ["analysis/overhead/overhead_int.h", "analysis/decode/decode_int.h", "analysis/report/report_int.h"]

# includes that close a circle between the files of one module, there before the check was
# made: a part's .c reaching up into the whole that includes the part's header. One is left,
# the trace encoder's program-trace half (te_prog.c works on the whole encoder: its FIFO,
# overflow and sync state; docs/internals.md "Circles left inside a module"). It is a
# unit -> unit edge left out of the circle check; no new one may be added.
KNOWN_UNIT_CIRCLE_EDGES = [
    ("rtl_model/trace/te_prog", "rtl_model/trace/te"),
]

EXTS = (".c", ".h", ".cpp", ".hpp", ".def", ".inc", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def module_of(path):
    best = None
    for folder, mod in MODULES.items():
        if (path == folder or path.startswith(folder + "/")) and (best is None or len(folder) > len(best[0])):
            best = (folder, mod)
    return best[1] if best else None


def unit_of(path):
    """a file's unit: its path without the extension (foo.c and foo.h are one unit)"""
    return os.path.splitext(path)[0]


def is_private(path):
    return path in PRIVATE_FILES or any(path.startswith(d + "/") for d in PRIVATE_DIRS)


def acyclic(allowed):
    state = {}

    def visit(m, stack):
        if state.get(m) == 1:
            return stack[stack.index(m):] + [m]
        if state.get(m) == 2:
            return None
        state[m] = 1
        for d in allowed.get(m, []):
            c = visit(d, stack + [m])
            if c:
                return c
        state[m] = 2
        return None

    for m in allowed:
        c = visit(m, [])
        if c:
            return c
    return None


def main():
    if len(sys.argv) != 2:
        print("usage: layout_test.py SRC", file=sys.stderr)
        return 2
    src = sys.argv[1]
    bad = 0
    cycle = acyclic(ALLOWED)
    if cycle:
        print("layout: the allowed-dependency table has a circle: " + " -> ".join(cycle))
        bad = 1
    for m, deps in ALLOWED.items():
        for d in deps:
            if d not in ALLOWED:
                print("layout: module %s may use %s, which is no module" % (m, d))
                bad = 1
    files = []
    for root, dirs, names in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith(".") and not d.startswith("build")]
        for n in names:
            if n.endswith(EXTS):
                files.append(os.path.relpath(os.path.join(root, n), src))
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)
    unowned = [f for f in files if module_of(f) is None]
    for f in sorted(unowned):
        print("layout: %s is in no module (add its folder to MODULES in tests/layout_test.py)" % f)
        bad = 1
    checked = 0
    unit_edges = {}  # unit -> the units of the same module whose headers it includes
    for f in sorted(files):
        mod = module_of(f)
        if mod is None:
            continue
        try:
            with open(os.path.join(src, f), encoding="utf-8", errors="replace") as fh:
                lines = fh.readlines()
        except OSError as e:
            print("layout: cannot read %s: %s" % (f, e))
            bad = 1
            continue
        for no, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            cands = [c for c in by_name.get(os.path.basename(inc), []) if c == inc or c.endswith("/" + inc)]
            if not cands:
                continue                      # system, Verilator's or generated
            # the file beside the includer first (the compiler's own rule), else the one match
            here = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            target = here if here in cands else (cands[0] if len(cands) == 1 else None)
            if target is None:
                print("%s:%d: #include \"%s\" names %d files: %s" % (f, no, inc, len(cands), " ".join(cands)))
                bad = 1
                continue
            checked += 1
            tmod = module_of(target)
            if tmod == mod:
                ua, ub = unit_of(f), unit_of(target)
                if ua != ub:
                    unit_edges.setdefault(ua, set()).add(ub)
                continue
            if tmod not in ALLOWED.get(mod, []):
                print("%s:%d: module %s includes %s of module %s: %s may use only %s" %
                      (f, no, mod, target, tmod, mod, ", ".join(ALLOWED.get(mod, [])) or "nothing"))
                bad = 1
            elif is_private(target) and mod != "tests":
                print("%s:%d: %s is private to module %s" % (f, no, target, tmod))
                bad = 1
    for ua, ub in KNOWN_UNIT_CIRCLE_EDGES:
        unit_edges.get(ua, set()).discard(ub)
    cycle = acyclic(unit_edges)
    if cycle:
        print("layout: the files of one module include each other in a circle: " + " -> ".join(cycle))
        bad = 1
    print("layout: %d files, %d project includes checked, %s" % (len(files), checked, "violations above" if bad else "all go the allowed way"))
    return bad


if __name__ == "__main__":
    sys.exit(main())
