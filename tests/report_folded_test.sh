#!/bin/sh
# report_folded_test.sh BUILD_DIR CASE - `report -f folded` (folded stacks) against the profile's
# own totals and the ground truth (tests/prof_truth/prof_truth.c). Cases:
#   records, records_longjmp  fib.c and longjmp.c, from the perf records: the counts add up to the text report's "cycles over
#            the trace" (outside and not attributed included); each function's counts as the
#            last frame equal its self cycles in `report -f csv`, and the counts of the lines
#            it appears in (once or more: fib recurses) its total cycles; --counter instructions
#            the same for instructions; --compensate the same against `report --compensate`; every
#            line starts with the hart frame "hart 0"; an unknown counter: exit 120, one line;
#            fib: its recursion is in the stacks; longjmp: "[outside]" and "[not attributed]" (the
#            longjmp) are.
#   flow     fib.c, longjmp.c, nested_traps.c, `report --from flow -f folded`:
#            each function's counts as the last frame equal prof_truth's self instructions,
#            all lines the truth's instructions, and the lines with fib its total instructions
#            (every activation under the outermost counted once).
#   threads  rr_threads.c (3 threads, --stm-thread-switch), from the records and from the flow:
#            every line's second frame is one of 3 threads "thread 0x...", the records' counts
#            add up to the trace total and match `report -f csv` as for records, the flow's per-function counts equal the truth's self
#            instructions; rr_alpha appears under one thread only.
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
b=$1; case_=$2
ts=$b/tracesim
truth=$b/tests/prof_truth
run=$b/test-runs/report_folded_$case_
fail() { echo "FAIL (report folded $case_): $*"; exit 1; }
rm -rf "$run" "$run".*
# sums per function from folded stacks: "leaf F N" (F last) and "in F N" (F anywhere)
sums() {
  awk '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s); k = split(s, f, ";"); all += n
         leaf[f[k]] += n; delete seen; for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; in_[f[i]] += n } }
       END { for (x in leaf) print "leaf", x, leaf[x]; for (x in in_) print "in", x, in_[x]; print "all", all + 0 }' "$1"
}
# compare sums of $1 (folded) with the CSV $2's columns $3 (self) and $4 (total) by function
cmp_csv() {
  sums "$1" > "$1.sums"
  awk -F, -v cs="$3" -v ct="$4" '
    FILENAME ~ /sums$/ { split($0, w, " "); v = w[length(w)]; x = $0; sub(/^[a-z]+ /, "", x); sub(/ [0-9]+$/, "", x)
                          if (w[1] == "leaf") L[x] = v; else if (w[1] == "in") I[x] = v; next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    ("thread" in c) && $(c["thread"]) != "all" { next }   # the per-thread rows (report.md): the totals only
    { f = $(c["function"]); if (f == "") next; n++
      if (L[f] + 0 != $(c[cs]) + 0) { printf "FAIL: %s self %s, folded leaf %d\n", f, $(c[cs]), L[f]; exit 1 }
      if (I[f] + 0 != $(c[ct]) + 0) { printf "FAIL: %s total %s, folded lines with it %d\n", f, $(c[ct]), I[f]; exit 1 } }
    END { printf "%d functions: self and total equal;", n }' "$1.sums" "$2"
}
case $case_ in
records|records_longjmp)
  elf=$b/firmware/examples/fib.elf
  [ "$case_" = records_longjmp ] && elf=$b/firmware/examples/longjmp.elf
  "$ts" run -q -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" report "$run" > "$run.txt" 2>/dev/null || fail "report exited $?"
  "$ts" report -f csv "$run" > "$run.csv" 2>/dev/null || fail "report -f csv exited $?"
  "$ts" report -f folded "$run" > "$run.folded" 2>/dev/null || fail "report -f folded exited $?"
  [ -s "$run.folded" ] || fail "no stacks"
  grep -v '^hart 0;' "$run.folded" | grep -q . && fail "a line without the hart frame: $(grep -v '^hart 0;' "$run.folded" | head -1)"
  if [ "$case_" = records ]; then
    grep -q ';fib;fib;fib ' "$run.folded" || fail "no recursion in the stacks: $(head -3 "$run.folded")"
  else
    grep -q '^hart 0;\[outside\] [0-9]' "$run.folded" && grep -q '^hart 0;\[not attributed\] [0-9]' "$run.folded" ||
      fail "no outside or not attributed: $(cat "$run.folded")"
  fi
  out=$(cmp_csv "$run.folded" "$run.csv" cycles_self cycles_total)
  case $out in *FAIL*|"") fail "cycles: ${out:-no comparison}" ;; esac
  T=$(sed -n 's/^  cycles over the trace: \([0-9]*\).*/\1/p' "$run.txt")
  A=$(awk '$1 == "all" { print $2 }' "$run.folded.sums")
  [ -n "$T" ] && [ "$T" = "$A" ] || fail "folded stacks add up to $A cycles, the trace total is '$T'"
  out="$out all $A cycles = the trace total;"
  "$ts" report -f folded --counter instructions "$run" > "$run.instret.folded" 2>/dev/null || fail "--counter instructions exited $?"
  o2=$(cmp_csv "$run.instret.folded" "$run.csv" instructions_self instructions_total)
  case $o2 in *FAIL*|"") fail "instructions: ${o2:-no comparison}" ;; esac
  "$ts" report --compensate -f csv "$run" > "$run.comp.csv" 2>/dev/null || fail "report --compensate -f csv exited $?"
  "$ts" report --compensate -f folded "$run" > "$run.comp.folded" 2>/dev/null || fail "report --compensate -f folded exited $?"
  o3=$(cmp_csv "$run.comp.folded" "$run.comp.csv" cycles_self cycles_total)
  case $o3 in *FAIL*|"") fail "compensated: ${o3:-no comparison}" ;; esac
  cmp -s "$run.folded" "$run.comp.folded" && fail "--compensate changed nothing"
  "$ts" report -f folded --counter nosuch "$run" > /dev/null 2> "$run.err"; rc=$?
  [ "$rc" = "$TS_EXIT_USAGE" ] && [ "$(grep -vc "warning:" "$run.err")" = 1 ] && grep -q "no counter 'nosuch'.*cycles" "$run.err" ||
    fail "--counter nosuch: exit $rc, $(cat "$run.err")"
  "$ts" report -f csv --counter cycles "$run" > /dev/null 2>&1; [ $? = "$TS_EXIT_USAGE" ] || fail "--counter without -f folded accepted"
  echo "ok (report folded $case_): $out instructions: $o2 compensated: $o3" ;;
