#!/bin/sh
# slices_test.sh BUILD_DIR CASE - the call slices of `decode -f timeline` (Chrome trace-event
# JSON) and `decode -f perfetto` (protobuf, read by protoc through tests/perfetto's subset and
# pftrace_check.py) follow the same call stack as `report` (decoder/include/rec_stack.h): every
# begin has its end, the slices nest (per hart and thread, in time order, ties in file order),
# and the slices of each function equal report's calls (and those equal the program's, by hand).
#   deep     firmware/tests/longjmp_deep.c: 3 longjmps out of 9 frames of dive back to main
#            (never traced), then a call of iter from main: by hand dive 54 calls, iter 6,
#            op_add/op_mul/op_xor 13; no iter slice lies inside a dive slice (main calls iter);
#            99 begins and 99 ends (before the shared stack: 99 begins, 72 ends).
#   inline   firmware/tests/longjmp_inline.c (-O2): mix, instrumented and inlined into work,
#            calls op and thrower, which longjmps to main once: by hand work 5, mix 5,
#            thrower 5, other 5, op 14, every op slice directly under mix or other (the calls
#            mix's inlined body makes are mix's, not work's), nothing left open;
#   threads  firmware/examples/rr_threads.c (run --stm-thread-switch): the Perfetto slices per
#            thread track equal report's calls per thread (report -f csv's thread rows), none
#            left open; the timeline's begins equal its ends.
set -u
b=$1; case_=$2
ts=$b/tracesim
src=$(dirname "$0")/..
run=$b/test-runs/slices_$case_
fail() { echo "FAIL (slices $case_): $*"; exit 1; }
rm -rf "$run"
case $case_ in
deep) elf=$b/firmware/tests/longjmp_deep.elf; opt= ;;
inline) elf=$b/firmware/tests/longjmp_inline.elf; opt= ;;
threads) elf=$b/firmware/examples/rr_threads.elf; opt=--stm-thread-switch ;;
*) fail "unknown case" ;;
esac
"$ts" run -q $opt -o "$run" "$elf" > /dev/null || fail "run exited $?"
"$ts" report -f csv -o "$run/csv" "$run" 2> /dev/null || fail "report -f csv exited $?"
"$ts" decode -f timeline -o "$run/tl" "$run" 2> "$run/tl.err" || fail "decode -f timeline exited $?: $(head -3 "$run/tl.err")"
# the timeline: begins and ends per track, nesting, slices per function
want=; [ "$case_" = deep ] && want="dive=54 iter=6 op_add=13 op_mul=13 op_xor=13"
[ "$case_" = inline ] && want="work=5 mix=5 thrower=5 other=5 op=14"
out=$(python3 - "$run/tl/timeline.json" "$run/csv/report.csv" "$want" <<'PY'
import csv, json, sys
def die(m):
    print(m)
    sys.exit(1)
ev = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("ph") in ("B", "E") and e.get("pid") == 0]
ev = sorted(enumerate(ev), key=lambda x: (x[1]["ts"], x[0]))  # time order, ties in file order
stacks, calls, nb, ne, inside = {}, {}, 0, 0, 0
for _, e in ev:
    s = stacks.setdefault(e["tid"], [])
    if e["ph"] == "B":
        nb += 1
        calls[e["name"]] = calls.get(e["name"], 0) + 1
        if (e["name"] == "iter" and "dive" in s) or (e["name"] == "op" and s and s[-1] not in ("mix", "other")):
            inside += 1
        s.append(e["name"])
    else:
        ne += 1
        if not s:
            die("FAIL: an E without a B on track %s at %s" % (e["tid"], e["ts"]))
        n = s.pop()
        if "name" in e and e["name"] != n:
            die("FAIL: E of %s closes %s at %s" % (e["name"], n, e["ts"]))
rep = {r["function"]: int(r["calls"]) for r in csv.DictReader(open(sys.argv[2])) if r.get("thread", "all") == "all"}
if nb != ne or any(stacks.values()):
    die("FAIL: %d begins, %d ends" % (nb, ne))
if calls != {f: c for f, c in rep.items() if c}:
    die("FAIL: slices %s, report's calls %s" % (sorted(calls.items()), sorted(rep.items())))
for kv in sys.argv[3].split():
    f, n = kv.split("=")
    if calls.get(f) != int(n):
        die("FAIL: %s: %s slices, by hand %s" % (f, calls.get(f), n))
if inside:
    die("FAIL: %d slice(s) under the wrong caller (iter inside dive, op not under mix or other)" % inside)
print("timeline: %d begins = %d ends, nested, slices per function = report's calls" % (nb, ne))
PY
) || fail "$out"
case $out in FAIL*|"") fail "${out:-no check}" ;; esac
# Perfetto: protoc reads it, the checker pairs every END with its track's BEGIN
if command -v protoc > /dev/null; then
  "$ts" decode -f perfetto -o "$run/pf" "$run" 2> "$run/pf.err" || fail "decode -f perfetto exited $?: $(head -3 "$run/pf.err")"
  protoc --proto_path="$src/perfetto" --decode=pfsub.Trace pftrace_subset.proto < "$run/pf/trace.pftrace" > "$run/pf.txt" 2> "$run/pf.perr" ||
    fail "protoc cannot read it: $(head -3 "$run/pf.perr")"
  python3 "$src/perfetto/pftrace_check.py" "$run/pf.txt" > "$run/pf.facts" || fail "pftrace_check rejected it"
  out2=$(python3 - "$run/pf.facts" "$run/csv/report.csv" <<'PY'
import csv, sys
def die(m):
    print(m)
    sys.exit(1)
# the perf records' slices: on a thread track ("hart N" before any switch, "tp 0x..."), not
# on the hart's "threads", "traps" or "calls" tracks
sl = [l.split() for l in open(sys.argv[1]) if l.startswith("slice ") and not l.split()[1].endswith(("_threads", "_traps", "_calls"))]
open_ = [s for s in sl if s[4] == "-1"]
if open_:
    die("FAIL: %d slice(s) not ended, e.g. %s" % (len(open_), " ".join(open_[0])))
per = {}
for s in sl:
    t = s[1][3:] if s[1].startswith("tp_") else "all"
    per[(t, s[2])] = per.get((t, s[2]), 0) + 1
rows = list(csv.DictReader(open(sys.argv[2])))
threads = any(r.get("thread", "all") != "all" for r in rows)
rep = {}
for r in rows:
    t = r.get("thread", "all")
    if (t == "all") == threads or not int(r["calls"]):
        continue
    rep[(t.lower() if threads else "all", r["function"])] = int(r["calls"])
if not threads:
    per = {("all", f): sum(v for (t, g), v in per.items() if g == f) for (_, f) in per}
if per != rep:
    die("FAIL: Perfetto slices %s, report's calls %s" % (sorted(per.items()), sorted(rep.items())))
print(" perfetto: %d slices, all ended, per %s = report's calls" % (len(sl), "thread and function" if threads else "function"))
PY
) || fail "$out2"
  case $out2 in FAIL*|"") fail "${out2:-no check}" ;; esac
  out="$out$out2"
fi
echo "ok (slices $case_): $out"
