#!/usr/bin/env bash
# optcheck_test.sh BUILD_DIR ELF MODE - `tracesim check` on optimised code (firmware/tests/
# optcheck: two units, inlined instrumented functions, sibling calls, recursion, calls through
# pointers, an instrumented interrupt handler; built at -O1/-O2/-O3/-Os, with and without
# -flto, in each count type). MODE:
#   pass    the run checks clean, every record the firmware counted (uart.txt) is checked;
#           hooks.csv equals an independent decode of the run's --retire-log (every entry
#           into a hook with a0/a1/ra as the retire log's register writes left them), some
#           timer interrupts were taken inside a hook (nesting exercised), and oc_square
#           (static, in the other unit) is recorded though no call in the ELF targets it
#           (GCC inlined it and calls the hooks from the inlined copy)
#   mutate  the ground truth changed in one place at a time must fail, naming the record:
#           a hook's a0 (function), a1 (call site), which hook it was (record type), the
#           cycle of its entry (time), and one counter read (value)
set -u
b=$1; elf=$2; mode=$3
t=$b/tracesim; here=$(cd "$(dirname "$0")" && pwd)
name=$(basename "$elf" .elf)
run=$b/test-runs/optcheck_$name; rm -rf "$run" "$run".*
fail() { echo "FAIL ($name $mode): $*"; exit 1; }
"$t" run -q -o "$run" --retire-log "$run.retire" "$elf" > /dev/null 2> "$run.err" || fail "firmware exited $?: $(tail -1 "$run.err")"
"$t" check "$run" > "$run.out" 2>&1 || fail "$(cat "$run.out")"
recs=$(sed -n 's/^oc: [0-9]* ticks, \([0-9]*\) records$/\1/p' "$run/uart.txt")
[ -n "$recs" ] && [ "$recs" -gt 100 ] || fail "the firmware did not record: $(cat "$run/uart.txt")"

case $mode in
pass)
  grep -Eq "^check: compared $recs perf records in the trace: each equals the ground truth" "$run.out" || fail "not all $recs records checked: $(cat "$run.out")"
  python3 "$here/hooks_from_retire.py" "$elf" "$run.retire" > "$run.want" || fail "retire log decode"
  cmp -s "$run.want" "$run/hooks.csv" || fail "hooks.csv differs from the retire log's hook entries: $(diff "$run.want" "$run/hooks.csv" | head -4)"
  dis=$(riscv64-unknown-elf-objdump -d "$elf")
  # interrupts taken inside a hook (or the writer it continues in) before it masked them
  ranges=$(riscv64-unknown-elf-nm -S "$elf" | awk '$4 ~ /^(__cyg_profile_func_(enter|exit)|write_(raw|delta|xor)2)$/ {print $1 "," $2}')
  inside=$(awk -F, -v r="$ranges" '
    function hex(s,  i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s)
      for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    BEGIN { n = split(r, a, " "); for (i = 1; i <= n; i++) { split(a[i], x, ","); lo[i] = hex(x[1]); hi[i] = lo[i] + hex(x[2]) } }
    $3 == "trap" { pc = hex($4); for (i = 1; i <= n; i++) if (pc >= lo[i] && pc < hi[i]) c++ }
    END { print c + 0 }' "$run/flow.csv")
  [ "$inside" -gt 0 ] || fail "no interrupt was taken inside a hook: the nesting is not exercised"
  sq=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "oc_square" {print $1}')
  [ -n "$sq" ] || fail "no oc_square in the ELF"
  grep -q ",0x$sq," "$run/hooks.csv" || fail "no hook entry for oc_square (0x$sq)"
  ! grep -Eq "jal[[:space:]]+(ra,)?[[:space:]]*$sq <oc_square>" <<< "$dis" || fail "oc_square is called, not inlined"
  tails=$(grep -c ',tail,' "$run/hooks.csv")
  echo "ok ($name): $(grep '^check: [0-9]* perf' "$run.out" | cut -d'(' -f1); $(($(wc -l < "$run/hooks.csv") - 1)) hook entries ($tails by a tail jump) equal the retire log's; $inside interrupts inside a hook" ;;
mutate)
  # the 60th hook entry of __cyg_profile_func_enter: its record is the one that must be named
  row=$(awk -F, '$3 == "__cyg_profile_func_enter" && ++n == 60 {print NR; exit}' "$run/hooks.csv")
  [ -n "$row" ] || fail "fewer than 60 enter hooks"
  IFS=, read -r cyc _ _ _ _ a0 a1 _ <<< "$(sed -n "${row}p" "$run/hooks.csv")"
  flip() { printf '0x%08x' $(( $1 ^ 0x40 )); }
  na0=$(flip "$a0"); na1=$(flip "$a1")
  expect_fail() {   # what, file, awk program, message regex
    local what=$1 file=$2 prog=$3 re=$4 m=$run.m_$1
    rm -rf "$m"; cp -r "$run" "$m"
    awk -F, -v OFS=, -v row="$row" "$prog" "$run/$file" > "$m/$file"
    cmp -s "$run/$file" "$m/$file" && fail "$what: the mutation changed nothing"
    "$t" check "$m" > "$m.out" 2>&1 && fail "$what: check passed a mutated $file"
    grep -Eq "$re" "$m.out" || fail "$what: unclear message: $(cat "$m.out")"
    echo "  $what: $(grep -o 'record [0-9]* ([a-z]*' "$m.out" | head -1)"
  }
  rec="check FAILED: record [0-9]+ \(enter at $a0 <"
  expect_fail function hooks.csv 'NR == row { $6 = "'"$na0"'" } { print }' "$rec.*a0 = $na0, a1 = $a1"
  expect_fail call_site hooks.csv 'NR == row { $7 = "'"$na1"'" } { print }' "$rec.*a0 = $a0, a1 = $na1"
  expect_fail type hooks.csv 'NR == row { $3 = "__cyg_profile_func_exit" } { print }' "$rec.*record type is wrong: it was written by __cyg_profile_func_exit"
  # the hook entered 5000 cycles later than it was: its record was written before it
  expect_fail time hooks.csv 'NR == row { $1 = $1 + 5000 } { print }' "$rec"
  expect_fail value counters.csv 'NR > 1 && ($4 == "cycle" || $4 == "instret") && ++n == 200 { $5 = "0x00000001" } { print }' \
    "check FAILED: record [0-9]+ .*stored 0x[0-9a-f]+, but the firmware read 0x1 "
  echo "ok ($name): 5 mutations of the ground truth fail, naming the record (hook entry at cycle $cyc: $a0 / $a1)" ;;
*) fail "unknown mode" ;;
esac