flow)
  msg=
  for p in fib longjmp nested_traps; do
  elf=$b/firmware/examples/$p.elf
  r=$run.$p
  "$ts" run -q --trace-sram 1M --trace-insn btm --retire-log "$r.retire" -o "$r" "$elf" > /dev/null || fail "$p: run exited $?"
  "$ts" report --from flow -f folded -o "$r.d" "$r" || fail "$p: report --from flow -f folded exited $?"
  f=$r.d/report.folded
  [ -s "$f" ] || fail "no $f"
  lo=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "start" { print $c["cycle"]; exit }' "$r/prog_flow.csv")
  hi=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "stop" { print $c["cycle"]; exit }' "$r/prog_flow.csv")
  "$truth" "$elf" "$r.retire" --after "$lo" --before "$hi" > "$r.truth" || fail "$p: prof_truth exited $?"
  sums "$f" > "$f.sums"
  out=$(awk -F, '
    FILENAME ~ /sums$/ { split($0, w, " "); v = w[length(w)]; x = $0; sub(/^[a-z]+ /, "", x); sub(/ [0-9]+$/, "", x)
                          if (w[1] == "leaf") L[x] = v; else if (w[1] == "in") I[x] = v; else all = v; next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { fn = $1; s = $(c["self_insn"]); n += s; if (!s) next; m++
      if (L[fn] + 0 != s + 0) { printf "FAIL: %s self_insn %d, folded leaf %d\n", fn, s, L[fn]; exit 1 }
      if (fn == "fib" && I[fn] + 0 != $(c["total_insn"]) + 0) { printf "FAIL: fib total_insn %d, folded %d\n", $(c["total_insn"]), I[fn]; exit 1 } }
    END { if (all + 0 != n) { printf "FAIL: folded %d instructions, truth %d\n", all, n; exit 1 }
          printf "%d functions: self equal to the truth, %d instructions", m, n }' "$f.sums" "$r.truth")
  case $out in *FAIL*|"") fail "$p: ${out:-no comparison}" ;; esac
  msg="$msg $p: $out;"
  done
  "$ts" report --from flow -f folded --counter cycles "$r" > /dev/null 2> "$r.err"; rc=$?
  [ "$rc" = "$TS_EXIT_USAGE" ] && grep -q "instructions" "$r.err" || fail "--from flow --counter cycles: exit $rc, $(cat "$r.err")"
  echo "ok (report folded flow):$msg fib's total equal" ;;
threads)
  elf=$b/firmware/examples/rr_threads.elf
  "$ts" run -q --trace-sram 1M --trace-insn btm --stm-thread-switch --retire-log "$run.retire" -o "$run" "$elf" > /dev/null ||
    fail "run exited $?"
  "$ts" report "$run" > "$run.txt" 2>/dev/null || fail "report exited $?"
  "$ts" report -f folded "$run" > "$run.folded" 2>/dev/null || fail "report -f folded exited $?"
  n=$(cut -d';' -f2 "$run.folded" | sort -u | grep -c '^thread 0x')
  [ "$n" = 3 ] || fail "records: $n threads: $(cut -d';' -f2 "$run.folded" | sort -u | tr '\n' ' ')"
  T=$(sed -n 's/^  cycles over the trace: \([0-9]*\).*/\1/p' "$run.txt")
  A=$(awk '{ s += $NF } END { print s + 0 }' "$run.folded")
  [ -n "$T" ] && [ "$T" = "$A" ] || fail "records: stacks add up to $A cycles, the trace total is '$T'"
  [ "$(grep ';rr_alpha' "$run.folded" | cut -d';' -f2 | sort -u | wc -l)" = 1 ] || fail "rr_alpha under several threads"
  "$ts" report -f csv "$run" > "$run.csv" 2>/dev/null || fail "report -f csv exited $?"
  o1=$(cmp_csv "$run.folded" "$run.csv" cycles_self cycles_total)
  case $o1 in *FAIL*|"") fail "records: ${o1:-no comparison}" ;; esac
  "$ts" report --from flow -f folded "$run" > "$run.flow.folded" 2>/dev/null || fail "report --from flow -f folded exited $?"
  n=$(cut -d';' -f2 "$run.flow.folded" | sort -u | grep -c '^thread 0x')
  [ "$n" = 3 ] || fail "flow: $n threads: $(cut -d';' -f2 "$run.flow.folded" | sort -u | tr '\n' ' ')"
  lo=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "start" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
  hi=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "stop" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
  "$truth" "$elf" "$run.retire" --after "$lo" --before "$hi" > "$run.truth" || fail "prof_truth exited $?"
  sums "$run.flow.folded" > "$run.flow.sums"
  out=$(awk -F, '
    FILENAME ~ /sums$/ { split($0, w, " "); v = w[length(w)]; x = $0; sub(/^[a-z]+ /, "", x); sub(/ [0-9]+$/, "", x)
                          if (w[1] == "leaf") L[x] = v; next }
    FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { s = $(c["self_insn"]); if (!s) next; m++
      if (L[$1] + 0 != s + 0) { printf "FAIL: %s self_insn %d, folded leaf %d\n", $1, s, L[$1]; exit 1 } }
    END { printf "%d functions: self equal to the truth", m }' "$run.flow.sums" "$run.truth")
  case $out in *FAIL*|"") fail "flow: ${out:-no comparison}" ;; esac
  echo "ok (report folded threads): 3 threads from records ($A cycles = the trace total; $o1) and flow; $out" ;;
*) fail "unknown case" ;;
esac
