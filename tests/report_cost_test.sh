#!/bin/sh
# report_cost_test.sh BUILD_DIR CASE - `tracesim report`'s instrumentation cost (README
# "Profile: `tracesim report`") against the ground truth, computed here with awk from the run
# folder alone (flow.csv, counters.csv) and the hooks' addresses from nm:
#   a hook call is a flow.csv `call` row whose target is the hook, ending at the `ret` row
#   that returns to its link; it wrote a record when counters.csv has a cycle/mcycle read
#   inside it; its cost is ret cycle - call cycle.
#   fib      (entry/exit, 930 records) the report's count and hook cycles equal that sum;
#            fib's self cycles are the last record's cycle read minus the first's, and with
#            --compensate the cycles between one hook's return and the next hook's call;
#            the counters are named as perf_config.h declares them (TS_HPM_LOAD | TS_HPM_STORE
#            is load|store, not raw_0x600)
#   manual   (perfWriteCntrs) and isr (perf_timer_tick): count and hook cycles; manual: the
#            three call sites are named by the lines of firmware/examples/manual.c that call
#            perfWriteCntrs() (found here with grep)
#   optimised  (oc_O2_delta: -O2, exit hooks entered by tail jumps, a timer interrupt whose
#            hooks nest inside the main line's hooks) every record is measured; the count and
#            hook cycles equal a second, independent sum: all three files merged in cycle order
#            (sort), hook entries from hooks.csv (call or tail; each returns to its ra), a stack
#            of open hooks, the first cycle read inside the innermost one, and the cycles from
#            an interrupt's trap to its mret taken out of the hooks it interrupted
#   fields   --fields picks and orders the CSV columns; an unknown field is one line, exit 120
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -eu
b=$1; case=$2
ts=$b/tracesim
fw=$b/firmware/examples
out=$b/test-runs/report_cost_$case
rm -rf "$out"; mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

# hook_sum RUN HOOK...: "<recording hook calls> <their cycles> <first read> <last read>
# <cycles between one hook's return and the next one's call>" of hart 0
hook_sum() {
    run=$1; shift
    addrs=""
    for h in "$@"; do
        a=$(riscv64-unknown-elf-nm "$elf" | awk -v s="$h" '$3 == s { print "0x" $1 }')
        [ -n "$a" ] || fail "no symbol $h in $elf"
        addrs="$addrs $a"
    done
    awk -F, -v addrs="$addrs" '
        BEGIN { n = split(addrs, a, " "); for (i = 1; i <= n; i++) hook[a[i]] = 1 }
        FNR == 1 { file++; next }
        file == 1 && $2 == 0 && ($4 == "cycle" || $4 == "mcycle") { rd[++nr] = $1; next }
        file == 2 && $2 == 0 && $3 == "call" && ($5 in hook) && !open { open = 1; e = $1; link = $6; next }
        file == 2 && $2 == 0 && $3 == "ret" && open && $5 == link {
            open = 0; x = $1
            while (ri < nr && rd[ri + 1] <= e) ri++          # first read after the call
            if (ri < nr && rd[ri + 1] <= x) {                # a record-writing hook call
                r = rd[ri + 1]; calls++; cyc += x - e
                if (!first) first = r
                last = r
                if (calls > 1) between += e - px
                px = x
            }
        }
        END { printf "%d %d %d %d %d\n", calls, cyc, first, last, between }' "$run/counters.csv" "$run/flow.csv"
}

# merged_sum RUN: "<recording hook calls> <their cycles>" of hart 0, the three files merged in
# cycle order (key: cycle, then counters 0 < flow 1 < hooks 2 within one cycle)
merged_sum() {
    r=$1
    { awk -F, 'NR > 1 { print $1 ",0," $0 }' "$r/counters.csv"
      awk -F, 'NR > 1 { print $1 ",1," $0 }' "$r/flow.csv"
      awk -F, 'NR > 1 { print $1 ",2," $0 }' "$r/hooks.csv"; } | sort -t, -k1,1n -k2,2n -s |
    awk -F, '
        $4 != 0 { next }
        $2 == 0 && ($6 == "cycle" || $6 == "mcycle") { if (sp && !(sp in rd) && e[sp] < $1) rd[sp] = $1; next }
        $2 == 2 { sp++; e[sp] = $1; link[sp] = $10; tr[sp] = 0; delete rd[sp]; next }
        $2 == 1 && $5 == "trap" { if (!traps++) t0 = $1; next }
        $2 == 1 && ($5 == "mret" || $5 == "sret") && traps { if (!--traps) for (i = 1; i <= sp; i++) if (e[i] < t0) tr[i] += $1 - t0; next }
        $2 == 1 && $5 == "ret" && sp && $7 == link[sp] {
            if (sp in rd) { calls++; cyc += $1 - e[sp] - tr[sp] }
            delete rd[sp]; sp--; next }
        END { printf "%d %d\n", calls, cyc }'
}

