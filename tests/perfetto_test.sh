#!/bin/sh
# perfetto_test.sh BUILD_DIR CASE - `decode -f perfetto` read by a real protobuf reader (protoc
# --decode with tests/perfetto/pftrace_subset.proto, written from Perfetto's public field
# numbers; tests/perfetto/pftrace_check.py checks the sequence and lists slices, counters and
# tracks) against the simulator's ground truth and the records. Skipped (77) without protoc
# (Debian's protobuf-compiler, .ci/install-deps.sh). Cases:
#   fib      firmware/examples/fib.c: the slices per function equal hooks.csv's entries into
#            __cyg_profile_func_enter per function (a0 named by the ELF's symbols, from nm)
#            after the perf header (main's entry comes before tracing is on);
#            every slice ends; each slice's begin and end are the times of an enter and an exit
#            record in `decode -f csv` (the same clock); each counter track's samples are the
#            records' deltas, at the previous record's cycle; every call site's file:line is
#            addr2line's for the call instruction (call site - 2); the slices' begin arguments
#            carry the record's values and deltas as the CSV has them.
#   threads  rr_threads.c (--stm-thread-switch): a thread track "tp 0x..." per thread value of
#            stm.csv's THREAD_SWITCH events (the simulator's) plus "hart 0"; the slices per
#            (thread, function) equal report -f csv's calls per thread and function.
#   stm      stm_threads.c (--stm-thread-switch): the software trace against stm.csv (the
#            simulator's): every traced event but THREAD_SWITCH/THREAD_NAME is one instant
#            "GROUP 0xID" at its cycle, with its id and value as arguments, on the track of the
#            thread stm.csv says was running (its last THREAD_SWITCH before); the track
#            "hart 0 threads" has one slice "tp 0xV" per traced THREAD_SWITCH, from it to the
#            next; the "thread name" instants carry the names stm.csv's THREAD_NAME words
#            spell (little-endian, to the first NUL byte).
#   flow     fib.c with --trace-insn btm: the slices per function on "hart 0 calls" (resumed
#            and root frames not counted) equal the calls prof_truth counts on the retire log between
#            the trace's start and stop (tests/prof_truth) and report --from flow's calls.
#   traps    nested_traps.c with --trace-insn btm: the slices on "hart 0 traps" are
#            traps.csv's rows: begin = entry cycle, end = return cycle, named after the cause
#            (timer, software interrupt, ecall), depth and latency (first - pending) as args;
#            the program flow's trap frames (trap 1) on "hart 0 calls" are the traps taken
#            while the trace ran (traps.csv rows between the trace's start and stop).
#            With --trace-insn event: an instant "trap: CAUSE" per ICT trap event, at the
#            cycle, with the cause and pc of traps.csv's rows while the trace ran.
#   bad      a damaged trace: exit status and no file left behind; --time cycles without a
#            trace.json: 120 and one line; a malformed traps.csv: 121, one line, no file.
set -u
b=$1; case_=$2
ts=$b/tracesim
src=$(cd "$(dirname "$0")" && pwd)
run=$b/test-runs/perfetto_$case_
fail() { echo "FAIL (perfetto $case_): $*"; exit 1; }
command -v protoc > /dev/null || { echo "SKIP: no protoc (apt-get install protobuf-compiler)"; exit 77; }
command -v python3 > /dev/null || { echo "SKIP: no python3"; exit 77; }
rm -rf "$run" "$run".*
decode() { # $1: the .pftrace; the checker's listing to $1.txt
  protoc --proto_path="$src/perfetto" --decode=pfsub.Trace pftrace_subset.proto < "$1" > "$1.proto.txt" 2> "$1.err" ||
    fail "protoc cannot read it: $(head -3 "$1.err")"
  python3 "$src/perfetto/pftrace_check.py" "$1.proto.txt" > "$1.txt" || fail "the checker rejected it"
}
case $case_ in
fib)
  elf=$b/firmware/examples/fib.elf
  "$ts" run -q -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" decode -f perfetto -o "$run.out" "$run" 2> "$run.stderr" || fail "decode exited $?: $(cat "$run.stderr")"
  [ -s "$run.out/trace.pftrace" ] || fail "no trace.pftrace"
  decode "$run.out/trace.pftrace"
  l=$run.out/trace.pftrace.txt
  # slices per function = the simulator's entries into the enter hook per function
  riscv64-unknown-elf-nm "$elf" | awk '$2 ~ /^[tTwW]$/ { print "sym", $1, $3 }' > "$run.syms"
  # the hooks after the perf header (before it, tracing was off: no record): the header's cycle
  # is the first record's cycle less its cycles delta
  "$ts" decode -f csv "$run" > "$run.csv" 2>/dev/null || fail "decode -f csv exited $?"
  t0=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $1 - $(c["cycles_delta"]); exit }' "$run.csv")
  awk -F, -v t0="$t0" 'NR > 1 && $3 == "__cyg_profile_func_enter" && $1 >= t0 { print "hook", $6 }' "$run/hooks.csv" > "$run.hooks"
  awk '$1 == "sym" { s[tolower($2)] = $3; next }
       { a = tolower($2); sub(/^0x/, "", a); if (!(a in s)) { print "FAIL: hook a0", $2, "is no symbol"; exit 1 } n[s[a]]++ }
       END { for (f in n) print f, n[f] }' "$run.syms" "$run.hooks" | sort > "$run.truth"
  grep -q FAIL "$run.truth" && fail "$(grep FAIL "$run.truth")"
  [ -s "$run.truth" ] || fail "no hook entries in hooks.csv"
  awk '$1 == "slice" { n[$3]++ } END { for (f in n) print f, n[f] }' "$l" | sort > "$run.slices"
  cmp -s "$run.truth" "$run.slices" || fail "slices per function differ from hooks.csv: $(diff "$run.truth" "$run.slices" | head -5)"
  awk '$1 == "slice" && $5 == -1' "$l" | grep -q . && fail "a slice never ends"
  # times and counter samples against the records (decode -f csv, the same clock)
  awk -F, -v L="$l" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { rec[$(c["record"]) " " $1] = 1
      if (prev == "") { prev = "H"; f0 = $1 } # the first: from the perf header on (its time is not in the CSV)
      ex["cycles " prev " " $(c["cycles_delta"])] = 1; ex["instructions " prev " " $(c["instructions_delta"])] = 1; ne++
      prev = $1 }
    END {
      while ((getline line < L) > 0) {
        split(line, w, " ")
        if (w[1] == "slice") {
          if (!(("enter " w[4]) in rec)) { print "FAIL: slice " w[3] " begins at " w[4] ", no enter record then"; exit 1 }
          if (!(("exit " w[5]) in rec)) { print "FAIL: slice " w[3] " ends at " w[5] ", no exit record then"; exit 1 }
          ns++
        } else if (w[1] == "counter") {
          k = w[2]; sub(/^0:_/, "", k); sub(/_delta$/, "", k)
          if (k != "cycles" && k != "instructions") continue
          if (w[3] < f0) w[3] = "H"
          if (!((k " " w[3] " " w[4]) in ex)) { print "FAIL: counter sample " line " is no record delta"; exit 1 }
          nc++
        }
      }
      if (nc != 2 * ne) { print "FAIL: " nc " cycles and instructions samples, the records give " 2 * ne; exit 1 }
      print "ok", ns, nc }' "$run.csv" > "$run.cmp"
  grep -q '^ok' "$run.cmp" || fail "$(cat "$run.cmp")"
  # call sites: addr2line's line of the call instruction
  n=0
  for site in $(awk '$1 == "slice" { print $6 }' "$l" | sort -u); do
    a=${site##*_\(}; a=${a%\)}
    want=$(riscv64-unknown-elf-addr2line -e "$elf" "$(printf '0x%x' $((a - 2)))" | sed 's|.*/||; s/ .*//')
    got=${site%%_*}
    [ "$want" = "$got" ] || fail "call site $a: $got, addr2line says $want"
    n=$((n + 1))
  done
  [ $n -gt 0 ] || fail "no call sites"
  # begin arguments = the enter record's values and deltas (the CSV's row at that cycle)
  awk -F, -v L="$l" '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $(c["record"]) == "enter" { v[$1 " cycles"] = $(c["cycles"]); v[$1 " cycles_delta"] = $(c["cycles_delta"])
                                v[$1 " instructions_delta"] = $(c["instructions_delta"]) }
    END { while ((getline line < L) > 0) { split(line, w, " ")
            if (w[1] != "beginarg" || !((w[4] " " w[5]) in v)) continue
            if (v[w[4] " " w[5]] != w[6]) { print "FAIL: " line ", the record has " v[w[4] " " w[5]]; exit 1 }
            n++ }
          print "ok", n }' "$run.csv" > "$run.args"
  grep -q '^ok [1-9]' "$run.args" || fail "arguments: $(cat "$run.args")"
  echo "ok: $(cat "$run.cmp" | cut -d' ' -f2) slices (per function = hooks.csv), counter samples = the records' deltas, $n call sites = addr2line, $(cut -d' ' -f2 "$run.args") arguments = the records'"
  ;;
