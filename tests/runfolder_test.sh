#!/usr/bin/env bash
# runfolder_test.sh BUILD_DIR CASE - the run folder as the unit of check, report, decode,
# waves and overhead (analysis/run/run_folder.h). Every case runs the ASan/UBSan build.
#   record    stats.txt of a run started in another folder with a relative ELF path: `elf` is
#             the ELF's absolute path, `elf_rel` leads from the run folder to the same file,
#             `elf_fnv1a64` is the 64-bit FNV-1a of the file (computed here in Python), `waves`
#             / `waves_rel` name the waves file likewise
#   moved     a run folder moved to another temp folder (the ELF stays, given relative at run
#             time), run from a third folder: check passes with every perf record checked,
#             report names fib (symbols from the ELF), decode -f csv names fib, waves --no-gui
#             finds the moved waves and names the perf markers after fib; all without --elf
#   copied    run folder and ELF copied together (ELF beside the run folder, and ELF copied
#             into the run folder), the originals deleted: check and report still find the ELF
#   elf_hash  --elf with another ELF warns "is not the ELF that ran" (check, report, decode),
#             --elf with the right one does not; an ELF rebuilt in place (other bytes) warns
#             without --elf; a run folder of the old format (only `elf` as given, relative to
#             where the run started) still checks from there, without a warning
#   accept    check, report, decode and waves take RUN and give the same output as with
#             RUN/trace.rtd (report, decode: with the same --elf); overhead --baseline takes run folders
#   out       -o is an output folder everywhere: report -o DIR writes DIR/report.txt (= stdout)
#             and DIR/report.csv; report -o x.txt, -o an existing file, decode -o an existing
#             file, overhead -o a file (both modes), check -o and waves -o: one line, exit 120
#   baseline  overhead --baseline ovh_fib_out.elf ovh_fib_on_sram_1.elf ovh_fib_on_sba_1.elf:
#             cycles and instructions equal separate `tracesim run`s' stats.txt, records = 134
#             (the firmware's own count in uart.txt and tracesim decode -f csv's enter/exit
#             rows), extra cycles, percent and cycles per record recomputed here, in
#             overhead.md, stdout (= overhead.md) and overhead.csv; overhead.svg well-formed
#             with a bar per firmware; a missing baseline ELF or firmware: one line, exit 121;
#             no firmware after the baseline: exit 120
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
b=$1; case_=$2
src=$(cd "$(dirname "$0")" && pwd)
t=$b/tracesim_san
fw=$b/firmware
expect=$src/run_expect.sh
tmp=$(mktemp -d); tmp2=$(mktemp -d); tmp3=$(mktemp -d)
trap 'rm -rf "$tmp" "$tmp2" "$tmp3"' EXIT
fail() { echo "FAIL ($case_): $*"; exit 1; }
stat_of() { awk -v k="$2" '$1 == k { sub(/^[^ ]+ /, ""); print; exit }' "$1/stats.txt"; }
# fib.elf in $tmp/fw, run from $tmp with a relative ELF path (and waves) into $tmp/a/run
mkrun() {
  mkdir -p "$tmp/fw" "$tmp/a"
  cp "$fw/examples/fib.elf" "$tmp/fw/fib.elf"
  (cd "$tmp" && "$t" run -q --waves a/run/w.fst -o a/run fw/fib.elf) > /dev/null || fail "tracesim run"
}
checks_ok() {   # RUN: check passes with the perf records checked, report and decode name fib
  (cd "$tmp3" && "$t" check "$1") > "$tmp3/check.txt" 2> "$tmp3/check.err" || { cat "$tmp3/check.err"; fail "check $1"; }
  grep -Eq '^check: compared [1-9][0-9]* perf records in the trace: each equals the ground truth' "$tmp3/check.txt" || fail "check $1: no perf records checked"
  (cd "$tmp3" && "$t" report "$1") > "$tmp3/report.txt" 2> "$tmp3/report.err" || fail "report $1"
  grep -q '; symbols from ' "$tmp3/report.txt" && grep -Eq ' fib$' "$tmp3/report.txt" || fail "report $1 does not name fib"
  [ -s "$tmp3/check.err" ] || [ -s "$tmp3/report.err" ] && { cat "$tmp3/check.err" "$tmp3/report.err"; fail "warnings for $1"; }
  true
}

