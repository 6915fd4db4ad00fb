#!/usr/bin/env bash
# layout_calls_test.sh TESTS_DIR - layout_calls.py fails on a call against the modules'
# direction: a small source tree and build tree of its own (module decoder and module analysis,
# each one object in its static library, laid out as CMake does), compiled with cc. First the
# allowed way (analysis calls decoder: exit 0), then a call planted against it (decoder calls
# analysis: exit 1, naming the symbol, and the circle the two calls make).
set -u
t=${1:?usage: layout_calls_test.sh TESTS_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "layout_calls_test: $*"; exit 1; }
src=$tmp/src build=$tmp/build
mkdir -p "$src/decoder/src" "$src/analysis/report" \
         "$build/decoder/CMakeFiles/ts_decoder.dir/src" "$build/analysis/CMakeFiles/ts_analysis.dir/report"
mk() {   # DECODER_BODY: decoder/src/dec.c and analysis/report/prof.c, compiled and archived
  printf '%s\n' "int dec_step(int x) { return x + 1; }" "$1" > "$src/decoder/src/dec.c"
  printf '%s\n' "int dec_step(int x);" "int prof_run(int x) { return dec_step(x) * 2; }" > "$src/analysis/report/prof.c"
  cc -c -o "$build/decoder/CMakeFiles/ts_decoder.dir/src/dec.c.o" "$src/decoder/src/dec.c" || fail "cc"
  cc -c -o "$build/analysis/CMakeFiles/ts_analysis.dir/report/prof.c.o" "$src/analysis/report/prof.c" || fail "cc"
  rm -f "$build/decoder/libts_decoder.a" "$build/analysis/libts_analysis.a"
  (cd "$build/decoder/CMakeFiles/ts_decoder.dir" && ar qc ../../libts_decoder.a src/dec.c.o) || fail "ar"
  (cd "$build/analysis/CMakeFiles/ts_analysis.dir" && ar qc ../../libts_analysis.a report/prof.c.o) || fail "ar"
}
mk ""
out=$(python3 "$t/layout_calls.py" "$build" "$src") || fail "the allowed way (analysis -> decoder) failed: $out"
case $out in *"analysis -> decoder"*"all go the allowed way"*) ;; *) fail "the use analysis -> decoder not seen: $out" ;; esac
mk "int prof_run(int x); int dec_back(int x) { return prof_run(x); }"
out=$(python3 "$t/layout_calls.py" "$build" "$src"); rc=$?
[ $rc = 1 ] || fail "a call decoder -> analysis passed (exit $rc): $out"
case $out in *"module decoder uses prof_run of ts_analysis(analysis/report/prof.c)"*) ;; *) fail "the planted call not named: $out" ;; esac
case $out in *"circle: "*"decoder"*"analysis"*) ;; *) fail "the circle not named: $out" ;; esac
echo "layout_calls_test: the allowed call passes; the planted call and its circle fail"
