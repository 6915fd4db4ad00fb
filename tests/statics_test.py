#!/usr/bin/env python3
"""statics_test.py SRC - no mutable static storage in the models and the libraries.

The models (rtl_model/), the decoder, the ELF reader, the run-folder module and the analyses
are passive code: their state lives in the structs their callers own, so two of them (two
harts, two SystemC instances, a test that checks twice) never share anything. This scans
their C sources (comments and strings removed) for every `static` object that is not
`const` (file-level or inside a function) and fails naming each one, except the few listed
in ALLOWED with the reason they are process-wide by nature (an entry whose static is gone
fails too, so the list stays true). Functions, `static const`
tables and `static inline` functions are fine. Exit 0 all well, 1 a mutable static, 2 usage."""
import os
import re
import sys

ROOTS = ("rtl_model", "decoder", "elf", "runfolder", "analysis")

# (file, name): why it is process-wide
ALLOWED = {
    ("runfolder/ts_file.c", "out_mu"): "the registry of outputs being written, removed at exit",
    ("runfolder/ts_file.c", "outs"): "the same registry",
    ("runfolder/ts_file.c", "out_atexit"): "the same registry's atexit hook, installed once",
    ("runfolder/ts_file.c", "out_umask"): "the process's umask, read once",
    ("runfolder/ts_file.c", "seq"): "a process-wide counter for unique temporary names (atomic)",
    ("runfolder/ts_file.c", "cut"): "a mapped input's SIGBUS handler state (a handler sees nothing else)",
    ("analysis/decode/decode_run.c", "stdout_buf"): "the buffer handed to setvbuf for stdout",
    ("analysis/report/out_html.c", "sort_p"): "qsort's comparator context (C11 has no qsort_r)",
    ("analysis/report/out_html.c", "sort_x"): "the same",
    ("analysis/report/out_html.c", "sort_comp"): "the same",
    ("analysis/report/out_html.c", "sort_g"): "the same",
    ("analysis/report/flow_profile.c", "sort_p"): "the same",
    ("analysis/report/flow_profile.c", "sort_s"): "the same",
    ("analysis/overhead/overhead.c", "wf_err"): "a command's last write error, said once at exit",
    ("analysis/overhead/overhead_baseline.c", "werr"): "the same",
}


def strip(text):
    """the C text without comments, string and character literals (same line count)"""
    out = re.sub(r'/\*.*?\*/', lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    out = re.sub(r'//[^\n]*', "", out)
    out = re.sub(r'"(\\.|[^"\\\n])*"', '""', out)
    return re.sub(r"'(\\.|[^'\\\n])*'", "''", out)


def statics(text):
    """[(line, name)] of the mutable static objects in C text"""
    found = []
    for m in re.finditer(r'\bstatic\b', text):
        rest = text[m.end():]
        # the declaration up to its end, a struct body skipped
        decl = ""
        depth = 0
        for ch in rest:
            if ch == "{":
                if depth == 0 and "(" in decl:
                    break  # a function body
                depth += 1
            elif ch == "}":
                depth -= 1
            elif depth == 0 and ch in ";=":
                break
            decl += ch
        head = re.sub(r'\{.*\}', " ", decl, flags=re.S)
        if re.search(r'\b(const|constexpr|inline|_Static_assert)\b', head.split("*")[-1] if "*" in head else head):
            continue
        if "(" in head and not re.search(r'\(\s*\*', head):
            continue  # a function
        names = re.findall(r'([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$', head.strip())
        if not names:
            continue
        found.append((text.count("\n", 0, m.start()) + 1, names[-1]))
    return found


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: statics_test.py SRC", file=sys.stderr)
        return 2
    src = sys.argv[1]
    bad = 0
    seen = 0
    used = set()
    for root in ROOTS:
        for d, dirs, files in os.walk(os.path.join(src, root)):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, src)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    text = strip(fh.read())
                seen += 1
                for line, name in statics(text):
                    if (rel, name) in ALLOWED:
                        used.add((rel, name))
                        continue
                    print("%s:%d: mutable static '%s' (state belongs in the caller's struct)" % (rel, line, name))
                    bad = 1
    for rel, name in sorted(ALLOWED):  # the list stays true: no entry for a static that went
        if (rel, name) not in used and os.path.isfile(os.path.join(src, rel)):
            print("%s: '%s' is allowed but is no longer a mutable static there: drop it from ALLOWED" % (rel, name))
            bad = 1
    if not seen:
        print("statics_test: no C sources under %s" % src, file=sys.stderr)
        return 2
    if not bad:
        print("statics: %d files, no mutable static but the %d allowed" % (seen, len(ALLOWED)))
    return bad


if __name__ == "__main__":
    sys.exit(main())
