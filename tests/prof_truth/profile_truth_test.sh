#!/bin/sh
# profile_truth_test.sh BUILD_DIR CASE - profiles against the ground truth of
# tests/prof_truth/prof_truth.c (the retire log and the ELF: every function's instructions
# and cycles by pc, and as enter/exit records see them, uninstrumented code counted for the
# instrumented function below it, the perf hooks for nobody). Programs:
# firmware/examples/longjmp.c (work(i) for i = 0..9 from main; at i == 3 thrower longjmps
# back to main; an uninstrumented spin() after each call), fib.c (recursion, 465 calls),
# timer_isr.c (timer interrupts). Cases:
#   records  longjmp.c, `report --compensate` from the perf records: work and thrower have 10 and 1
#            calls, every call of work from main (no edge thrower -> work), nothing still
#            active; the notes count one repair (2 frames) and the cycles not attributed;
#            each function's self cycles S and the truth's T satisfy
#            S - TOL * calls <= T <= S + U + TOL * calls, U the cycles not attributed and
#            TOL the documented per-call tolerance (docs/commands/report.md): the truth lies
#            between what the profile attributed and that plus what it says it could not.
#   records_fib  the same on fib.c's fib: no repair, nothing not attributed, within tolerance;
#   records_deep  firmware/tests/longjmp_deep.c: dive longjmps out of 9 frames of its own
#            recursion back to main (never traced) 3 times, and main then calls iter, whose
#            call site is in main, not in any frame's function: by hand dive 54 calls, iter 6,
#            op_add/op_mul/op_xor 13 each, and every function's self cycles within the
#            tolerance; iter's enter closes the 9 dive frames the longjmp left (its call site
#            lies in main, the function that called the bottom dive: docs/commands/report.md,
#            "Frames left without an exit"), so nothing stays active, and the totals of dive
#            and iter S satisfy T - U - TOL * calls <= S <= T + TOL * calls (T the truth's
#            total cycles without the hooks; 3 repairs of 9 frames);
#   flow     longjmp.c, `report --from flow` (program trace, BTM): every function's self instructions
#            equal the truth's exactly; work's and thrower's total instructions too (frames
#            left by the longjmp close at its return);
#   flow_fib, flow_timer_isr  the same on fib.c (fib's total) and timer_isr.c (the totals of
#            busy_mem, busy_mul, ts_trap_entry, perf_timer_tick: handler frames nest and
#            close at mret), no repair;
#   records_traps, flow_traps, records_traps_event  the same on nested_traps.c (the last
#            with program trace in event mode, teInstruction 1: ecall traps there too) (a timer interrupt whose handler's
#            function on_tick lets a software interrupt nest inside it, on_soft; ecalls from
#            work handled by on_ecall, returning past the ecall): records within tolerance
#            (nothing not attributed) for work, leaf and the handlers' functions (most ticks
#            are taken inside a perf hook, when it turns interrupts back on: the handler's own
#            code is nobody's, docs/commands/report.md), flow's self exact and the totals of work, leaf,
#            on_tick, on_soft, on_ecall and ts_trap_entry equal (trap frames nest and close at
#            their mret);
#   threads_records  rr_threads.c (a timer-driven round robin of 3 threads, run
#            --stm-thread-switch), `report` from the records: one section per thread (3, none
#            "before its first thread switch"), each thread's calls of every function equal
#            the truth's in that thread (prof_truth --threads: a stack per tp value); nothing
#            unwound, unmatched or still active; the total cycles of rr_alpha, rr_beta,
#            rr_gamma and rr_mix (uncompensated: every hook cycle counted, as in the truth
#            without --drop) S satisfy T - U - TOL <= S <= T + TOL, T the truth's total over
#            the running thread's time only and U the cycles the profile did not attribute
#            (the intervals with a switch): switched-out time is not in a frame's total;
#   threads_flow  the same program with --trace-insn btm, `report --from flow`: every
#            function's self instructions equal the truth's, the total instructions of the
#            rr_ functions too (a thread's frames do not count the other threads' instructions);
#   threads_waves  rr_threads.c, `run --waves-func rr_hash` (beta and gamma call it, and are
#            preempted inside it): the windows' cycles W satisfy T - F <= W <= T + L, T the
#            truth's total cycles of rr_hash (on the running thread's stack only; hooks
#            included), F the cycles of rr_hash's first instructions (a window opens as one
#            retires) and L those of the instructions its returns land on (a window ends with
#            one): a switch takes effect at the write to tp, so the windows follow the running
#            thread exactly (W = T - F + L measured). Switches seen only at the thread's next
#            call or return left W 5 % short; one stack per hart, 12 % short;
#   waves    `run --waves-func thrower`: one window, ending with the instruction longjmp's
#            return lands on; `--waves-func work`: 10 windows (one per call).
set -u
b=$1; case_=$2; name=$2
mode=btm        # the program trace mode (records_traps_event: a run in event mode, teInstruction 1)
TOL=16
ts=$b/tracesim
truth=$b/tests/prof_truth
elf=$b/firmware/examples/longjmp.elf
keep=main,work,thrower; cmp="work thrower"; ncalls="work=10 thrower=1"; tot=    # tot: functions whose totals are compared
case $case_ in
  records_fib|flow_fib) elf=$b/firmware/examples/fib.elf; keep=main,fib; cmp=fib; ncalls="fib=465" ;;
  records_deep) elf=$b/firmware/tests/longjmp_deep.elf; keep=dive,iter,op_add,op_mul,op_xor
    cmp="dive iter op_add op_mul op_xor"; ncalls="dive=54 iter=6 op_add=13 op_mul=13 op_xor=13"; tot="dive iter" ;;
  flow_timer_isr) elf=$b/firmware/examples/timer_isr.elf; cmp="busy_mem busy_mul ts_trap_entry perf_timer_tick" ;;
  records_traps|flow_traps|records_traps_event|flow_traps_event) elf=$b/firmware/examples/nested_traps.elf; keep=work,leaf,on_tick,on_soft,on_ecall
    cmp="work leaf on_tick on_soft on_ecall"; ncalls="work=12 on_tick=12 on_soft=12 on_ecall=4 leaf=544"
    case $case_ in flow_*) cmp="work $cmp ts_trap_entry" ;; esac
    case $case_ in *_event) mode=event; case_=${case_%_event} ;; esac ;;
  threads_records|threads_flow) elf=$b/firmware/examples/rr_threads.elf; keep=rr_leaf,rr_tree,rr_hash,rr_mix,rr_alpha,rr_beta,rr_gamma
    cmp="rr_leaf rr_tree rr_hash rr_mix rr_alpha rr_beta rr_gamma" ;;
