#!/usr/bin/env python3
"""report_html_irq.py REPORT.html IRQ.csv - the "Interrupts and threads" section of `report -f
html` against `report -f irq-csv` of the same run folder: one table row per `truth` row of the
CSV (trap causes, then threads), in the same order, each cell equal to the CSV's field (hart,
cause name and mcause or the thread's tp, visits, nesting, time and latency min/mean/max,
preemptions). Prints what differs and exits 1; "ok: N rows" and 0 when all equal."""
import csv
import sys
from html.parser import HTMLParser


class Rows(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows, self.row, self.cell = [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "tr" and dict(attrs).get("class") == "irq":
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def main():
    p = Rows()
    with open(sys.argv[1], encoding="utf-8") as f:
        p.feed(f.read())
    want = []
    with open(sys.argv[2], newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["source"] == "truth"]
    span = ["time_min", "time_mean", "time_max"]
    for r in rows:
        if r["table"] == "cause":
            want.append([r["hart"], "%s (%s)" % (r["name"], r["id"]), r["visits"], r["nested"], r["max_depth"], r["open"]]
                        + [r[k] for k in span] + [r[k] for k in ("latency_min", "latency_mean", "latency_max")])
    for r in rows:
        if r["table"] == "thread":
            want.append([r["hart"], r["id"], r["visits"], r["preemptions"], r["open"]] + [r[k] for k in span])
    bad = 0
    if len(p.rows) != len(want):
        print("rows: html %d, csv %d" % (len(p.rows), len(want)))
        bad = 1
    for i, (h, w) in enumerate(zip(p.rows, want)):
        if h != w:
            print("row %d: html %s, csv %s" % (i, h, w))
            bad = 1
    if not bad:
        print("ok: %d rows" % len(want))
    return bad


sys.exit(main())
