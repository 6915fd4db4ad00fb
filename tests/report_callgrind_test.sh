#!/bin/sh
# report_callgrind_test.sh BUILD_DIR CASE - `report -f callgrind` read by its real reader,
# callgrind_annotate (Debian's valgrind): its per-function totals against `report -f csv` and
# the ground truth (tests/prof_truth/prof_truth.c). callgrind_annotate names a function
# FILE:NAME, one entry per file its lines are in (inlined code): a function's self is the sum
# over its entries, its inclusive cost the entry of its own file (the fl= of its fn= block).
# Cases:
#   records  fib.c, longjmp.c and rr_threads.c (3 threads) from the perf records: for every
#            counter, callgrind_annotate's PROGRAM TOTALS equal the text report's "over the
#            trace" (cycles), every function's self equals its <counter>_self in `report -f csv`
#            and its inclusive cost (--inclusive=yes) its <counter>_total (fib recurses: its
#            inner calls are not counted twice); the calls of fib from fib: 464; call sites at
#            source lines (fib.c's recursive call on a line > 0).
#   flow     fib.c, `report --from flow -f callgrind`: every function's self instructions equal
#            prof_truth's, fib's inclusive its total_insn; costs by source line (fib has more
#            than 2 lines with costs); the pseudo function [hart 0] has no self cost (before:
#            its call of main, whose frame is open when the trace begins, was written calls=0,
#            which callgrind_annotate takes for no call: main's 129454 instructions were
#            [hart 0]'s self).
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def

set -u
b=$1; case_=$2
ts=$b/tracesim
truth=$b/tests/prof_truth
run=$b/test-runs/report_callgrind_$case_
fail() { echo "FAIL (report callgrind $case_): $*"; exit 1; }
command -v callgrind_annotate > /dev/null || { echo "callgrind_annotate not installed (Debian: valgrind)"; exit 77; }
rm -rf "$run" "$run".*
# "E NAME SELF INCL" per function name and event index E, from callgrind_annotate run outside
# the checkout (it shortens the file names under the current folder)
annotate() {   # CG_FILE OUT
  abs=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  (cd / && callgrind_annotate --threshold=100 --auto=no "$abs") > "$2.self" || return 1
  (cd / && callgrind_annotate --threshold=100 --auto=no --inclusive=yes "$abs") > "$2.incl" || return 1
  awk '
    FILENAME ~ /\.cg$/ { if (/^fl=/) fl = substr($0, 4); if (/^fn=/) own[substr($0, 4)] = fl; next }
    /file:function$/ { on = 1; next }
    /PROGRAM TOTALS/ && FILENAME !~ /self$/ { next }
    /PROGRAM TOTALS/ { gsub(/,/, ""); t = ""; for (i = 1; i <= NF && $i ~ /^[0-9]+$/ || $i ~ /^\(/; i++) if ($i ~ /^[0-9]+$/) t = t " " $i; print "TOTALS" t; next }
    !on || /^-/ || NF < 2 { next }
    { line = $0; gsub(/\([^)]*\)/, "", line); gsub(/,/, "", line); n = split(line, w, " ")
      name = w[n]; f = name; sub(/:[^:]*$/, "", f); fn = name; sub(/^.*:/, "", fn)
      for (i = 1; i < n; i++) { v = w[i] == "." ? 0 : w[i]
        if (FILENAME ~ /self$/) S[i, fn] += v; else if (f == own[fn]) I[i, fn] = v }
      fns[fn] = 1; ne = n - 1 }
    END { for (fn in fns) for (i = 1; i <= ne; i++) print i, fn, S[i, fn] + 0, I[i, fn] + 0 }' "$1" "$2.self" "$2.incl" > "$2" 2>/dev/null
}
case $case_ in
records)
  msg=
  for p in fib longjmp rr_threads; do
    elf=$b/firmware/examples/$p.elf
    r=$run.$p
    stm=; [ $p = rr_threads ] && stm=--stm-thread-switch
    "$ts" run -q $stm -o "$r" "$elf" > /dev/null || fail "$p: run exited $?"
    "$ts" report "$r" > "$r.txt" 2>/dev/null || fail "$p: report exited $?"
    "$ts" report -f csv "$r" > "$r.csv" 2>/dev/null || fail "$p: report -f csv exited $?"
    "$ts" report -f callgrind -o "$r.d" "$r" 2>/dev/null || fail "$p: report -f callgrind exited $?"
    cp "$r.d/report.callgrind" "$r.cg"
    annotate "$r.cg" "$r.ann" || fail "$p: callgrind_annotate failed: $(cat "$r.ann.self" | head -5)"
    grep -q "^TOTALS" "$r.ann" || fail "$p: no PROGRAM TOTALS from callgrind_annotate"
    T=$(sed -n 's/^  cycles over the trace: \([0-9]*\).*/\1/p' "$r.txt")
    G=$(awk '/^TOTALS/ { print $2 }' "$r.ann")
    [ -n "$T" ] && [ "$T" = "$G" ] || fail "$p: callgrind_annotate's total $G cycles, the trace total '$T'"
    events=$(sed -n 's/^events: //p' "$r.cg")
    out=$(awk -F, -v events="$events" '
      FILENAME ~ /ann$/ { split($0, w, " "); if (w[1] == "TOTALS") next; S[w[1], w[2]] = w[3]; I[w[1], w[2]] = w[4]; next }
      FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; ne = split(events, ev, " "); next }
      ("thread" in c) && $(c["thread"]) != "all" { next }   # the per-thread rows (report.md): the totals only
      { f = $(c["function"]); n++
        for (e = 1; e <= ne; e++) {
          name = ev[e]; if (name == "load_store") name = "load|store"
          cs = c[name "_self"]; ct = c[name "_total"]; if (!cs) { printf "FAIL: no column %s_self\n", name; exit 1 }
          if (S[e, f] + 0 != $cs + 0) { printf "FAIL: %s %s self %d, callgrind_annotate %d\n", f, name, $cs, S[e, f]; exit 1 }
          if (I[e, f] + 0 != $ct + 0) { printf "FAIL: %s %s total %d, callgrind_annotate inclusive %d\n", f, name, $ct, I[e, f]; exit 1 } } }
      END { printf "%d functions x %d events equal", n, ne }' "$r.ann" "$r.csv")
    case $out in *FAIL*|"") fail "$p: ${out:-no comparison}" ;; esac
    msg="$msg $p: $out, total $G cycles;"
  done
  r=$run.fib
  awk '/^fn=fib$/ { f = 1 } f && /^cfn=fib$/ { getline; print; exit }' "$r.cg" | grep -q '^calls=464 [1-9]' ||
    fail "fib's recursive calls: $(grep -A1 '^cfn=fib' "$r.cg" | head -4)"
  awk '/^fn=fib$/ { f = 1 } f && /^cfn=fib$/ { getline; getline; print; exit }' "$r.cg" | grep -q '^[1-9][0-9]* ' ||
    fail "fib's recursive call site has no line"
  "$ts" report -f nosuch "$r" > /dev/null 2>&1; [ $? = "$TS_EXIT_USAGE" ] || fail "-f nosuch accepted"
  echo "ok (report callgrind records):$msg" ;;