esac
run=$b/test-runs/prof_truth_$name
fail() { echo "FAIL (profile truth $name): $*"; exit 1; }
rm -rf "$run" "$run".*
case $case_ in
records|records_fib|records_traps|records_deep)
  ev=; [ "$name" != "$case_" ] && ev="--trace-insn $mode --trace-sram 1M"
  "$ts" run -q $ev --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" report --elf "$elf" "$run/trace.rtd" > "$run.txt" 2> "$run.err" || fail "report exited $?"
  "$ts" report --compensate --elf "$elf" "$run/trace.rtd" > "$run.comp.txt" 2> /dev/null || fail "report --compensate exited $?"
  "$ts" report --compensate -f csv --elf "$elf" -o "$run.csv.d" "$run/trace.rtd" 2> /dev/null || fail "report -f csv exited $?"
  grep -q "still active" "$run.txt" && fail "frames still active: $(grep 'still active' "$run.txt")"
  if [ "$case_" = records ]; then
    grep -q "^  1 enter record(s) called from below the top of the call stack" "$run.txt" || fail "no repair in the notes: $(grep -A30 '^Notes' "$run.txt")"
    grep -q "closed there (repairs)" "$run.txt" || fail "repairs not explained"
    grep -q "thrower \[[0-9]*\]$" "$run.txt" || fail "no thrower in the call graph"
    awk '/^Call graph/ { g = 1 } g && / work \[[0-9]+\]$/ && !/^  \[/ && prev ~ /thrower/ { bad = 1 } { prev = $0 } END { exit bad }' "$run.txt" ||
      fail "work appears as a callee of thrower"
    U=$(sed -n 's/.*not attributed: \([0-9]*\) (control left.*/\1/p' "$run.comp.txt")
    [ -n "$U" ] || fail "no cycles not attributed in the compensated report"
  elif [ "$case_" = records_deep ]; then
    U=$(sed -n 's/.*not attributed: \([0-9]*\) (control left.*/\1/p' "$run.comp.txt")
    [ -n "$U" ] || fail "no cycles not attributed in the compensated report"
    grep -A1 "^  3 enter record(s) called from below the top of the call stack" "$run.txt" | grep -q " 27 frame(s)" ||
      fail "not 3 repairs of 27 frames: $(sed -n '/^Notes/,$p' "$run.txt")"
  else
    grep -q "not attributed\|called from below" "$run.txt" && fail "recursion taken for a longjmp: $(grep -A30 '^Notes' "$run.txt")"
    U=0
  fi
  # the profile's span: from the hook call of the first record (the first after the call of
  # perfTraceOn, flow.csv) to that of the last (the last before the call of perfTraceOff)
  on=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "perfTraceOn" { print "0x" $1 }')
  off=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "perfTraceOff" { print "0x" $1 }')
  con=$(awk -F, -v a="$on" '$3 == "call" && $5 == a { print $1; exit }' "$run/flow.csv")
  coff=$(awk -F, -v a="$off" '$3 == "call" && $5 == a { print $1; exit }' "$run/flow.csv")
  [ -n "$con" ] && [ -n "$coff" ] || fail "no call of perfTraceOn/perfTraceOff in flow.csv"
  first=$(awk -F, -v a="$con" 'NR > 1 && $3 ~ /^__cyg_profile_func_/ && $1 > a { print $1; exit }' "$run/hooks.csv")
  last=$(awk -F, -v b="$coff" 'NR > 1 && $3 ~ /^__cyg_profile_func_/ && $1 < b { c = $1 } END { print c }' "$run/hooks.csv")
  [ -n "$first" ] && [ -n "$last" ] || fail "no hook calls in hooks.csv"
  "$truth" "$elf" "$run.retire" --after "$first" --before "$last" --keep "$keep" \
    --drop __cyg_profile_func_enter,__cyg_profile_func_exit > "$run.truth" || fail "prof_truth exited $?"
  out=$(awk -F, -v U="$U" -v TOL="$TOL" -v cmp="$cmp" -v ncalls="$ncalls" -v tot="$tot" '
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    FILENAME ~ /truth$/ { T[$1] = $(col[FILENAME, "attr_cycles"]); TT[$1] = $(col[FILENAME, "total_cycles"]); next }
    { f = $(col[FILENAME, "function"]); S[f] = $(col[FILENAME, "cycles_self"]); C[f] = $(col[FILENAME, "calls"]); ST[f] = $(col[FILENAME, "cycles_total"]) }
    END {
      nt = split(tot, tf, " ")
      for (i = 1; i <= nt; i++) {
        f = tf[i]
        printf "%s: total %d, truth %d;", f, ST[f], TT[f]
        if (ST[f] < TT[f] - U - TOL * C[f] || ST[f] > TT[f] + TOL * C[f]) { printf " FAIL: outside [%d, %d]\n", TT[f] - U - TOL * C[f], TT[f] + TOL * C[f]; exit 1 }
      }
      nn = split(ncalls, w, " ")
      for (i = 1; i <= nn; i++) { split(w[i], kv, "="); if (C[kv[1]] != kv[2]) { printf "FAIL: %s: %s calls, expected %s\n", kv[1], C[kv[1]], kv[2]; exit 1 } }
      nc = split(cmp, fs, " ")
      for (i = 1; i <= nc; i++) {
        f = fs[i]
        lo = S[f] - TOL * C[f]; hi = S[f] + U + TOL * C[f]
        printf "%s: self %d, truth %d, not attributed %d;", f, S[f], T[f], U
        if (T[f] < lo || T[f] > hi) { printf " FAIL: outside [%d, %d]\n", lo, hi; exit 1 }
      }
      print ""
    }' "$run.truth" "$run.csv.d/report.csv")
  case $out in *FAIL*|"") fail "${out:-no comparison}" ;; esac
  echo "ok (profile truth $name): $out" ;;
