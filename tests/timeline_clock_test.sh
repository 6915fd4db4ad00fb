#!/usr/bin/env bash
# timeline_clock_test.sh BUILD_DIR CASE - `tracesim decode` csv and timeline on the simulator's
# clock (issue 25 item 6). Expected numbers come from the run folder's ground truth (itc.csv,
# stm.csv) and from `tracesim check`, never from the decoder itself. Cases:
#   offset    trace.json's ts_cycle_offset equals check's timestamp constant ("timestamps equal
#             the store cycle + K") for one hart, two harts through the funnel and a software
#             trace port run
#   csv       perf_proto: the CSV's first column is "cycle"; every record's cycle is the cycle
#             of a traced itc.csv row on the perf channel 6 (the record-type store), the first
#             record's that of the store after the header; --time ticks gives cycle + K
#   timeline  perf_proto: the timeline's slices and instants sit at the CSV's cycles; each
#             carries args (record, address, function, counter values); each counter sample
#             sits at the start of the interval its delta measures: the previous record's
#             cycle, or the perf header's (the marker store in itc.csv); valid JSON
#   stm       stm_dec_threads with --stm-thread-switch: each thread slice starts at the cycle
#             of a traced THREAD_SWITCH (0x8000) row of stm.csv; one thread_name per track
#   hostile   fib renamed to a name with quotes, a backslash and a control character: the
#             timeline is still valid JSON and names the function exactly
#   ticks     a trace without its run folder (a capture): ticks by default (the clock named in
#             otherData), --time cycles is one line and exit 120; --time bogus too
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -eu
build=$1; case_=$2
ts=$build/tracesim; san=$build/tracesim_san
fw=$build/firmware
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
k_of() { "$ts" check "$1" 2> /dev/null | sed -n 's/.*timestamps equal the store cycle + \(-\{0,1\}[0-9]*\).*/\1/p' | head -1; }
off_of() { sed -n 's/^  "ts_cycle_offset": \(-\{0,1\}[0-9]*\)$/\1/p' "$1/trace.json"; }

case "$case_" in
offset)
  "$ts" run -q --out "$tmp/a" "$fw/tests/perf_proto.elf"
  "$ts" run -q --harts 2 --funnel --out "$tmp/b" "$fw/examples/fib_funnel_sram.elf" > /dev/null
  "$ts" run -q --stm-thread-switch --out "$tmp/c" "$fw/tests/stm_dec_threads.elf"
  for r in a b c; do
    k=$(k_of "$tmp/$r"); o=$(off_of "$tmp/$r")
    [ -n "$k" ] && [ "$k" = "$o" ] || fail "run $r: check's constant '$k', trace.json ts_cycle_offset '$o'"
  done
  echo "ok: ts_cycle_offset = check's constant for 1 hart, 2 harts with the funnel, software trace" ;;
csv)
  "$ts" run -q --out "$tmp/r" "$fw/tests/perf_proto.elf"
  "$san" decode -f csv --elf "$fw/tests/perf_proto.elf" "$tmp/r" > "$tmp/c.csv"
  head -1 "$tmp/c.csv" | grep -q '^cycle,hart,record,' || fail "first column: $(head -1 "$tmp/c.csv")"
  tail -n +2 "$tmp/c.csv" | cut -d, -f1 > "$tmp/rec"
  [ "$(wc -l < "$tmp/rec")" = 7 ] || fail "$(wc -l < "$tmp/rec") records, expected 7"
  awk -F, 'NR > 1 && $3 == 6 && $7 == "traced" {print $1}' "$tmp/r/itc.csv" > "$tmp/stores"
  while read -r c; do grep -qx "$c" "$tmp/stores" || fail "record at cycle $c: no perf store in itc.csv then"; done < "$tmp/rec"
  # the first record starts with the first store after the header's last word
  hdr=$(awk -F, 'NR > 1 && $3 == 6 && $6 == "0x70657266" {print $1; exit}' "$tmp/r/itc.csv")
  [ "$(head -1 "$tmp/rec")" -gt "$hdr" ] || fail "first record at $(head -1 "$tmp/rec"), header at $hdr"
  k=$(k_of "$tmp/r")
  "$san" decode -f csv --time ticks "$tmp/r" | tail -n +2 | cut -d, -f1 > "$tmp/ticks"
  head -1 <("$san" decode -f csv --time ticks "$tmp/r") | grep -q '^timestamp,' || fail "--time ticks: no timestamp column"
  paste -d' ' "$tmp/rec" "$tmp/ticks" | awk -v k="$k" '$2 != $1 + k {bad++} END {exit bad > 0}' ||
    fail "--time ticks is not cycle + $k"
  echo "ok: 7 records at their stores' cycles; ticks = cycle + $k" ;;
