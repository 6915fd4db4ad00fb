#!/usr/bin/env python3
"""profile_vs_retire.py RETIRE_LOG PROG_FLOW_CSV NM_S REPORT_CSV FUNC CALLS [TIMELINE_JSON]

Checks `tracesim report --from flow --format csv` (hart 0, or the hart in the environment
variable PV_HART) against the core's ground truth:
 * RETIRE_LOG: `tracesim run --retire-log` (cycle pc insn, or cycle pc trap ...);
 * PROG_FLOW_CSV: the run's prog_flow.csv; its start and stop rows give the traced cycles
   (the instructions retired after the start row's cycle and before the stop row's: the
   stores that start and stop tracing are not traced);
 * NM_S: `nm -S` of the ELF (the function symbols with a size give the functions' ranges).
Every function's self instructions must equal the retired instructions inside its range;
FUNC must have CALLS calls (also counted in the log: link jumps whose next pc is FUNC's
start), its total instructions must equal the log's count from the outermost call to its
return, and its total cycles must be within 1 % of the retire cycles of that call and return.
TIMELINE_JSON (`tracesim decode --format timeline`, in simulator cycles): the program flow's
call slices (pid 1) must hold CALLS B events of FUNC, and the outermost one must begin within
1 % of its duration of the call's retire cycle and end within 1 % of the return's.
Prints one line; the first mismatch exits 1."""
import bisect
import csv
import os
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    retire, flow, nm_path, rep, func, calls = sys.argv[1:7]
    calls = int(calls)
    hart = os.environ.get("PV_HART", "0")
    starts, stops = [], []
    with open(flow) as f:
        for r in csv.DictReader(f):
            if r["hart"] != hart:
                continue
            if r["kind"] == "start":
                starts.append(int(r["cycle"]))
            elif r["kind"] == "stop":
                stops.append(int(r["cycle"]))
    if len(starts) != 1 or len(stops) != 1:
        fail("expected one start and one stop row, got %d and %d" % (len(starts), len(stops)))
    lo, hi = starts[0], stops[0]
    ret = []                      # (cycle, pc, insn) of every traced instruction
    with open(retire) as f:
        for line in f:
            w = line.split()
            if w and w[0].startswith("h"):
                if w[0] != "h" + hart:
                    continue
                w = w[1:]
            cyc = int(w[0])
            if cyc <= lo or cyc >= hi or w[2] == "trap":
                continue
            ret.append((cyc, int(w[1], 16), int(w[2], 16)))
    syms = []
    with open(nm_path) as f:
        for line in f:
            w = line.split()
            if len(w) == 4 and w[2] in "tTwW" and not w[3].startswith("$") and int(w[1], 16) > 0:
                syms.append((int(w[0], 16), int(w[1], 16), w[3]))
    syms.sort()
    addrs = [s[0] for s in syms]

    def name_of(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return syms[i][2] if i >= 0 and pc < syms[i][0] + syms[i][1] else "(no symbol)"

    self_ = {}
    for _, pc, _ in ret:
        n = name_of(pc)
        self_[n] = self_.get(n, 0) + 1
    rows = {}
    with open(rep) as f:
        for r in csv.DictReader(f):
            if r["hart"] == hart:
                rows[r["function"]] = r
    if sum(int(r["self_insn"]) for r in rows.values()) != len(ret):
        fail("report: %d instructions, the retire log %d in the traced cycles"
             % (sum(int(r["self_insn"]) for r in rows.values()), len(ret)))
    for n, c in self_.items():
        got = int(rows[n]["self_insn"]) if n in rows else 0
        if got != c:
            fail("%s: self instructions %d in the report, %d in the retire log" % (n, got, c))
    # calls of func: link jumps (JAL/JALR rd=ra/t0, C.JAL, C.JALR) followed by its first pc
    faddr = [s[0] for s in syms if s[2] == func][0]

    def is_call(insn):
        if insn & 3 == 3:
            op, rd = insn & 0x7f, (insn >> 7) & 31
            return op in (0x6f, 0x67) and rd in (1, 5)
        f3, op = (insn >> 13) & 7, insn & 3
        if op == 1 and f3 == 1:
            return True                                   # C.JAL (RV32)
        return op == 2 and f3 == 4 and (insn >> 12) & 1 and (insn >> 2) & 31 == 0 and (insn >> 7) & 31
    idx = [i for i in range(len(ret) - 1) if is_call(ret[i][2]) and ret[i + 1][1] == faddr]
    if len(idx) != calls:
        fail("%s: %d calls in the retire log, expected %d" % (func, len(idx), calls))
    if int(rows[func]["calls"]) != calls:
        fail("%s: %s calls in the report, expected %d" % (func, rows[func]["calls"], calls))
    # the outermost call: the first; its return: the first later row at the call's next pc
    c0 = idx[0]
    size = 4 if ret[c0][2] & 3 == 3 else 2
    back = next(i for i in range(c0 + 1, len(ret)) if ret[i][1] == ret[c0][1] + size)
    total = back - 1 - c0                                 # the callee's instructions, its return included
    if int(rows[func]["total_insn"]) != total:
        fail("%s: total instructions %s in the report, %d in the retire log" % (func, rows[func]["total_insn"], total))
    cyc = ret[back - 1][0] - ret[c0][0]
    est = float(rows[func]["total_cycles"])
    if abs(est - cyc) > 0.01 * cyc:
        fail("%s: total cycles %.0f in the report, %d retire cycles from its call to its return" % (func, est, cyc))
    tl = ""
    if len(sys.argv) > 7:
        import json
        with open(sys.argv[7]) as f:
            ev = [e for e in json.load(f)["traceEvents"] if e.get("pid") == 1 and e.get("ph") in ("B", "E") and str(e.get("tid")) == hart
                  and e.get("name") == func]
        nb = sum(1 for e in ev if e["ph"] == "B")
        if nb != calls:
            fail("timeline: %d slices of %s, expected %d" % (nb, func, calls))
        b0, e0 = ev[0]["ts"], ev[-1]["ts"]
        if abs(b0 - ret[c0][0]) > 0.01 * cyc or abs(e0 - ret[back - 1][0]) > 0.01 * cyc:
            fail("timeline: %s from %s to %s, retired from %d to %d" % (func, b0, e0, ret[c0][0], ret[back - 1][0]))
        tl = "; timeline: %d slices, the outermost %s-%s (retired %d-%d)" % (nb, b0, e0, ret[c0][0], ret[back - 1][0])
    print("ok: %d instructions in %d functions equal the retire log; %s: %d calls, %d total instructions, "
          "%.0f cycles estimated for %d retired%s" % (len(ret), len(self_), func, calls, total, est, cyc, tl))


main()
