#!/usr/bin/env bash
# hang_test.sh BUILD_DIR CASE [SIM] - run semantics (docs/commands/run.md; sim/hang.h).
# SIM is tracesim (default), tracesim-sc, or --systemc (tracesim run --systemc). Each hang case runs with the default cycle limit
# (10^9) and must end with status 127, exit_reason hang, one stderr line per hart naming the
# pc and function (both taken from the ELF's symbol table with nm) and the hang's kind, and
# must stop within the documented bound after the hang began: 4096 + 4096 + 16 x --ram-wait
# cycles, the start taken from the run's own retire log (--retire-log): the first retire at
# the jump, or the last retire before the wfi.
#   jump, cj, beq          j . / c.j . / beq x0,x0,. with MTIE and MSIE set but MIE clear
#   wfi, wfi_timer_off     wfi with nothing enabled / with only a disabled (but armed) timer
#   jump_wait50            j . with --ram-wait 50 (the bound grows by 16 per wait state)
#   sjump                  j . in S-mode, the counter overflow interrupt delegated and enabled
#                          but sstatus.SIE clear (the privilege rule for S-level interrupts)
#   harts                  --harts 2: hart 1 in j ., hart 0 in wfi: two lines
#   idle, idle_harts2      idle loops a timer or counter-overflow interrupt ends (idle.c), and
#                          the same with hart 1 parked in wfi all along: exit 9, not a hang
#   ret42_O0, _O2, _O3     main returns 42: exit status 42, exit_reason exit
#   sbi_ret42              the S-mode payload's s_main returns 42: exit status 42
set -u
build=$1; case=$2; simname=${3:-tracesim}
sim=$build/$simname
cmd=run; [ "$simname" = tracesim-sc ] && cmd=""   # tracesim-sc takes tracesim run's options
if [ "$simname" = --systemc ]; then sim=$build/tracesim; cmd="run --systemc"; fi
fw=$build/firmware/tests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case): $*"; echo "--- stderr:"; cat "$tmp/err"; exit 1; }
stat() { awk -v k="$1" '$1 == k {print $2}' "$tmp/r/stats.txt"; }
sym() { riscv64-unknown-elf-nm "$1" | awk -v n="$2" '$3 == n {print $1}'; }
hex() { printf '%08x' "$((16#$1))"; }

run() {   # ELF, options...: sets rc; stderr in $tmp/err, retire log in $tmp/retire.log
  local elf=$1; shift
  rc=0
  "$sim" $cmd -q --out "$tmp/r" --retire-log "$tmp/retire.log" "$@" "$elf" > "$tmp/out" 2> "$tmp/err" || rc=$?
}

# expect_hang LINE_NO HART ELF LABEL FUNC KIND: stderr line LINE_NO is HART's hang at LABEL
# inside FUNC, of kind "jump" or "wfi"
expect_hang_line() {
  local n=$1 hart=$2 elf=$3 label=$4 func=$5 kind=$6
  local pc f off msg
  pc=$(sym "$elf" "$label"); f=$(sym "$elf" "$func")
  [ -n "$pc" ] && [ -n "$f" ] || fail "no symbol $label or $func in $elf"
  off=$(printf '%x' "$((16#$pc - 16#$f))")
  if [ "$kind" = jump ]; then msg="jump to itself"; else msg="waits in wfi with no interrupt that can wake it"; fi
  local re="^tracesim: hart $hart hangs at 0x$(hex "$pc") <$func\\+0x$off>: $msg since cycle [0-9]+\$"
  sed -n "${n}p" "$tmp/err" | grep -Eq "$re" || fail "stderr line $n does not match /$re/"
}