case $case in
fib|manual|isr)
    ex=$case; [ $case = isr ] && ex=timer_isr
    elf=$fw/$ex.elf
    "$ts" run -q --out "$out/run" "$elf" > /dev/null
    case $case in
    fib) set -- $(hook_sum "$out/run" __cyg_profile_func_enter __cyg_profile_func_exit) ;;
    manual) set -- $(hook_sum "$out/run" perfWriteCntrs) ;;
    isr) set -- $(hook_sum "$out/run" perf_timer_tick) ;;
    esac
    calls=$1 cyc=$2 first=$3 last=$4 between=$5
    [ "$calls" -gt 0 ] || fail "no record-writing hook call found in flow.csv"
    "$ts" report --elf "$elf" "$out/run/trace.rtd" > "$out/report.txt"
    grep -Eq "^  all +$calls +$cyc +[0-9.]+\$" "$out/report.txt" ||
        fail "report's hook cost is not $calls records, $cyc cycles: $(grep '^  all' "$out/report.txt")"
    ! grep -q "not measured" "$out/report.txt" || fail "records not measured: $(grep 'not measured' "$out/report.txt")"
    if [ $case = fib ]; then
        [ "$calls" = 930 ] || fail "$calls record-writing hook calls, not 930 (465 calls of fib)"
        grep -qx "Counters: cycles (index 0), instructions (index 2), branch_instructions (index 3), load|store (index 4)" \
            "$out/report.txt" || fail "counter names: $(grep '^Counters' "$out/report.txt")"
        self=$("$ts" report -f csv --fields function,self --elf "$elf" "$out/run/trace.rtd" | awk -F, '$2 == "fib" { print $3 }')
        [ "$self" = $((last - first)) ] || fail "fib's self cycles $self, not $last - $first"
        comp=$("$ts" report --compensate -f csv --fields function,self --elf "$elf" "$out/run/trace.rtd" | awk -F, '$2 == "fib" { print $3 }')
        [ "$comp" = "$between" ] || fail "fib's compensated self cycles $comp, not the $between cycles outside the hooks"
        echo "ok: fib: $calls hook calls, $cyc cycles; self $self, compensated $comp (ground truth: $((last - first)), $between)"
    else
        if [ $case = manual ]; then
            src=$(cd "$(dirname "$0")/.." && pwd)/firmware/examples/manual.c
            lines=$(grep -n '^ *perfWriteCntrs();' "$src" | cut -d: -f1)
            [ "$(echo $lines | wc -w)" = 3 ] || fail "not 3 perfWriteCntrs() lines in $src: $lines"
            for l in $lines; do
                grep -Eq "^  0x[0-9a-f]{8} +20 .* [^ ]*/manual\.c:$l +main\$" "$out/report.txt" ||
                    fail "no manual site at manual.c:$l: $(sed -n '/^Manual/,/^Instr/p' "$out/report.txt")"
            done
        fi
        echo "ok: $case: $calls hook calls, $cyc cycles"
    fi
    ;;
optimised)
    elf=$b/firmware/tests/optcheck/oc_O2_delta.elf
    "$ts" run -q --out "$out/run" "$elf" > /dev/null
    r=$out/run
    grep -q ',tail,' "$r/hooks.csv" || fail "no hook entered by a tail jump in $r/hooks.csv: the case tests nothing"
    set -- $(merged_sum "$r")
    calls=$1 cyc=$2
    [ "$calls" -gt 100 ] || fail "only $calls record-writing hook calls found"
    "$ts" report "$r" > "$out/report.txt"
    grep -Eq "^  all +$calls +$cyc +[0-9.]+\$" "$out/report.txt" ||
        fail "report's hook cost is not $calls records, $cyc cycles: $(grep '^  all' "$out/report.txt")"
    ! grep -q "not measured" "$out/report.txt" || fail "records not measured: $(grep 'not measured' "$out/report.txt")"
    echo "ok: optimised: $calls hook calls (tail jumps and nested interrupt hooks), $cyc cycles"
    ;;
fields)
    elf=$fw/fib.elf
    "$ts" run -q --out "$out/run" "$elf" > /dev/null
    "$ts" report -f csv --fields calls,function,hook --elf "$elf" "$out/run/trace.rtd" > "$out/f.csv"
    [ "$(head -1 "$out/f.csv")" = "hart,calls,function,hook_cycles" ] || fail "CSV columns: $(head -1 "$out/f.csv")"
    grep -Eqx '0,465,fib,[0-9]+' "$out/f.csv" || fail "CSV row: $(sed -n 2p "$out/f.csv")"
    set +e
    "$ts" report --fields calls,nope --elf "$elf" "$out/run/trace.rtd" > "$out/bad.out" 2> "$out/bad.err"
    rc=$?
    set -e
    [ $rc = "$TS_EXIT_USAGE" ] || fail "unknown field: exit $rc, not 120"
    [ "$(wc -l < "$out/bad.err")" = 1 ] && grep -q "unknown field 'nope' for --fields" "$out/bad.err" ||
        fail "unknown field message: $(cat "$out/bad.err")"
    [ ! -s "$out/bad.out" ] || fail "output despite an unknown field"
    echo "ok: --fields"
    ;;
*) fail "unknown case $case" ;;
esac
