#!/usr/bin/env bash
# timeline_test.sh BUILD_DIR - decode --format timeline on firmware/tests/perf_proto.c: the
# enter/exit pair becomes a B/E slice named after the function, the manual records instant
# events, the counters counter tracks, the hart's track is named; with python3 present the JSON is also parsed.
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tracesim" run -q --out "$tmp/r" "$build/firmware/tests/perf_proto.elf"
"$build/tracesim_san" decode -f timeline --elf "$build/firmware/tests/perf_proto.elf" "$tmp/r/trace.rtd" > "$tmp/t.json"
grep -q '"name": "work", "ph": "B"' "$tmp/t.json" || { echo "FAIL: no begin slice for work"; exit 1; }
grep -q '"name": "work", "ph": "E"' "$tmp/t.json" || { echo "FAIL: no end slice for work"; exit 1; }
[ "$(grep -c '"ph": "i"' "$tmp/t.json")" = 5 ] || { echo "FAIL: expected 5 instant events"; exit 1; }
[ "$(grep -c '"ph": "C"' "$tmp/t.json")" = 14 ] || { echo "FAIL: expected 14 counter samples (7 records x 2)"; exit 1; }
grep -q '{"name": "thread_name", "ph": "M", "pid": 0, "tid": 0, "args": {"name": "hart 0"}}' "$tmp/t.json" ||
  { echo "FAIL: the hart's track has no name"; exit 1; }
if command -v python3 >/dev/null; then
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["traceEvents"]) == 22' "$tmp/t.json" ||
    { echo "FAIL: not valid trace-event JSON"; exit 1; }
fi
echo "ok: timeline with a work() slice, 5 instants, 14 counter samples"
