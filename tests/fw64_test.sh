#!/usr/bin/env bash
# fw64_test.sh BUILD_DIR - the RV64 firmware build (build/firmware64, TS_XLEN=64; docs/firmware/
# bsp.md "RV32 and RV64"), inspected as built until the simulator runs RV64 code:
#   * every ELF (at least 20: the examples, the SBI payloads, hello) is ELF64 for RISC-V with
#     the lp64 soft-float ABI, its entry at 0x8000_0000 (crt0's _start first in the image);
#   * every object of every library and ELF was built for rv64imac (the .riscv.attributes
#     arch string starts rv64i and has M, A and C);
#   * no RV32-only `h` counter CSR in any of them (cycleh, timeh, instreth, hpmcounterNh,
#     mcycleh, minstreth, mhpmcounterNh, mhpmeventNh, by name or number; objdump's
#     rdcycleh/rdtimeh/rdinstreth): on RV64 they do not exist (an illegal instruction);
#   * the 64-bit counter reads are single csrr: the perf library reads cycle (rdcycle) and
#     the BSP's trap entry saves registers with sd;
#   * every ELF is one SiFive's decoder reads (tests/elf_dqr_safe.sh, as fw.elf_dqr_safe for RV32);
#   * what the RV32 build names in the same places does exist there (the search finds h CSRs
#     in build/firmware's perf library), so the search is not blind.
set -eu
build=$(cd "$1" && pwd)
fw=$build/firmware64
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -d "$fw" ] || fail "no $fw (the firmware64 external project)"
hcsr='(cycleh|timeh|instreth|hpmcounter[0-9]+h|mcycleh|minstreth|mhpmcounter[0-9]+h|mhpmevent[0-9]+h|0xc[89][0-9a-f]|0xb[89][0-9a-f]|0x7[23][0-9a-f])'
hcsr_insn="(csrr?[rwsc]i?[[:space:]].*\\b$hcsr\\b|\\brd(cycle|time|instret)h\\b)"

# (not the RV64 conformance tests, tests/rv64: assembly with their own start-up, rv64_priv
# uses the h CSRs on purpose to see them trap)
mapfile -t elves < <(find "$fw" -name '*.elf' -not -path '*/CMakeFiles/*' -not -path '*/tests/rv64/*' | sort)
[ "${#elves[@]}" -ge 20 ] || fail "only ${#elves[@]} ELFs in $fw"
mapfile -t libs < <(find "$fw" -maxdepth 1 -name 'lib*.a' | sort)
[ "${#libs[@]}" -ge 6 ] || fail "only ${#libs[@]} libraries in $fw"
for e in "${elves[@]}"; do
  h=$(riscv64-unknown-elf-readelf -h "$e")
  grep -q 'Class:[[:space:]]*ELF64' <<< "$h" || fail "$e is not ELF64"
  grep -q 'Machine:[[:space:]]*RISC-V' <<< "$h" || fail "$e is not RISC-V"
  grep -q 'Flags:.*RVC, soft-float ABI' <<< "$h" || fail "$e: not RVC with the lp64 soft-float ABI"
  grep -q 'Entry point address:[[:space:]]*0x80000000$' <<< "$h" || fail "$e: entry not at 0x80000000"
done
for f in "${elves[@]}" "${libs[@]}"; do
  arch=$(riscv64-unknown-elf-readelf -A "$f" | sed -n 's/.*Tag_RISCV_arch: "\(.*\)"/\1/p' | sort -u)
  [ -n "$arch" ] || fail "$f: no Tag_RISCV_arch"
  for a in $arch; do
    [[ $a =~ ^rv64i[0-9p]*_m[0-9p]*_a[0-9p]*_c[0-9p]* ]] || fail "$f: built for $a, not rv64imac"
  done
  hits=$(riscv64-unknown-elf-objdump -d "$f" | grep -E "$hcsr_insn" | head -3 || true)
  [ -z "$hits" ] || fail "$f names an RV32-only h CSR: $hits"
done
riscv64-unknown-elf-objdump -d "$fw/libtsperf.a" | grep -qE '\brdcycle\b|csrr[[:space:]].*\bcycle$' ||
  fail "the RV64 perf library never reads cycle"
riscv64-unknown-elf-objdump -d "$fw/libbsp.a" |
  awk '/<ts_trap_entry>:/ {on = 1; next} on && /^$/ {on = 0} on && /\tsd\t/ {n++} END {exit n != 16}' ||
  fail "the RV64 trap entry does not save 16 registers with sd"
"$(dirname "$0")/elf_dqr_safe.sh" "${elves[@]}" || fail "an RV64 ELF would crash SiFive's decoder"
n=$(riscv64-unknown-elf-objdump -d "$build/firmware/libtsperf.a" | grep -cE "$hcsr_insn" || true)
[ "$n" -ge 1 ] || fail "the RV32 perf library names no h CSR: the search would find nothing"
echo "fw64: ${#elves[@]} ELFs and ${#libs[@]} libraries: ELF64 lp64, rv64imac, no h CSR"