threads)
  elf=$b/firmware/examples/rr_threads.elf
  "$ts" run -q --stm-thread-switch -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" decode -f perfetto -o "$run.out" "$run" 2> "$run.stderr" || fail "decode exited $?: $(cat "$run.stderr")"
  decode "$run.out/trace.pftrace"
  l=$run.out/trace.pftrace.txt
  # the simulator's software trace events: id 0x8000 is THREAD_SWITCH (docs/firmware/software-trace.md), the
  # ones the port traced (not "off")
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
           $(c["id"]) == "0x8000" && $(c["status"]) == "traced" { print "tp " $(c["value"]) }' "$run/stm.csv" | sort -u > "$run.tps"
  [ "$(wc -l < "$run.tps")" -ge 2 ] || fail "stm.csv has fewer than 2 threads: $(head -3 "$run/stm.csv")"
  # ("hart 0", the thread before the first switch, only when records come before it)
  awk '$1 == "track" && $2 == "thread" { $1 = ""; $2 = ""; sub(/^  /, ""); print }' "$l" | sort > "$run.got"
  { grep -x 'hart 0' "$run.got"; cat "$run.tps"; } | sort > "$run.want"
  cmp -s "$run.want" "$run.got" || fail "thread tracks: $(tr '\n' ',' < "$run.got"), stm.csv: $(tr '\n' ',' < "$run.want")"
  "$ts" report -f csv "$run" > "$run.csv" 2>/dev/null || fail "report -f csv exited $?"
  # report's calls per (thread, function) against the slices per (thread track, function)
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
           $(c["thread"]) != "all" && $(c["calls"]) > 0 { print $(c["thread"]), $(c["function"]), $(c["calls"]) }' "$run.csv" | sort > "$run.rep"
  [ -s "$run.rep" ] || fail "report -f csv has no per-thread rows: $(head -2 "$run.csv")"
  awk '$1 == "slice" && $2 ~ /^(tp_|hart_[0-9]+$)/ { t = $2; sub(/^tp_/, "", t); n[t " " $3]++ } END { for (k in n) print k, n[k] }' "$l" | sort > "$run.sl"
  cmp -s "$run.rep" "$run.sl" || fail "slices per thread and function differ from report's calls: $(diff "$run.rep" "$run.sl" | head -5)"
  echo "ok: $(wc -l < "$run.tps") thread tracks = stm.csv's THREAD_SWITCH values, $(wc -l < "$run.sl") (thread, function) slice counts = report -f csv's calls"
  ;;
