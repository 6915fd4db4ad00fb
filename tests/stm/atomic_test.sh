#!/bin/sh
# atomic_test.sh TRACESIM FW_ELF RUN_DIR: firmware/tests/stm_atomic.c emits ids 1..3000 with
# value (id * 0x9E3779B1) ^ 0xA5A5A5A5 under timer interrupts whose handlers clobber a0, then
# tries the CSR write from U- and S-mode (id 0x3abc: an illegal instruction, no event).
#  * flow.csv: at least one timer interrupt (mcause 0x80000007) has mepc = the address of a
#    `csrw 0x7c0` whose preceding instruction writes a0 (from the ELF's disassembly): the
#    interrupt came between the value and the id;
#  * stm.csv: exactly the 3000 events in order, each with its value; nothing with id 0x3abc.
set -e
mkdir -p "$3"
"$1" run -q --out "$3" "$2" > "$3.out" 2>&1 || { cat "$3.out"; exit 1; }
riscv64-unknown-elf-objdump -d "$2" > "$3/fw.dis"
python3 - "$3" <<'PY'
import re, sys
d = sys.argv[1]
# csrw 0x7c0 right after an instruction whose destination is a0
prev, sites = None, set()
for line in open(d + "/fw.dis"):
    m = re.match(r"\s*([0-9a-f]+):\s+[0-9a-f]+\s+(\S+)\s*(\S*)", line)
    if not m:
        prev = None if line.strip().endswith(">:") else prev
        continue
    addr, op, args = int(m.group(1), 16), m.group(2), m.group(3)
    if op == "csrw" and args.startswith("0x7c0,") and prev and prev[1].startswith("a0,") and \
       not prev[0].startswith(("s", "b", "c.s", "j")):
        sites.add(addr)
    prev = (op, args)
assert sites, "no csrw 0x7c0 after a write to a0 in the disassembly"
traps = [r.split(",") for r in open(d + "/flow.csv").read().split("\n")[1:] if r]
irq = [int(r[3], 16) for r in traps if r[2] == "trap" and int(r[5], 0) == 0x80000007]
hits = [pc for pc in irq if pc in sites]
assert len(irq) >= 20, "only %d timer interrupts" % len(irq)
assert hits, "none of the %d timer interrupts was taken on the CSR write (sites %s)" % (
    len(irq), ", ".join(hex(s) for s in sorted(sites)))
rows = [r.split(",") for r in open(d + "/stm.csv").read().split("\n")[1:] if r]
assert len(rows) == 3000, "%d events, expected 3000" % len(rows)
for i, r in enumerate(rows, 1):
    want = ((i * 0x9E3779B1) ^ 0xA5A5A5A5) & 0xFFFFFFFF
    assert int(r[2], 16) == i and int(r[3], 16) == want, "event %d: %s, expected value 0x%08x" % (i, r, want)
    assert r[4] in ("traced", "lost"), r
print("ok: %d timer interrupts, %d of them on the CSR write, 3000 events with their values" % (len(irq), len(hits)))
PY