flow|flow_fib|flow_timer_isr|flow_traps|threads_flow)
  stm=; [ "$case_" = threads_flow ] && stm=--stm-thread-switch
  "$ts" run -q --trace-sram 1M --trace-insn $mode $stm --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" report --from flow -f csv "$run" > "$run.csv" || fail "report --from flow exited $?"
  "$ts" report --from flow "$run" > "$run.txt" || fail "report --from flow (text) exited $?"
  if [ "$case_" = threads_flow ]; then
    grep -q "^[0-9]* thread switch(es) (THREAD_SWITCH)" "$run.txt" || fail "no thread switch noted: $(head -3 "$run.txt")"
  elif [ "$case_" = flow ]; then
    grep -q "return(s) landed in a function below the top of the call stack" "$run.txt" || fail "no repair noted"
  else
    grep -q "return(s) landed in a function below" "$run.txt" && fail "a repair without a longjmp: $(head -3 "$run.txt")"
  fi
  lo=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "start" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
  hi=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["kind"] == "stop" { print $c["cycle"]; exit }' "$run/prog_flow.csv")
  [ -n "$lo" ] && [ -n "$hi" ] || fail "no start/stop rows in prog_flow.csv"
  "$truth" "$elf" "$run.retire" --after "$lo" --before "$hi" > "$run.truth" || fail "prof_truth exited $?"
  out=$(awk -F, -v cmp="$cmp" '
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
      printf "%d instructions: every function'"'"'s self equal; total of %s equal\n", n, cmp
    }' "$run.truth" "$run.csv")
  case $out in *FAIL*|"") fail "${out:-no comparison}" ;; esac
  echo "ok (profile truth $name): $out" ;;