bad)
  elf=$b/firmware/examples/fib.elf
  "$ts" run -q -o "$run" "$elf" > /dev/null || fail "run exited $?"
  mkdir -p "$run.t"
  cp "$run/trace.rtd" "$run.t/trace.rtd"
  tss=$b/tracesim_san; [ -x "$tss" ] || tss=$ts   # the sanitizers' build when there is one
  "$tss" decode -f perfetto --time cycles -o "$run.o" "$run.t/trace.rtd" 2> "$run.err"; rc=$?
  [ $rc = 120 ] || fail "--time cycles without trace.json: exit $rc"
  [ "$(wc -l < "$run.err")" = 1 ] || fail "not one line: $(cat "$run.err")"
  [ -e "$run.o/trace.pftrace" ] && fail "a file left behind"
  head -c 3000 "$run/trace.rtd" > "$run.t/trace.rtd"
  "$tss" decode -f perfetto --elf "$elf" "$run.t/trace.rtd" > "$run.cut.pftrace" 2> "$run.err"; rc=$?
  [ $rc = 0 ] || fail "a cut trace: exit $rc: $(cat "$run.err")"
  decode "$run.cut.pftrace"
  # a malformed traps.csv beside the trace: one line, 121, no file
  cp -r "$run" "$run.m"
  printf 'cycle,hart,cause,pc,handler,pending,first,ret,depth\n12,0,0x2,0x80000000,0x80000100,,,9,0\n' > "$run.m/traps.csv"
  "$tss" decode -f perfetto -o "$run.mo" "$run.m" 2> "$run.err"; rc=$?
  [ $rc = 121 ] || fail "a malformed traps.csv: exit $rc"
  [ "$(wc -l < "$run.err")" = 1 ] || fail "not one line: $(cat "$run.err")"
  grep -q 'traps.csv:2: malformed row' "$run.err" || fail "the line: $(cat "$run.err")"
  [ -e "$run.mo/trace.pftrace" ] && fail "a file left behind (malformed traps.csv)"
  echo "ok: --time cycles without trace.json refused, a cut trace decodes to a valid file, a malformed traps.csv refused"
  ;;
