#!/usr/bin/env bash
# perf_preempt_test.sh BUILD_DIR - `tracesim check` under preemption (firmware/tests/
# perf_preempt.c: three threads with their own stacks and tp, switched round robin by every
# timer tick, the perf library in entry/exit mode). From the ground truth (flow.csv's traps,
# the hooks' address ranges from the ELF) some ticks came inside a perf hook before it turned
# interrupts off, so the thread's record was written after it resumed, with the other
# threads' hook calls and records in between; check must pass on that run, compare every
# record the firmware counted (uart.txt), and still fail when one hook entry's call site
# (hooks.csv a1) is changed; report --compensate must not give up on the nesting.
set -u
b=$1
t=$b/tracesim; elf=$b/firmware/tests/perf_preempt.elf
run=$b/test-runs/perf_preempt; rm -rf "$run" "$run".*
fail() { echo "FAIL (perf_preempt): $*"; exit 1; }
"$t" run -q -o "$run" "$elf" > /dev/null 2> "$run.err" || fail "firmware exited $?: $(tail -1 "$run.err")"
recs=$(sed -n 's/^perf_preempt: \([0-9]*\) ticks, \([0-9]*\) records$/\2/p' "$run/uart.txt")
[ -n "$recs" ] && [ "$recs" -gt 100 ] || fail "the firmware did not record: $(cat "$run/uart.txt")"
# ticks taken inside a hook (or the writer it continues in) before it masked interrupts
ranges=$(riscv64-unknown-elf-nm -S "$elf" | awk '$4 ~ /^(__cyg_profile_func_(enter|exit)|write_delta2)$/ {print $1 "," $2}')
inside=$(awk -F, -v r="$ranges" '
  function hex(s,  i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
  BEGIN { n = split(r, a, " "); for (i = 1; i <= n; i++) { split(a[i], x, ","); lo[i] = hex(x[1]); hi[i] = lo[i] + hex(x[2]) } }
  $3 == "trap" { pc = hex($4); for (i = 1; i <= n; i++) if (pc >= lo[i] && pc < hi[i]) c++ }
  END { print c + 0 }' "$run/flow.csv")
[ "$inside" -gt 0 ] || fail "no tick came inside a hook: the preemption is not exercised"
# every tick switched threads: the tp values the threads run with (the retire log is not
# needed: the trap vector writes tp on every switch, and a switch is every trap)
traps=$(awk -F, '$3 == "trap"' "$run/flow.csv" | wc -l)
[ "$traps" -gt 10 ] || fail "only $traps ticks"
"$t" check "$run" > "$run.out" 2>&1 || fail "check failed under preemption: $(tail -3 "$run.out")"
grep -q "^check: compared $recs perf records in the trace: each equals the ground truth" "$run.out" || fail "not all $recs records compared: $(cat "$run.out")"
grep -q "^check: [0-9]* stores, $recs perf records, OK$" "$run.out" || fail "no verdict: $(cat "$run.out")"
# matching by the call's arguments still catches a wrong call site
cp -r "$run" "$run.bad"
awk -F, -v OFS=, 'NR > 1 && $3 == "__cyg_profile_func_enter" && !done && n++ == 20 { $7 = "0x80000002"; done = 1 } 1' \
  "$run/hooks.csv" > "$run.bad/hooks.csv"
cmp -s "$run/hooks.csv" "$run.bad/hooks.csv" && fail "hooks.csv not changed"
"$t" check "$run.bad" > "$run.bad.out" 2>&1 && fail "check passed a changed call site"
grep -q "tracesim: check FAILED: record [0-9]* (enter at .*call site .*, but __cyg_profile_func_enter was entered with" "$run.bad.out" ||
  fail "the failure does not name the record: $(cat "$run.bad.out")"
"$t" report --compensate "$run" > "$run.report" 2>&1 || fail "report --compensate failed: $(tail -2 "$run.report")"
# every hook call measured: the calls left open by preempted threads do not stop the
# measurement (main: "instrumentation cost measured only in part: ... more than 8 nested hook
# calls", exit 0)
grep -Eq "measured only in part|nested hook calls" "$run.report" && fail "report --compensate gave up: $(grep -E 'measured only in part|nested' "$run.report")"
# hooks.csv's tp (the calling thread, x4 at the hook's entry) against the firmware's own
# scheme, from the ELF and flow.csv only: thread 0 (main) keeps the BSP's tp (__tls_base),
# threads 1 and 2 run with &threads[i] (8-byte thread_t); tick k switches round robin to
# thread k mod 3, so a hook entered after k traps was called by thread k mod 3, and the
# k-th mret (flow.csv tp: the thread it resumes) resumes thread k mod 3
head -1 "$run/hooks.csv" | grep -qx 'cycle,hart,hook,how,pc,a0,a1,ra,tp' || fail "hooks.csv has no tp column: $(head -1 "$run/hooks.csv")"
syms=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "__tls_base" { b = $1 } $3 == "threads" { t = $1 } END { print b "," t }')
tpbad=$( { awk -F, 'NR > 1 && $3 == "trap" { print $1 ",0,t" }' "$run/flow.csv"
           awk -F, 'NR > 1 && $3 == "mret" { print $1 ",1," $7 }' "$run/flow.csv"
           awk -F, 'NR > 1 { print $1 ",1," $9 }' "$run/hooks.csv"; } | sort -t, -k1,1n -k2,2n -s |
  awk -F, -v s="$syms" '
    function hex(x,  i, v) { v = 0; x = tolower(x); sub(/^0x/, "", x)
      for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1; return v }
    BEGIN { split(s, a, ","); want[0] = hex(a[1]); want[1] = hex(a[2]) + 8; want[2] = hex(a[2]) + 16 }
    $3 == "t" { k++; next }
    { n[k % 3]++; if (hex($3) != want[k % 3]) bad++ }
    END { print bad + 0 " " n[0] + 0 " " n[1] + 0 " " n[2] + 0 }')
set -- $tpbad
[ "$1" = 0 ] || fail "$1 hooks.csv or flow.csv mret rows name another thread (tp) than the one the ticks had switched to"
[ "$2" -gt 0 ] && [ "$3" -gt 0 ] && [ "$4" -gt 0 ] || fail "not every thread called a hook: $tpbad"
echo "ok (perf_preempt: $recs records, $traps ticks, $inside inside a hook; hook calls by thread: $2 $3 $4)"
