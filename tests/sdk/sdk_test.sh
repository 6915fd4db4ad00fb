#!/usr/bin/env bash
# sdk_test.sh BUILD_DIR CASE - the installed tree (docs/getting-started.md "Your own firmware"). Every case
# installs with `cmake --install BUILD_DIR --prefix` into a fresh temporary folder outside the
# source tree, then moves the prefix elsewhere (the tree must be relocatable) and uses only
# the moved tree: its tracesim, pkg-config modules, CMake package and template. Cases:
#   files          the installed files: binaries, waves views and filters, headers with the
#                  .def tables they include, libraries (none instrumented: no relocation
#                  against __cyg_profile_func_*), linker script, modules, package
#   paths          no installed text file names the source, build or first install folder
#   version        tracesim --version (and tracesim-sc's): "NAME X.Y.Z (commit C)", C a
#                  commit of the source tree (or "unknown" when it is not a git work tree)
#   version_tarball cmake/version.cmake on a copy of the sources that is not a git work tree
#                  (a tarball), alone and unpacked inside another git repository: commit
#                  "unknown"; on the source tree itself: its HEAD
#   template_make  the template as copied, built by its Makefile (pkg-config): runs, exits 0,
#                  `check` passes on its 354 records (fib(10): 177 calls, each an enter and an
#                  exit record) and `report` shows fib with 177 calls
#   template_cmake the same, built by its CMakeLists.txt (find_package + toolchain file)
#   template_make64, template_cmake64  the same with the one variable for the RV64IMAC core
#                  (make XLEN=64, -DTRACESIM_XLEN=64): a 64-bit ELF for RISC-V (ELF64, lp64
#                  soft-float flags) with no `h` counter CSR; run on the installed tracesim's RV64
#                  core and checked as above
#   rv64_link      the installed RV64 libraries (lib/tracesim/rv64imac/lp64): every object
#                  ELF64, built for rv64imac (the .riscv.attributes arch string has M, A and C),
#                  no `h` CSR (cycleh, hpmcounterNh, mhpmcounterNh, mhpmeventNh, by name or
#                  number) in any of them; the RV32 ones (rv32imac/ilp32) 32-bit rv32imac, and
#                  their perf library does read cycleh (what the search looks for exists);
#                  a program linked with each tracesim64-* module and with the CMake package's
#                  tracesim::perf and tracesim::sbi_perf under -DTRACESIM_XLEN=64 is ELF64
#   two_file       tests/sdk/two_file (main.c + work.c) with the README's one-line pkg-config
#                  command, -g -finstrument-functions on both files, at -O0, -Os and -O2: each
#                  exits 0, checks on 22 records (run 1 call, twice 10 calls) and reports
#                  them; only the program's own functions call __cyg_profile_func_enter/exit
#                  (objdump: the perf library, the BSP and the hooks are not instrumented)
#   sbi_payload    tests/sdk/sbi_payload (an S-mode payload returning 7) with the CMake
#                  package's tracesim_sbi_payload() and with pkg-config tracesim-sbi: exit 7;
#                  no SDK library after the libc/libgcc group on the CMake link lines;
#                  firmware/sbi/sbi_perf_lib.c with tracesim::sbi_perf and pkg-config
#                  tracesim-sbi-perf: exit 0, check passes on its 20 records
#   waves          `tracesim waves RUN --no-gui` from the installed binary writes the view
#                  from the installed views (a line added to the installed pipeline view shows
#                  up), with the source tree hidden (a mount namespace) when unshare allows it
#   readme         the runnable commands of "Your own firmware" in docs/getting-started.md, as
#                  written, with HOME a temporary folder and the build folder as ./build: each
#                  succeeds, the installed tracesim runs them, check passes on the template
#                  and the two-file program (docs.examples also compares their output)
#   printf         (issue 35) printf("%d %f") with the installed SDK: integer-only by default
#                  (`*float*`), full with pkg-config --define-variable=vfprintf=__d_vfprintf,
#                  the template's `make PRINTF=full` and CMake -DTRACESIM_PRINTF=full
#                  ("3.250000"); -DTRACESIM_PRINTF=bogus: configuring fails naming it
#   lto_dqr        (issue 35) tracesim-dqr-elf, installed in bin: on tests/sdk/two_file built
#                  -Os -g -flto (its debug info names the unit <artificial>) the copy for dqr has no debug
#                  sections and no <artificial>, and neither copy nor rewritten ELF has the
#                  size-0 symbols at the end of .text (elf_dqr_safe.sh); a non-LTO copy keeps
#                  its debug info; a wrong call is exit 2; newer picolibc's __bothinit_array_*
#                  (added to an ELF here) go too; the template's Makefile (CFLAGS with -flto)
#                  and CMakeLists.txt (CMAKE_INTERPROCEDURAL_OPTIMIZATION) write app-dqr.elf
#                  without debug info beside app.elf with it (without -flto: with it)
#   no_pkgconfig   the template's Makefile without PKG_CONFIG_PATH: one line saying what to
#                  set, non-zero exit, no app.elf; `make clean` still works
#   no_toolchain   the template's CMakeLists.txt without the toolchain file: configuring fails
#                  with a message naming the installed toolchain file
set -eu
build=$(cd "$1" && pwd); case_=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
here=$src/tests/sdk
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tracesim-sdk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

