#!/usr/bin/env bash
# strict_readers_test.sh TRACESIM FW.elf CASE - a run folder's files damaged or forged, one
# way per case: the reader names the file, the line and what is wrong, exits non-zero, and
# never takes a default or stops reading quietly (issue: `check` passed on a garbage last row
# of itc.csv, "srcbits": 4294967297 read as 1, "harts": -1 as 4294967295).
#   itc_garbage    a garbage row appended to itc.csv: check exits 121 naming itc.csv:LINE
#   itc_junk_mid   a junk row in the middle of itc.csv: the same, with that row's line
#   itc_no_header  itc.csv without its header: check exits 121 naming itc.csv:1
#   json_harts     "harts": -1 in trace.json: check, decode and report exit non-zero naming trace.json:LINE
#   json_srcbits   "srcbits": 4294967297: the same
#   json_garbage   trace.json is not JSON: the same
#   json_nospace   "wrapped":true written without a space is seen (decode notes the wrap)
#   stm_garbage    a garbage row in stm.csv: check exits 121 naming stm.csv:LINE
#   ctr_garbage    a garbage last row of counters.csv: check fails naming counters.csv:LINE
#   flow_hart9     a flow.csv row of hart 9 in a one-hart run: check fails naming flow.csv:LINE
#   flow_hart_neg  a flow.csv row of hart -1: check fails, malformed row at flow.csv:LINE
#   hooks_no_header hooks.csv without its header: check exits 121 naming hooks.csv:1 (a damaged
#                  run folder, as itc_no_header; runfolder/ts_file.h checks every CSV header)
#   marks_garbage  a garbage row in marks.csv: waves exits 121 naming marks.csv:LINE
#   events_hart_neg a trace_events.csv row of hart -1: waves exits 121 naming trace_events.csv:LINE
#   waves_itc_garbage a garbage row in itc.csv: waves exits 121 naming itc.csv:LINE
#   marks_overflow a marks.csv row whose hart overflows 32 bits: waves exits 121 (no "hart -1215752191")
#   json_ts_offset "ts_cycle_offset": "x" in trace.json: decode -f csv exits 120 naming trace.json:LINE
#   waves_windows_garbage a waves_windows.csv row with from > to: waves exits 121 naming the line
set -u
ts=$1 fw=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case): $*"; exit 1; }
run=$tmp/run
"$ts" run -q -o "$run" "$fw" > /dev/null 2>&1 || fail "the run failed"
"$ts" check "$run" > /dev/null 2>&1 || fail "check fails on the untouched run"
expect() {   # expect STATUS REGEX -- command...: status and a one-line stderr matching REGEX
  local want=$1 re=$2; shift 3
  "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
  local rc=$?
  [ $rc = "$want" ] || fail "$*: exit $rc, expected $want; stderr: $(head -c 400 "$tmp/err")"
  grep -Eq -- "$re" "$tmp/err" || fail "$*: stderr '$(head -c 400 "$tmp/err")' does not match /$re/"
}
lines=$(wc -l < "$run/itc.csv")
# waves_bad_row FILE ROW WHAT: a run with waves, ROW appended to FILE; waves exits 121 naming
# FILE and the row's line
waves_bad_row() {
  "$ts" run -q -o "$run" --waves "$run/w.vcd" --waves-to 100 "$fw" > /dev/null 2>&1 || fail "run with waves"
  echo "$2" >> "$run/$1"
  expect 121 "$1:$(wc -l < "$run/$1"): $3" -- "$ts" waves "$run" --no-gui
}
case $case in
itc_garbage)   echo "garbage,row" >> "$run/itc.csv"
               expect 121 "itc.csv:$((lines + 1)): malformed row" -- "$ts" check "$run" ;;
itc_junk_mid)  sed -i '3s/.*/3,0,six,0,4,0x1/' "$run/itc.csv"
               expect 121 "itc.csv:3: malformed row" -- "$ts" check "$run" ;;
itc_no_header) sed -i '1d' "$run/itc.csv"
               expect 121 "itc.csv:1: not the header of itc.csv" -- "$ts" check "$run" ;;
json_harts|json_srcbits|json_garbage)
  case $case in
    json_harts)   sed -i 's/"harts": 1/"harts": -1/' "$run/trace.json"; re='trace.json:[0-9]+: "harts" must be a whole number from 1 to 8, not -1' ;;
    json_srcbits) sed -i 's/"srcbits": 0/"srcbits": 4294967297/' "$run/trace.json"; re='trace.json:[0-9]+: "srcbits" must be a whole number from 0 to 8, not 4294967297' ;;
    json_garbage) echo 'not json at all' > "$run/trace.json"; re='trace.json:1: ' ;;
  esac
  expect 121 "$re" -- "$ts" check "$run"
  expect 120 "$re" -- "$ts" decode "$run/trace.rtd"
  expect 120 "$re" -- "$ts" report "$run"
  ;;
json_nospace)  sed -i 's/"wrapped": false/"wrapped":true/' "$run/trace.json"
               "$ts" decode "$run/trace.rtd" > /dev/null 2> "$tmp/err" || fail "decode failed: $(cat "$tmp/err")"
               grep -q "the sink buffer wrapped (trace.json)" "$tmp/err" || fail "\"wrapped\":true not seen: $(cat "$tmp/err")" ;;
stm_garbage)   echo "1,0,x,y,traced" >> "$run/stm.csv"
               expect 121 "stm.csv:$(wc -l < "$run/stm.csv"): bad row" -- "$ts" check "$run" ;;
ctr_garbage)   echo "junk" >> "$run/counters.csv"
               expect 1 "counters.csv:$(wc -l < "$run/counters.csv"): malformed row 'junk'" -- "$ts" check "$run" ;;
flow_hart9)    sed -i '3s/^\([0-9]*\),0,/\1,9,/' "$run/flow.csv"
               expect 1 "flow.csv:3: a row of hart 9, but the run has 1 hart" -- "$ts" check "$run" ;;
flow_hart_neg) sed -i '3s/^\([0-9]*\),0,/\1,-1,/' "$run/flow.csv"
               expect 1 "flow.csv:3: malformed row" -- "$ts" check "$run" ;;
hooks_no_header) sed -i '1d' "$run/hooks.csv"
               expect 121 "hooks.csv:1: not the header of hooks.csv" -- "$ts" check "$run" ;;
marks_garbage)     waves_bad_row marks.csv "1,2,x" "malformed row" ;;
events_hart_neg)   waves_bad_row trace_events.csv "5,-1,itc_lost,6" "malformed row" ;;
waves_itc_garbage) waves_bad_row itc.csv "garbage" "not an itc.csv row" ;;
marks_overflow)    waves_bad_row marks.csv "1,5,5,3079215105" "malformed row" ;;
json_ts_offset)    sed -i 's/"ts_cycle_offset": -*[0-9]*/"ts_cycle_offset": "x"/' "$run/trace.json"
                   grep -q '"ts_cycle_offset": "x"' "$run/trace.json" || fail "the run's trace.json has no ts_cycle_offset"
                   expect 120 'trace.json:[0-9]+: "ts_cycle_offset" must be an integer' -- "$ts" decode -f csv "$run" ;;
waves_windows_garbage) waves_bad_row waves_windows.csv "500,300" "malformed row" ;;
*) fail "unknown case" ;;
esac
echo "ok: $case"
