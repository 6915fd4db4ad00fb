#!/usr/bin/env bash
# perf_config_live_test.sh BUILD_DIR - tracesim run collects the perf headers for
# perf_config.txt from the traced ITC stores while the run goes (sim/perf_live.c); the file must
# equal the one made by reading the run's itc.csv back afterwards (ts_write_perf_config, the
# way it was made before, through tests/perf_config/perf_config_reread), but for the comment
# lines that name the file's own path:
#   * one hart, the perf library with 8 counters (fib_raw_sram_8 and fib_delta_sba_1);
#   * 2 and 4 harts, each storing its own header through the funnel (fib_mh_sram);
#   * the header overwritten in a wrapped buffer (manual_mh_stop_sram on 2 harts, 1 KiB sink);
#   * no perf data (itc_sram: 64 ITC stores without a marker): no perf_config.txt either way.
set -u
b=$1; t=$b/tracesim; fw=$b/firmware; rr=$b/tests/perf_config_reread
runs=$b/test-runs/perf_config_live; rm -rf "$runs"; mkdir -p "$runs"
fail() { echo "FAIL: $*"; exit 1; }
n=0
one() {   # name, want (yes|no), tracesim run args...
  local name=$1 want=$2; shift 2
  "$t" run -q -o "$runs/$name" "$@" > /dev/null 2>&1
  [ -s "$runs/$name/itc.csv" ] || fail "$name: no itc.csv"
  mkdir -p "$runs/$name.ref"
  cp "$runs/$name/itc.csv" "$runs/$name.ref/"
  local rc=0
  "$rr" "$runs/$name.ref" || rc=$?
  if [ "$want" = no ]; then
    [ "$rc" = 2 ] || fail "$name: the re-read found a perf header (exit $rc)"
    [ -e "$runs/$name/perf_config.txt" ] && fail "$name: perf_config.txt without a perf header"
    n=$((n + 1)); return
  fi
  [ "$rc" = 0 ] || fail "$name: the re-read found no perf header (exit $rc)"
  [ -s "$runs/$name/perf_config.txt" ] || fail "$name: no perf_config.txt"
  grep -q '^count_type=' "$runs/$name/perf_config.txt" || fail "$name: perf_config.txt has no header: $(cat "$runs/$name/perf_config.txt")"
  diff <(grep -v '^#' "$runs/$name/perf_config.txt") <(grep -v '^#' "$runs/$name.ref/perf_config.txt") > "$runs/$name.diff" ||
    fail "$name: perf_config.txt differs from the one read back from itc.csv: $(head -5 "$runs/$name.diff")"
  n=$((n + 1))
}
one raw8 yes "$fw/examples/fib_raw_sram_8.elf"
one delta_sba yes "$fw/examples/fib_delta_sba_1.elf"
one mh2 yes --harts 2 "$fw/examples/fib_mh_sram.elf"
one mh4 yes --harts 4 "$fw/examples/fib_mh_sram.elf"
one mh_wrap yes --harts 2 --trace-sram 1K --max-cycles 20000000 "$fw/examples/manual_mh_stop_sram.elf"
one noperf no "$fw/tests/itc_sram.elf"
[ "$(grep -c '^hart=' "$runs/mh4/perf_config.txt")" = 4 ] || fail "mh4: not 4 harts' headers: $(cat "$runs/mh4/perf_config.txt")"
echo "perf_config_live: $n runs, perf_config.txt as read back from itc.csv"