stm)
  elf=$b/firmware/examples/stm_threads.elf
  "$ts" run -q --stm-thread-switch -o "$run" "$elf" > /dev/null || fail "run exited $?"
  tss=$b/tracesim_san; [ -x "$tss" ] || tss=$ts   # the sanitizers' build when there is one (traps.csv without a row)
  "$tss" decode -f perfetto -o "$run.out" "$run" 2> "$run.stderr" || fail "decode exited $?: $(cat "$run.stderr")"
  decode "$run.out/trace.pftrace"
  python3 - "$run/stm.csv" "$run.out/trace.pftrace.txt" > "$run.cmp" <<'EOF' || fail "$(cat "$run.cmp")"
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "traced" and r["hart"] == "0"]
lines = [l.split() for l in open(sys.argv[2])]
if not rows: print("FAIL: no traced rows in stm.csv"); sys.exit(1)
# the events as stm.csv has them, with the thread running (the last switch before)
want, switches, names, cur, word = [], [], [], "hart_0", b""
for r in rows:
    i, v, c = int(r["id"], 16), int(r["value"], 16), int(r["cycle"])
    if i == 0x8000:
        cur = "tp_0x%08x" % v; switches.append((c, cur)); continue
    if i == 0x4000:
        word += v.to_bytes(4, "little")
        if b"\0" in word: names.append((c, cur, word.split(b"\0")[0].decode())); word = b""
        continue
    grp = "USER" if i < 0x4000 else "COM" if i < 0x8000 else "RSVD" if i < 0xc000 else "SYS"
    want.append((cur, "%s_0x%04x" % (grp, i), c, "0x%04x" % i, v))
got, args = [], {}
for w in lines:
    if w[0] == "instantarg": args[(w[1], w[2], int(w[3]), w[4])] = w[5]
for w in lines:
    if w[0] == "instant" and w[2] != "thread_name":
        k = (w[1], w[2], int(w[3]))
        got.append(k + (args.get(k + ("id",)), int(args.get(k + ("value",), -1))))
