#!/usr/bin/env bash
# isr_profile_test.sh BUILD_DIR CASE - interrupt handlers in profiles from program trace:
# `tracesim report --from flow` on timer_isr.elf (a timer interrupt every 10000 cycles, its
# handler calls the perf library) must give every function exactly the instructions the
# core retired inside its symbol range while tracing, so the handler's instructions go to
# ts_trap_entry, perf_timer_trap, ... and not to the busy_* function each interrupt
# preempted. The expected counts come from the retire log (--retire-log), the traced window
# from prog_flow.csv's start/stop rows and the ranges from `nm -S` of the ELF, by awk here.
#   btm, htm   --trace-insn btm / htm;
#   mutation   the comparison fails on the btm report with one self count off by one.
set -u
b=$1; case_=$2
run=$b/test-runs/isrprof_$case_
fail() { echo "FAIL (isr profile $case_): $*"; exit 1; }
elf=$b/firmware/examples/timer_isr.elf
ts=$b/tracesim
rm -rf "$run" "$run".*
mode=btm; [ "$case_" = htm ] && mode=htm
"$ts" run -q --trace-insn $mode --trace-sram 4M --retire-log "$run.retire" -o "$run" "$elf" > /dev/null || fail "run exited $?"
riscv64-unknown-elf-nm -S "$elf" > "$run.nm" || fail "nm failed"
"$ts" report --from flow --format csv "$run" > "$run.csv" || fail "report --from flow exited $?"
# compare RUN_CSV: one line, exit 1 on the first mismatch
compare() {
  read -r s e < <(awk -F, '$2==0 && $3=="start"{s=$1} $2==0 && $3=="stop"{e=$1} END{print s, e}' "$run/prog_flow.csv")
  [ -n "$s" ] && [ -n "$e" ] || { echo "FAIL: prog_flow.csv has no start and stop row"; return 1; }
  awk -v s="$s" -v e="$e" '
    function hex(x,   i, v) { sub(/^0x/, "", x); v = 0; for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(x, i, 1))) - 1; return v }
    function key(x) { sub(/^0x/, "", x); while (length(x) < 8) x = "0" x; return tolower(x) }
    FNR == NR { if (NF == 4 && $3 ~ /^[tTwW]$/ && $4 !~ /^\$/ && hex($2) > 0) { n++; lo[n] = hex($1); hi[n] = lo[n] + hex($2); k_[n] = key($1) } next }
    FILENAME == ARGV[2] {   # traced: after the store that started tracing, before the one that stopped it; traps did not execute
      if ($1 + 0 > s && $1 + 0 < e && $3 != "trap") { pc = hex($2); f = "none"; for (i = 1; i <= n; i++) if (pc >= lo[i] && pc < hi[i]) { f = k_[i]; break }; want[f]++ }
      next }
    FNR == 1 { next }
    { split($0, r, ","); got[key(r[3])] += r[5] }
    END { bad = 0; t = 0; nf = 0
          for (k in want) { t += want[k]; nf++; if (!bad && want[k] != got[k] + 0) { printf "FAIL: 0x%s: report %d, retire log %d\n", k, got[k], want[k]; bad = 1 } }
          for (k in got) if (!bad && !(k in want) && got[k] != 0) { printf "FAIL: 0x%s: report %d, retire log 0\n", k, got[k]; bad = 1 }
          if (!bad) printf "%d instructions in %d functions equal the retire log\n", t, nf; exit bad }' "$run.nm" "$run.retire" "$1"
}
case $case_ in
  btm|htm)
    out=$(compare "$run.csv") || fail "$out"
    # the handler is in the profile: ts_trap_entry ran once per interrupt (mcause 0x80000007)
    irqs=$(awk '$3 == "trap" && $4 == "mcause=0x80000007"' "$run.retire" | wc -l)
    calls=$(awk -F, '$2 == "ts_trap_entry" {print $4}' "$run.csv")
    [ "$irqs" -gt 100 ] && [ -n "$calls" ] && [ "$calls" -gt 0 ] || fail "no interrupts ($irqs) or no ts_trap_entry row"
    echo "ok (isr profile $case_): $out; $irqs interrupts" ;;
  mutation)
    awk -F, 'BEGIN{OFS=","} NR==2{$5=$5+1} {print}' "$run.csv" > "$run.bad.csv"
    out=$(compare "$run.bad.csv") && fail "the comparison passed a report with one count off: $out"
    echo "ok (isr profile mutation): $out" ;;
  *) fail "unknown case" ;;
esac