if [ "$case_" = readme ]; then
  # the runnable blocks (```sh runnable) of "Your own firmware" in docs/getting-started.md
  awk '/^## Your own firmware$/ {on = 1; next} on && /^## / {exit}
       on && /^```sh runnable/ {inb = 1; next} inb && /^```/ {inb = 0; next} inb {print}' \
    "$src/docs/getting-started.md" > "$tmp/commands"
  [ "$(wc -l < "$tmp/commands")" -ge 10 ] || fail "fewer than 10 commands in the guide's section"
  { echo 'set -eux'
    cat "$tmp/commands"
    echo 'test "$(command -v tracesim)" = "$HOME/tracesim/bin/tracesim"'
    echo 'grep -q "^check: compared 354 perf records in the trace: each equals the ground truth" <(tracesim check runs/template)'
    echo 'grep -q "^check: compared 22 perf records in the trace: each equals the ground truth" <(tracesim check runs/my)'
    echo 'test -x "$HOME/myfw/build/app.elf" && test -x "$HOME/myfw/my.elf" && test -s runs/my-waves/view.gtkw'
    # every ELF a documented recipe builds is one SiFive's decoder reads (issue 35)
    echo 'tests/elf_dqr_safe.sh "$HOME/myfw/app.elf" "$HOME/myfw/build/app.elf" "$HOME/myfw/my.elf" "$HOME/myfw/plain.elf"'
  } > "$tmp/readme.sh"
  mkdir "$tmp/home" "$tmp/checkout" && ln -s "$build" "$tmp/checkout/build" && ln -s "$src/tests" "$tmp/checkout/tests"
  (cd "$tmp/checkout" && HOME=$tmp/home bash "$tmp/readme.sh") > "$tmp/readme.log" 2>&1 ||
    { cat "$tmp/readme.log"; fail "a command of the guide's section failed"; }
  echo "sdk.$case_: ok"; exit 0
fi
if [ "$case_" = version_tarball ]; then
  gen() {  # gen SRC OUT: the commit cmake/version.cmake writes for the tree SRC
    cmake -DTS_SRC_DIR="$1" -DTS_GEN_DIR="$2" -DPROJECT_VERSION=1.2.3 -P "$src/cmake/version.cmake" >&2 &&
      sed -n 's/^#define TS_GIT_COMMIT "\(.*\)"$/\1/p' "$2/ts_version.h"
  }
  mkdir -p "$tmp/repo/tracesim" "$tmp/gen"
  cp -r "$src/cmake" "$tmp/repo/tracesim/"
  [ "$(gen "$tmp/repo/tracesim" "$tmp/gen")" = unknown ] || fail "a tree outside git: commit not unknown"
  grep -qx '#define TS_VERSION "1.2.3"' "$tmp/gen/ts_version.h" || fail "TS_VERSION"
  git -C "$tmp/repo" init -q && git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m x
  [ "$(gen "$tmp/repo/tracesim" "$tmp/gen")" = unknown ] || fail "a tarball unpacked inside another repository: commit not unknown"
  if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
    [ "$(gen "$src" "$tmp/gen")" = "$(git -C "$src" rev-parse --short=12 HEAD)" ] || fail "the source tree's commit"
  fi
  echo "sdk.$case_: ok"; exit 0
fi

# install, then move: everything below uses $P only
cmake --install "$build" --prefix "$tmp/stage" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "cmake --install"; }
mkdir "$tmp/moved"
mv "$tmp/stage" "$tmp/moved/P"
P=$tmp/moved/P
export PKG_CONFIG_PATH=$P/lib/pkgconfig PKG_CONFIG_LIBDIR=$P/lib/pkgconfig
ts=$P/bin/tracesim

