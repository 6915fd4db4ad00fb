#!/usr/bin/env bash
# amo_retire_test.sh BUILD_DIR - the --retire-log lines of the A extension's instructions in
# firmware/tests/isa_amo.S (docs/internals.md "Atomics": rd = the old value, SC's 0 or 1;
# with rd = x0 the word stored). The encodings below are assembled by hand from the spec
# (funct5 | aq | rl | rs2 | rs1 | 010 | rd | 0101111) and the values are the test's own
# hand-computed ones:
#   082521af amoswap.w x3, x2, (x10)   first: x3 = 0x11111111 (mem was 0x11111111)
#   0025202f amoadd.w x0, x2, (x10)    mem = 100 + 23 = 0x7b, no register
#   100521af lr.w x3, (x10)            first: x3 = 0x1234
#   1825222f sc.w x4, x2, (x10)        first: x4 = 0 (stored), second: x4 = 1 (no reservation)
#   1a25202f sc.w.rl x0, x2, (x10)     mem = 0x9999, no register
set -u
b=$1; run=$b/test-runs/amo_retire; log=$run.txt
rm -rf "$run" "$log"
fail() { echo "FAIL (amo retire log): $*"; exit 1; }
"$b/tracesim" run -q --retire-log "$log" -o "$run" "$b/firmware/tests/isa_amo.elf" > /dev/null || fail "isa_amo exited $?"
nth() { grep -E "^[0-9]+ [0-9a-f]{8} $1( |$)" "$log" | sed -n "$2p" | cut -d' ' -f4-; }
[ "$(nth 082521af 1)" = "x3=11111111" ] || fail "amoswap.w: '$(nth 082521af 1)'"
nth 0025202f 1 | grep -Eq '^mem\[[0-9a-f]{8}\]4=0000007b$' || fail "amoadd.w x0: '$(nth 0025202f 1)'"
[ "$(nth 100521af 1)" = "x3=00001234" ] || fail "lr.w: '$(nth 100521af 1)'"
[ "$(nth 1825222f 1)" = "x4=00000000" ] || fail "sc.w (success): '$(nth 1825222f 1)'"
[ "$(nth 1825222f 2)" = "x4=00000001" ] || fail "sc.w (failure): '$(nth 1825222f 2)'"
nth 1a25202f 1 | grep -Eq '^mem\[[0-9a-f]{8}\]4=00009999$' || fail "sc.w.rl x0: '$(nth 1a25202f 1)'"
echo "ok (amo retire log): AMO, LR and SC lines carry the old value, SC's result or the store"
