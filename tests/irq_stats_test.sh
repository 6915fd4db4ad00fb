#!/usr/bin/env bash
# irq_stats_test.sh BUILD_DIR CASE - interrupts and threads in numbers (`report -f irq`) and
# the ground truth they rest on (traps.csv), against numbers worked out here with awk from
# files the code under test does not write or read:
#  - traps.csv against the retire log (--retire-log, written by another path of the
#    simulator): every trap's cycle and cause, its handler's first instruction (the next
#    line), its xRET (an mret/sret popping a stack of open traps), its depth (the stack's size);
#    and the pending cycle where the core's rule makes it certain: an interrupt taken right
#    after a CSR write to mie (its enable) was pending from the cycle after that write.
#  - report -f irq-csv's truth rows against flow.csv (trap and mret rows paired with a stack)
#    for the visits, nesting and handler time per cause, against traps.csv's pending/first
#    columns for the latency, and against stm.csv (THREAD_SWITCH, id 0x8000) plus flow.csv
#    for the threads (visits, time switched in, preemptions = switches inside an interrupt's
#    handler); its trace rows against the same (the trace's events must all be there).
# CASE: irq (firmware/tests/irq.c: timer and software interrupts, masked by mie, WFI),
# nested (examples/nested_traps.c with --trace-insn event: a software interrupt nested in the
# timer's handler, ecalls; the trace's ICT exception/interrupt events), threads
# (tests/prof_accept.c with --stm-thread-switch: a preemptive 3-thread kernel).
set -u
b=$1; case_=$2
t=$b/tracesim
run=$b/test-runs/irq_stats_$case_; rm -rf "$run" "$run".*
fail() { echo "FAIL (irq_stats $case_): $*"; exit 1; }
case $case_ in
irq) elf=$b/firmware/tests/irq.elf; opts="" ;;
nested) elf=$b/firmware/examples/nested_traps.elf; opts="--trace-insn event" ;;
threads) elf=$b/firmware/tests/prof_accept.elf; opts="--stm-thread-switch" ;;
*) fail "unknown case" ;;
esac
# shellcheck disable=SC2086
"$t" run -q $opts --retire-log "$run.retire" -o "$run" "$elf" > /dev/null 2> "$run.err" || fail "run exited $?: $(tail -1 "$run.err")"
[ -f "$run/traps.csv" ] || fail "no traps.csv"

# 1. traps.csv from the retire log: "cycle cause first ret depth" per trap, sorted
awk '{ if ($1 ~ /^h/) next }
  $3 == "trap" { if (await) first[top] = $1; top = ++n; stack[++sp] = n; cyc[n] = $1; cause[n] = substr($4, 8); depth[n] = sp - 1; await = 1; next }
  { if (await) { first[stack[sp]] = $1; await = 0 }
    if (($3 == "30200073" || $3 == "10200073") && sp) { ret[stack[sp]] = $1; sp-- } }
  END { for (i = 1; i <= n; i++) print cyc[i], cause[i], first[i], ret[i], depth[i] }' "$run.retire" | sort > "$run.want"
awk -F, 'NR > 1 { print $1, $3, $7, $8, $9 }' "$run/traps.csv" | sort > "$run.got"
[ -s "$run.want" ] || fail "no trap in the retire log"
cmp -s "$run.want" "$run.got" || fail "traps.csv differs from the retire log: $(diff "$run.want" "$run.got" | head -5)"
# the pending cycle of interrupts taken right after a write of mie: that write's cycle + 1
awk '$3 == "trap" && substr($4, 8, 3) == "0x8" && prev_mie { print $1, pcyc + 1 }
  { if ($3 != "trap") { i = $3; pcyc = $1   # csrrs/csrrc/csrrw(i) x0, mie (0x304): csr, funct3 != 0, rd 0, opcode 0x73
      prev_mie = substr(i, 1, 3) == "304" && substr(i, 7, 2) == "73" && substr(i, 6, 1) == "0" && substr(i, 5, 1) !~ /[08]/ } }' \
  "$run.retire" > "$run.mie"
if [ "$case_" = irq ]; then
  [ -s "$run.mie" ] || fail "no interrupt taken right after an mie write (irq.c step 2)"
  while read -r cyc want; do
    got=$(awk -F, -v c="$cyc" '$1 == c { print $6 }' "$run/traps.csv")
    [ "$got" = "$want" ] || fail "trap at $cyc: pending $got, want $want (the cycle after the mie write)"
  done < "$run.mie"
fi
# every interrupt has pending <= taken < first
awk -F, 'NR > 1 && substr($3, 3, 1) == "8" && !($6 != "" && $6 <= $1 && $1 < $7) { print; bad = 1 } END { exit bad }' \
  "$run/traps.csv" > "$run.badpend" || fail "pending/first out of order: $(head -2 "$run.badpend")"

# 2. the report's truth rows per cause against flow.csv and traps.csv
"$t" report -f irq-csv "$run" > "$run.csv" 2> "$run.rerr" || fail "report -f irq-csv exited $?: $(cat "$run.rerr")"
"$t" report -f irq "$run" > "$run.txt" 2> "$run.rerr" || fail "report -f irq exited $?: $(cat "$run.rerr")"
grep -q "which the" "$run.txt" || fail "the text does not say the trace cannot know the pending time"
awk -F, 'NR > 1 && ($3 == "trap" || $3 == "mret" || $3 == "sret") { print $1, $2, $3, $6 }' "$run/flow.csv" | sort -n -k1,1 |
  awk '$3 == "trap" { h = $2; c = $4; sp[h]++; st[h, sp[h]] = c; tk[h, sp[h]] = $1; d = sp[h] - 1
          k = h "," c; v[k]++; if (d) nest[k]++; if (d > md[k]) md[k] = d; next }
        sp[$2] { h = $2; k = h "," st[h, sp[h]]; x = $1 - tk[h, sp[h]]; sp[h]--
          if (!(k in mn) || x < mn[k]) mn[k] = x; if (x > mx[k]) mx[k] = x }
        END { for (k in v) print k, v[k], nest[k] + 0, md[k] + 0, mn[k], mx[k] }' | sort > "$run.cause_want"
