#!/usr/bin/env bash
# overhead_test.sh BUILD_DIR CASE - `tracesim overhead` (analysis/overhead/overhead.c); nothing
# is timed.
#   quick        --quick (fib, 1 counter): overhead.md has the expected rows, overhead.svg is
#                well-formed with a bar per run, and every number agrees with the run folders
#                it leaves: records = the firmware's own count (fib(8) makes 67 calls, so 134),
#                cycles(on) > cycles(off) >= cycles(out), cycles/instructions per record =
#                (on - out) / records and overhead % recomputed from stats.txt, SBA conflict
#                cycles from events.csv; the per-event table ("## one event"): a row per
#                event kind in order, 256 events each (counted here in stm.csv, itc.csv and the
#                decoded trace), per-event figures = (run - none) / 256 from stats.txt, and
#                plausible: an STM event takes at least 1 cycle and fewer than an ITC store,
#                which takes fewer than a perf record; 2.0 instructions per STM event in both
#                forms: the loop's disassembly has `mv a0,s1` and `csrw 0x7c0,s3` or
#                `csrwi 0x7c0,1` (checked in the ELFs); the register form's id load and
#                that register's save/restore, 6 instructions once, add 0.02
#   stopped      --baseline on run folders of one firmware (ovh_fib_on_sram_1) run with a
#                512-byte SRAM sink, which stops on wrap (16 of 134 records in the trace), and
#                with a 64 KiB one (all 134): both count the 134 records the firmware made
#                (fib(8): 67 calls, an enter and an exit record each) and give the same cycles
#                per record, which is the extra cycles up to the return of the outermost fib
#                to main (flow.csv and nm here, the first such return after the last perf
#                store in itc.csv) over 134
#   missing_elf  a build folder without the firmware: one line, exit 121
#   failed_run   variants that exit 42: one line naming the run and the status, exit 1
# Runs the ASan/UBSan build of the simulator (which spawns itself for the runs).
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
b=$1; case=$2
t=$b/tracesim_san; out=$b/test-runs/overhead_$case
rm -rf "$out" "$out.fw"
fail() { echo "FAIL ($case): $*"; [ -f "$out.stderr" ] && sed 's/^/  stderr: /' "$out.stderr"; exit 1; }
san() {   # sanitizer reports of the command or of the runs it spawned
  cat "$out.stderr" "$out"/runs/*/stderr.txt 2> /dev/null | grep -Eq "ERROR: (Address|Leak)Sanitizer|runtime error:" &&
    fail "sanitizer report"
  true
}
quick="ovh_fib_out ovh_fib_off_sram_1 ovh_fib_off_sba_1 ovh_fib_on_sram_1 ovh_fib_on_sba_1
       ovh_events_out ovh_events_stm ovh_events_stmi ovh_events_itc ovh_events_perf"

case $case in
quick)
  "$t" overhead --quick --firmware-dir "$b/firmware/examples" -o "$out" > "$out.stdout" 2> "$out.stderr" ||
    fail "exit status $?"
  san
  md=$out/overhead.md; svg=$out/overhead.svg
  [ -f "$md" ] && [ -f "$svg" ] || fail "overhead.md or overhead.svg missing"
  cmp -s "$md" "$out.stdout" || fail "stdout is not overhead.md"
  [ "$(grep -c '^overhead: \[ *[1-5]/10\] ovh_fib_' "$out.stderr")" = 5 ] || fail "not one progress line per run"
  [ "$(grep -c '^overhead: \[ *\([6-9]\|10\)/10\] ovh_events_' "$out.stderr")" = 5 ] || fail "not one progress line per event run"
  # the rows: mode | sink | counters, in this order
  rows=$(grep -E '^\| (out|off|on) \|' "$md" | cut -d'|' -f2-4 | tr -d ' ' | tr '\n' ' ')
  [ "$rows" = "out|-|- off|sram|1 off|sba|1 on|sram|1 on|sba|1 " ] || fail "rows: $rows"
  grep -q '^## fib$' "$md" && ! grep -q '^## manual' "$md" || fail "sections"
  # the chart: well-formed SVG, an <svg> root, one bar (rect with a title) per off/on run
  python3 - "$svg" <<'EOF' || fail "overhead.svg"
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
assert d.documentElement.tagName == "svg", "root is not <svg>"
bars = [r for r in d.getElementsByTagName("rect") if r.getElementsByTagName("title")]
names = sorted(r.getElementsByTagName("title")[0].firstChild.data.split(":")[0] for r in bars)
assert names == sorted(["ovh_fib_off_sram_1", "ovh_fib_off_sba_1", "ovh_fib_on_sram_1", "ovh_fib_on_sba_1"]), names
for r in bars:
    assert float(r.getAttribute("height")) > 0, "empty bar"
EOF
  # the numbers, from the run folders
  stat() { awk -v k="$2" '$1 == k { print $2 }' "$out/runs/$1/stats.txt"; }
  event() { awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR == 2 { print $c }' "$out/runs/$1/events.csv"; }
  cell() { grep -E "^\| $1 \| $2 \| $3 \|" "$md" | cut -d'|' -f"$4" | tr -d ' '; }   # column $4 (1-based + 1)
  oc=$(stat ovh_fib_out cycles); oi=$(stat ovh_fib_out instret)
  [ -n "$oc" ] && [ "$oc" -gt 0 ] || fail "no cycles in ovh_fib_out/stats.txt"
  [ "$(grep -E '^\| out \|' "$md" | cut -d'|' -f5 | tr -d ' ')" = "$oc" ] || fail "out cycles differ from stats.txt"
  for sink in sram sba; do
    on=ovh_fib_on_${sink}_1; off=ovh_fib_off_${sink}_1
    c=$(stat $on cycles); i=$(stat $on instret); fc=$(stat $off cycles)
    [ "$c" -gt "$fc" ] && [ "$fc" -ge "$oc" ] || fail "$sink: cycles on $c, off $fc, out $oc: not on > off >= out"
    grep -q '^perf: 134 records' "$out/runs/$on/uart.txt" || fail "$on: the firmware did not write 134 records"
    n=$("$b/tracesim" decode -f csv "$out/runs/$on/trace.rtd" | grep -Ec ',(enter|exit),')
    [ "$n" = 134 ] || fail "$on: $n records decoded by tracesim decode, expected 134"
    [ "$(cell on $sink 1 5)" = "$c" ] || fail "$on: cycles $(cell on $sink 1 5), stats.txt $c"
    [ "$(cell on $sink 1 6)" = "$i" ] || fail "$on: instructions $(cell on $sink 1 6), stats.txt $i"
    [ "$(cell on $sink 1 7)" = 134 ] || fail "$on: records $(cell on $sink 1 7), expected 134"
    [ "$(cell off $sink 1 7)" = 0 ] || fail "$off: records $(cell off $sink 1 7), expected 0"
    want=$(awk -v a="$c" -v o="$oc" 'BEGIN { printf "%.1f", (a - o) / 134 }')
    [ "$(cell on $sink 1 8)" = "$want" ] || fail "$on: cycles per record $(cell on $sink 1 8), (on - out) / records = $want"
    want=$(awk -v a="$i" -v o="$oi" 'BEGIN { printf "%.1f", (a - o) / 134 }')
    [ "$(cell on $sink 1 9)" = "$want" ] || fail "$on: instructions per record $(cell on $sink 1 9), expected $want"
    want=$(awk -v a="$c" -v o="$fc" 'BEGIN { printf "%.1f", (a - o) / 134 }')
    [ "$(cell on $sink 1 10)" = "$want" ] || fail "$on: cycles per record over off $(cell on $sink 1 10), expected $want"
    want=$(awk -v a="$c" -v o="$oc" 'BEGIN { printf "%+.1f%%", 100 * (a - o) / o }')
    [ "$(cell on $sink 1 11)" = "$want" ] || fail "$on: overhead $(cell on $sink 1 11), expected $want"
    [ "$(cell on $sink 1 12)" = "$(event $on itc_stall)" ] || fail "$on: ITC stall cycles differ from events.csv"
    [ "$(cell on $sink 1 13)" = "$(event $on sba_conflict)" ] || fail "$on: SBA conflict cycles differ from events.csv"
  done
  [ "$(cell on sba 1 13)" -gt 0 ] || fail "no SBA conflict cycles with the SBA sink"
  [ "$(cell on sram 1 13)" = 0 ] || fail "SBA conflict cycles with the SRAM sink"
  grep -q 'stopped' "$md" && fail "a trace buffer filled"
  # the per-event table
  grep -q '^## one event$' "$md" || fail "no per-event section"
  erows=$(grep -E '^\| (none|STM event|STM event, csrwi|ITC store|perf record) \|' "$md" | cut -d'|' -f2 |
          sed 's/^ //; s/ $//' | tr '\n' ';')
  [ "$erows" = "none;STM event;STM event, csrwi;ITC store;perf record;" ] || fail "per-event rows: $erows"
  ecell() { grep -E "^\| $1 \|" "$md" | cut -d'|' -f"$2" | tr -d ' '; }   # column $2 (1-based + 1)
  nc=$(stat ovh_events_out cycles); ni=$(stat ovh_events_out instret)
  [ "$(ecell none 5)" = "$nc" ] && [ "$(ecell none 6)" = "$ni" ] || fail "none: cycles/instructions differ from stats.txt"
  [ "$(tail -n +2 "$out/runs/ovh_events_out/stm.csv" | wc -l)" = 0 ] || fail "events in the baseline run"
  for k in stm stmi itc perf; do
    case $k in
    stm) label="STM event"; n=$(grep -c ',traced$' "$out/runs/ovh_events_$k/stm.csv") ;;
    stmi) label="STM event, csrwi"; n=$(grep -c ',traced$' "$out/runs/ovh_events_$k/stm.csv") ;;
    itc) label="ITC store"; n=$(tail -n +2 "$out/runs/ovh_events_$k/itc.csv" | cut -d, -f3 | grep -cx 5) ;;
    perf) label="perf record"; n=$("$b/tracesim" decode -f csv "$out/runs/ovh_events_$k/trace.rtd" | grep -Ec ',manual,') ;;
    esac
    [ "$n" = 256 ] || fail "ovh_events_$k: $n events in the run folder, expected 256"
    [ "$(ecell "$label" 4)" = 256 ] || fail "$label: events $(ecell "$label" 4), expected 256"
    c=$(stat ovh_events_$k cycles); i=$(stat ovh_events_$k instret)
    [ "$(ecell "$label" 5)" = "$c" ] && [ "$(ecell "$label" 6)" = "$i" ] || fail "$label: cycles/instructions differ from stats.txt"
    want=$(awk -v a="$c" -v o="$nc" 'BEGIN { printf "%.1f", (a - o) / 256 }')
    [ "$(ecell "$label" 7)" = "$want" ] || fail "$label: cycles per event $(ecell "$label" 7), expected $want"
    want=$(awk -v a="$i" -v o="$ni" 'BEGIN { printf "%.1f", (a - o) / 256 }')
    [ "$(ecell "$label" 8)" = "$want" ] || fail "$label: instructions per event $(ecell "$label" 8), expected $want"
  done
  awk -v s="$(ecell 'STM event' 7)" -v si="$(ecell 'STM event, csrwi' 7)" -v i="$(ecell 'ITC store' 7)" \
      -v p="$(ecell 'perf record' 7)" 'BEGIN { exit !(s >= 1 && si >= 1 && s < i && si < i && i < p) }' ||
    fail "cycles per event not 1 <= STM < ITC store < perf record"
  [ "$(ecell 'STM event' 8)" = 2.0 ] && [ "$(ecell 'STM event, csrwi' 8)" = 2.0 ] ||
    fail "instructions per STM event $(ecell 'STM event' 8) and $(ecell 'STM event, csrwi' 8), expected 2.0"
  # objdump 2.40 (Debian 12) prints csrwi as csrw with a number, 2.44 (Debian 13) as csrwi
  for k in stm:s stmi:1; do
    riscv64-unknown-elf-objdump -d "$b/firmware/examples/ovh_events_${k%:*}.elf" | grep -A1 -E '[[:space:]]mv[[:space:]]+a0,s' |
      grep -qE "[[:space:]]csrwi?[[:space:]]+0x7c0,${k#*:}" || fail "ovh_events_${k%:*}.elf: no csrw 0x7c0,${k#*:} right after mv a0,s"
  done
  true ;;
stopped)
  fw=$b/firmware/examples
  mkdir -p "$out.fw"
  "$t" run -q -o "$out.fw/plain" "$fw/ovh_fib_out.elf" 2> "$out.stderr" || fail "run plain"
  "$t" run -q --trace-sram 512 -o "$out.fw/small" "$fw/ovh_fib_on_sram_1.elf" 2> "$out.stderr" || fail "run small"
  "$t" run -q --trace-sram 64K -o "$out.fw/big" "$fw/ovh_fib_on_sram_1.elf" 2> "$out.stderr" || fail "run big"
  grep -q '"stopped_on_wrap": *true' "$out.fw/small/trace.json" || fail "the 512-byte sink did not stop on wrap"
  grep -q '"stopped_on_wrap": *false' "$out.fw/big/trace.json" || fail "the 64 KiB sink stopped on wrap"
  "$t" overhead --baseline "$out.fw/plain" -o "$out" "$out.fw/small" "$out.fw/big" > "$out.stdout" 2> "$out.stderr" ||
    fail "exit status $?"
  san
  col() { awk -F, -v f="$1" -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i } NR > 1 && $1 == f { print $c }' "$out/overhead.csv"; }
  for r in small big; do [ "$(col $r records)" = 134 ] || fail "$r: $(col $r records) records made, expected 134"; done
  [ "$(col big records_in_trace)" = 134 ] || fail "big: $(col big records_in_trace) records in the trace, expected 134"
  [ "$(col small records_in_trace)" -lt 134 ] || fail "small: every record in the trace: the test shows nothing"
  [ "$(col small cycles_per_record)" = "$(col big cycles_per_record)" ] ||
    fail "cycles per record: stopped $(col small cycles_per_record), full $(col big cycles_per_record)"
  # independently: the return of the outermost fib to main (flow.csv, symbols from nm), in the
  # instrumented run the first after its last perf store
  # addresses as 8 hex digits (nm and flow.csv's 0x%08x): compared as strings (mawk has no strtonum)
  range() { riscv64-unknown-elf-nm -S "$1" | while read -r a sz ty n; do
              [ "$n" = "$2" ] && printf '%s %08x\n' "$a" $((0x$a + 0x$sz)); done; }
  ret_to_main() {   # RUN ELF AFTER: the cycle of the first ret from fib to main after cycle AFTER
    read -r f0 f1 < <(range "$2" fib); read -r m0 m1 < <(range "$2" main)
    awk -F, -v a="$3" -v f0="0x$f0" -v f1="0x$f1" -v m0="0x$m0" -v m1="0x$m1" 'NR > 1 && $3 == "ret" && $1 + 0 > a + 0 &&
      $4 >= f0 && $4 < f1 && $5 >= m0 && $5 < m1 { print $1; exit }' "$1/flow.csv"
  }
  last=$(awk -F, '$3 == 6 { c = $1 } END { print c }' "$out.fw/big/itc.csv")
  on=$(ret_to_main "$out.fw/big" "$fw/ovh_fib_on_sram_1.elf" "$last"); off=$(ret_to_main "$out.fw/plain" "$fw/ovh_fib_out.elf" 0)
  [ -n "$on" ] && [ -n "$off" ] || fail "no return of fib to main in flow.csv"
  want=$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.2f", (a - b) / 134 }')
  [ "$(col big cycles_per_record)" = "$want" ] || fail "cycles per record $(col big cycles_per_record), expected ($on - $off) / 134 = $want"
  [ "$(col big shared_extra_cycles)" = $((on - off)) ] || fail "shared extra cycles $(col big shared_extra_cycles), expected $((on - off))"
  grep -q 'fib returns to main #1' "$out/overhead.md" || fail "the notes do not say where the shared part ends"
  true ;;
missing_elf)
  mkdir -p "$out.fw"
  "$t" overhead --quick --firmware-dir "$out.fw" -o "$out" > /dev/null 2> "$out.stderr"; rc=$?
  san
  [ $rc = "$TS_EXIT_NO_FILE" ] || fail "exit status $rc, expected 121"
  [ "$(wc -l < "$out.stderr")" = 1 ] || fail "not one line on stderr"
  grep -q "ovh_fib_out.elf not found" "$out.stderr" || fail "does not name the missing ELF" ;;
failed_run)
  mkdir -p "$out.fw"
  for v in $quick; do ln -s "$b/firmware/tests/simctrl.elf" "$out.fw/$v.elf"; done   # exits 42
  "$t" overhead --quick --firmware-dir "$out.fw" -o "$out" > /dev/null 2> "$out.stderr"; rc=$?
  san
  [ $rc = 1 ] || fail "exit status $rc, expected 1"
  [ "$(wc -l < "$out.stderr")" = 1 ] || fail "not one line on stderr"
  grep -q "^tracesim: overhead: ovh_fib_out failed: exit status 42" "$out.stderr" || fail "does not say which run failed and how"
  [ -f "$out/overhead.md" ] && fail "wrote a report after a failed run"
  true ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
