#!/usr/bin/env bash
# elf_hostile_test.sh TRACESIM GOOD.elf CASE - ELF files and paths made to hurt the readers:
# each is refused with one line and the documented status, at once (timeout 20 s: a reader
# that blocks on a FIFO fails the test instead of hanging ctest).
#   fifo          a named pipe given as the firmware: 121 "not a regular file"
#   fifo_elf      a named pipe given as decode's --elf: 121 "not a regular file"
#   phentsize0    e_phentsize patched to 0 (libelf reads its own size): 122 "malformed ELF header"
#   entry_outside e_entry patched to 0x10, outside every segment: 122 "entry point 0x10"
#   shoff_corrupt e_shoff patched past the end of the file, as --elf of report: one-line error, 121
#   not_riscv     e_machine patched to x86-64 (62), as --elf of decode: 121 "not a little-endian RISC-V ELF"
# The ELF is checked before the run folder is made, so these leave no folder behind (TRACESIM
# may be tracesim-sc for them: it is called with its options only, no "run"):
#   garbage_nothing   200 bytes of garbage as the firmware: 122 "not an ELF file", no run folder
#   trunc_nothing     the ELF cut after 100 bytes (ELF header, no program headers): 122, no run folder
#   outside_nothing   the good ELF with --ram-size 4K (its segments do not fit): 125 "outside RAM", no run folder
#   garbage_default   garbage without --out (run folder runs/NAME-1 by default): 122, no runs/ at all
set -u
ts=$1 good=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case): $*"; exit 1; }
# patch FILE OFFSET HEXBYTES: overwrite bytes in place (little-endian values written by hand)
patch() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
expect() {   # expect STATUS REGEX -- command...
  local want=$1 re=$2; shift 3
  timeout 20 "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
  local rc=$?
  [ $rc = 124 ] && fail "timed out (blocked?)"
  [ $rc = "$want" ] || fail "exit $rc, expected $want; stderr: $(head -c 300 "$tmp/err")"
  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "stderr has $(wc -l < "$tmp/err") lines: $(head -c 300 "$tmp/err")"
  grep -Eq -- "$re" "$tmp/err" || fail "stderr '$(cat "$tmp/err")' does not match /$re/"
}
cp "$good" "$tmp/x.elf"
# the run command of TRACESIM: tracesim-sc takes the options of `tracesim run` directly
run=("$ts" run); case $(basename "$ts") in tracesim-sc*) run=("$ts") ;; esac
nothing() { [ ! -e "$1" ] || fail "a bad ELF left $1 behind: $(ls -A "$1" | tr '\n' ' ')"; }
case $case in
fifo)          mkfifo "$tmp/p.elf"; expect 121 "p.elf is not a regular file" -- "$ts" run -q -o "$tmp/r" "$tmp/p.elf" ;;
fifo_elf)      "$ts" run -q -o "$tmp/r" "$good" > /dev/null 2>&1; mkfifo "$tmp/p.elf"
               expect 121 "p.elf is not a regular file" -- "$ts" decode -f csv --elf "$tmp/p.elf" "$tmp/r/trace.rtd" ;;
phentsize0)    patch "$tmp/x.elf" 42 '\000\000'; expect 122 "malformed ELF header" -- "$ts" run -q -o "$tmp/r" "$tmp/x.elf" ;;
entry_outside) patch "$tmp/x.elf" 24 '\020\000\000\000'; expect 122 "the entry point 0x10 is not inside a loadable segment" -- "$ts" run -q -o "$tmp/r" "$tmp/x.elf" ;;
shoff_corrupt) "$ts" run -q -o "$tmp/r" "$good" > /dev/null 2>&1; patch "$tmp/x.elf" 32 '\000\377\377\177'
               expect 121 "x.elf: the section headers lie outside the file" -- "$ts" report --elf "$tmp/x.elf" "$tmp/r/trace.rtd" ;;
not_riscv)     "$ts" run -q -o "$tmp/r" "$good" > /dev/null 2>&1; patch "$tmp/x.elf" 18 '\076\000'
               expect 121 "not a little-endian RISC-V ELF \\(machine 62\\)" -- "$ts" decode -f csv --elf "$tmp/x.elf" "$tmp/r/trace.rtd" ;;
garbage_nothing) head -c 200 "$good" | tr '\000-\377' '\125' > "$tmp/g.elf"
               expect 122 "g.elf is not an ELF file" -- "${run[@]}" -q -o "$tmp/r" "$tmp/g.elf"; nothing "$tmp/r" ;;
trunc_nothing) head -c 100 "$good" > "$tmp/t.elf"
               expect 122 "t.elf" -- "${run[@]}" -q -o "$tmp/r" "$tmp/t.elf"; nothing "$tmp/r" ;;
outside_nothing) expect 125 "x.elf: segment [0-9]+ \\[0x[0-9a-f]+, 0x[0-9a-f]+\\) is outside RAM \\[0x80000000, 0x80001000\\)" -- \
                   "${run[@]}" -q --ram-size 4K -o "$tmp/r" "$tmp/x.elf"; nothing "$tmp/r" ;;
garbage_default) head -c 200 "$good" | tr '\000-\377' '\125' > "$tmp/g.elf"
               (cd "$tmp" && expect 122 "g.elf is not an ELF file" -- "${run[@]}" -q g.elf) || exit 1; nothing "$tmp/runs" ;;
*) fail "unknown case" ;;
esac
echo "ok: $case"
