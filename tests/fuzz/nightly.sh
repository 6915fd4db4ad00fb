#!/usr/bin/env bash
# nightly.sh BUILD_DIR TARGET... - runs each libFuzzer target of tests/fuzz/fuzz.cmake for
# FUZZ_SECONDS (default 600) on a corpus kept in BUILD_DIR/fuzz-corpus/TARGET (it grows from
# night to night; the ctest runs start from the seeds each time) and prints the executions
# reached. Exits non-zero if any target found a crash (the reproducer is in the corpus folder).
set -u
build=$1; shift
secs=${FUZZ_SECONDS:-600}
rc=0
for t in "$@"; do
  corpus=$build/fuzz-corpus/$t
  mkdir -p "$corpus"
  # start from the ctest run's seeds when the corpus is new
  [ -n "$(ls -A "$corpus")" ] || cp "$build"/test-runs/fuzz_"$t"/* "$corpus"/ 2>/dev/null || true
  log=$build/fuzz-corpus/$t.log
  ( cd "$corpus" && "$build/fuzz_$t" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$corpus/" "$corpus" ) > "$log" 2>&1
  r=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  echo "fuzz_$t: ${execs:-?} executions in ${secs} s, exit $r (log $log)"
  [ $r = 0 ] || rc=1
done
exit $rc
