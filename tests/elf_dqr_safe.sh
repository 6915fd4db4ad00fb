#!/usr/bin/env bash
# elf_dqr_safe.sh ELF... - fails if an ELF has a local, size-0 symbol at the end of its .text
# (the address just past the section's last byte): SiFive's decoder (dqr 0.18.0) writes one
# entry past a heap array for such a symbol (docs/commands/decode.md "SiFive's decoder (dqr)
# and these ELFs"); picolibc.ld's empty constructor lists put six there unless the build
# removes them. The section's end comes from the section header, the symbols from .symtab.
set -eu
[ $# -gt 0 ] || { echo "usage: elf_dqr_safe.sh ELF..." >&2; exit 2; }
bad=0
for elf in "$@"; do
  # .text's index, address and size (hex)
  read -r idx addr size < <(riscv64-unknown-elf-readelf -S -W "$elf" |
    awk '{ sub(/^ *\[ */, ""); sub(/\]/, "") } $2 == ".text" { print $1, $4, $6 }') || true
  [ -n "${size:-}" ] || { echo "FAIL: $elf: no .text section" >&2; bad=1; continue; }
  end=$(printf '%08x' $((0x$addr + 0x$size)))
  hits=$(riscv64-unknown-elf-readelf -s -W "$elf" |
    awk -v idx="$idx" -v end="$end" '$5 == "LOCAL" && $3 == 0 && $7 == idx && $2 == end { print $8 }')
  if [ -n "$hits" ]; then echo "FAIL: $elf: size-0 local symbols at the end of .text: $(echo $hits)" >&2; bad=1; fi
done
exit $bad
