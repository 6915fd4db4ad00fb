#!/bin/sh
# example_test.sh TRACESIM FW_ELF RUN_DIR: firmware/examples/stm_threads.c with
# --stm-thread-switch exits 0, and stm.csv tells its story: after crt0's two tp writes every
# event is traced; the THREAD_NAME words of each thread spell its name; every EV_ITEM (id 1,
# thread << 16 | item) and EV_RESULT (id 2) comes while that thread's tp (printed on the UART)
# is the last THREAD_SWITCH; items 1..2, 1..3, 1..4 of threads 1, 2, 3; between two threads
# the scheduler's tp.
set -e
mkdir -p "$3"
"$1" run -q --stm-thread-switch --out "$3" "$2" > "$3.out" 2>&1 || { cat "$3.out"; exit 1; }
python3 - "$3" <<'PY'
import re, sys
d = sys.argv[1]
uart = open(d + "/uart.txt").read()
tps = {int(m.group(3), 16): (int(m.group(1)), m.group(2)) for m in re.finditer(r"thread (\d) (\w+) +tp (0x[0-9a-f]+)", uart)}
assert sorted(n for n, _ in tps.values()) == [1, 2, 3], uart
assert "stm_threads: 12 switches into threads, stmLost 0" in uart, uart
rows = [r.split(",") for r in open(d + "/stm.csv").read().split("\n")[1:] if r]
assert [r[2] for r in rows[:2]] == ["0x8000", "0x8000"] and all(r[4] == "off" for r in rows[:2]), rows[:2]
sched = int(rows[1][3], 16)                     # crt0: la tp, __tls_base
cur, names, items = None, {}, {1: [], 2: [], 3: []}
for c, h, i, v, st in rows[2:]:
    assert st == "traced", (c, i, v, st)
    i, v = int(i, 16), int(v, 16)
    if i == 0x8000:
        assert v in tps or v == sched, hex(v)
        assert (v == sched) != (cur == sched or cur is None), "two threads in a row"
        cur = v
        continue
    assert cur in tps, "event 0x%04x outside a thread" % i
    n, name = tps[cur]
    if i == 0x4000:
        names[n] = names.get(n, b"") + v.to_bytes(4, "little")
    elif i == 1:
        assert v >> 16 == n, hex(v)
        items[n].append(v & 0xFFFF)
    else:
        assert i == 2, hex(i)
for cur_tp, (n, name) in tps.items():
    assert names[n].split(b"\0")[0].decode() == name and names[n].endswith(b"\0"), names[n]
assert items == {1: [1, 2], 2: [1, 2, 3], 3: [1, 2, 3, 4]}, items
print("ok: %d events" % len(rows))
PY
