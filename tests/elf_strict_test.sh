#!/usr/bin/env bash
# elf_strict_test.sh TRACESIM FW_DIR CASE - every ELF reader (the loader of `run`, the symbols
# of `decode`, `report`, `waves --elf`, the code image of `decode -f instr`; one shared reader,
# elf/ts_elf.h) refuses an ELF it cannot read whole: one line on stderr naming the
# file, status 122 for `run` (123 for /bin/true: not RISC-V, docs/commands/run.md), 121 for the
# others; never "no symbols" and exit 0.
#   strtab_outside   fib.elf with .strtab's sh_offset past the end of the file
#   strtab_unterminated  .strtab's sh_size one byte short (the table ends inside a name)
#   symname_outside  a function symbol's st_name past the end of .strtab
#   empty text x86   an empty file, a text file, and /bin/true (an x86-64 ELF)
set -u
ts=$1 fw=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case): $*"; exit 1; }
good=$fw/examples/fib.elf
bad=$tmp/bad.elf
case $case in
  empty) : > "$bad"; re="bad.elf is not an ELF file" ;;
  text) printf 'this is text, not an ELF file\n' > "$bad"; re="bad.elf is not an ELF file" ;;
  x86) [ -f /bin/true ] || fail "no /bin/true"; cp /bin/true "$bad"; re="bad.elf is not a little-endian RISC-V ELF \\(machine 62\\)" ;;
  strtab_outside|strtab_unterminated|symname_outside)
    cp "$good" "$bad"
    python3 - "$bad" "$case" <<'PY' || fail "cannot patch the ELF"
import struct, sys
p, case = sys.argv[1], sys.argv[2]
d = bytearray(open(p, "rb").read())
assert d[:4] == b"\x7fELF" and d[4] == 1 and d[5] == 1          # ELF32 little-endian
shoff, = struct.unpack_from("<I", d, 32)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 46)
def sh(i):
    return list(struct.unpack_from("<IIIIIIIIII", d, shoff + i * shentsize))
def put(i, h):
    struct.pack_into("<IIIIIIIIII", d, shoff + i * shentsize, *h)
names = sh(shstrndx)
def name(i):
    o = names[4] + sh(i)[0]
    return bytes(d[o:d.index(0, o)]).decode()
strtab = [i for i in range(shnum) if name(i) == ".strtab"][0]
symtab = [i for i in range(shnum) if sh(i)[1] == 2][0]
h = sh(strtab)
if case == "strtab_outside":
    h[4] = len(d) + 4096
    put(strtab, h)
elif case == "strtab_unterminated":
    h[5] -= 1
    put(strtab, h)
else:
    s = sh(symtab)
    for k in range(s[5] // 16):
        o = s[4] + 16 * k
        st_name, value, size, info = struct.unpack_from("<IIIB", d, o)
        if info & 15 == 2 and value:                                # STT_FUNC
            struct.pack_into("<I", d, o, h[5] + 100)
            break
    else:
        sys.exit(1)
open(p, "wb").write(d)
PY
    case $case in
      strtab_outside) re="bad.elf: section [0-9]+ lies outside the file" ;;
      strtab_unterminated) re="bad.elf: string table \\(section [0-9]+\\) is not terminated" ;;
      symname_outside) re="bad.elf: the name of symbol [0-9]+ lies outside its string table" ;;
    esac ;;
  *) fail "unknown case" ;;
esac
# a run of the good ELF with program trace and waves: the folder the readers are given
"$ts" run -q --trace-insn htm --waves "$tmp/r/w.fst" --waves-to 2000 -o "$tmp/r" "$good" > /dev/null 2>&1 ||
  fail "the run of fib.elf failed"
expect() {   # expect STATUS -- command...
  local want=$1; shift 2
  timeout 60 "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
  local rc=$?
  [ $rc = "$want" ] || fail "$*: exit $rc, expected $want; stderr: $(head -c 300 "$tmp/err")"
  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "$*: stderr has $(wc -l < "$tmp/err") lines: $(head -c 300 "$tmp/err")"
  grep -Eq -- "$re" "$tmp/err" || fail "$*: stderr '$(cat "$tmp/err")' does not match /$re/"
}
run_rc=122; [ "$case" = x86 ] && run_rc=123
expect $run_rc -- "$ts" run -q -o "$tmp/r2" "$bad"
expect 121 -- "$ts" decode -f csv --elf "$bad" "$tmp/r"
expect 121 -- "$ts" decode -f instr --elf "$bad" "$tmp/r"
expect 121 -- "$ts" decode -f timeline --elf "$bad" "$tmp/r"
expect 121 -- "$ts" report --elf "$bad" "$tmp/r"
expect 121 -- "$ts" report --from flow --elf "$bad" "$tmp/r"
expect 121 -- "$ts" waves --no-gui --elf "$bad" "$tmp/r"
[ ! -e "$tmp/r/markers.txt" ] || fail "waves wrote markers.txt with an ELF it cannot read"
echo "ok: $case refused by run, decode (csv, instr, timeline), report (records, flow), waves"