flow)
  elf=$b/firmware/examples/fib.elf
  "$ts" run -q --trace-sram 1M --trace-insn btm --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" report --from flow -f callgrind "$run" > "$run.cg" || fail "report --from flow -f callgrind exited $?"
  annotate "$run.cg" "$run.ann" || fail "callgrind_annotate failed"
  lo=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "start" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
  hi=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "stop" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
  "$truth" "$elf" "$run.retire" --after "$lo" --before "$hi" > "$run.truth" || fail "prof_truth exited $?"
  out=$(awk -F, '
    FILENAME ~ /ann$/ { split($0, w, " "); if (w[1] == "TOTALS") { G = w[2]; next } S[w[2]] = w[3]; I[w[2]] = w[4]; next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { fn = $1; s = $(c["self_insn"]); n += s; if (!s) next; m++
      if (S[fn] + 0 != s + 0) { printf "FAIL: %s self_insn %d, callgrind_annotate %d\n", fn, s, S[fn]; exit 1 }
      if (fn == "fib" && I[fn] + 0 != $(c["total_insn"]) + 0) { printf "FAIL: fib total_insn %d, inclusive %d\n", $(c["total_insn"]), I[fn]; exit 1 } }
    END { if (G + 0 != n) { printf "FAIL: program totals %d, truth %d\n", G, n; exit 1 }
          printf "%d functions: self equal to the truth, fib inclusive = its total, %d instructions", m, n }' "$run.ann" "$run.truth")
  case $out in *FAIL*|"") fail "${out:-no comparison}" ;; esac
  hs=$(grep -F ':[hart 0]' "$run.ann.self" | awk '$1 != "." && $1 != "0"' | head -1)
  [ -z "$hs" ] || fail "the pseudo function [hart 0] has a self cost: $hs"
  nl=$(awk '/^fn=fib$/ { f = 1; next } /^$/ { f = 0 } f && /^[0-9]+ [0-9]+$/ && $1 > 0 { n++ } /^cfn=/ { f = 0 } END { print n + 0 }' "$run.cg")
  [ "$nl" -gt 2 ] || fail "fib's costs on $nl source lines"
  echo "ok (report callgrind flow): $out; fib's self on $nl source lines" ;;
*) fail "unknown case" ;;
esac
