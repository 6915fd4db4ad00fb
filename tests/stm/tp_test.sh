#!/bin/sh
# tp_test.sh TRACESIM FW_ELF RUN_DIR: firmware/tests/stm_tp.c (its comment lists the
# instructions). With --stm-thread-switch, stm.csv's THREAD_SWITCH (0x8000) rows are exactly
# the committed writes to x4 of the retire log (same order and values) except the one by
# `csrrw tp, 0x7c0, t0`; without the option there is none; the other rows are the
# hand-listed events, all traced.
set -e
mkdir -p "$3"
run() {   # $1 run folder, $2.. options
    d=$1; shift
    "$TS" run -q --out "$d" --retire-log "$d/retire.log" "$@" "$ELF" > "$d.out" 2>&1 || { cat "$d.out"; exit 1; }
}
TS=$1; ELF=$2
run "$3/on" --stm-thread-switch
run "$3/off"
cat > "$3/expected" <<'X'
0x0123,0x11111111,traced
0x0006,0x0badcafe,traced
0x0007,0x0badcafe,traced
0x0042,0x0badcafe,traced
0x0009,0x0badcafe,traced
0x001f,0x22222222,traced
X
for m in on off; do
    tail -n +2 "$3/$m/stm.csv" | grep -v ',0x8000,' | cut -d, -f3- | diff "$3/expected" -
done
[ -z "$(grep ',0x8000,' "$3/off/stm.csv")" ] || { echo "THREAD_SWITCH without --stm-thread-switch"; exit 1; }
# x4 writes in the retire log (`cycle pc insn x4=value`), without the csrrw to 0x7c0
# (insn & 0xfff0007f = 0x7c000073)
grep ' x4=' "$3/on/retire.log" | while read c pc insn w; do
    [ $((0x$insn & 0xfff0007f)) = $((0x7c000073)) ] || echo "0x8000,0x${w#x4=}"
done > "$3/x4"
n=$(wc -l < "$3/x4")
[ "$n" -ge 8 ] || { echo "only $n writes to x4 in the retire log"; exit 1; }
grep ',0x8000,' "$3/on/stm.csv" | cut -d, -f3,4 | diff "$3/x4" -
# the hand-listed values of stm_tp.c's tp writes, in order (after crt0's la tp)
for v in 0x00001000 0x12345000 0x12345678 0x12345680 0x00005000; do
    grep -q ",0x8000,$v,traced" "$3/on/stm.csv" || { echo "no THREAD_SWITCH $v"; exit 1; }
done
echo "ok: $n THREAD_SWITCH events = the x4 writes of the retire log"
