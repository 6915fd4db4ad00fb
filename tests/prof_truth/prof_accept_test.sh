#!/bin/sh
# prof_accept_test.sh BUILD_DIR CASE - the acceptance test of issue 35: every profiler on
# firmware/tests/prof_accept.c (its own kernel: three preemptive threads switched by a timer
# and by ecall yields, longjmp out of three nested instrumented functions, a timer handler and
# an ecall handler that call instrumented functions, recursion) against the simulator's ground
# truth (tests/prof_truth/prof_truth.c on the run's retire log), within the tolerance of
# docs/commands/report.md (16 cycles per call). Cases:
#   records   run --stm-thread-switch; `check` passes; `report --compensate` from the
#             records: every function's calls equal the truth's (a new thread's entry function,
#             entered by an mret, counts as called there), and its self cycles S
#             satisfy S - TOL * calls <= T <= S + U + TOL * calls (T the truth's attr_cycles,
#             U the cycles the report did not attribute: thread switches and the longjmps);
#             per thread (the CSV's thread rows) the calls equal the truth's in that thread;
#             the timeline (decode -f timeline) has one slice per call of every function
#   records_prio  the same on prof_accept_prio (the kernel built with KV_PRIO_MAIN: every other
#             switch goes back to main, so threads do not resume in the order they were left,
#             and several are often left at the same instruction of a hook, where it turns
#             interrupts back on): `report --compensate` must follow flow.csv's tp to know which
#             thread resumes (every record measured, within the tolerance); the same run folder
#             without the tp columns (as an older version wrote it) gets the note that a round
#             robin was assumed (with it, 2361 of the 3077 records were not measured)
#   flow      run --trace-insn btm: `check` passes; `report --from flow`: every function's
#             self instructions equal the truth's, and the total instructions of the
#             functions in TOTALS; the timeline's program-flow slices (pid 1) one per call
#   waves     run --waves-func F for stage_b (left by longjmp) and qsort_rec (recursion,
#             preempted): the windows' cycles W satisfy T - F <= W <= T + L as in
#             profile_truth_test.sh's threads_waves, L with the cycles from the tail jump into
#             the exit hook to the instruction its return lands on outside F (the truth's frame
#             ends at the jump, the window at the landing), and after longjmp's return
set -u
b=$1; case_=$2
TOL=16
ts=$b/tracesim
truth=$b/tests/prof_truth
elf=$b/firmware/tests/prof_accept.elf
fns="fold tick_account checksum walk stage_c stage_b stage_a partition qsort_rec pipe_main sorter_main main_work"
keep=$(echo $fns | tr ' ' ,)
run=$b/test-runs/prof_accept_$case_
name=$case_
[ "$case_" = records_prio ] && { elf=$b/firmware/tests/prof_accept_prio.elf; case_=records; }
fail() { echo "FAIL (prof_accept $name): $*"; exit 1; }
rm -rf "$run" "$run".*
nm_addr() { riscv64-unknown-elf-nm "$elf" | awk -v n="$1" '$3 == n { print "0x" $1 }'; }
# the cycles of the calls of perfTraceOn and perfTraceOff (flow.csv)
span() {
  on=$(nm_addr perfTraceOn); off=$(nm_addr perfTraceOff)
  con=$(awk -F, -v a="$on" '$3 == "call" && $5 == a { print $1; exit }' "$1/flow.csv")
  coff=$(awk -F, -v a="$off" '$3 == "call" && $5 == a { print $1; exit }' "$1/flow.csv")
  [ -n "$con" ] && [ -n "$coff" ] || fail "no call of perfTraceOn/perfTraceOff in flow.csv"
}
# B events per function name in the timeline's process PID: "name count" lines (not those of
# a thread's frames resumed after a switch: args.resumed)
slices() {
  python3 -c '
import json, sys, collections
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
c = collections.Counter(e["name"] for e in ev if e.get("ph") == "B" and e.get("pid") == int(sys.argv[2])
                        and not e.get("args", {}).get("resumed"))
for k, v in c.items(): print(k, v)' "$1" "$2"
}
case $case_ in
records)
  "$ts" run -q --stm-thread-switch --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
  grep -q "^prof_accept: [0-9]* ticks" "$run/uart.txt" || fail "no summary: $(cat "$run/uart.txt")"
  "$ts" check "$run" > "$run.check" 2>&1 || fail "check failed: $(tail -3 "$run.check")"
  "$ts" report --compensate "$run" > "$run.txt" 2>&1 || fail "report exited $?"
  "$ts" report --compensate -f csv -o "$run.csv.d" "$run" 2> /dev/null || fail "report -f csv exited $?"
  grep -Eq "measured only in part|not measured" "$run.txt" && fail "hooks not all measured: $(grep -E 'measured only in part|not measured' "$run.txt")"
  span "$run"
  first=$(awk -F, -v a="$con" 'NR > 1 && $3 ~ /^__cyg_profile_func_/ && $1 > a { print $1; exit }' "$run/hooks.csv")
  last=$(awk -F, -v b="$coff" 'NR > 1 && $3 ~ /^__cyg_profile_func_/ && $1 < b { c = $1 } END { print c }' "$run/hooks.csv")
  "$truth" "$elf" "$run.retire" --after "$con" --before "$coff" --keep "$keep" --threads "$run.thr" > "$run.calls" || fail "prof_truth exited $?"
  "$truth" "$elf" "$run.retire" --after "$first" --before "$last" --keep "$keep" \
    --drop __cyg_profile_func_enter,__cyg_profile_func_exit > "$run.truth" || fail "prof_truth exited $?"
  U=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["thread"] == "all" { n++ } END { print n + 0 }' "$run.csv.d/report.csv")
  [ "$U" -gt 0 ] || fail "no totals rows (thread all) in report.csv"
  # the cycles not attributed: around the thread switches and where a longjmp left frames
  U=$(sed -n 's/.*not attributed: \([0-9]*\) (.*/\1/p' "$run.txt" | head -1)
  [ -n "$U" ] || fail "no cycles not attributed in the report: $(grep 'cycles over the trace' "$run.txt")"
  out=$(awk -F, -v U="$U" -v TOL="$TOL" -v cmp="$fns" '
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    FILENAME ~ /calls$/ { TC[$1] = $(col[FILENAME, "calls"]); next }
    FILENAME ~ /truth$/ { T[$1] = $(col[FILENAME, "attr_cycles"]); next }
    FILENAME ~ /thr$/ { next }
    $(col[FILENAME, "thread"]) == "all" { f = $(col[FILENAME, "function"]); S[f] = $(col[FILENAME, "cycles_self"]); C[f] = $(col[FILENAME, "calls"]) }
    END {
      nc = split(cmp, fs, " ")
      for (i = 1; i <= nc; i++) {
        f = fs[i]
        if (C[f] + 0 != TC[f] + 0) { printf "FAIL: %s: %d calls, truth %d\n", f, C[f], TC[f]; exit 1 }
        if (!C[f]) { printf "FAIL: %s never called\n", f; exit 1 }
        lo = S[f] - TOL * C[f]; hi = S[f] + U + TOL * C[f]
        printf " %s %d/%d", f, S[f], T[f]
        if (T[f] < lo || T[f] > hi) { printf " FAIL: truth outside [%d, %d]\n", lo, hi; exit 1 }
      }
      printf "; not attributed %d\n", U
    }' "$run.calls" "$run.truth" "$run.csv.d/report.csv")
  case $out in *FAIL*|"") fail "${out:-no comparison}" ;; esac
  # per thread: the CSV's thread rows against the truth's stacks per tp
  out2=$(awk -F, -v cmp="$fns" '
    BEGIN { nc = split(cmp, fs, " "); for (i = 1; i <= nc; i++) want[fs[i]] = 1 }
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    FILENAME ~ /thr$/ { if ($2 in want) { tc[$1 "," $2] = $3; nt++ } next }
    { t = $(col[FILENAME, "thread"]); f = $(col[FILENAME, "function"]) }
    t != "all" && (f in want) { pc[t "," f] = $(col[FILENAME, "calls"]); np++ }
    END {
      if (!nt || !np) { print "FAIL: no per-thread figures (truth " nt ", report " np ")"; exit 1 }
      for (k in tc) if (tc[k] + 0 != pc[k] + 0) { printf "FAIL: thread,function %s: %d calls, truth %d\n", k, pc[k], tc[k]; exit 1 }
      for (k in pc) if (!(k in tc)) { printf "FAIL: thread,function %s: %d calls, none in the truth\n", k, pc[k]; exit 1 }
      printf "%d thread/function call counts equal", np
    }' "$run.thr" "$run.csv.d/report.csv")
  case $out2 in *FAIL*|"") fail "${out2:-no comparison}" ;; esac
  "$ts" decode -f timeline -o "$run.tl" "$run" 2> /dev/null || fail "decode -f timeline exited $?"
  slices "$run.tl/timeline.json" 0 > "$run.slices" || fail "timeline.json does not parse"
  out3=$(awk -F, -v cmp="$fns" '
    FILENAME ~ /calls$/ { TC[$1] = $3; next }
    { split($0, a, " "); S[a[1]] = a[2] }
    END { nc = split(cmp, fs, " ")
      for (i = 1; i <= nc; i++) if (S[fs[i]] + 0 != TC[fs[i]] + 0) { printf "FAIL: timeline: %s %d slices, truth %d calls\n", fs[i], S[fs[i]], TC[fs[i]]; exit 1 }
      print "timeline slices equal the calls" }' "$run.calls" "$run.slices")
  case $out3 in *FAIL*|"") fail "${out3:-no comparison}" ;; esac
  note=
  if [ "$name" = records_prio ]; then
    # the run folder as an older version wrote it (no tp in flow.csv and hooks.csv): the
    # round-robin guess is used and said so, in one note line
    rm -rf "$run.old"; cp -r "$run" "$run.old"
    cut -d, -f1-6 "$run/flow.csv" > "$run.old/flow.csv"; cut -d, -f1-8 "$run/hooks.csv" > "$run.old/hooks.csv"
    "$ts" report --compensate "$run.old" > "$run.old.txt" 2> "$run.old.err" || fail "report of the run folder without tp exited $?"
    [ "$(grep -c 'note: --compensate: flow.csv has no tp column' "$run.old.err")" = 1 ] ||
      fail "no note on the round-robin guess without tp: $(cat "$run.old.err")"
    grep -q 'no tp column' "$run.txt" "$run.err" 2> /dev/null && fail "the note without a reason"
    note="; without tp: $(sed -n 's/.*: \([0-9]*\) times several threads.*/\1/p' "$run.old.err") resumes guessed"
  fi
  echo "ok (prof_accept $name): $(grep -c . "$run.thr") thread rows;$out; $out2; $out3; $(grep '^check: [0-9]* stores' "$run.check")$note" ;;
