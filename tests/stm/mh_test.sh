#!/bin/sh
# mh_test.sh TRACESIM FW_ELF RUN_DIR: firmware/tests/stm_mh.c on 2 harts: each hart's rows
# (THREAD_NAME "hart0"/"hart1" as 0x74726168 and 0x0000003n, then ids 0x100 (hart + 1) + k,
# values hart << 28 | k * 0x111, k = 1..10), all traced, carry that hart.
set -e
mkdir -p "$3"
"$1" run -q --harts 2 --out "$3" "$2" > "$3.out" 2>&1 || { cat "$3.out"; exit 1; }
for h in 0 1; do
    {
        printf '%s,0x4000,0x74726168,traced\n' $h
        printf '%s,0x4000,0x000000%x,traced\n' $h $((0x30 + h))
        k=1
        while [ $k -le 10 ]; do
            printf '%s,0x%04x,0x%08x,traced\n' $h $((256 * (h + 1) + k)) $(((h << 28) | (k * 273)))
            k=$((k + 1))
        done
    } > "$3/expected$h"
    tail -n +2 "$3/stm.csv" | cut -d, -f2- | awk -F, -v h=$h '$1 == h' | diff "$3/expected$h" -
done
[ "$(tail -n +2 "$3/stm.csv" | wc -l)" = 24 ] || { echo "rows of other harts"; exit 1; }
