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
#   bad      a damaged trace: exit status and no file left behind; --time cycles without a
#            trace.json: 120 and one line.
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
  awk '$1 == "slice" { t = $2; sub(/^tp_/, "", t); n[t " " $3]++ } END { for (k in n) print k, n[k] }' "$l" | sort > "$run.sl"
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
  echo "ok: --time cycles without trace.json refused, a cut trace decodes to a valid file"
  ;;
*) fail "unknown case" ;;
esac
