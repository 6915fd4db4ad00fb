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
*) fail "unknown case" ;;
esac
echo "ok: $case"
