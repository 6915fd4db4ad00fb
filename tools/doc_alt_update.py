#!/usr/bin/env python3
"""doc_alt_update.py SRC SAVED_DIR LABEL - rewrites the docs' alternative outputs of one
toolchain from what its build printed.

tests/doc_examples.sh with DOC_EXAMPLES_SAVE=SAVED_DIR keeps the whole output of every
runnable block whose output differs from the docs as SAVED_DIR/FILE_LINE.out (FILE with "/"
as "_", LINE the block's first line). For each, this finds the block in SRC/FILE and its
alternative output `<!-- text output, LABEL` (e.g. "GCC 14 (Debian 13)") and rewrites it:
every line keeps the elisions of the old one ("[...]" parts, "..." lines) where its fixed
text still fits, with the numbers of the new output; a line that no longer fits is taken as
printed. Without such an alternative, one is added after the block's other outputs. Run
doc_examples.sh again on that toolchain afterwards: it must pass (the figures are that
toolchain's own runs, never edited by hand)."""
import difflib
import os
import re
import sys

NUM = re.compile(r'\d+')


def skeleton(s):
    return NUM.sub("0", s)


def fits(pat, s):
    parts = pat.split("[...]")
    rx = ".*".join(re.escape(p) for p in parts)
    return re.fullmatch(rx, s, flags=re.S) is not None


def retemplate(t, a):
    """the template line t with the numbers of a where t's fixed text (numbers aside) fits"""
    if fits(t, a):
        return t
    parts = t.split("[...]")
    rx = "(.*?)".join(r"(\d+)".join(re.escape(x) for x in NUM.split(p)) for p in parts)
    m = re.fullmatch(rx, a, flags=re.S)
    if not m:
        return a
    groups = m.groups()
    gi = 0
    out = []
    for i, p in enumerate(parts):
        pieces = NUM.split(p)
        for k, piece in enumerate(pieces):
            out.append(piece)
            if k < len(pieces) - 1:
                out.append(groups[gi])
                gi += 1
        if i < len(parts) - 1:
            gi += 1  # the elided text
            out.append("[...]")
    return "".join(out)


def similar(t, a):
    """a can stand where t stood: the same fixed text but for numbers and [...] parts"""
    return fits(skeleton(t), skeleton(a))


def new_body(template, actual):
    """the alternative's lines for the actual output, shaped like template: a "..." line goes
    on standing for the lines up to the next line the template shows"""
    res = []
    i = j = 0
    while i < len(template):
        t = template[i]
        if t == "...":
            res.append(t)
            i += 1
            if i == len(template):
                return res
            k = j
            while k < len(actual) and not similar(template[i], actual[k]):
                k += 1
            if k < len(actual):
                j = k
            continue
        k = j
        while k < len(actual) and k < j + 40 and not similar(t, actual[k]):
            k += 1
        if k < len(actual) and similar(t, actual[k]):
            res += actual[j:k]  # lines the template did not have
            res.append(retemplate(t, actual[k]))
            j = k + 1
        i += 1  # (not found: the line is gone)
    return res + actual[j:]


def main():
    if len(sys.argv) != 4:
        print("usage: doc_alt_update.py SRC SAVED_DIR LABEL", file=sys.stderr)
        return 2
    src, saved, label = sys.argv[1:]
    files = {}
    for f in sorted(os.listdir(saved)):
        m = re.fullmatch(r"(.*)_(\d+)\.out", f)
        if not m:
            continue
        rel = m.group(1)
        cands = [rel.replace("_", "/", k) for k in range(rel.count("_") + 1)]
        cands += ["/".join(p) for p in [rel.split("_")]]
        path = next((c for c in sorted(set(cands), key=len) if os.path.isfile(os.path.join(src, c))), None)
        if path is None:
            # a name with "_" of its own: try every split
            parts = rel.split("_")
            for mask in range(1 << (len(parts) - 1)):
                c = parts[0]
                for k in range(1, len(parts)):
                    c += ("/" if mask >> (k - 1) & 1 else "_") + parts[k]
                if os.path.isfile(os.path.join(src, c)):
                    path = c
                    break
        if path is None:
            print("doc_alt_update: no file for %s" % f, file=sys.stderr)
            return 1
        with open(os.path.join(saved, f), encoding="utf-8") as fh:
            files.setdefault(path, []).append((int(m.group(2)), fh.read().rstrip("\n").split("\n")))
    for path, blocks in files.items():
        full = os.path.join(src, path)
        with open(full, encoding="utf-8") as fh:
            lines = fh.read().split("\n")
        for line, actual in sorted(blocks, reverse=True):  # from the end: line numbers hold
            i = line - 1
            if not lines[i].startswith("```sh runnable"):
                print("doc_alt_update: %s:%d is no runnable block" % (path, line), file=sys.stderr)
                return 1
            i += 1
            while not lines[i].startswith("```"):
                i += 1
            i += 1
            while i < len(lines) and lines[i].strip() == "":
                i += 1
            if not lines[i].startswith("```text output"):
                print("doc_alt_update: %s:%d has no output block" % (path, line), file=sys.stderr)
                return 1
            o1 = i + 1
            i = o1
            while not lines[i].startswith("```"):
                i += 1
            main_body = lines[o1:i]
            i += 1
            alt = None
            last_end = i
            while True:  # the alternatives, blank lines between them
                k = i
                while k < len(lines) and lines[k].strip() == "":
                    k += 1
                if k >= len(lines) or not lines[k].startswith("<!-- text output"):
                    break
                b = k + 1
                e = b
                while lines[e] != "-->":
                    e += 1
                if label in lines[k]:
                    alt = (b, e)
                i = e + 1
                last_end = i
            if alt:
                body = new_body(lines[alt[0]:alt[1]], actual)
                lines[alt[0]:alt[1]] = body
            else:
                body = new_body(main_body, actual)
                lines[last_end:last_end] = ["<!-- text output, " + label] + body + ["-->"]
            print("doc_alt_update: %s:%d: %s" % (path, line, "rewritten" if alt else "added"))
        with open(full, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