if sorted(got) != sorted(want):
    print("FAIL: instants differ from stm.csv:", sorted(set(want) - set(got))[:3], sorted(set(got) - set(want))[:3]); sys.exit(1)
sl = sorted((int(w[3]), int(w[4]), w[2]) for w in lines if w[0] == "slice" and w[1] == "hart_0_threads")
if [(s[0], s[2]) for s in sl] != switches or not switches:
    print("FAIL: thread slices", sl[:3], "stm.csv's switches", switches[:3]); sys.exit(1)
if any(sl[i][1] != sl[i + 1][0] for i in range(len(sl) - 1)):
    print("FAIL: a thread slice does not end at the next switch"); sys.exit(1)
gn = sorted((int(w[3]), w[1], w[5]) for w in lines if w[0] == "instantarg" and w[2] == "thread_name" and w[4] == "name")
if gn != sorted((c, t, n.replace(" ", "_")) for c, t, n in names) or not names:
    print("FAIL: thread names", gn, "stm.csv's", names); sys.exit(1)
print("ok: %d events = stm.csv's (cycle, id, value, running thread), %d thread slices = its switches, %d thread names" % (len(want), len(sl), len(names)))
EOF
  cat "$run.cmp"
  ;;
flow)
  elf=$b/firmware/examples/fib.elf
  "$ts" run -q --trace-insn btm --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" decode -f perfetto -o "$run.out" "$run" 2> "$run.stderr" || fail "decode exited $?: $(cat "$run.stderr")"
  decode "$run.out/trace.pftrace"
  l=$run.out/trace.pftrace.txt
  col() { awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == k { print $c["cycle"]; exit }' "$1"; }
  lo=$(col "$run/prog_flow.csv" start); hi=$(col "$run/prog_flow.csv" stop)
  [ -n "$lo" ] && [ -n "$hi" ] || fail "no start/stop rows in prog_flow.csv"
  "$b/tests/prof_truth" "$elf" "$run.retire" --after "$lo" --before "$hi" > "$run.truth" || fail "prof_truth exited $?"
  awk -F, 'NR > 1 && $3 > 0 { print $1, $3 }' "$run.truth" | sort > "$run.want"
  [ -s "$run.want" ] || fail "prof_truth counts no call"
  # resumed frames (a parked thread's) and root frames (running when the trace began) are no calls
  awk '$1 == "slicearg" && $2 == "hart_0_calls" && ($5 == "resumed" || $5 == "root") { r[$3 " " $4] = 1 }
       $1 == "slice" && $2 == "hart_0_calls" { s[NR] = $3 " " $4 }
       END { for (i in s) { split(s[i], w, " "); if (!(s[i] in r)) n[w[1]]++ } for (f in n) print f, n[f] }' "$l" | sort > "$run.got"
  cmp -s "$run.want" "$run.got" || fail "calls per function differ from prof_truth: $(diff "$run.want" "$run.got" | head -6)"
  "$ts" report --from flow -f csv "$run" > "$run.csv" 2> /dev/null || fail "report --from flow exited $?"
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["hart"] == 0 && $c["calls"] > 0 { print $c["function"], $c["calls"] }' "$run.csv" | sort > "$run.rep"
  cmp -s "$run.rep" "$run.got" || fail "calls per function differ from report --from flow: $(diff "$run.rep" "$run.got" | head -6)"
  echo "ok: $(wc -l < "$run.got") functions' call slices = prof_truth's calls = report --from flow's"
  ;;
traps)
  elf=$b/firmware/examples/nested_traps.elf
  "$ts" run -q --trace-insn btm -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" decode -f perfetto -o "$run.out" "$run" 2> "$run.stderr" || fail "decode exited $?: $(cat "$run.stderr")"
  decode "$run.out/trace.pftrace"
  python3 - "$run/traps.csv" "$run.out/trace.pftrace.txt" "$run/prog_flow.csv" > "$run.cmp" <<'EOF' || fail "$(cat "$run.cmp")"
