#!/usr/bin/env bash
# perf_header_test.sh BUILD_DIR - `tracesim check` compares each perf header's counter
# definitions with the hardware's counter programming (hpm_writes.csv) when it was written
# (firmware/tests/perf_hdr_quirk.c programs mhpmevent4 = 0x600; counters are 40 bits by
# default):
#   * the true header (counter 4: raw 0x600, CSR 0xc04, 40 bits) passes;
#   * SiFive's corrupted definition (type 0, code 0, 1 bit) fails naming counter 4, and
#     decode warns about it;
#   * the true header fails when the hardware differs: 48-bit counters (--hpm-width 48),
#     mhpmevent4 written with 0x400 or counter 4 inhibited (hpm_writes.csv changed)
set -u
b=$1; t=$b/tracesim; fw=$b/firmware/tests
runs=$b/test-runs/perf_header; rm -rf "$runs"; mkdir -p "$runs"
fail() { echo "FAIL: $*"; exit 1; }
run() { "$t" run -q -o "$runs/$1" "${@:3}" "$fw/$2.elf" > /dev/null 2>&1 || fail "$2 exited $?"; }
must_fail() {   # run, regex
  "$t" check "$runs/$1" > "$runs/$1.out" 2>&1 && fail "$1: check passed"
  grep -Eq "$2" "$runs/$1.out" || fail "$1: unclear message: $(cat "$runs/$1.out")"
}
run good perf_hdr_good
"$t" check "$runs/good" > "$runs/good.out" 2>&1 || fail "the true header: $(cat "$runs/good.out")"
grep -q "^check: 1 perf header(s): every counter definition (type, code or event data, CSR, width) equals the hardware's" "$runs/good.out" ||
  fail "the header check is not reported: $(cat "$runs/good.out")"
grep -q "^check: compared 5 perf records in the trace: each equals the ground truth" "$runs/good.out" || fail "records: $(cat "$runs/good.out")"

run quirk perf_hdr_quirk
must_fail quirk "check FAILED: perf header 1 \(marker at cycle [0-9]+\): counter 4 \(type0_code0\) is defined as type 0 code 0x0, CSR 0xc04, 1 bits, but the hardware had counting, CSR 0xc04, 40 bits \(mhpmevent4 0x600\)"
"$t" decode -f perf --out "$runs/quirk.dec" "$runs/quirk/trace.rtd" > /dev/null 2> "$runs/quirk.warn"
grep -q "implausible perf header: counter 4 has a width of 1 bit" "$runs/quirk.warn" || fail "decode: no width warning: $(cat "$runs/quirk.warn")"
grep -q "implausible perf header: counter 4 is a general event with code 0" "$runs/quirk.warn" || fail "decode: no code warning: $(cat "$runs/quirk.warn")"

run wide perf_hdr_good --hpm-width 48
must_fail wide "check FAILED: perf header 1 .*: counter 4 \(raw_0x600\) is defined as type 2 \(raw\) event_data 0x600, CSR 0xc04, 40 bits, but the hardware had counting, CSR 0xc04, 48 bits"

cp -r "$runs/good" "$runs/event"
sed -i 's/,mhpmevent4,0x00000600$/,mhpmevent4,0x00000400/' "$runs/event/hpm_writes.csv"
grep -q ',mhpmevent4,0x00000400$' "$runs/event/hpm_writes.csv" || fail "no mhpmevent4 write in hpm_writes.csv"
must_fail event "check FAILED: perf header 1 .*: counter 4 .* but the hardware had counting, CSR 0xc04, 40 bits \(mhpmevent4 0x400\)"

cp -r "$runs/good" "$runs/inhibit"
awk -F, -v OFS=, '$1 > 0 && $3 == "mcountinhibit" { $4 = "0x00000010" } { print }' "$runs/good/hpm_writes.csv" > "$runs/inhibit/hpm_writes.csv"
must_fail inhibit "check FAILED: perf header 1 .*: counter 4 .* but the hardware had inhibited, CSR 0xc04"
echo "ok: the true header passes; SiFive's corrupted definition, 48-bit counters, another event and an inhibited counter fail naming counter 4"