awk -F, 'NR > 1 && substr($3, 3, 1) == "8" && $6 != "" && $7 != "" { k = $2 "," $3; x = $7 - $6
           if (!(k in mn) || x < mn[k]) mn[k] = x; if (x > mx[k]) mx[k] = x }
         END { for (k in mn) print k, mn[k], mx[k] }' "$run/traps.csv" | sort > "$run.lat_want"
awk -F, '$1 == "truth" && $2 == "cause" { print $3 "," $4, $6, $7, $8, $10, $12 }' "$run.csv" | sort > "$run.cause_got"
awk -F, '$1 == "truth" && $2 == "cause" && $13 != "" { print $3 "," $4, $13, $15 }' "$run.csv" | sort > "$run.lat_got"
cmp -s "$run.cause_want" "$run.cause_got" ||
  fail "per cause (hart,cause visits nested depth time_min time_max): $(diff "$run.cause_want" "$run.cause_got" | head -6)"
cmp -s "$run.lat_want" "$run.lat_got" || fail "latency (min max): $(diff "$run.lat_want" "$run.lat_got" | head -6)"

case $case_ in
nested)
  # a software interrupt nested in the timer's handler
  awk -F, '$1 == "truth" && $4 == "0x80000003" && $7 > 0 && $8 >= 1 { ok = 1 } END { exit !ok }' "$run.csv" ||
    fail "no nested software interrupt: $(grep 0x80000003 "$run.csv")"
  # the trace's events: every trap of the traced stretch, with its cause (ICT CKDATA1)
  awk -F, '$1 == "trace" && $2 == "cause" { print $3 "," $4, $6 }' "$run.csv" | sort > "$run.tr_got"
  [ -s "$run.tr_got" ] || fail "no trap events from the event-mode trace"
  awk '{ print $1, $2 }' "$run.cause_want" > "$run.tr_all"
  cmp -s "$run.tr_all" "$run.tr_got" || fail "trace visits differ from the ground truth: $(diff "$run.tr_all" "$run.tr_got" | head -6)"
  ;;
threads)
  # switches (stm.csv, THREAD_SWITCH) merged with the traps (flow.csv) in cycle order; at one
  # cycle a trap row comes first (a switch is a write of tp, never a trapping instruction)
  { awk -F, 'NR > 1 && $3 == "0x8000" { print $1, 1, "sw", $2, $4 }' "$run/stm.csv"
    awk -F, 'NR > 1 && ($3 == "trap" || $3 == "mret") { print $1, 0, $3, $2, $6 }' "$run/flow.csv"; } | sort -n -k1,1 -k2,2 |
    awk '$3 == "trap" { h = $4; st[h, ++sp[h]] = substr($5, 3, 1) == "8"; next }
         $3 == "mret" { if (sp[$4]) sp[$4]--; next }
         { h = $4; id = $5
           if (run[h] && cur[h] == id) next
           if (run[h]) { k = h "," cur[h]; x = $1 - since[h]; n[k]++
             if (!(k in mn) || x < mn[k]) mn[k] = x; if (x > mx[k]) mx[k] = x
             if (sp[h] && st[h, sp[h]]) pre[k]++ }
           k = h "," id; v[k]++; run[h] = 1; cur[h] = id; since[h] = $1 }
         END { for (k in v) print k, v[k], mn[k], mx[k], pre[k] + 0 }' | sort > "$run.thr_want"
  awk -F, '$1 == "truth" && $2 == "thread" { print $3 "," $4, $6, $10, $12, $19 }' "$run.csv" | sort > "$run.thr_got"
  [ "$(wc -l < "$run.thr_want")" -ge 3 ] || fail "fewer than 3 threads in stm.csv"
  cmp -s "$run.thr_want" "$run.thr_got" ||
    fail "threads (hart,id visits time_min time_max preemptions): $(diff "$run.thr_want" "$run.thr_got" | head -6)"
  awk '$5 > 0 { ok = 1 } END { exit !ok }' "$run.thr_want" || fail "no preemption in the ground truth"
  # the trace's THREAD_SWITCH events: the visits of the switches stm.csv says were traced
  # (those made before the firmware turned the trace on are not in it)
  awk -F, '$1 == "trace" && $2 == "thread" { print $3 "," $4, $6 }' "$run.csv" | sort > "$run.trthr_got"
  awk -F, 'NR > 1 && $3 == "0x8000" && $5 == "traced" { if (run[$2] && cur[$2] == $4) next; v[$2 "," $4]++; run[$2] = 1; cur[$2] = $4 }
           END { for (k in v) print k, v[k] }' "$run/stm.csv" | sort > "$run.trthr_want"
  [ -s "$run.trthr_want" ] || fail "no THREAD_SWITCH traced"
  cmp -s "$run.trthr_want" "$run.trthr_got" || fail "trace thread visits: $(diff "$run.trthr_want" "$run.trthr_got" | head -6)"
  ;;
esac
echo "ok (irq_stats $case_): $(wc -l < "$run.want") traps"
