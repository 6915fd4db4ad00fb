#!/usr/bin/env bash
# retire_log_test.sh BUILD_DIR - the --retire-log of firmware/hello.elf (README "Running
# firmware", issue 22 item 7), against the run's own ground truth:
#  * one line per retired instruction: the lines that are not traps number stats.txt's
#    instret (the last instruction, the EXIT store, included);
#  * the last line is that store: mem[0x10020000]4= the exit status (simctrl EXIT,
#    rtl_model/regs/soc_map.def), 0 for hello;
#  * stores to devices carry mem[addr]size=value: the bytes stored to the UART's TXDATA
#    (0x10013000) are uart.txt, in order.
set -u
b=$1; run=$b/test-runs/retire_log; log=$run.txt
rm -rf "$run" "$log"
fail() { echo "FAIL (retire log): $*"; exit 1; }
"$b/tracesim" run -q --retire-log "$log" -o "$run" "$b/firmware/hello.elf" > /dev/null || fail "hello exited $?"
instret=$(sed -n 's/^instret //p' "$run/stats.txt")
lines=$(grep -vc ' trap ' "$log")
[ "$lines" = "$instret" ] || fail "$lines retired instructions in the log, stats.txt instret $instret"
tail -1 "$log" | grep -Eq '^[0-9]+ [0-9a-f]{8} [0-9a-f]{8} mem\[10020000\]4=00000000$' || fail "last line is not the EXIT store: $(tail -1 "$log")"
awk 'function hex(s,  n, i) { n = 0; for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return n }
     / mem\[10013000\]/ { v = $4; sub(/.*=/, "", v); printf "%c", hex(v) % 256 }' "$log" > "$run.uart"
cmp -s "$run.uart" "$run/uart.txt" || fail "the UART stores in the log are not uart.txt: $(head -c 80 "$run.uart")"
echo "ok (retire log): $lines lines, the last the EXIT store, $(wc -c < "$run.uart") UART bytes"
