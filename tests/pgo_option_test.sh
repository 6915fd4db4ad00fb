#!/usr/bin/env bash
# pgo_option_test.sh SOURCE_DIR GENERATOR CASE - the opt-in profile-guided build (cmake/pgo.cmake),
# checked by configuring the project into a temporary folder (configure only, nothing is built):
#   flags  TRACESIM_PGO=GENERATE puts -fprofile-generate on the simulator's objects (the
#          Verilated model, vcore.cpp, sim/) and its link, and drops a ccache launcher; USE puts
#          -fprofile-use -fprofile-partial-training there; OFF (the default) leaves no -fprofile
#          flag at all, so the default build is unchanged
#   bad    any other value: configuring fails with one clear CMake error naming the value
set -eu
src=${1:?usage: pgo_option_test.sh SOURCE_DIR GENERATOR CASE}
gen=${2:?}
case_=${3:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
conf() { cmake -S "$src" -B "$tmp/b" -G "$gen" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DTRACESIM_SANITIZERS=OFF "$@" > "$tmp/out" 2>&1; }
# the compile command of one source file, from compile_commands.json
cmd() { python3 -c 'import json, sys
for e in json.load(open(sys.argv[1])):
    if e["file"].endswith(sys.argv[2]): print(e["command"]); break' "$tmp/b/compile_commands.json" "$1"; }
# every generated build rule of the tracesim target (Makefiles or Ninja)
rules() { cat "$tmp/b/sim/CMakeFiles/tracesim.dir/build.make" "$tmp/b/sim/CMakeFiles/tracesim.dir/link.txt" "$tmp/b/build.ninja" 2>/dev/null || true; }
case $case_ in
flags)
  conf -DTRACESIM_PGO=GENERATE -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache || { cat "$tmp/out"; fail "GENERATE did not configure"; }
  for f in sim/vcore.cpp sim/soc.c Vts_soc_top__Trace__0.cpp rtl_model/hpm/hpm.c; do
    c=$(cmd "$f"); [ -n "$c" ] || fail "no compile command for $f"
    case $c in *-fprofile-generate*) ;; *) fail "GENERATE: $f compiled without -fprofile-generate: $c" ;; esac
  done
  rules | grep -q -- '-fprofile-generate' || fail "GENERATE: tracesim is not linked with -fprofile-generate"
  ! rules | grep -q ccache || fail "GENERATE: the compiler launcher (ccache) is still used"
  conf -DTRACESIM_PGO=USE || { cat "$tmp/out"; fail "USE did not configure"; }
  c=$(cmd sim/soc.c)
  case $c in *-fprofile-use*-fprofile-partial-training*) ;; *) fail "USE: sim/soc.c: $c" ;; esac
  conf -DTRACESIM_PGO=OFF || { cat "$tmp/out"; fail "OFF did not configure"; }
  ! grep -q -- '-fprofile' "$tmp/b/compile_commands.json" || fail "OFF: a -fprofile flag is left in the compile commands"
  ! rules | grep -q -- '-fprofile' || fail "OFF: a -fprofile flag is left in the link"
  echo "ok: GENERATE, USE and OFF set the flags" ;;
bad)
  if conf -DTRACESIM_PGO=sometimes; then fail "TRACESIM_PGO=sometimes configured"; fi
  grep -q "TRACESIM_PGO must be OFF, GENERATE or USE, not 'sometimes'" "$tmp/out" || { cat "$tmp/out"; fail "no clear error"; }
  echo "ok: a bad value is one clear error" ;;
*) fail "unknown case $case_" ;;
esac
