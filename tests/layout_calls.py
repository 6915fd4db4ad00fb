#!/usr/bin/env python3
"""layout_calls.py BUILD SRC - the module map of docs/internals.md ("Modules") holds for the
calls too, not only for the includes (layout_test.py): a function or variable of one module is
used only by its own module and the modules above it.

Reads the host modules' static libraries of the build tree BUILD: every lib*.a but the _san
copies (the same sources), the cross-compiled firmware's (firmware/, firmware64/) and the test fixtures of tests/ (a
firmware library built for the host with fake ports, tests/unit/perf_fake.c: white-box). Each archive member is one
object file, CMake's BUILD/DIR/CMakeFiles/TARGET.dir/PATH.o of the source SRC/DIR/PATH, so its
module is that source's (layout_test.py's MODULES; a generated source, e.g. the Verilated
core, belongs to the module of the folder that builds it; third-party sources compiled into a
library, Verilator's runtime, to none). `nm` gives each object's strong
definitions and its undefined symbols; a module uses another when one of its objects needs a
symbol the other one defines. Fails naming the symbol and both objects for every use that
layout_test.py's ALLOWED table does not allow, and names any circle between modules.

Exit 0 all well, 1 a violation, 2 usage or no libraries found."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import layout_test  # noqa: E402  (MODULES, ALLOWED, module_of, acyclic)

EXTERNAL = "(external)"   # third-party code compiled into a library: in no module, not checked
DEFINED = set("TDBRGSC")  # strong definitions; weak ones (V, W: C++ inline functions, templates) say nothing


def archives(build):
    out = []
    for root, dirs, names in os.walk(build):
        rel = os.path.relpath(root, build)
        top = rel.split(os.sep)[0]
        if top in ("firmware", "firmware64", "tests") or "CMakeFiles" in rel.split(os.sep):
            dirs[:] = []
            continue
        for n in names:
            if n.startswith("lib") and n.endswith(".a") and not n.endswith("_san.a"):
                out.append(os.path.join(root, n))
    return sorted(out)


def members(lib):
    """{member name: its object file in the build tree} of the archive lib"""
    target = os.path.basename(lib)[3:-2]
    objdir = os.path.join(os.path.dirname(lib), "CMakeFiles", target + ".dir")
    names = subprocess.run(["ar", "t", lib], capture_output=True, text=True, check=True).stdout.split()
    files = {}
    for root, _, fnames in os.walk(objdir):
        for f in fnames:
            if f.endswith(".o"):
                files.setdefault(f, []).append(os.path.join(root, f))
    return target, objdir, {n: files.get(n, []) for n in names}


def source_of(obj, objdir, libdir, build, src):
    """the source file (relative to SRC) CMake compiled obj from; None for one generated in
    the build tree; EXTERNAL for one from outside both trees (CMake names such an object
    after the source's absolute path: Verilator's runtime, /usr/share/verilator/include)"""
    rel = os.path.relpath(obj, objdir)[:-2]                  # PATH (.o off)
    rel = "/".join(".." if p == "__" else p for p in rel.split(os.sep))
    path = os.path.normpath(os.path.join(os.path.relpath(libdir, build), rel))
    if os.path.isfile(os.path.join(src, path)):
        return path
    outside = "/" + rel
    if os.path.isfile(outside) and not outside.startswith((src + "/", build + "/")):
        return EXTERNAL
    return None


def symbols(obj):
    """(strong definitions, undefined symbols) of one object file"""
    res = subprocess.run(["nm", "-P", obj], capture_output=True, text=True)
    if res.returncode:
        raise OSError("nm %s: %s" % (obj, res.stderr.strip()))
    defs, undef = set(), set()
    for line in res.stdout.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            undef.add(name)
        elif kind in DEFINED:
            defs.add(name)
    return defs, undef


def main():
    if len(sys.argv) != 3:
        print("usage: layout_calls.py BUILD SRC", file=sys.stderr)
        return 2
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    libs = archives(build)
    if not libs:
        print("layout_calls: no static libraries under %s (build first)" % build, file=sys.stderr)
        return 2
    bad = 0
    objs = []  # (module, name for messages, defs, undef)
    for lib in libs:
        target, objdir, mem = members(lib)
        libdir = os.path.dirname(lib)
        home = layout_test.module_of(os.path.join(os.path.relpath(libdir, build), "x"))
        for name, cands in sorted(mem.items()):
            if not cands:
                print("layout_calls: %s holds %s, which is not under %s" % (lib, name, objdir))
                bad = 1
            for obj in cands:
                s = source_of(obj, objdir, libdir, build, src)
                if s == EXTERNAL:
                    continue
                mod = layout_test.module_of(s) if s else home
                if mod is None:
                    print("layout_calls: %s (%s) is in no module" % (s or obj, target))
                    bad = 1
                    continue
                d, u = symbols(obj)
                objs.append((mod, "%s(%s)" % (target, s or os.path.relpath(obj, build)), d, u))
    owner = {}  # symbol -> (module, object)
    for mod, name, d, _ in objs:
        for sym in d:
            if sym in owner and owner[sym][0] != mod:
                print("layout_calls: %s is defined by %s and %s" % (sym, owner[sym][1], name))
                bad = 1
            owner.setdefault(sym, (mod, name))
    edges = {}
    for mod, name, _, u in objs:
        for sym in sorted(u):
            if sym not in owner or owner[sym][0] == mod:
                continue                       # the C library's, the system's, or its own
            tmod, tname = owner[sym]
            edges.setdefault(mod, set()).add(tmod)
            if tmod not in layout_test.ALLOWED.get(mod, []):
                print("%s: module %s uses %s of %s (module %s): %s may use only %s" %
                      (name, mod, sym, tname, tmod, mod, ", ".join(layout_test.ALLOWED.get(mod, [])) or "nothing"))
                bad = 1
    cycle = layout_test.acyclic({m: sorted(e) for m, e in edges.items()})
    if cycle:
        print("layout_calls: the modules call each other in a circle: " + " -> ".join(cycle))
        bad = 1
    print("layout_calls: %d libraries, %d objects, %d module uses (%s), %s" %
          (len(libs), len(objs), sum(len(e) for e in edges.values()),
           "; ".join("%s -> %s" % (m, ", ".join(sorted(e))) for m, e in sorted(edges.items())),
           "violations above" if bad else "all go the allowed way"))
    return bad


if __name__ == "__main__":
    sys.exit(main())