flow)
  "$ts" run -q --trace-sram 4M --trace-insn btm --stm-thread-switch --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" check "$run" > "$run.check" 2>&1 || fail "check failed: $(tail -3 "$run.check")"
  "$ts" report --from flow -f csv "$run" > "$run.csv" || fail "report --from flow exited $?"
  lo=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "start" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
  hi=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "stop" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
  [ -n "$lo" ] && [ -n "$hi" ] || fail "no start/stop rows in prog_flow.csv"
  "$truth" "$elf" "$run.retire" --after "$lo" --before "$hi" > "$run.truth" || fail "prof_truth exited $?"
  out=$(awk -F, -v cmp="$fns" '
    BEGIN { nc = split(cmp, fs, " "); for (i = 1; i <= nc; i++) want[fs[i]] = 1 }
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    FILENAME ~ /truth$/ { a = $(col[FILENAME, "address"]); gs[a] = $(col[FILENAME, "self_insn"]); gt[a] = $(col[FILENAME, "total_insn"]); N[a] = $1; next }
    { a = $(col[FILENAME, "address"]); rs[a] = $(col[FILENAME, "self_insn"]); rt[a] = $(col[FILENAME, "total_insn"]); N[a] = $(col[FILENAME, "function"]) }
    END {
      n = 0
      for (a in N) {
        if (gs[a] + 0 != rs[a] + 0) { printf "FAIL: %s self_insn %d, truth %d\n", N[a], rs[a], gs[a]; exit 1 }
        n += gs[a]
        if ((N[a] in want) && gt[a] + 0 != rt[a] + 0) { printf "FAIL: %s total_insn %d, truth %d\n", N[a], rt[a], gt[a]; exit 1 }
      }
      printf "%d instructions: every function'"'"'s self equal, the totals of the instrumented functions equal", n
    }' "$run.truth" "$run.csv")
  case $out in *FAIL*|"") fail "${out:-no comparison}" ;; esac
  "$truth" "$elf" "$run.retire" --after "$lo" --before "$hi" > "$run.calls" || fail "prof_truth exited $?"
  "$ts" decode -f timeline -o "$run.tl" "$run" 2> /dev/null || fail "decode -f timeline exited $?"
  slices "$run.tl/timeline.json" 1 > "$run.slices" || fail "timeline.json does not parse"
  out3=$(awk -F, -v cmp="$fns" '
    FILENAME ~ /calls$/ { TC[$1] = $3; next }
    { split($0, a, " "); S[a[1]] = a[2] }
    END { nc = split(cmp, fs, " ")
      for (i = 1; i <= nc; i++) if (S[fs[i]] + 0 != TC[fs[i]] + 0) { printf "FAIL: timeline: %s %d slices, truth %d calls\n", fs[i], S[fs[i]], TC[fs[i]]; exit 1 }
      print "program-flow slices equal the calls" }' "$run.calls" "$run.slices")
  case $out3 in *FAIL*|"") fail "${out3:-no comparison}" ;; esac
  echo "ok (prof_accept flow): $out; $out3" ;;
