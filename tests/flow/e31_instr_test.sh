#!/bin/sh
# e31_instr_test.sh TRACESIM CAPTURES WORKDIR - the program flow of the real E31 capture must be
# exactly the instruction sequence SiFive's decoder (dqr 0.18.0) reconstructs:
# e31_hello_debug.instr.txt.gz, 34 342 instructions (pc, instruction as stored, t/nt on
# conditional branches, Call/Return marks, which we print in lower case).
set -u
ts=$1; caps=$2; w=$3/flow-e31
mkdir -p "$w" || exit 1
"$ts" decode -f instr --elf "$caps/e31_hello_debug.elf" "$caps/e31_hello_debug.rtd" >"$w/instr.txt" 2>"$w/err.txt"
rc=$?
if [ $rc -ne 0 ] || [ -s "$w/err.txt" ]; then echo "FAIL: exit $rc, stderr:"; cat "$w/err.txt"; exit 1; fi
# reference: skip the comment line; keep pc, insn, t/nt and call/return
zcat "$caps/e31_hello_debug.instr.txt.gz" | awk 'NR > 1 { b = ""; for (i = 3; i <= NF; i++) {
    if ($i == "t" || $i == "nt") b = b " " $i; else if ($i == "Call" || $i == "Return") b = b " " tolower($i) }
  print $1, $2 b }' >"$w/ref.txt" || exit 1
awk '{ b = ""; for (i = 3; i <= NF; i++) if ($i == "t" || $i == "nt" || $i == "call" || $i == "return") b = b " " $i
  print $1, $2 b }' "$w/instr.txt" >"$w/got.txt"
n=$(wc -l <"$w/ref.txt")
if [ "$n" -ne 34342 ]; then echo "FAIL: the reference has $n instructions, expected 34342"; exit 1; fi
if ! cmp "$w/ref.txt" "$w/got.txt"; then
  echo "FAIL: the flow differs from dqr's (first differences, < dqr > ours):"
  diff "$w/ref.txt" "$w/got.txt" | head -20
  exit 1
fi
# the function+offset column names the ELF's functions: the first instruction is in main
head -1 "$w/instr.txt" | grep -q ' main+0x' || { echo "FAIL: no function+offset column"; head -1 "$w/instr.txt"; exit 1; }
echo "ok: $n instructions identical to dqr's"
