#!/usr/bin/env bash
# text_out_test.sh BUILD_DIR CASE - names from an ELF on their way out (harness/decoder/ts_text.h):
#   csv   fib.elf with `fib` renamed to a,b"c<newline>d: `decode -f csv`, `report -f csv` and
#         `report --from flow -f csv` are CSV per RFC 4180 (Python's csv module reads every row
#         with the header's number of fields, and the name back whole)
#   esc   fib renamed to fib<ESC>[31m: no ESC byte reaches stdout or stderr of `decode -f instr`,
#         `report`, `report --from flow`, `waves --no-gui` (markers.txt), the name shown as \x1b
set -u
b=$1; case_=$2
ts=$b/tracesim_san
tmp=$b/test-runs/text_out_$case_
rm -rf "$tmp"; mkdir -p "$tmp"
fail() { echo "FAIL (text $case_): $*"; exit 1; }
fib=$b/firmware/examples/fib.elf
case $case_ in
csv)
  name=$'a,b"c\nd'
  riscv64-unknown-elf-objcopy --redefine-sym "fib=$name" "$fib" "$tmp/fw.elf" || fail "objcopy"
  "$b/tracesim" run -q --trace-insn htm -o "$tmp/r" "$tmp/fw.elf" > /dev/null || fail "the run exited $?"
  "$ts" decode -f csv "$tmp/r" > "$tmp/decode.csv" || fail "decode -f csv exited $?"
  "$ts" report -f csv "$tmp/r" > "$tmp/report.csv" || fail "report -f csv exited $?"
  "$ts" report --from flow -f csv "$tmp/r" > "$tmp/flow.csv" || fail "report --from flow -f csv exited $?"
  for f in decode report flow; do
    out=$(python3 - "$tmp/$f.csv" "$name" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
n = len(rows[0])
bad = [i + 1 for i, r in enumerate(rows) if len(r) != n]
if bad:
    print("rows %s have not the header's %d fields" % (bad[:5], n)); sys.exit(1)
named = sum(1 for r in rows[1:] if sys.argv[2] in r)
if not named:
    print("no row names the function %r" % sys.argv[2]); sys.exit(1)
print("%d rows, %d name the function" % (len(rows) - 1, named))
PY
) || fail "$f.csv: $out"
    echo "$f.csv: $out"
  done ;;
esc)
  name=$'fib\e[31m'
  riscv64-unknown-elf-objcopy --redefine-sym "fib=$name" "$fib" "$tmp/fw.elf" || fail "objcopy"
  "$b/tracesim" run -q --trace-insn htm --waves "$tmp/r/w.fst" --waves-to 2000 -o "$tmp/r" "$tmp/fw.elf" > /dev/null ||
    fail "the run exited $?"
  i=0
  for cmd in "decode -f instr --elf $tmp/fw.elf" "report" "report --from flow" "waves --no-gui"; do
    i=$((i + 1))
    $ts $cmd "$tmp/r" > "$tmp/out$i" 2> "$tmp/err$i" || fail "$cmd exited $?: $(head -c 300 "$tmp/err$i")"
    files=("$tmp/out$i" "$tmp/err$i")
    [ "$cmd" = "waves --no-gui" ] && files+=("$tmp/r/markers.txt")
    for f in "${files[@]}"; do
      if grep -q $'\e' "$f"; then fail "$cmd: an ESC byte in $(basename "$f")"; fi
    done
    [ "$cmd" = "waves --no-gui" ] && continue   # its markers name no function of this run
    grep -qF 'fib\x1b[31m' "$tmp/out$i" || fail "$cmd: the name is not shown escaped: $(grep -m1 fib "$tmp/out$i")"
  done
  echo "ok: no ESC from the ELF reached the terminal" ;;
*) fail "unknown case" ;;
esac
