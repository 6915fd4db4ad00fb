#!/usr/bin/env python3
"""hooks_from_retire.py ELF RETIRE_LOG - prints hooks.csv as an independent decode of a
single-hart run's --retire-log would write it: every entry into a perf hook function
(__cyg_profile_func_enter/exit, perfWriteCntrs; addresses from `nm`) by a call or a jump,
with x10 (a0), x11 (a1), x1 (ra) and x4 (tp) as the retire log's register writes left them before
the hook's first instruction. The row's cycle and pc are those of the jump (the line
before); a hook's first instruction retiring after an mret is a resumption, not an entry."""
import subprocess
import sys

elf, log = sys.argv[1:3]
names = ["__cyg_profile_func_enter", "__cyg_profile_func_exit", "perfWriteCntrs"]
hooks = {}
for line in subprocess.run(["riscv64-unknown-elf-nm", elf], capture_output=True, text=True, check=True).stdout.splitlines():
    f = line.split()
    if len(f) == 3 and f[2] in names:
        hooks[int(f[0], 16)] = f[2]
regs = [0] * 32
prev = None                      # (cycle, pc, insn or "trap", wrote ra)
print("cycle,hart,hook,how,pc,a0,a1,ra,tp")
with open(log) as fh:
    for line in fh:
        f = line.split()
        cycle, pc = int(f[0]), int(f[1], 16)
        if pc in hooks and prev and prev[2] != "30200073":
            print("%d,0,%s,%s,0x%08x,0x%08x,0x%08x,0x%08x,0x%08x" % (prev[0], hooks[pc], "call" if prev[3] else "tail", prev[1],
                                                                      regs[10], regs[11], regs[1], regs[4]))
        wrote_ra = False
        if f[2] != "trap" and len(f) > 3 and f[3].startswith("x"):
            r, v = f[3][1:].split("=")
            regs[int(r)] = int(v, 16)
            wrote_ra = r == "1"
        prev = (cycle, pc, f[2], wrote_ra)
