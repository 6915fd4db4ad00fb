#!/bin/sh
# drop_test.sh TRACESIM FW_ELF RUN_DIR: firmware/tests/stm_drop.c with --itc-depth 1: the same
# 24 csrwi events twice, first traced into a FIFO of one entry, then with stmEnable 0.
#  * burst 1: `traced` and `lost` rows only, at least one lost, and the firmware's stmLost
#    (printed after the burst) = the lost rows = the stm_lost rows of trace_events.csv (detail =
#    the id, same cycles);
#  * burst 2: 24 rows, all `off`;
#  * no stall: the cycle distances between consecutive events are the same in both bursts
#    (one event per cycle: csrwi after csrwi).
set -e
mkdir -p "$3"
"$1" run --out "$3" --itc-depth 1 "$2" > "$3.out" 2>&1 || { cat "$3.out"; exit 1; }
lost=$(sed -n 's/^stm_drop: stmLost \([0-9]*\)$/\1/p' "$3/uart.txt")
[ -n "$lost" ] && [ "$lost" -gt 0 ] || { echo "stmLost '$lost'"; exit 1; }
s=$3/stm.csv
[ "$(tail -n +2 "$s" | wc -l)" = 48 ] || { echo "$(tail -n +2 "$s" | wc -l) events, expected 48"; exit 1; }
tail -n +2 "$s" | head -24 > "$3/b1"; tail -n 24 "$s" > "$3/b2"
[ "$(grep -c ',lost$' "$3/b1")" = "$lost" ] || { echo "lost rows $(grep -c ',lost$' "$3/b1"), stmLost $lost"; exit 1; }
[ "$(grep -c ',traced$' "$3/b1")" = $((24 - lost)) ] || { echo "burst 1 has rows neither traced nor lost"; exit 1; }
[ "$(grep -c ',off$' "$3/b2")" = 24 ] || { echo "burst 2 is not all off"; exit 1; }
# the ids 1..24 with a0 = 0x600d0000 in both bursts
for b in b1 b2; do
    cut -d, -f3,4 "$3/$b" | awk -F, '$1 != sprintf("0x%04x", NR) || $2 != "0x600d0000" { print "row " NR ": " $0; bad = 1 } END { exit bad }'
done
# trace_events.csv: a stm_lost row (cycle, detail = id) per lost event
grep ',lost$' "$3/b1" | while IFS=, read c h id v st; do echo "$c,$h,stm_lost,$((id))"; done > "$3/lost_rows"
[ "$(head -1 "$3/trace_events.csv")" = cycle,hart,event,detail ] || { echo "trace_events.csv columns: $(head -1 "$3/trace_events.csv")"; exit 1; }
grep ',stm_lost,' "$3/trace_events.csv" > "$3/lost_events"
diff "$3/lost_rows" "$3/lost_events"
# no stall: the same distances in both bursts
cut -d, -f1 "$3/b1" | awk 'NR > 1 { print $1 - p } { p = $1 }' > "$3/d1"
cut -d, -f1 "$3/b2" | awk 'NR > 1 { print $1 - p } { p = $1 }' > "$3/d2"
diff "$3/d1" "$3/d2"
[ "$(sort -u "$3/d1")" = 1 ] || { echo "distances: $(sort -u "$3/d1" | tr '\n' ' ')"; exit 1; }
echo "ok: $lost of 24 lost, 1 cycle apart with and without the encoder"
