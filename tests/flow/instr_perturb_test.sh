#!/usr/bin/env bash
# instr_perturb_test.sh BUILD_DIR CAPTURES CASE - `decode -f instr` with MALLOC_PERTURB_=129
# (glibc fills every malloc'd block with 0x7e and every freed one with 0x81), so a field the
# decoder reads before it sets it is garbage, not the zero a fresh heap page happens to hold
# (issue 34: the listing buffer's length was never set and heap bytes reached stdout):
#   e31            the real E31 capture (CAPTURES/e31_hello_debug.*): the listing must be
#                  dqr's (tests/flow/e31_instr_test.sh); no captures: exit 77 (a ctest skip)
#   btm htm htm-ret  fib.elf run with --trace-insn MODE and --retire-log: the listing, checked
#                  against the retire log by flow_vs_retire.py (the simulator's ground truth),
#                  and byte for byte the listing made without MALLOC_PERTURB_
set -u
b=$1; caps=$2; case_=$3
here=$(cd "$(dirname "$0")" && pwd)
ts=$b/tracesim          # the plain build: ASan's allocator ignores MALLOC_PERTURB_
fail() { echo "FAIL (instr perturb $case_): $*"; exit 1; }
if [ "$case_" = e31 ]; then
  [ -f "$caps/e31_hello_debug.elf" ] && [ -f "$caps/e31_hello_debug.rtd" ] ||
    { echo "no capture e31_hello_debug in $caps: skipped"; exit 77; }
  MALLOC_PERTURB_=129 sh "$here/e31_instr_test.sh" "$ts" "$caps" "$b/test-runs/perturb" || fail "the E31 listing"
  exit 0
fi
run=$b/test-runs/perturb_$case_
elf=$b/firmware/examples/fib.elf
rm -rf "$run" "$run".*
"$ts" run -q --trace-insn "$case_" --retire-log "$run.ret" -o "$run" "$elf" > /dev/null || fail "the run exited $?"
"$ts" decode --elf "$elf" "$run" > "$run.msgs" || fail "decode (messages) exited $?"
"$ts" decode -f elements --elf "$elf" "$run" > "$run.el" || fail "decode (elements) exited $?"
"$ts" decode -f instr --elf "$elf" "$run" > "$run.instr.plain" 2> "$run.err" || fail "decode -f instr exited $?: $(cat "$run.err")"
MALLOC_PERTURB_=129 "$ts" decode -f instr --elf "$elf" "$run" > "$run.instr" 2> "$run.err"; rc=$?
[ $rc = 0 ] || fail "decode -f instr under MALLOC_PERTURB_=129 exited $rc: $(head -c 300 "$run.err")"
cmp -s "$run.instr.plain" "$run.instr" ||
  fail "the listing differs under MALLOC_PERTURB_=129 ($(wc -c < "$run.instr") bytes, $(wc -c < "$run.instr.plain") without)"
out=$(python3 "$here/../prog_trace/flow_vs_retire.py" "$run.ret" "$run.msgs" "$run.el" "$run.instr") ||
  fail "the listing is not what the core retired: $out"
echo "ok (instr perturb $case_): $(wc -l < "$run.instr") instructions, as retired"