timeline)
  "$ts" run -q --out "$tmp/r" "$fw/tests/perf_proto.elf"
  "$san" decode -f csv --elf "$fw/tests/perf_proto.elf" "$tmp/r" | tail -n +2 | cut -d, -f1,3,6 > "$tmp/rec"
  "$san" decode -f timeline --elf "$fw/tests/perf_proto.elf" "$tmp/r" > "$tmp/t.json"
  hdr=$(awk -F, 'NR > 1 && $3 == 6 && $6 == "0x70657266" {print $1; exit}' "$tmp/r/itc.csv")
  python3 - "$tmp/t.json" "$tmp/rec" "$hdr" <<'EOF' || fail "timeline"
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
rec = [l.strip().split(",") for l in open(sys.argv[2])]
hdr = int(sys.argv[3])
cycles = [int(r[0]) for r in rec]
recs = [e for e in ev if e["ph"] in ("B", "E", "i")]
assert [e["ts"] for e in recs] == cycles, ([e["ts"] for e in recs], cycles)
for e, r in zip(recs, rec):
    a = e["args"]
    assert a["record"] == r[1] and a["function"] == r[2] == "work", (a, r)
    assert a["address"].startswith("0x") and "cycles" in a and "instructions_delta" in a, a
# a counter sample at the start of its interval: the header, then each record but the last
for name in ("hart0 cycles", "hart0 instructions"):
    got = [e["ts"] for e in ev if e["ph"] == "C" and e["name"] == name]
    assert got == [hdr] + cycles[:-1], (name, got, [hdr] + cycles[:-1])
names = [(e["pid"], e.get("tid")) for e in ev if e["ph"] == "M" and e["name"] == "thread_name"]
assert len(names) == len(set(names)) == 1, names
assert "simulator cycles" in d["otherData"]["clock"]
print("ok: %d records at the CSV's cycles with args, counter samples from the header on" % len(recs))
EOF
  ;;
stm)
  "$ts" run -q --stm-thread-switch --out "$tmp/r" "$fw/tests/stm_dec_threads.elf"
  "$san" decode -f timeline "$tmp/r" > "$tmp/t.json"
  awk -F, '$3 == "0x8000" && $5 == "traced" {print $1}' "$tmp/r/stm.csv" > "$tmp/sw"
  python3 - "$tmp/t.json" "$tmp/sw" <<'EOF' || fail "stm timeline"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
sw = [int(l) for l in open(sys.argv[2])]
x = [e for e in ev if e["ph"] == "X"]
assert len(x) >= 3 and [e["ts"] for e in x] == sw[:len(x)], ([e["ts"] for e in x], sw)
for a, b in zip(x, x[1:]):
    assert a["ts"] + a["dur"] == b["ts"], (a, b)
meta = [(e["pid"], e["tid"]) for e in ev if e["ph"] == "M" and e["name"] == "thread_name"]
tracks = {(e["pid"], e["tid"]) for e in ev if e["ph"] in ("X", "i") and "tid" in e}
assert len(meta) == len(set(meta)) and tracks <= set(meta), (meta, tracks)
inst = [e for e in ev if e["ph"] == "i"]
assert inst and all("id" in e["args"] and "value" in e["args"] for e in inst)
print("ok: %d thread slices at the THREAD_SWITCH cycles, %d tracks named once each" % (len(x), len(meta)))
EOF
  ;;
hostile)
  name=$'f"i\\b\x01,<x>'
  riscv64-unknown-elf-objcopy --redefine-sym "fib=$name" "$fw/examples/fib.elf" "$tmp/h.elf" || fail "objcopy"
  "$ts" run -q --out "$tmp/r" "$tmp/h.elf"
  "$san" decode -f timeline "$tmp/r" > "$tmp/t.json" 2> /dev/null
  python3 - "$tmp/t.json" "$name" <<'EOF' || fail "hostile name"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
b = [e for e in ev if e["ph"] == "B"]
assert b and all(e["name"] == sys.argv[2] and e["args"]["function"] == sys.argv[2] for e in b), b[:1]
print("ok: %d slices named exactly after the renamed function" % len(b))
EOF
  ;;
ticks)
  "$ts" run -q --out "$tmp/r" "$fw/tests/perf_proto.elf"
  mkdir -p "$tmp/cap" && cp "$tmp/r/trace.rtd" "$tmp/cap/"
  "$san" decode -f timeline "$tmp/cap/trace.rtd" > "$tmp/t.json" 2> /dev/null
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert "ticks" in d["otherData"]["clock"]' "$tmp/t.json" ||
    fail "a capture's timeline is not in ticks"
  "$san" decode -f csv "$tmp/cap/trace.rtd" 2> /dev/null | head -1 | grep -q '^timestamp,' || fail "a capture's CSV is not in ticks"
  rc=0; "$san" decode -f csv --time cycles "$tmp/cap/trace.rtd" > /dev/null 2> "$tmp/e" || rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] && [ "$(wc -l < "$tmp/e")" = 1 ] && grep -q "only trace ticks are known" "$tmp/e" || fail "--time cycles on a capture: rc $rc: $(cat "$tmp/e")"
  rc=0; "$san" decode -f csv --time bogus "$tmp/r" > /dev/null 2> "$tmp/e" || rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] && [ "$(wc -l < "$tmp/e")" = 1 ] || fail "--time bogus: rc $rc: $(cat "$tmp/e")"
  rc=0; "$san" decode -f messages --time cycles "$tmp/r" > /dev/null 2> "$tmp/e" || rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] && [ "$(wc -l < "$tmp/e")" = 1 ] || fail "--time with -f messages: rc $rc: $(cat "$tmp/e")"
  echo "ok: a capture in ticks; bad --time uses are one line, exit 120" ;;
*) echo "unknown case $case_"; exit 2 ;;
esac
