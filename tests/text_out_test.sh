#!/usr/bin/env bash
# text_out_test.sh BUILD_DIR CASE - names from an ELF on their way out (decoder/include/ts_text.h):
#   csv   fib.elf with `fib` renamed to a,b"c<newline>d: `decode -f csv`, `report -f csv` and
#         `report --from flow -f csv` are CSV per RFC 4180 (Python's csv module reads every row
#         with the header's number of fields, and the name back whole)
#   esc   fib renamed to fib<ESC>[31m: no ESC byte reaches stdout or stderr of `decode -f instr`,
#         `report`, `report --from flow`, `waves --no-gui` (markers.txt), `symfilter`'s answers,
#         `decode -f perf`'s files, and (main renamed in hang_1.elf) run's hang report; the name
#         shown as \x1b
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
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
  # the GTKWave PC filter (one answer line per PC), decode -f perf's files (ffl: lines), and
  # run's hang report (hang_1.elf hangs in main)
  printf '%x\n' "0x$(riscv64-unknown-elf-nm "$tmp/fw.elf" | awk '$3 == "main" { print $1 }')" > "$tmp/pcs"
  nm_fib=$(riscv64-unknown-elf-nm "$tmp/fw.elf" | awk '$3 ~ /^fib/ { print $1 }')
  echo "$nm_fib" >> "$tmp/pcs"
  $ts symfilter "$tmp/fw.elf" < "$tmp/pcs" > "$tmp/filter" 2>&1 || fail "symfilter exited $?"
  [ "$(wc -l < "$tmp/filter")" = 2 ] || fail "symfilter: not one line per PC: $(cat -v "$tmp/filter")"
  if grep -q $'\e' "$tmp/filter"; then fail "symfilter: an ESC byte in its answer"; fi
  grep -qxF 'fib\x1b[31m' "$tmp/filter" || fail "symfilter: the name is not shown escaped: $(cat -v "$tmp/filter")"
  $ts decode -f perf -o "$tmp/perf" --elf "$tmp/fw.elf" "$tmp/r" > /dev/null 2> "$tmp/perf.err" || fail "decode -f perf exited $?"
  if grep -rlq $'\e' "$tmp/perf" "$tmp/perf.err"; then fail "decode -f perf: an ESC byte in $(grep -rl $'\e' "$tmp/perf")"; fi
  grep -rqF 'fib\x1b[31m' "$tmp/perf" || fail "decode -f perf: no file names the function escaped"
  riscv64-unknown-elf-objcopy --redefine-sym "main=main"$'\e[31m' "$b/firmware/tests/hang_1.elf" "$tmp/hang.elf" || fail "objcopy"
  $ts run -q -o "$tmp/h" "$tmp/hang.elf" > /dev/null 2> "$tmp/hang.err"; rc=$?
  [ $rc = "$TS_EXIT_HANG" ] || fail "the hang exited $rc: $(cat -v "$tmp/hang.err")"
  if grep -q $'\e' "$tmp/hang.err"; then fail "run: an ESC byte in the hang report"; fi
  grep -qF '<main\x1b[31m+0x' "$tmp/hang.err" || fail "run: the hang report does not name main escaped: $(cat -v "$tmp/hang.err")"
  echo "ok: no ESC from the ELF reached the terminal, a filter answer or a perf file" ;;
*) fail "unknown case" ;;
esac
