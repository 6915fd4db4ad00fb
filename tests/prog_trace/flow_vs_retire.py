#!/usr/bin/env python3
"""flow_vs_retire.py [--tics-offset C] RETIRE_LOG MESSAGES.jsonl ELEMENTS.txt INSTR.txt [HART]

Checks a program-traced run instruction by instruction against what the core retired:
 * RETIRE_LOG: `tracesim run --retire-log` (ground truth: cycle pc insn, or cycle pc trap);
 * MESSAGES.jsonl, ELEMENTS.txt, INSTR.txt: `tracesim decode` of the run's trace.rtd with
   --format messages, elements and instr (the decoder's reconstruction from trace + ELF).
Every synchronised stretch of the flow (from a TRACE_ON to the next NO_SYNC or the end) must
be a contiguous run of the retired sequence (pcs in order: every branch outcome, trap and
return is in the pcs), later stretches after earlier ones; and every timestamped program
trace message must carry the cycle of the retirement that caused it plus one constant for the
whole run (BTM only: in HTM the pcs alone are compared; `tracesim check` checks HTM's times).
ECALL/EBREAK traps count as executed (the encoder counts them); other traps are
not instructions. Prints one line per stretch; the first mismatch names the instruction and
exits 1.
--tics-offset C (time - cycle, e.g. from the ITC stores' check): each stretch must start right
after the retirement in cycle (its sync's time - C), not at the first place its pcs fit (a
wrapped trace of a loop fits every iteration)."""
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    argv = sys.argv[1:]
    tics_off = None
    if argv and argv[0].startswith("--tics-offset="):
        tics_off = int(argv.pop(0).split("=", 1)[1])
    retire_path, msg_path, elem_path, instr_path = argv[0:4]
    hart = argv[4] if len(argv) > 4 else None
    # ground truth: [cycle, pc, units (None: ecall/ebreak, size from the listing), is_trap,
    # cycle of a trap that preempted or faulted the next instruction (None)] per executed one
    ret = []
    with open(retire_path) as f:
        for line in f:
            w = line.split()
            if hart is not None:
                if w[0] != "h" + hart:
                    continue
                w = w[1:]
            elif w and w[0].startswith("h"):
                w = w[1:]
            cyc, pc = int(w[0]), int(w[1], 16)
            if w[2] == "trap":
                cause = int(w[3].split("=")[1], 16)
                if cause in (3, 8, 9, 11):          # ebreak / ecall: the encoder counts them
                    ret.append([cyc, pc, None, True, None])
                elif ret:
                    ret[-1][4] = cyc                 # not executed: belongs to the one before
                continue
            insn = int(w[2], 16)
            ret.append([cyc, pc, 2 if insn & 3 == 3 else 1, False, None])
    # fill in ECALL/EBREAK sizes from the listing later (they have no bits in the log)
    pcs = [r[1] for r in ret]

    listing = []
    with open(instr_path) as f:
        for line in f:
            w = line.split()
            if w and w[0].startswith("["):
                w = w[1:]
            listing.append((int(w[0], 16), int(w[1], 16)))

    segs = []        # [start addr, n instructions, message offset of the TRACE_ON]
    with open(elem_path) as f:
        for line in f:
            w = line.split()
            if "flow" not in w:
                continue
            kind = w[w.index("flow") + 1]
            if kind == "TRACE_ON":
                addr = int([x for x in w if x.startswith("addr=")][0][5:], 16)
                segs.append([addr, 0, int(w[0])])
            elif kind == "INSTR_RANGE":
                n = int([x for x in w if x.startswith("n=")][0][2:])
                if not segs:
                    fail("an instruction range before any TRACE_ON")
                segs[-1][1] += n
    msgs = []
    sync_tics = {}    # offset of a sync-type message -> its time
    htm = False       # HTM: its I-CNTs span history-only messages; only the pcs are compared
    with open(msg_path) as f:
        for line in f:
            m = json.loads(line)
            if m.get("tcode") in (3, 4, 9, 11, 12, 33) and (hart is None or m.get("src", 0) == int(hart)):
                msgs.append(m)
            if m.get("tcode") in (27, 28, 29):
                htm = True
            if m.get("tcode") in (9, 11, 12, 29) and "tics" in m:
                sync_tics[m["offset"]] = m["tics"]

    if not segs:
        fail("no TRACE_ON: the trace has no program flow")
    pos_list, pos_ret, offset_c = 0, 0, None
    checked_ts = 0
    for si, (addr, n, off) in enumerate(segs):
        seg = listing[pos_list:pos_list + n]
        if len(seg) != n:
            fail("the listing has fewer instructions than the elements' ranges")
        pos_list += n
        if n and seg[0][0] != addr:
            fail("stretch %d starts at 0x%08x, its TRACE_ON says 0x%08x" % (si, seg[0][0], addr))
        # the first place at or after pos_ret where the whole stretch matches
        start, best, best_at = None, -1, None
        k = pos_ret
        if tics_off is not None:
            # anchored: right after the retirement in the cycle the sync's time gives
            if off not in sync_tics:
                fail("stretch %d: its sync at offset %d has no time to anchor it" % (si, off))
            cyc = sync_tics[off] - tics_off
            at = [i + 1 for i in range(pos_ret, len(ret) - 1) if ret[i][0] == cyc]
            if not at:
                fail("stretch %d: its sync's time %d - %d = cycle %d, in which nothing retired after the previous stretch"
                     % (si, sync_tics[off], tics_off, cyc))
            k = at[-1]
            if pcs[k] != addr:
                fail("stretch %d: after cycle %d (its sync's time) the core went to 0x%08x, the sync says 0x%08x"
                     % (si, cyc, pcs[k], addr))
        while True:
            try:
                k = pcs.index(addr, k)
            except ValueError:
                break
            j = 0
            while j < n and k + j < len(pcs) and pcs[k + j] == seg[j][0]:
                j += 1
            if j == n:
                start = k
                break
            if j > best:
                best, best_at = j, k
            if tics_off is not None:
                break
            k += 1
        if start is None:
            if best_at is None:
                fail("stretch %d: 0x%08x never retired after the previous stretch" % (si, addr))
            j = best_at + best
            got = "0x%08x" % seg[best][0]
            want = "0x%08x (cycle %d)" % (pcs[j], ret[j][0]) if j < len(pcs) else "the end of the run"
            fail("stretch %d, instruction %d: the trace says %s, the core retired %s" % (si, best, got, want))
        # timestamps: walk this stretch's messages over the retired units
        end_off = segs[si + 1][2] if si + 1 < len(segs) else None
        smsgs = [m for m in msgs if m["offset"] >= off and (end_off is None or m["offset"] < end_off)] if not htm else []
        k = start
        units_left = 0
        for mi, m in enumerate(smsgs):
            icnt = m["fields"].get("i_cnt", 0)
            if mi == 0:
                ev = ret[start - 1] if start > 0 else None    # the store that started tracing
            else:
                ev = None
                while icnt > 0:
                    if k >= start + n:
                        break
                    cyc, pc, u, is_trap, _ = ret[k]
                    if u is None:                              # ecall / ebreak: from the listing
                        raw = seg[k - start][1]
                        u = 2 if raw & 3 == 3 else 1
                    icnt -= u
                    ev = ret[k]
                    k += 1
                if icnt > 0:
                    break                                      # the run ended inside it
                if icnt < 0:
                    fail("message at offset %d: its I-CNT ends inside the instruction at 0x%08x" % (m["offset"], ev[1]))
                if m["fields"].get("b_type", 0) and not (ev is not None and ev[3]):
                    # a trap that did not execute its instruction: it follows the last one walked
                    t = ret[k - 1][4] if k > 0 else None
                    if t is None:
                        fail("message at offset %d reports a trap the core did not take after 0x%08x" %
                             (m["offset"], ret[k - 1][1]))
                    ev = [t, ret[k][1] if k < len(ret) else 0]
                if m["tcode"] == 33:
                    # trace stop: stamped when the store that stopped tracing commits
                    ev = ret[k] if k < len(ret) else None
                if ev is None:
                    continue
            if ev is None or "tics" not in m:
                continue
            c = m["tics"] - ev[0]
            if offset_c is None:
                offset_c = c
            elif c != offset_c:
                fail("message at offset %d (%s): time %d, but its instruction 0x%08x retired in cycle %d "
                     "(time - cycle = %d, the run's constant is %d)" % (m["offset"], m["name"], m["tics"], ev[1],
                                                                        ev[0], c, offset_c))
            checked_ts += 1
        print("stretch %d: %d instructions from 0x%08x = retired #%d..#%d" % (si, n, addr, start, start + n - 1))
        pos_ret = start + n
    print("OK: %d stretch(es), %d instructions, %d timestamps (time = cycle + %s)" %
          (len(segs), pos_list, checked_ts, offset_c))


main()
