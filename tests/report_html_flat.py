#!/usr/bin/env python3
"""report_html_flat.py REPORT.html REPORT.csv - the flat profile of `report -f html` against
`report -f csv` of the same run: every hart's table has one row per function of the CSV (the
"all" rows when the CSV has a thread column), and each row's calls, percent and every
counter's self and total equal the CSV's, function name included (the HTML's text, entities
decoded). Prints what differs and exits 1; "ok: N rows" and 0 when all equal."""
import csv
import sys
from html.parser import HTMLParser


class Flat(HTMLParser):
    """the <table class="flat ..." data-hart=N> tables: column names (th data-col), rows of cell texts"""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables = {}  # hart -> (cols, rows)
        self.cur = None
        self.cell = None
        self.row = None
        self.in_tag = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and "flat" in (a.get("class") or "").split():
            self.cur = int(a["data-hart"])
            self.tables[self.cur] = ([], [])
        elif self.cur is None:
            return
        elif tag == "th":
            self.tables[self.cur][0].append(a.get("data-col"))
        elif tag == "tr":
            self.row = []
        elif tag == "td":
            self.cell = []
        elif tag == "span" and self.cell is not None:
            self.in_tag += 1  # "(still active)": not part of the name

    def handle_endtag(self, tag):
        if self.cur is None:
            return
        if tag == "table":
            self.cur = None
        elif tag == "span" and self.in_tag:
            self.in_tag -= 1
        elif tag == "td" and self.cell is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        elif tag == "tr" and self.row:
            self.tables[self.cur][1].append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None and not self.in_tag:
            self.cell.append(data)


def main():
    p = Flat()
    with open(sys.argv[1], encoding="utf-8") as f:
        p.feed(f.read())
    with open(sys.argv[2], newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    bad = []
    want = {}
    for r in rows:
        if r.get("thread", "all") != "all":
            continue
        want[(int(r.get("hart", 0)), r["address"])] = r
    got = {}
    for hart, (cols, trs) in p.tables.items():
        for tr in trs:
            d = dict(zip(cols, tr))
            got[(hart, d["address"])] = d
    if not want:
        bad.append("the CSV has no rows")
    if set(want) != set(got):
        bad.append("functions differ: only in csv %s, only in html %s" % (sorted(set(want) - set(got)), sorted(set(got) - set(want))))
    n = 0
    for k in sorted(set(want) & set(got)):
        w, g = want[k], got[k]
        for col in w:
            if col in ("hart", "thread", "address", "still_active"):
                continue
            if col == "function":
                gv = g.get("function")
                wv = w[col] or k[1]  # no name: the address
            else:
                gv = g.get(col)
                wv = w[col]
            if gv is None:
                bad.append("%s: no column %s in the html" % (k, col))
            elif gv != wv:
                bad.append("%s %s: html %r, csv %r" % (k, col, gv, wv))
            n += 1
    if bad:
        print("FAIL:", "\n  ".join(bad[:20]))
        return 1
    print("ok: %d rows, %d values" % (len(want), n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