waves)
  res=
  for f in stage_b qsort_rec; do
    r=$run.$f
    "$ts" run -q --stm-thread-switch --waves "$r.fst" --waves-func "$f" --retire-log "$r.retire" -o "$r" "$elf" > /dev/null ||
      fail "run --waves-func $f exited $?"
    W=$(awk -F, 'NR > 1 { s += $2 - $1 } END { print s + 0 }' "$r/waves_windows.csv")
    T=$("$truth" "$elf" "$r.retire" | awk -F, -v f="$f" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == f { print $c["total_cycles"] }')
    [ -n "$T" ] || fail "no truth for $f"
    h=$(riscv64-unknown-elf-nm -S "$elf" | awk -v f="$f" '$4 == f { print $1, $2 }')
    FL=$(awk -v lo="${h% *}" -v n="${h#* }" '
      function hex(s,  i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
      BEGIN { lo = hex(lo); hi = lo + hex(n) }
      $3 == "trap" { next }
      { pc = hex($2); c = $1 - (seen ? prev : $1); prev = $1; seen = 1
        if (pc == lo) F += c
        if (land && (pc < lo || pc >= hi)) L += c
        land = pc >= lo && pc < hi && ($3 == "00008067" || $3 == "00008082") }
      END { print F + 0, L + 0 }' "$r.retire")
    F=${FL% *}; L=${FL#* }
    # frames left by longjmp: the instruction longjmp returns to ends stage_b's window
    lj=$(riscv64-unknown-elf-nm -S "$elf" | awk '$4 == "longjmp" { print $1, $2 }')
    [ "$f" = stage_b ] && L=$((L + $(awk -v lo="${lj% *}" -v n="${lj#* }" '
      function hex(s,  i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
      BEGIN { lo = hex(lo); hi = lo + hex(n) }
      $3 == "trap" { next }
      { pc = hex($2); c = $1 - (seen ? prev : $1); prev = $1; seen = 1
        if (land) L += c
        land = pc >= lo && pc < hi && ($3 == "00008067" || $3 == "00008082") }
      END { print L + 0 }' "$r.retire")))
    # GCC tail-calls the exit hook: the truth's frame ends at that jump, a window when the
    # hook's return lands outside the function (the outermost activation): those cycles too
    fa=0x${h% *}; fz=$(printf '0x%x' $(( ${fa} + 0x${h#* } )))
    tails=$(awk -F, -v fa="$fa" -v fz="$fz" '
      function hex(s,  i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
        for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
      FILENAME ~ /hooks.csv$/ { if ($3 == "__cyg_profile_func_exit" && $4 == "tail" && hex($6) == hex(fa) && (hex($8) < hex(fa) || hex($8) >= hex(fz))) print "t", $1, $8; next }
      $3 == "ret" { print "r", $1, $5 }' "$r/hooks.csv" "$r/flow.csv" | sort -k2,2n |
      awk '$1 == "t" { want[$3] = $2; next } ($3 in want) { print want[$3], $2; delete want[$3] }')
    TL=$(echo "$tails" | awk -v lf="$r.retire" '
      NF == 2 { t[++n] = $1; x[n] = $2 }
      END { i = 1; while (i <= n && (getline l < lf) > 0) { split(l, a, " "); c = a[1] + 0
              while (i <= n && c > x[i]) { L += c - t[i]; i++ } }
            print L + 0 }')
    L=$((L + TL))
    [ "$W" -ge $((T - F)) ] && [ "$W" -le $((T + L)) ] ||
      fail "$f windows $W cycles, truth $T (first instructions $F, instructions returned to $L: expected $((T - F)) to $((T + L)))"
    res="$res $f windows $W, truth $T (+$L -$F);"
  done
  echo "ok (prof_accept waves):$res" ;;
*) fail "unknown case" ;;
esac
