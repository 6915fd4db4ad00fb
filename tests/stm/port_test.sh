#!/bin/sh
# port_test.sh TRACESIM FW_ELF RUN_DIR: firmware/tests/stm_port.c emits ids 1..20 with value
# id * 0x01010101, THREAD_SWITCH with 0x80001000, then `csrwi 0x7c0, 5` while a0 still holds
# 0x80001000; stm.csv must list exactly these, all traced, one every few cycles in order.
set -e
"$1" run -q --out "$3" "$2"
i=1
: > "$3/expected"
while [ $i -le 20 ]; do
    printf '0x%04x,0x%08x,traced\n' $i $((i * 16843009)) >> "$3/expected"
    i=$((i + 1))
done
printf '0x8000,0x80001000,traced\n0x0005,0x80001000,traced\n' >> "$3/expected"
tail -n +2 "$3/stm.csv" | cut -d, -f3- | diff "$3/expected" -
# cycles strictly increasing, hart 0
tail -n +2 "$3/stm.csv" | awk -F, 'NR > 1 && $1 <= last { print "cycle order broken at " $0; exit 1 } $2 != 0 { print "hart " $2; exit 1 } { last = $1 }'
grep -q '^stm_events 22$' "$3/stats.txt"
