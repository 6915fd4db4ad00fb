#!/bin/sh
# off_test.sh TRACESIM FW_ELF RUN_DIR: firmware/tests/stm_off.c's ids 1..9 (its comment
# says why each is off or traced) with values 0x0ff00000 + id.
set -e
mkdir -p "$3"
"$1" run -q --out "$3" "$2" > "$3.out" 2>&1 || { cat "$3.out"; exit 1; }
printf '%s\n' 0x0001,0x0ff00001,off 0x0002,0x0ff00002,off 0x0003,0x0ff00003,traced \
    0x0004,0x0ff00004,off 0x0005,0x0ff00005,traced 0x0006,0x0ff00006,off 0x0007,0x0ff00007,off \
    0x0008,0x0ff00008,traced 0x0009,0x0ff00009,off > "$3/expected"
tail -n +2 "$3/stm.csv" | cut -d, -f3- | diff "$3/expected" -
