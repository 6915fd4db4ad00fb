#!/usr/bin/env bash
# sink_full_test.sh BUILD_DIR MODE - program trace into an SRAM sink that fills and stops on
# wrap (manual.elf, 1 KiB). The sink clears teEnable; the encoder must stop emitting branch
# messages then, or the perf library's drain (poll teEmpty) never sees an empty encoder and
# perfWriteTrace fails after its poll bound. Independent reference: the same ELF without
# program trace (program trace costs no cycles without teStallEnable), so the traced run must
# end the same way in the same number of cycles; and tracesim check must accept the flow.
set -eu
b=${1:?usage: sink_full_test.sh BUILD_DIR MODE}; mode=${2:?mode}
sim=$b/tracesim; elf=$b/firmware/examples/manual.elf
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
"$sim" run -q --out "$tmp/off" --trace-sram 1K "$elf" || fail "untraced run failed ($?)"
rc=0; "$sim" run -q --out "$tmp/on" --trace-sram 1K --trace-insn "$mode" --max-cycles 2000000 "$elf" || rc=$?
[ "$rc" = 0 ] || fail "--trace-insn $mode: exit status $rc (uart: $(tail -1 "$tmp/on/uart.txt"))"
grep -q "buffer full: tracing stopped" "$tmp/on/uart.txt" || fail "the firmware was not told the buffer filled"
grep -q '"stopped_on_wrap": true' "$tmp/on/trace.json" || fail "the sink did not stop on wrap"
c_off=$(awk '$1 == "cycles" {print $2}' "$tmp/off/stats.txt")
c_on=$(awk '$1 == "cycles" {print $2}' "$tmp/on/stats.txt")
[ "$c_off" = "$c_on" ] || fail "cycles $c_on with program trace, $c_off without"
cmp -s "$tmp/off/uart.txt" "$tmp/on/uart.txt" || fail "the firmware printed something else with program trace"
"$sim" check "$tmp/on" > "$tmp/check.txt" 2>&1 || { cat "$tmp/check.txt" >&2; fail "check failed"; }
echo "PASS: --trace-insn $mode, sink full after $(stat -c %s "$tmp/on/trace.rtd") bytes: $c_on cycles as untraced, check clean"