# run_check NAME ELF RECORDS [FUNC CALLS]...: runs ELF with the installed tracesim (exit 0),
# checks its records (exactly RECORDS equal the ground truth) and its profile (FUNC CALLS)
run_check() {
  local name=$1 elf=$2 records=$3; shift 3
  local run=$tmp/runs/$name
  "$ts" run -q -o "$run" "$elf" > "$tmp/$name.out" 2>&1 || { cat "$tmp/$name.out"; fail "$name: run exit $?"; }
  "$ts" check "$run" > "$tmp/$name.check" 2>&1 || { cat "$tmp/$name.check"; fail "$name: check"; }
  grep -q "^check: compared $records perf records in the trace: each equals the ground truth" "$tmp/$name.check" ||
    { cat "$tmp/$name.check"; fail "$name: check does not find $records records"; }
  "$ts" report --elf "$elf" "$run/trace.rtd" > "$tmp/$name.report" 2>&1 || { cat "$tmp/$name.report"; fail "$name: report"; }
  while [ $# -gt 0 ]; do
    awk -v f="$1" -v c="$2" '$NF == f && $2 == c && $1 ~ /^[0-9.]+$/ {ok = 1} END {exit !ok}' "$tmp/$name.report" ||
      { cat "$tmp/$name.report"; fail "$name: report has no line for $1 with $2 calls"; }
    shift 2
  done
}

# no_h_csr FILE...: objdump finds no RV32-only `h` counter CSR (by name or number) in FILE:
# a CSR instruction naming one, or objdump's rdcycleh/rdtimeh/rdinstreth for csrr of them
hcsr='(cycleh|timeh|instreth|hpmcounter[0-9]+h|mcycleh|minstreth|mhpmcounter[0-9]+h|mhpmevent[0-9]+h|0xc[89][0-9a-f]|0xb[89][0-9a-f]|0x7[23][0-9a-f])'
hcsr_insn="(csrr?[rwsc]i?[[:space:]].*\\b$hcsr\\b|\\brd(cycle|time|instret)h\\b)"
no_h_csr() {
  local f hits
  for f in "$@"; do
    hits=$(riscv64-unknown-elf-objdump -d "$f" | grep -E "$hcsr_insn" | head -3 || true)
    [ -z "$hits" ] || fail "$f names an RV32-only h CSR: $hits"
  done
}
# elf64 ELF: a 64-bit RISC-V ELF with the lp64 soft-float ABI
elf64() {
  riscv64-unknown-elf-readelf -h "$1" | grep -q 'Class:[[:space:]]*ELF64' || fail "$1 is not ELF64"
  riscv64-unknown-elf-readelf -h "$1" | grep -q 'Machine:[[:space:]]*RISC-V' || fail "$1 is not RISC-V"
  riscv64-unknown-elf-readelf -h "$1" | grep -q 'soft-float ABI' || fail "$1 is not lp64 (soft-float)"
}
case "$case_" in
files)
  for f in bin/tracesim share/tracesim/waves/make_view.sh share/tracesim/waves/views/pipeline.gtkw \
           share/tracesim/waves/filters/tcode.txt include/tracesim/bsp.h include/tracesim/sifive_bare_perf.h \
           include/tracesim/sifive_trace.h include/tracesim/ts_stm.h include/tracesim/sbi_client.h \
           include/tracesim/trace_regs.def include/tracesim/stm.def include/tracesim/soc_map.def \
           include/tracesim/hpm_events.def \
           lib/tracesim/rv32imac/ilp32/{libbsp.a,libtsperf.a,libtsstm.a,libtssbi.a,libtssbi_s.a,libtsperf_sbi.a,sbi_entry.o,libc.a,libgcc.a,tracesim.ld} \
           lib/tracesim/rv64imac/lp64/{libbsp.a,libtsperf.a,libtsstm.a,libtssbi.a,libtssbi_s.a,libtsperf_sbi.a,sbi_entry.o,libc.a,libgcc.a,tracesim.ld} \
           share/tracesim/toolchain.cmake \
           lib/cmake/tracesim-firmware/tracesim-firmware-config.cmake \
           share/tracesim/template/CMakeLists.txt share/tracesim/template/Makefile \
           share/tracesim/template/main.c; do
    [ -s "$P/$f" ] || fail "$f not installed"
  done
  [ -x "$build/tracesim-sc" ] && { [ -x "$P/bin/tracesim-sc" ] || fail "bin/tracesim-sc not installed"; }
  for m in bsp perf stm sbi sbi-perf; do
    pkg-config --exists "tracesim-$m" || fail "pkg-config module tracesim-$m"
    pkg-config --exists "tracesim64-$m" || fail "pkg-config module tracesim64-$m"
  done
  # every header the installed headers include is installed too (or is the C library's)
  for inc in $(sed -n 's/^#include "\(.*\)"/\1/p' "$P"/include/tracesim/*.h | sort -u); do
    [ -f "$P/include/tracesim/$inc" ] || fail "include/tracesim/$inc (included by an installed header) not installed"
  done
  # no installed library is instrumented: no relocation against the entry/exit hooks
  for ml in rv32imac/ilp32 rv64imac/lp64; do
    for l in bsp tsperf tsstm tssbi tssbi_s tsperf_sbi; do
      n=$(riscv64-unknown-elf-objdump -r "$P/lib/tracesim/$ml/lib$l.a" | grep -cE 'R_RISCV[A-Z_0-9]*[[:space:]]+__cyg_profile_func_' || true)
      [ "$n" = 0 ] || fail "$ml/lib$l.a calls __cyg_profile_func_enter/exit ($n relocations): instrumented"
    done
  done
  # each libgcc is its multilib's: 32-bit and 64-bit objects
  riscv64-unknown-elf-objdump -f "$P/lib/tracesim/rv32imac/ilp32/libgcc.a" | grep -q 'file format elf32-littleriscv' ||
    fail "lib/tracesim/rv32imac/ilp32/libgcc.a is not a 32-bit RISC-V library"
  riscv64-unknown-elf-objdump -f "$P/lib/tracesim/rv64imac/lp64/libgcc.a" | grep -q 'file format elf64-littleriscv' ||
    fail "lib/tracesim/rv64imac/lp64/libgcc.a is not a 64-bit RISC-V library"
  ;;
paths)
  srcr=$(cd "$src" && pwd -P); buildr=$(cd "$build" && pwd -P)
  for d in "$src" "$srcr" "$build" "$buildr" "$tmp/stage"; do
    if grep -rIlF -- "$d" "$P"; then fail "installed text files above name $d"; fi
  done
  [ "$(grep -rIl . "$P" | wc -l)" -ge 15 ] || fail "fewer text files than expected were searched"
  ;;
version)
  for b in tracesim tracesim-sc; do
    [ -x "$P/bin/$b" ] || { [ "$b" = tracesim-sc ] && continue; fail "no $b"; }
    v=$("$P/bin/$b" --version)
    echo "$v"
    [[ "$v" =~ ^$b\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([0-9a-f]{12}|unknown)\)$ ]] || fail "$b --version: '$v'"
    c=${BASH_REMATCH[1]}
    if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
      [ "$c" != unknown ] || fail "$b --version says commit unknown in a git work tree"
      [ "$(git -C "$src" cat-file -t "$c" 2>/dev/null)" = commit ] || fail "$b --version: $c is not a commit of $src"
    fi
  done
  ;;
template_make)
  cp -r "$P/share/tracesim/template" "$tmp/app"
  make -C "$tmp/app" > "$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; fail "make"; }
  run_check template_make "$tmp/app/app.elf" 354 fib 177
  "$here/../elf_dqr_safe.sh" "$tmp/app/app.elf" || fail "the template's ELF would crash SiFive's decoder"
  grep -qx 'fib(10) = 55' "$tmp/runs/template_make/uart.txt" || fail "uart.txt"
  ;;
template_cmake)
  cp -r "$P/share/tracesim/template" "$tmp/app"
  { cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_TOOLCHAIN_FILE="$P/share/tracesim/toolchain.cmake" \
          -DCMAKE_PREFIX_PATH="$P" && cmake --build "$tmp/app/build"; } > "$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "cmake"; }
  run_check template_cmake "$tmp/app/build/app.elf" 354 fib 177
  "$here/../elf_dqr_safe.sh" "$tmp/app/build/app.elf" || fail "the template's ELF would crash SiFive's decoder"
  grep -qx 'fib(10) = 55' "$tmp/runs/template_cmake/uart.txt" || fail "uart.txt"
  ;;
template_make64)
  cp -r "$P/share/tracesim/template" "$tmp/app"
  make -C "$tmp/app" XLEN=64 > "$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; fail "make XLEN=64"; }
  grep -q -- '-march=rv64imac_zicsr_zifencei -mabi=lp64' "$tmp/make.log" || { cat "$tmp/make.log"; fail "make XLEN=64 does not compile for rv64imac/lp64"; }
  elf64 "$tmp/app/app.elf"
  no_h_csr "$tmp/app/app.elf"
  "$here/../elf_dqr_safe.sh" "$tmp/app/app.elf" || fail "the template's ELF would crash SiFive's decoder"
  run_check template_make64 "$tmp/app/app.elf" 354 fib 177
  rc=0; make -C "$tmp/app" XLEN=48 > "$tmp/out" 2>&1 || rc=$?
  [ $rc != 0 ] && grep -q "XLEN is '48'" "$tmp/out" || { cat "$tmp/out"; fail "make XLEN=48"; }
  ;;
template_cmake64)
  cp -r "$P/share/tracesim/template" "$tmp/app"
  { cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_TOOLCHAIN_FILE="$P/share/tracesim/toolchain.cmake" \
          -DCMAKE_PREFIX_PATH="$P" -DTRACESIM_XLEN=64 && cmake --build "$tmp/app/build" -v; } > "$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "cmake -DTRACESIM_XLEN=64"; }
  grep -q '/lib/tracesim/rv64imac/lp64/libtsperf.a' "$tmp/cmake.log" || { cat "$tmp/cmake.log"; fail "the link does not take the RV64 perf library"; }
  elf64 "$tmp/app/build/app.elf"
  no_h_csr "$tmp/app/build/app.elf"
  "$here/../elf_dqr_safe.sh" "$tmp/app/build/app.elf" || fail "the template's ELF would crash SiFive's decoder"
  run_check template_cmake64 "$tmp/app/build/app.elf" 354 fib 177
  rc=0; cmake -S "$tmp/app" -B "$tmp/app/build2" -DCMAKE_TOOLCHAIN_FILE="$P/share/tracesim/toolchain.cmake" \
          -DCMAKE_PREFIX_PATH="$P" -DTRACESIM_XLEN=16 > "$tmp/cmake2.log" 2>&1 || rc=$?
  [ $rc != 0 ] && grep -q "TRACESIM_XLEN is '16'" "$tmp/cmake2.log" || { cat "$tmp/cmake2.log"; fail "TRACESIM_XLEN=16"; }
  ;;
rv64_link)
  l64=$P/lib/tracesim/rv64imac/lp64 l32=$P/lib/tracesim/rv32imac/ilp32
  for ml in 64 32; do
    eval "d=\$l$ml"
    for f in "$d"/libbsp.a "$d"/libtsperf.a "$d"/libtsstm.a "$d"/libtssbi.a "$d"/libtssbi_s.a "$d"/libtsperf_sbi.a "$d"/sbi_entry.o; do
      fmt=$(riscv64-unknown-elf-objdump -f "$f" | sed -n 's/.*file format //p' | sort -u)
      [ "$fmt" = "elf$ml-littleriscv" ] || fail "$f: object format(s) '$fmt', expected elf$ml-littleriscv"
      arch=$(riscv64-unknown-elf-readelf -A "$f" | sed -n 's/.*Tag_RISCV_arch: "\(.*\)"/\1/p' | sort -u)
      [ -n "$arch" ] || fail "$f: no Tag_RISCV_arch"
      for a in $arch; do
        [[ $a =~ ^rv${ml}i[0-9p]*_m[0-9p]*_a[0-9p]*_c[0-9p]* ]] || fail "$f: an object built for $a, not rv${ml}imac"
      done
    done
  done
  no_h_csr "$l64"/libbsp.a "$l64"/libtsperf.a "$l64"/libtsstm.a "$l64"/libtssbi.a "$l64"/libtssbi_s.a "$l64"/libtsperf_sbi.a "$l64"/sbi_entry.o
  n=$(riscv64-unknown-elf-objdump -d "$l32/libtsperf.a" "$l32/libbsp.a" "$l32/libtssbi.a" | grep -cE "$hcsr_insn" || true)
  [ "$n" -ge 3 ] || fail "the RV32 libraries name $n h CSRs: the h-CSR search would find nothing"
  cp "$here/two_file/main.c" "$here/two_file/work.c" "$here/sbi_payload/s_app.c" "$tmp/"
  cp "$src/firmware/sbi/sbi_perf_lib.c" "$tmp/"
  cd "$tmp"
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim64-perf) -O2 -g -finstrument-functions main.c work.c \
    $(pkg-config --libs tracesim64-perf) -o my64.elf || fail "building with pkg-config tracesim64-perf"
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim64-stm) -O2 main.c work.c \
    $(pkg-config --libs tracesim64-stm tracesim64-perf) -o stm64.elf || fail "building with pkg-config tracesim64-stm"
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim64-sbi) -O2 s_app.c \
    $(pkg-config --libs tracesim64-sbi) -o s_app64.elf || fail "building with pkg-config tracesim64-sbi"
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim64-sbi-perf) -O2 sbi_perf_lib.c \
    $(pkg-config --libs tracesim64-sbi-perf) -o perf_lib64.elf || fail "building with pkg-config tracesim64-sbi-perf"
  cp -r "$here/sbi_payload" "$tmp/sbi"
  cp "$src/firmware/sbi/sbi_perf_lib.c" "$tmp/sbi/"
  { cmake -S "$tmp/sbi" -B "$tmp/sbi/build" -DCMAKE_TOOLCHAIN_FILE="$P/share/tracesim/toolchain.cmake" \
          -DCMAKE_PREFIX_PATH="$P" -DTRACESIM_XLEN=64 && cmake --build "$tmp/sbi/build"; } > "$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "cmake -DTRACESIM_XLEN=64 (tracesim::sbi, tracesim::sbi_perf)"; }
  for e in my64.elf stm64.elf s_app64.elf perf_lib64.elf sbi/build/s_app.elf sbi/build/perf_lib.elf; do
    elf64 "$tmp/$e"
    no_h_csr "$tmp/$e"
  done
  run_check rv64_two_file "$tmp/my64.elf" 22 run 1 twice 10
  ;;
two_file)
  cp "$here/two_file/main.c" "$here/two_file/work.c" "$tmp/"
  cd "$tmp"
  for o in -O0 -Os -O2; do
    # the README's command, the user's -O, -g and -finstrument-functions for every file
    riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim-perf) $o -g -finstrument-functions main.c work.c \
      $(pkg-config --libs tracesim-perf) -o "my$o.elf" || fail "building with $o"
    run_check "two_file$o" "$tmp/my$o.elf" 22 run 1 twice 10
    grep -qx 'sum = 90' "$tmp/runs/two_file$o/uart.txt" || fail "$o: uart.txt"
    # the functions that call the hooks: exactly the program's own
    callers=$(riscv64-unknown-elf-objdump -d "my$o.elf" |
      awk '/^[0-9a-f]+ <.*>:$/ {f = $2; gsub(/[<>:]/, "", f)}
           /<__cyg_profile_func_(enter|exit)>$/ && /jal|call|tail|\tj\t/ {print f}' | sort -u | tr '\n' ' ')
    [ "$callers" = "main run twice " ] || fail "$o: __cyg_profile_func_enter/exit called from: $callers"
  done
  ;;
sbi_payload)
  cp -r "$here/sbi_payload" "$tmp/sbi"
  cp "$src/firmware/sbi/sbi_perf_lib.c" "$tmp/sbi/"
  { cmake -S "$tmp/sbi" -B "$tmp/sbi/build" -DCMAKE_TOOLCHAIN_FILE="$P/share/tracesim/toolchain.cmake" \
          -DCMAKE_PREFIX_PATH="$P" && cmake --build "$tmp/sbi/build"; } > "$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "cmake"; }
  # the CMake package's link order: every SDK library before the libc/libgcc group, which
  # must come last (perf_lib.elf links tracesim::sbi before tracesim::sbi_perf)
  for lt in "$tmp"/sbi/build/CMakeFiles/*.elf.dir/link.txt; do
    late=$(tr ' ' '\n' < "$lt" | awk '/^-Wl,--end-group$/ {e = 1; next} e && /\/lib\/tracesim\/.*lib[^\/]*\.a$/ {print}')
    [ -z "$late" ] || fail "${lt#"$tmp"/}: SDK libraries after the libc/libgcc group: $late"
  done
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim-sbi) -O2 -g "$tmp/sbi/s_app.c" \
    $(pkg-config --libs tracesim-sbi) -o "$tmp/s_app_pc.elf" || fail "building with pkg-config tracesim-sbi"
  for elf in "$tmp/sbi/build/s_app.elf" "$tmp/s_app_pc.elf"; do
    rc=0; "$ts" run -q -o "$tmp/run" "$elf" > "$tmp/out" 2>&1 || rc=$?
    [ $rc = 7 ] || { cat "$tmp/out"; fail "$elf: exit $rc, expected 7"; }
    grep -qx 'S-mode payload: SBI spec version 0x3' "$tmp/run/uart.txt" || fail "$elf: uart.txt"
  done
  # the perf library in S-mode, its counters through the SBI PMU (fw.sbi_perf_lib_1.check's
  # program: 20 records)
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim-sbi-perf) -O2 -g "$tmp/sbi/sbi_perf_lib.c" \
    $(pkg-config --libs tracesim-sbi-perf) -o "$tmp/perf_lib_pc.elf" || fail "building with pkg-config tracesim-sbi-perf"
  run_check sbi_perf_cmake "$tmp/sbi/build/perf_lib.elf" 20
  run_check sbi_perf_pc "$tmp/perf_lib_pc.elf" 20
  ;;
waves)
  cp -r "$P/share/tracesim/template" "$tmp/app"
  make -C "$tmp/app" > "$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; fail "make"; }
  "$ts" run -q -o "$tmp/run" --waves "$tmp/run/waves.fst" "$tmp/app/app.elf" > /dev/null || fail "run --waves"
  echo '[*] sdk_test: from the installed views' >> "$P/share/tracesim/waves/views/pipeline.gtkw"
  cmd=("$ts" waves "$tmp/run" --no-gui)
  if unshare -rm true 2>/dev/null; then
    mkdir "$tmp/empty"
    # the source tree (and the build tree inside it, if it is) is an empty folder
    unshare -rm sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$tmp/empty" "$src" "${cmd[@]}" \
      > "$tmp/waves.out" 2>&1 || { cat "$tmp/waves.out"; fail "tracesim waves with the source tree hidden"; }
  else
    echo "unshare not allowed: the source tree stays visible"
    "${cmd[@]}" > "$tmp/waves.out" 2>&1 || { cat "$tmp/waves.out"; fail "tracesim waves"; }
  fi
  grep -qx '\[\*\] sdk_test: from the installed views' "$tmp/run/view.gtkw" || fail "view.gtkw is not made from the installed views"
  grep -q 'soc\.' "$tmp/run/view.gtkw" || fail "view.gtkw has no signals"
  grep -q "^gtkwave " "$tmp/waves.out" || fail "no gtkwave command printed"
  [ -s "$tmp/run/markers.txt" ] || fail "no markers.txt"
  ;;
printf)
  printf '#include <stdio.h>\nint main(void) { volatile double d = 3.25; printf("%%d %%f\\n", 12345, d); return 0; }\n' > "$tmp/pf.c"
  pf_run() {   # NAME ELF EXPECTED: the UART line of the run
    "$ts" run -q -o "$tmp/runs/$1" "$2" > /dev/null 2>&1 || fail "$1: run"
    [ "$(cat "$tmp/runs/$1/uart.txt")" = "$3" ] || fail "$1: uart.txt '$(cat "$tmp/runs/$1/uart.txt")', expected '$3'"
  }
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim-bsp) -O2 "$tmp/pf.c" $(pkg-config --libs tracesim-bsp) -o "$tmp/int.elf" ||
    fail "build (default)"
  pf_run int "$tmp/int.elf" "12345 *float*"
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim-bsp) -O2 "$tmp/pf.c" \
    $(pkg-config --define-variable=vfprintf=__d_vfprintf --libs tracesim-bsp) -o "$tmp/full.elf" || fail "build (full)"
  pf_run full "$tmp/full.elf" "12345 3.250000"
  cp -r "$P/share/tracesim/template" "$tmp/app"
  cp "$tmp/pf.c" "$tmp/app/main.c"
  make -C "$tmp/app" PRINTF=full > "$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; fail "make PRINTF=full"; }
  pf_run make_full "$tmp/app/app.elf" "12345 3.250000"
  { cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_TOOLCHAIN_FILE="$P/share/tracesim/toolchain.cmake" \
          -DCMAKE_PREFIX_PATH="$P" -DTRACESIM_PRINTF=full && cmake --build "$tmp/app/build"; } > "$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "cmake -DTRACESIM_PRINTF=full"; }
  pf_run cmake_full "$tmp/app/build/app.elf" "12345 3.250000"
  rc=0; cmake -S "$tmp/app" -B "$tmp/app/build2" -DCMAKE_TOOLCHAIN_FILE="$P/share/tracesim/toolchain.cmake" \
          -DCMAKE_PREFIX_PATH="$P" -DTRACESIM_PRINTF=bogus > "$tmp/cmake2.log" 2>&1 || rc=$?
  [ $rc != 0 ] && grep -q "TRACESIM_PRINTF is 'bogus'" "$tmp/cmake2.log" || { cat "$tmp/cmake2.log"; fail "TRACESIM_PRINTF=bogus"; }
  ;;
lto_dqr)
  dq=$P/bin/tracesim-dqr-elf
  [ -x "$dq" ] || fail "bin/tracesim-dqr-elf not installed"
  cp "$here/two_file/main.c" "$here/two_file/work.c" "$tmp/"
  cd "$tmp"
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim-perf) -Os -g -flto -finstrument-functions main.c work.c \
    $(pkg-config --libs tracesim-perf) -o lto.elf || fail "building with -flto"
  # the compile unit "<artificial>" in the debug info (objdump -l shows it with binutils 2.40,
  # not 2.44: the bytes are looked for, as tracesim-dqr-elf does)
  LC_ALL=C grep -qaF '<artificial>' lto.elf || fail "the -flto ELF has no <artificial>: the test shows nothing"
  "$dq" lto.elf lto-dqr.elf || fail "tracesim-dqr-elf lto.elf lto-dqr.elf: exit $?"
  if riscv64-unknown-elf-readelf -S -W lto-dqr.elf | grep -q '\.debug_'; then fail "the LTO copy keeps debug sections"; fi
  if LC_ALL=C grep -qaF '<artificial>' lto-dqr.elf; then fail "the LTO copy names <artificial>"; fi
  "$here/../elf_dqr_safe.sh" lto-dqr.elf || fail "the copy has the size-0 symbols at the end of .text"
  cmp -s lto.elf lto-dqr.elf && fail "the copy equals the original"
  run_check lto_dqr "$tmp/lto.elf" 22
  riscv64-unknown-elf-gcc $(pkg-config --cflags tracesim-perf) -O2 -g main.c work.c $(pkg-config --libs tracesim-perf) -o plain.elf ||
    fail "building plain"
  "$here/../elf_dqr_safe.sh" plain.elf 2> /dev/null && fail "plain.elf has no size-0 symbols: the test shows nothing"
  "$dq" plain.elf plain-dqr.elf || fail "copy of plain.elf"
  riscv64-unknown-elf-readelf -S -W plain-dqr.elf | grep -q '\.debug_info' || fail "a non-LTO copy lost its debug info"
  "$dq" plain.elf || fail "in place: exit $?"
  "$here/../elf_dqr_safe.sh" plain.elf || fail "in place: the size-0 symbols are still there"
  rc=0; "$dq" > /dev/null 2>&1 || rc=$?
  [ $rc = 2 ] || fail "no argument: exit $rc, expected 2"
  rc=0; "$dq" nope.elf > /dev/null 2>&1 || rc=$?
  [ $rc = 2 ] || fail "a missing ELF: exit $rc, expected 2"
  # newer picolibc.ld's __bothinit_array_start/_end, not in this toolchain's: added as the
  # script places them, size-0 local symbols at the end of .text (value relative to .text)
  tsize=$(riscv64-unknown-elf-readelf -S -W plain.elf | awk '{ sub(/^ *\[ *[0-9]+\]/, "") } $1 == ".text" { print $5 }')
  riscv64-unknown-elf-objcopy --add-symbol __bothinit_array_start=.text:0x$tsize,local \
    --add-symbol __bothinit_array_end=.text:0x$tsize,local plain.elf both.elf || fail "adding __bothinit_array_*"
  "$here/../elf_dqr_safe.sh" both.elf 2> /dev/null && fail "both.elf has no size-0 symbols: the test shows nothing"
  "$dq" both.elf || fail "in place (__bothinit_array_*): exit $?"
  "$here/../elf_dqr_safe.sh" both.elf || fail "__bothinit_array_* are still there"
  # the template's Makefile and CMakeLists.txt with -flto: app.elf for tracesim, app-dqr.elf
  # (debug info stripped) for dqr; without -flto app-dqr.elf keeps it
  lto_copy() {   # DIR: app.elf safe for dqr with its debug info, app-dqr.elf safe without
    "$here/../elf_dqr_safe.sh" "$1/app.elf" "$1/app-dqr.elf" || fail "$1: size-0 symbols at the end of .text"
    riscv64-unknown-elf-readelf -S -W "$1/app.elf" | grep -q '\.debug_info' || fail "$1/app.elf lost its debug info"
    if riscv64-unknown-elf-readelf -S -W "$1/app-dqr.elf" | grep -q '\.debug_'; then fail "$1/app-dqr.elf keeps debug sections"; fi
  }
  cp -r "$P/share/tracesim/template" "$tmp/app"
  make -C "$tmp/app" > "$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; fail "make"; }
  riscv64-unknown-elf-readelf -S -W "$tmp/app/app-dqr.elf" | grep -q '\.debug_info' || fail "make: app-dqr.elf without -flto lost its debug info"
  make -C "$tmp/app" clean > /dev/null && [ ! -e "$tmp/app/app-dqr.elf" ] || fail "make clean leaves app-dqr.elf"
  make -C "$tmp/app" CFLAGS="-Os -g -flto" > "$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; fail "make CFLAGS=-flto"; }
  LC_ALL=C grep -qaF '<artificial>' "$tmp/app/app.elf" || fail "make: no LTO ELF: the test shows nothing"
  lto_copy "$tmp/app"
  { cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_TOOLCHAIN_FILE="$P/share/tracesim/toolchain.cmake" \
          -DCMAKE_PREFIX_PATH="$P" -DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON && cmake --build "$tmp/app/build"; } > "$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "cmake with IPO (-flto)"; }
  LC_ALL=C grep -qaF '<artificial>' "$tmp/app/build/app.elf" || fail "cmake: no LTO ELF: the test shows nothing"
  lto_copy "$tmp/app/build"
  ;;
no_pkgconfig)
  cp -r "$P/share/tracesim/template" "$tmp/app"
  rc=0; env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR=/nonexistent make -C "$tmp/app" -s > "$tmp/out" 2>&1 || rc=$?
  [ $rc != 0 ] || fail "make succeeded without the SDK's modules"
  grep -q 'set PKG_CONFIG_PATH=PREFIX/lib/pkgconfig' "$tmp/out" || { cat "$tmp/out"; fail "no line saying what to set"; }
  [ ! -e "$tmp/app/app.elf" ] || fail "app.elf made anyway"
  [ "$(grep -c . "$tmp/out")" = 1 ] || { cat "$tmp/out"; fail "more than one line"; }
  env -u PKG_CONFIG_PATH PKG_CONFIG_LIBDIR=/nonexistent make -C "$tmp/app" -s clean || fail "make clean needs pkg-config"
  ;;
no_toolchain)
  cp -r "$P/share/tracesim/template" "$tmp/app"
  rc=0; cmake -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_PREFIX_PATH="$P" > "$tmp/out" 2>&1 || rc=$?
  [ $rc != 0 ] || fail "configured with the host compiler"
  tr -d '\n' < "$tmp/out" | tr -s ' ' | grep -qF -- "-DCMAKE_TOOLCHAIN_FILE=$P/share/tracesim/toolchain.cmake" ||
    { cat "$tmp/out"; fail "no message naming the toolchain file"; }
  ;;
*) fail "unknown case $case_" ;;
esac
echo "sdk.$case_: ok"