threads_records)
  "$ts" run -q --stm-thread-switch --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
  "$ts" report "$run" > "$run.txt" 2> "$run.err" || fail "report exited $?"
  "$ts" report -f csv -o "$run.csv.d" "$run" 2> /dev/null || fail "report -f csv exited $?"
  grep -q "still active\|without a matching enter\|ended by the exit of a function below" "$run.txt" &&
    fail "frames mixed: $(sed -n '/^Notes/,$p' "$run.txt")"
  grep -q "before its first thread switch" "$run.txt" && fail "a thread before the first switch"
  [ "$(grep -c '^  hart 0, thread 0x' "$run.txt")" = 3 ] || fail "not 3 threads: $(grep '^  hart' "$run.txt")"
  on=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "perfTraceOn" { print "0x" $1 }')
  off=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "perfTraceOff" { print "0x" $1 }')
  con=$(awk -F, -v a="$on" '$3 == "call" && $5 == a { print $1; exit }' "$run/flow.csv")
  coff=$(awk -F, -v a="$off" '$3 == "call" && $5 == a { print $1; exit }' "$run/flow.csv")
  first=$(awk -F, -v a="$con" 'NR > 1 && $3 ~ /^__cyg_profile_func_/ && $1 > a { print $1; exit }' "$run/hooks.csv")
  last=$(awk -F, -v b="$coff" 'NR > 1 && $3 ~ /^__cyg_profile_func_/ && $1 < b { c = $1 } END { print c }' "$run/hooks.csv")
  [ -n "$con" ] && [ -n "$coff" ] && [ -n "$first" ] && [ -n "$last" ] || fail "no perfTraceOn/perfTraceOff or hook calls"
  # calls from the call of perfTraceOn on (rr_alpha's is before the first hook); totals over the records' span
  "$truth" "$elf" "$run.retire" --after "$con" --before "$coff" --keep "$keep" --threads "$run.thr" > /dev/null || fail "prof_truth exited $?"
  "$truth" "$elf" "$run.retire" --after "$first" --before "$last" --keep "$keep" > "$run.truth" || fail "prof_truth exited $?"
  U=$(sed -n 's/.*not attributed: \([0-9]*\) (intervals with a thread switch.*/\1/p' "$run.txt")
  [ -n "$U" ] || fail "no cycles not attributed around the switches"
  out=$(awk -v cmp="$cmp" '
    BEGIN { nc = split(cmp, fs, " "); for (i = 1; i <= nc; i++) want[fs[i]] = 1 }
    FILENAME ~ /thr$/ { split($0, a, ","); if (a[1] != "thread" && (a[2] in want)) { tc[a[1] "," a[2]] = a[3]; nt++ } next }
    /^  hart 0, thread 0x/ { t = $4; sub(/:$/, "", t); next }
    t != "" && NF == 3 && ($3 in want) { pc[t "," $3] = $1; np++ }
    /^Instrumentation|^Notes|^ISR/ { t = "" }
    END {
      if (!nt) { print "FAIL: no truth per thread"; exit 1 }
      for (k in tc) if (tc[k] + 0 != pc[k] + 0) { printf "FAIL: thread,function %s: %d calls, truth %d\n", k, pc[k], tc[k]; exit 1 }
      for (k in pc) if (!(k in tc)) { printf "FAIL: thread,function %s: %d calls, none in the truth\n", k, pc[k]; exit 1 }
      printf "%d thread/function call counts equal;", np
    }' "$run.thr" "$run.txt")
  case $out in *FAIL*|"") fail "${out:-no comparison}" ;; esac
  # the same per thread from the CSV (report -f csv: a thread column, rows "all" and per thread)
  outc=$(awk -F, -v cmp="$cmp" '
    BEGIN { nc = split(cmp, fs, " "); for (i = 1; i <= nc; i++) want[fs[i]] = 1 }
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    FILENAME ~ /thr$/ { if ($2 in want) tc[$1 "," $2] = $3; next }
    !col[FILENAME, "thread"] { print "FAIL: report.csv has no thread column"; exit 1 }
    { t = $(col[FILENAME, "thread"]); f = $(col[FILENAME, "function"]) }
    t != "all" && (f in want) { pc[t "," f] = $(col[FILENAME, "calls"]); np++ }
    END {
      for (k in tc) if (tc[k] + 0 != pc[k] + 0) { printf "FAIL: report.csv thread,function %s: %d calls, truth %d\n", k, pc[k], tc[k]; exit 1 }
      for (k in pc) if (!(k in tc)) { printf "FAIL: report.csv thread,function %s: %d calls, none in the truth\n", k, pc[k]; exit 1 }
      printf " CSV: %d thread rows equal;", np
    }' "$run.thr" "$run.csv.d/report.csv")
  case $outc in *FAIL*|"") fail "${outc:-no comparison}" ;; esac
  out="$out$outc"
  out2=$(awk -F, -v U="$U" -v TOL="$TOL" '
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    FILENAME ~ /truth$/ { T[$1] = $(col[FILENAME, "total_cycles"]); next }
    (col[FILENAME, "thread"] && $(col[FILENAME, "thread"]) != "all") { next }
    { S[$(col[FILENAME, "function"])] = $(col[FILENAME, "cycles_total"]) }
    END {
      split("rr_alpha rr_beta rr_gamma rr_mix", fs, " ")
      for (i = 1; i <= 4; i++) {
        f = fs[i]
        printf " %s total %d, truth %d;", f, S[f], T[f]
        if (S[f] > T[f] + TOL || S[f] < T[f] - U - TOL) { printf " FAIL: outside [%d, %d]\n", T[f] - U - TOL, T[f] + TOL; exit 1 }
      }
      printf " not attributed %d\n", U
    }' "$run.truth" "$run.csv.d/report.csv")
  case $out2 in *FAIL*|"") fail "$out ${out2:-no comparison}" ;; esac
  # compensated self cycles (the hooks' cycles out, measured under preemption) against the
  # truth as records see it, within the tolerance: S - TOL * calls <= T <= S + Uc + TOL * calls
  "$ts" report --compensate "$run" > "$run.comp.txt" 2>&1 || fail "report --compensate exited $?"
  "$ts" report --compensate -f csv -o "$run.comp.d" "$run" 2> /dev/null || fail "report --compensate -f csv exited $?"
  grep -Eq "measured only in part|not measured" "$run.comp.txt" && fail "hook cycles not all measured: $(grep -E 'measured only in part|not measured' "$run.comp.txt")"
  Uc=$(sed -n 's/.*not attributed: \([0-9]*\) (intervals with a thread switch.*/\1/p' "$run.comp.txt")
  [ -n "$Uc" ] || fail "no cycles not attributed in the compensated report"
  "$truth" "$elf" "$run.retire" --after "$first" --before "$last" --keep "$keep" \
    --drop __cyg_profile_func_enter,__cyg_profile_func_exit > "$run.ctruth" || fail "prof_truth exited $?"
  out3=$(awk -F, -v U="$Uc" -v TOL="$TOL" -v cmp="$cmp" '
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    FILENAME ~ /ctruth$/ { T[$1] = $(col[FILENAME, "attr_cycles"]); next }
    (col[FILENAME, "thread"] && $(col[FILENAME, "thread"]) != "all") { next }
    { S[$(col[FILENAME, "function"])] = $(col[FILENAME, "cycles_self"]); C[$(col[FILENAME, "function"])] = $(col[FILENAME, "calls"]) }
    END {
      nc = split(cmp, fs, " ")
      for (i = 1; i <= nc; i++) {
        f = fs[i]
        lo = S[f] - TOL * C[f]; hi = S[f] + U + TOL * C[f]
        printf " %s self %d, truth %d;", f, S[f], T[f]
        if (T[f] < lo || T[f] > hi) { printf " FAIL: outside [%d, %d]\n", lo, hi; exit 1 }
      }
      printf " compensated, not attributed %d\n", U
    }' "$run.ctruth" "$run.comp.d/report.csv")
  case $out3 in *FAIL*|"") fail "$out$out2 ${out3:-no comparison}" ;; esac
  echo "ok (profile truth $case_): $out$out2$out3" ;;
