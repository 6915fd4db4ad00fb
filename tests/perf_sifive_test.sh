#!/usr/bin/env bash
# perf_sifive_test.sh BUILD_DIR - decode --format perf on firmware/tests/perf_proto.c: the
# files and line formats of SiFive's decoder (trace-hw-facts.md 6.3), source positions from
# DWARF, and counter values equal to what the firmware printed.
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
elf=$build/firmware/tests/perf_proto.elf
"$build/tracesim" run -q --out "$tmp/r" "$elf"
"$build/tracesim_san" decode -f perf --elf "$elf" --out "$tmp/p" "$tmp/r/trace.rtd"
agg=$tmp/p/perf_proto.perf
[ "$(sed -n 1p "$agg")" = "# ELFPATH=$elf" ] || fail "first line: $(sed -n 1p "$agg")"
[ "$(sed -n 2p "$agg")" = "# COUNT_TYPE: RAW" ] || fail "count type line"
grep -Eq '^\[0\] -?[0-9]+ \[Perf Cntr Mask\] \[Mask=0x00000005\]$' "$agg" || fail "mask line"
grep -Eq '^\[0\] -?[0-9]+ \[Perf Cntr Def\] \[Counter=0\] \[Type=0\] \[Code=1\] \[EventData=0x00000000\] \[CntrCSR=0xc00\] \[CntrBits=64\]$' "$agg" || fail "definition line"
[ "$(grep -Ec '^\[0\] -?[0-9]+ PC=0x[0-9a-f]{8} \[Address\] ffl:.*perf_proto\.c:work:[0-9]+$' "$agg")" = 5 ] || fail "address lines"
grep -Eq '^\[0\] -?[0-9]+ \[Func Enter at 0x[0-9a-f]{8}\] \[Called From 0x[0-9a-f]{8}\] ffl:.*:work:[0-9]+$' "$tmp/p/perf/perf_proto.callret" || fail "enter line"
grep -Eq '^\[0\] -?[0-9]+ \[Func Exit\] \[Func at 0x[0-9a-f]{8}\] \[Returning to 0x[0-9a-f]{8}\] ffl:.*:main:[0-9]+$' "$tmp/p/perf/perf_proto.callret" || fail "exit line"
for f in address callret perfchannel0 perfchannel2; do
  [ "$(sed -n 2p "$tmp/p/perf/perf_proto.$f")" = "# COUNT_TYPE: RAW" ] || fail "perf/perf_proto.$f header"
done
# counter 0 (cycles) of the manual records: the values the firmware printed
grep '^rec ' "$tmp/r/uart.txt" | awk '{printf "%.0f\n", $4 * 4294967296 + $5}' > "$tmp/want"
grep -E '\[Perf Cntr\] \[Index=0\]' "$tmp/p/perf/perf_proto.perfchannel0" | head -5 |
  sed -E 's/.*\[Value=([0-9]+)\]  ffl:.*/\1/' > "$tmp/got"
diff "$tmp/want" "$tmp/got" || fail "counter values differ from the firmware's"
# counter line times (trace-hw-facts.md 6.2 item 7). Default: every counter line of a record
# carries the record's time, i.e. its Address line's. --perf-line-time value (SiFive's rule):
# the time of the message that completed the value, which comes after the record's type byte;
# counter 0's (its 16-bit high part, or counter 2's low word) comes before counter 2's (the
# next record's type byte). Stores are separate ITC messages, so their times strictly increase.
check_times() {   # FILE record|value
  awk -v mode="$2" '
    /\[Func / { ta = ""; next }
    /\[Address\]/ { ta = $2 + 0; k = 0; next }
    /\[Perf Cntr\] \[Index=/ && ta != "" {
      t[k++] = $2 + 0
      if (k == 2) {
        if (mode == "record" && !(t[0] == ta && t[1] == ta)) { print "record mode: " ta " " t[0] " " t[1]; bad = 1 }
        if (mode == "value" && !(ta < t[0] && t[0] < t[1])) { print "value mode: " ta " " t[0] " " t[1]; bad = 1 }
        n++
      }
    }
    END { if (n != 5) { print n " manual records"; bad = 1 } exit bad }' "$1"
}
check_times "$agg" record || fail "counter line times are not the record's"
"$build/tracesim_san" decode -f perf --perf-line-time value --elf "$elf" --out "$tmp/v" "$tmp/r/trace.rtd"
check_times "$tmp/v/perf_proto.perf" value || fail "--perf-line-time value: times are not those of the completing messages"
echo "ok: SiFive perf files with source positions, the firmware's values, both line-time rules"