# the hang began (from the retire log) and the run stopped within the bound
check_bound() {   # KIND ELF LABEL HART_TAG WAIT
  local kind=$1 elf=$2 label=$3 tag=$4 wait=$5 start cycles since pc
  pc=$(hex "$(sym "$elf" "$label")")
  if [ "$kind" = jump ]; then
    start=$(awk -v pc="$pc" -v t="$tag" '($1 == t || t == "") && $(t == "" ? 2 : 3) == pc { print $(t == "" ? 1 : 2); exit }' "$tmp/retire.log")
  else
    start=$(awk -v t="$tag" '(t == "" || $1 == t) { c = $(t == "" ? 1 : 2) } END { print c }' "$tmp/retire.log")
  fi
  [ -n "$start" ] || fail "no start of the hang in the retire log"
  cycles=$(stat cycles)
  local bound=$((4096 + 4096 + 16 * wait))
  [ $((cycles - start)) -le "$bound" ] || fail "stopped $((cycles - start)) cycles after the hang began at $start (bound $bound)"
  [ "$cycles" -lt 100000 ] || fail "$cycles cycles"
  # "since cycle N" of the hart's line: no earlier than the hang's start, no later than the end
  since=$(grep -m1 "hangs at 0x$pc " "$tmp/err" | sed -n 's/.* since cycle \([0-9]*\)$/\1/p')
  [ -n "$since" ] && [ "$since" -ge "$start" ] && [ "$since" -le "$cycles" ] ||
    fail "since cycle '$since' is not within [$start, $cycles]"
  echo "ok: hang began at cycle $start, run stopped at $cycles ($((cycles - start)) later, bound $bound)"
}

expect_status() {   # STATUS REASON
  [ "$rc" = "$1" ] || fail "exit status $rc, expected $1"
  [ "$(stat exit_reason)" = "$2" ] || fail "stats.txt exit_reason $(stat exit_reason), expected $2"
  [ "$(stat exit_code)" = "$1" ] || fail "stats.txt exit_code $(stat exit_code), expected $1"
}

single_hang() {   # ELF KIND [options...]
  local elf=$1 kind=$2; shift 2
  local wait=0
  [ "${1:-}" = --ram-wait ] && wait=$2
  run "$elf" "$@"
  expect_status 127 hang
  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "stderr has $(wc -l < "$tmp/err") lines, expected one"
  expect_hang_line 1 0 "$elf" hang_here main "$kind"
  check_bound "$kind" "$elf" hang_here "" "$wait"
}

case $case in
  jump) single_hang "$fw/hang_1.elf" jump ;;
  cj) single_hang "$fw/hang_2.elf" jump ;;
  beq) single_hang "$fw/hang_3.elf" jump ;;
  wfi) single_hang "$fw/hang_4.elf" wfi ;;
  wfi_timer_off) single_hang "$fw/hang_5.elf" wfi ;;
  jump_wait50) single_hang "$fw/hang_1.elf" jump --ram-wait 50 ;;
  sjump) single_hang "$fw/hang_7.elf" jump ;;
  harts)
    elf=$fw/hang_6.elf
    run "$elf" --harts 2
    expect_status 127 hang
    [ "$(wc -l < "$tmp/err")" = 2 ] || fail "stderr has $(wc -l < "$tmp/err") lines, expected two"
    expect_hang_line 1 0 "$elf" hang_here2 main wfi
    expect_hang_line 2 1 "$elf" hang_here spin jump
    check_bound wfi "$elf" hang_here2 h0 0
    ;;
  idle|idle_harts2)
    opt=""; [ "$case" = idle_harts2 ] && opt="--harts 2"
    run "$fw/idle.elf" $opt
    expect_status 9 exit
    [ ! -s "$tmp/err" ] || fail "unexpected stderr"
    c=$(stat cycles)
    [ "$c" -gt 60000 ] || fail "only $c cycles: the idle waits did not last"
    echo "ok: exit 9 after $c cycles"
    ;;
  ret42_O0|ret42_O2|ret42_O3|sbi_ret42)
    run "$fw/$case.elf"
    expect_status 42 exit
    echo "ok: exit 42"
    ;;
  *) echo "hang_test.sh: unknown case $case" >&2; exit 2 ;;
esac