threads_waves)
  elf=$b/firmware/examples/rr_threads.elf
  "$ts" run -q --waves "$run/w.fst" --waves-func rr_hash --retire-log "$run.retire" -o "$run" "$elf" > /dev/null ||
    fail "run exited $?"
  W=$(awk -F, 'NR > 1 { s += $2 - $1 } END { print s + 0 }' "$run/waves_windows.csv")
  T=$("$truth" "$elf" "$run.retire" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == "rr_hash" { print $c["total_cycles"] }')
  [ -n "$T" ] || fail "no truth for rr_hash"
  # the window edges (docs/commands/waves.md): it opens as rr_hash's first instruction retires
  # (F: the cycles of those instructions, in T, not in W) and closes after the instruction a
  # return from rr_hash lands on (L: their cycles, in W, not in T); from the retire log
  # hex() in the awk scripts: a string "0x..." + 0 is 0 in Debian 13's mawk and gawk (only
  # Debian 12's mawk read it as hex)
  h=$(riscv64-unknown-elf-nm -S "$elf" | awk '$4 == "rr_hash" { print $1, $2 }')
  FL=$(awk -v lo="${h% *}" -v n="${h#* }" '
    function hex(s,  i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    BEGIN { lo = hex(lo); hi = lo + hex(n) }
    $3 == "trap" { next }
    { pc = hex($2); c = $1 - (seen ? prev : $1); prev = $1; seen = 1
      if (pc == lo) F += c
      if (land && (pc < lo || pc >= hi)) L += c
      land = pc >= lo && pc < hi && ($3 == "00008067" || $3 == "00008082") }
    END { print F + 0, L + 0 }' "$run.retire")
  F=${FL% *}; L=${FL#* }
  [ -n "$h" ] && [ "$F" -gt 0 ] && [ "$L" -gt 0 ] || fail "no calls of rr_hash or returns from it in the retire log"
  [ "$W" -ge $((T - F)) ] && [ "$W" -le $((T + L)) ] ||
    fail "rr_hash windows $W cycles, truth $T (first instructions $F, instructions returned to $L: expected $((T - F)) to $((T + L)))"
  echo "ok (profile truth threads_waves): rr_hash windows $W cycles, truth $T, first instructions $F, returned to $L" ;;
waves)
  "$ts" run -q --waves "$run/w.fst" --waves-func thrower --retire-log "$run.retire" -o "$run" "$elf" > /dev/null ||
    fail "run exited $?"
  [ "$(wc -l < "$run/waves_windows.csv")" = 2 ] || fail "--waves-func thrower: windows $(tr '\n' ' ' < "$run/waves_windows.csv")"
  # the window ends with the instruction longjmp's return lands on (as with a return)
  lj=$(riscv64-unknown-elf-nm -S "$elf" | awk '$4 == "longjmp" { print $1, $2 }')
  land=$(awk -v lo="${lj% *}" -v n="${lj#* }" '
    function hex(s,  i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    BEGIN { lo = hex(lo); hi = lo + hex(n) }
    ret { print $1; exit }
    { pc = hex($2); ret = pc >= lo && pc < hi && ($3 == "00008067" || $3 == "00008082") }' "$run.retire")
  to=$(awk -F, 'NR == 2 { print $2 }' "$run/waves_windows.csv")
  [ -n "$land" ] && [ "$to" = $((land + 1)) ] || fail "thrower's window ends at $to, longjmp lands at $land"
  "$ts" run -q --waves "$run/w2.fst" --waves-func work -o "$run.work" "$elf" > /dev/null || fail "run (work) exited $?"
  [ "$(wc -l < "$run.work/waves_windows.csv")" = 11 ] || fail "--waves-func work: windows $(tr '\n' ' ' < "$run.work/waves_windows.csv")"
  echo "ok (profile truth waves): thrower's window ends at $to (longjmp lands at $land); work: 10 windows" ;;
*) fail "unknown case" ;;
esac