import csv, sys
names = {0x80000007: "M_timer_interrupt", 0x80000003: "M_software_interrupt", 11: "ecall_from_M-mode"}
rows = list(csv.DictReader(open(sys.argv[1])))
lines = [l.split() for l in open(sys.argv[2])]
want = sorted((int(r["cycle"]), int(r["ret"]), names[int(r["cause"], 16)], int(r["depth"]),
               int(r["first"]) - int(r["pending"]) if r["pending"] else None) for r in rows)
if len(want) < 3 or not any(w[3] > 0 for w in want):
    print("FAIL: traps.csv has %d traps, none nested" % len(want)); sys.exit(1)
args = {}
for w in lines:
    if w[0] == "slicearg" and w[1] == "hart_0_traps": args[(w[2], int(w[3]), w[4])] = w[5]
got = sorted((int(w[3]), int(w[4]), w[2], int(args[(w[2], int(w[3]), "depth")]),
              int(args[(w[2], int(w[3]), "latency")]) if (w[2], int(w[3]), "latency") in args else None)
             for w in lines if w[0] == "slice" and w[1] == "hart_0_traps")
if got != want:
    print("FAIL: trap slices", sorted(set(got) ^ set(want))[:4]); sys.exit(1)
# the program flow's trap frames: the traps taken while the trace ran
pf = list(csv.DictReader(open(sys.argv[3])))
lo = [int(r["cycle"]) for r in pf if r["kind"] == "start"][0]
hi = [int(r["cycle"]) for r in pf if r["kind"] == "stop"][0]
tr = sum(1 for w in lines if w[0] == "slicearg" and w[1] == "hart_0_calls" and w[4] == "trap")
inw = sum(1 for r in rows if lo <= int(r["cycle"]) < hi)
if tr != inw or not tr:
    print("FAIL: %d trap frames in the program flow, traps.csv has %d traps while it ran" % (tr, inw)); sys.exit(1)
print("ok: %d trap slices = traps.csv (entry, return, cause, depth, latency); %d trap frames in the flow" % (len(got), tr))
EOF
  cat "$run.cmp"
  # the trace's own trap events (--trace-insn event: ICT events): an instant per trap taken while
  # the trace ran, at traps.csv's cycle, with its cause and pc
  "$ts" run -q --trace-insn event -o "$run.ev" "$elf" > /dev/null || fail "run (event) exited $?"
  "$ts" decode -f perfetto -o "$run.evo" "$run.ev" 2> "$run.stderr" || fail "decode (event) exited $?: $(cat "$run.stderr")"
  decode "$run.evo/trace.pftrace"
  python3 - "$run.ev/traps.csv" "$run.evo/trace.pftrace.txt" "$run.ev/prog_flow.csv" > "$run.cmp2" <<'EOF' || fail "$(cat "$run.cmp2")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
pf = list(csv.DictReader(open(sys.argv[3])))
lo = [int(r["cycle"]) for r in pf if r["kind"] == "start"][0]
hi = [int(r["cycle"]) for r in pf if r["kind"] == "stop"][0]
want = sorted((int(r["cycle"]), "0x%08x" % int(r["cause"], 16), "0x%08x" % int(r["pc"], 16)) for r in rows if lo <= int(r["cycle"]) < hi)
args = {}
lines = [l.split() for l in open(sys.argv[2])]
for w in lines:
    if w[0] == "instantarg" and w[2].startswith("trap:"): args[(int(w[3]), w[4])] = w[5]
got = sorted((int(w[3]), args.get((int(w[3]), "cause")), args.get((int(w[3]), "pc"))) for w in lines if w[0] == "instant" and w[2].startswith("trap:"))
if got != want or not want:
    print("FAIL: trap events", sorted(set(got) ^ set(want))[:4], len(got), len(want)); sys.exit(1)
print("ok: %d trap events of the trace = traps.csv's (cycle, cause, pc) while it ran" % len(got))
EOF
  cat "$run.cmp2"
  ;;
*) fail "unknown case" ;;
esac