case $case_ in
record)
  mkrun
  r=$tmp/a/run
  [ "$(stat_of "$r" elf)" = "$tmp/fw/fib.elf" ] || [ "$(stat_of "$r" elf)" = "$(realpath "$tmp/fw/fib.elf")" ] ||
    fail "elf: $(stat_of "$r" elf)"
  case "$(stat_of "$r" elf_rel)" in /*|'') fail "elf_rel is not relative: $(stat_of "$r" elf_rel)" ;; esac
  [ "$(realpath "$r/$(stat_of "$r" elf_rel)")" = "$(realpath "$tmp/fw/fib.elf")" ] || fail "elf_rel $(stat_of "$r" elf_rel)"
  want=$(python3 -c '
import sys
h = 0xcbf29ce484222325
for c in open(sys.argv[1], "rb").read():
    h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
print("0x%016x" % h)' "$tmp/fw/fib.elf")
  [ "$(stat_of "$r" elf_fnv1a64)" = "$want" ] || fail "elf_fnv1a64 $(stat_of "$r" elf_fnv1a64), FNV-1a 64 is $want"
  [ "$(stat_of "$r" waves_rel)" = w.fst ] || fail "waves_rel $(stat_of "$r" waves_rel)"
  [ "$(realpath "$(stat_of "$r" waves)")" = "$(realpath "$r/w.fst")" ] || fail "waves $(stat_of "$r" waves)"
  ;;
moved)
  mkrun
  mv "$tmp/a/run" "$tmp2/run"
  checks_ok "$tmp2/run"
  (cd "$tmp3" && "$t" decode -f csv "$tmp2/run") > "$tmp3/d.csv" 2> "$tmp3/d.err" || fail "decode"
  grep -q ',enter,0x[0-9a-f]*,0x[0-9a-f]*,fib,' "$tmp3/d.csv" || fail "decode -f csv of the moved run does not name fib"
  [ -s "$tmp3/d.err" ] && fail "decode warns: $(cat "$tmp3/d.err")"
  (cd "$tmp3" && "$t" waves "$tmp2/run" --no-gui) > "$tmp3/w.txt" 2> "$tmp3/w.err" || { cat "$tmp3/w.err"; fail "waves --no-gui"; }
  grep -q "^gtkwave $tmp2/run/w.fst " "$tmp3/w.txt" || fail "waves: not the moved waves: $(cat "$tmp3/w.txt")"
  grep -q 'fib enter #1' "$tmp2/run/markers.txt" || fail "waves: markers not named after fib"
  ;;
copied)
  mkrun
  # the run folder and its ELF side by side, copied together
  mkdir -p "$tmp2/c"
  cp "$tmp/fw/fib.elf" "$tmp2/c/fib.elf"
  (cd "$tmp2/c" && "$t" run -q -o run fib.elf) > /dev/null || fail "run"
  cp -r "$tmp2/c" "$tmp3/c2"
  rm -rf "$tmp2/c"
  checks_ok "$tmp3/c2/run"
  # the run folder copied with the ELF put into it
  cp -r "$tmp/a/run" "$tmp2/r"
  cp "$tmp/fw/fib.elf" "$tmp2/r/"
  rm -rf "$tmp/a" "$tmp/fw"
  checks_ok "$tmp2/r"
  ;;
elf_hash)
  mkrun
  r=$tmp/a/run
  for c in check report "decode -f csv"; do
    $expect --exit $([ "$c" = check ] && echo 1 || echo 0) --stderr "is not the ELF that ran in $r" -- \
      $t $c --elf "$fw/hello.elf" "$r" > /dev/null || fail "$c --elf hello.elf: no warning"
    "$t" $c --elf "$tmp/fw/fib.elf" "$r" > /dev/null 2> "$tmp/err" || fail "$c --elf fib.elf fails"
    grep -q 'is not the ELF' "$tmp/err" && fail "$c --elf with the right ELF warns"
  done
  # rebuilt in place: other bytes at the recorded path
  printf 'x' >> "$tmp/fw/fib.elf"
  $expect --stderr "warning: .*fib.elf is not the ELF that ran" -- "$t" report "$r" > /dev/null || fail "rebuilt ELF: no warning"
  # the old format: `elf` as given, relative to where the run started; no hash, no _rel lines
  cp "$fw/examples/fib.elf" "$tmp/fw/fib.elf"
  sed -i -e '/^elf_rel /d' -e '/^elf_fnv1a64 /d' -e '/^waves_rel /d' -e 's|^elf .*|elf fw/fib.elf|' -e 's|^waves .*|waves a/run/w.fst|' "$r/stats.txt"
  (cd "$tmp" && "$t" check a/run) > "$tmp/c.txt" 2> "$tmp/err" || { cat "$tmp/err"; fail "old-format check"; }
  grep -Eq 'perf records in the trace: each equals the ground truth' "$tmp/c.txt" && ! [ -s "$tmp/err" ] || fail "old-format run folder"
  (cd "$tmp" && "$t" waves a/run --no-gui) > /dev/null 2>&1 || fail "old-format waves"
  ;;
accept)
  mkrun
  r=$tmp/a/run
  "$t" check "$r" > "$tmp/c1" && "$t" check "$r/trace.rtd" > "$tmp/c2" && cmp -s "$tmp/c1" "$tmp/c2" || fail "check RUN vs RUN/trace.rtd"
  e=$tmp/fw/fib.elf
  "$t" report "$r" | tail -n +2 > "$tmp/r1" && "$t" report --elf "$e" "$r/trace.rtd" | tail -n +2 > "$tmp/r2" &&
    [ -s "$tmp/r1" ] && cmp -s "$tmp/r1" "$tmp/r2" || fail "report RUN vs report --elf ELF RUN/trace.rtd"
  for f in messages csv elements timeline; do
    "$t" decode -f $f "$r" > "$tmp/d1" && "$t" decode -f $f --elf "$e" "$r/trace.rtd" > "$tmp/d2" && [ -s "$tmp/d1" ] &&
      cmp -s "$tmp/d1" "$tmp/d2" || fail "decode -f $f RUN vs RUN/trace.rtd"
  done
  "$t" waves "$r" --no-gui > /dev/null && [ -s "$r/markers.txt" ] || fail "waves RUN --no-gui"
  "$t" run -q -o "$tmp/plain" "$fw/examples/ovh_fib_out.elf" > /dev/null || fail "run plain"
  "$t" overhead --baseline "$tmp/plain" -o "$tmp/ovh" "$r" > "$tmp/o.md" 2> /dev/null || fail "overhead with run folders"
  grep -Eq "^\| run \| $(stat_of "$r" cycles) \|" "$tmp/o.md" || fail "overhead: no row of the run folder"
  ;;
out)
  mkrun
  r=$tmp/a/run
  "$t" report "$r" > "$tmp/stdout.txt" && "$t" report -o "$tmp/rep" "$r" && cmp -s "$tmp/stdout.txt" "$tmp/rep/report.txt" ||
    fail "report -o DIR: DIR/report.txt is not the report"
  "$t" report -f csv -o "$tmp/rep" "$r" && head -1 "$tmp/rep/report.csv" | grep -q , || fail "report -f csv -o DIR"
  touch "$tmp/file"
  $expect --exit "$TS_EXIT_USAGE" --one-line --stderr "output folder" -- "$t" report -o "$tmp/x.txt" "$r" || fail "report -o x.txt"
  $expect --exit "$TS_EXIT_USAGE" --one-line --stderr "output folder" -- "$t" report -o "$tmp/file" "$r" || fail "report -o FILE"
  $expect --exit "$TS_EXIT_USAGE" --one-line --stderr "output folder" -- "$t" decode -o "$tmp/file" "$r" || fail "decode -o FILE"
  $expect --exit "$TS_EXIT_USAGE" --one-line --stderr "output folder" -- "$t" overhead --baseline "$r" -o "$tmp/file" "$r" || fail "overhead -o FILE"
  $expect --exit "$TS_EXIT_USAGE" --one-line --stderr "output folder" -- "$t" overhead --quick -o "$tmp/file" || fail "overhead --quick -o FILE"
  $expect --exit "$TS_EXIT_USAGE" --one-line --stderr "writes no files" -- "$t" check -o "$tmp/o" "$r" || fail "check -o"
  $expect --exit "$TS_EXIT_USAGE" --one-line --stderr "into the run folder" -- "$t" waves -o "$tmp/o" "$r" || fail "waves -o"
  [ -e "$tmp/x.txt" ] && fail "report -o x.txt created something"
  true
  ;;
baseline)
  e=$fw/examples
  names="ovh_fib_out ovh_fib_on_sram_1 ovh_fib_on_sba_1"
  "$t" overhead --baseline "$e/ovh_fib_out.elf" -o "$tmp/o" "$e/ovh_fib_on_sram_1.elf" "$e/ovh_fib_on_sba_1.elf" \
    > "$tmp/stdout" 2> "$tmp/stderr" || { cat "$tmp/stderr"; fail "exit status"; }
  grep -Eq "ERROR: (Address|Leak)Sanitizer|runtime error:" "$tmp/stderr" && fail "sanitizer"
  cmp -s "$tmp/stdout" "$tmp/o/overhead.md" || fail "stdout is not overhead.md"
  # expected values from runs of our own
  for n in $names; do "$t" run -q -o "$tmp/own/$n" "$e/$n.elf" > /dev/null || fail "run $n"; done
  bc=$(stat_of "$tmp/own/ovh_fib_out" cycles)
  row() { grep -E "^\| $1( \(baseline\))? \|" "$tmp/o/overhead.md" | tr -d ' '; }
  [ "$(row ovh_fib_out)" = "|ovh_fib_out(baseline)|$bc|$(stat_of "$tmp/own/ovh_fib_out" instret)|0|(baseline)|-|-|0|0|-|" ] ||
    fail "baseline row $(row ovh_fib_out)"
  grep -q "^ovh_fib_out,$e/ovh_fib_out.elf,1,$bc,$(stat_of "$tmp/own/ovh_fib_out" instret),0,0.00,0,,0,,$" "$tmp/o/overhead.csv" ||
    fail "baseline csv row"
  # the shared part (docs/commands/overhead.md) ends at the return of the outermost fib to main,
  # in an instrumented run the first after its last perf store (itc.csv channel 6): from
  # flow.csv and nm, addresses as 8 hex digits compared as strings
  range() { riscv64-unknown-elf-nm -S "$1" | while read -r a sz ty nm; do
              [ "$nm" = "$2" ] && printf '%s %08x\n' "$a" $((0x$a + 0x$sz)); done; }
  ret_to_main() {   # RUN ELF AFTER
    read -r f0 f1 < <(range "$2" fib); read -r m0 m1 < <(range "$2" main)
    awk -F, -v a="$3" -v f0="0x$f0" -v f1="0x$f1" -v m0="0x$m0" -v m1="0x$m1" 'NR > 1 && $3 == "ret" && $1 + 0 > a + 0 &&
      $4 >= f0 && $4 < f1 && $5 >= m0 && $5 < m1 { print $1; exit }' "$1/flow.csv"
  }
  off=$(ret_to_main "$tmp/own/ovh_fib_out" "$e/ovh_fib_out.elf" 0)
  [ -n "$off" ] || fail "no return of fib to main in the baseline's flow.csv"
  for n in ovh_fib_on_sram_1 ovh_fib_on_sba_1; do
    c=$(stat_of "$tmp/own/$n" cycles); i=$(stat_of "$tmp/own/$n" instret)
    grep -q '^perf: 134 records' "$tmp/own/$n/uart.txt" || fail "$n: the firmware did not write 134 records"
    recs=$("$b/tracesim" decode -f csv "$tmp/own/$n" | grep -Ec ',(enter|exit),')
    [ "$recs" = 134 ] || fail "$n: $recs records decoded"
    last=$(awk -F, '$3 == 6 { c = $1 } END { print c }' "$tmp/own/$n/itc.csv")
    on=$(ret_to_main "$tmp/own/$n" "$e/$n.elf" "$last")
    [ -n "$on" ] || fail "$n: no return of fib to main after the last perf store"
    want=$(awk -v c="$c" -v b="$bc" -v i="$i" -v r="$recs" -v n="$n" -v on="$on" -v off="$off" \
      'BEGIN { printf "|%s|%d|%d|+%d|+%.1f%%|+%d|+%.1f%%|%d|%d|%.1f|", n, c, i, c - b, 100 * (c - b) / b,
               on - off, 100 * (on - off) / off, 134, r, (on - off) / 134 }')
    [ "$(row $n)" = "$want" ] || fail "$n: row $(row $n), expected $want"
    want=$(awk -v c="$c" -v b="$bc" -v i="$i" -v r="$recs" -v n="$n" -v e="$e/$n.elf" -v on="$on" -v off="$off" \
      'BEGIN { printf "%s,%s,0,%d,%d,%d,%.2f,%d,%.2f,%d,%d,%.2f", n, e, c, i, c - b, 100 * (c - b) / b, 134,
               (on - off) / 134, r, on - off, 100 * (on - off) / off }')
    grep -qxF "$want" "$tmp/o/overhead.csv" || fail "$n: csv, expected $want: $(cat "$tmp/o/overhead.csv")"
  done
  python3 - "$tmp/o/overhead.svg" <<'PY' || fail "overhead.svg"
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
assert d.documentElement.tagName == "svg"
bars = [r for r in d.getElementsByTagName("rect") if r.getElementsByTagName("title")]
names = sorted(r.getElementsByTagName("title")[0].firstChild.data.split(":")[0] for r in bars)
assert names == ["ovh_fib_on_sba_1", "ovh_fib_on_sram_1"], names
assert all(float(r.getAttribute("height")) > 0 for r in bars)
PY
  $expect --exit "$TS_EXIT_NO_FILE" --one-line --stderr "cannot open the baseline $tmp/none.elf" -- \
    "$t" overhead --baseline "$tmp/none.elf" -o "$tmp/o2" "$e/ovh_fib_on_sram_1.elf" || fail "missing baseline"
  $expect --exit "$TS_EXIT_NO_FILE" --one-line --stderr "cannot open $tmp/none.elf" -- \
    "$t" overhead --baseline "$e/ovh_fib_out.elf" -o "$tmp/o2" "$tmp/none.elf" || fail "missing firmware"
  $expect --exit "$TS_EXIT_USAGE" --one-line --stderr "no firmware" -- "$t" overhead --baseline "$e/ovh_fib_out.elf" || fail "no firmware"
  [ -e "$tmp/o2" ] && fail "a failed overhead left $tmp/o2"
  true
  ;;
*) fail "unknown case" ;;
esac
echo "PASS ($case_)"
