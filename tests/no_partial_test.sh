#!/usr/bin/env bash
# no_partial_test.sh TRACESIM FW_DIR CASE - a command that fails on bad input or an output it
# cannot create says so in one line, with its status, and leaves no partial output behind
# (the run folder or output folder it would have made does not exist afterwards).
# TRACESIM may be tracesim-sc for the run cases (its options are those of tracesim run).
#   waves_unwritable   run --waves under a regular file: 126 "cannot create waveform file", no run folder
#   retire_unwritable  run --retire-log under a regular file: 126 "cannot create", no run folder
#   retire_default     the same without --out (run folder runs/hello-1 by default): 126, no runs/ at all
#   around_no_mark     run --waves-around-mark 77,10 of a firmware without MARK 77: 120, no run folder
#   decode_elf_garbage decode -f csv --elf GARBAGE -o OUT: 121 "is not an ELF file", no OUT
#   report_no_header   report -o OUT of a trace with no perf header: 121 "no perf header", no OUT
#   waves_bad_view     waves --no-gui RUN nosuchview: 120 "no view 'nosuchview'", no markers or view in RUN
#   waves_bad_hart     waves --no-gui RUN pipeline 5 (a 1-hart run), then HART x: 120, one line each, nothing in RUN
#   waves_garbage_fst  waves --no-gui RUN whose waves.fst is random bytes, then empty: 121 "not an FST or VCD
#                      file", nothing written into RUN
#   overhead_garbage   overhead --baseline GARBAGE -o OUT GARBAGE: 1 "garbage failed: exit status 122", no OUT
set -u
ts=$1 fw=$2 case=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case): $*"; exit 1; }
expect() {   # expect STATUS REGEX -- command...
  local want=$1 re=$2; shift 3
  timeout 60 "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
  local rc=$?
  [ $rc = "$want" ] || fail "exit $rc, expected $want; stderr: $(head -c 300 "$tmp/err")"
  [ "$(wc -l < "$tmp/err")" = 1 ] || fail "stderr has $(wc -l < "$tmp/err") lines: $(head -c 300 "$tmp/err")"
  grep -Eq -- "$re" "$tmp/err" || fail "stderr '$(cat "$tmp/err")' does not match /$re/"
}
nothing() { [ ! -e "$1" ] || fail "left $1 behind: $(ls -A "$1" | tr '\n' ' ')"; }
run=("$ts" run); case $(basename "$ts") in tracesim-sc*) run=("$ts") ;; esac
echo 'not a folder' > "$tmp/file"
head -c 300 "$fw/hello.elf" | tr '\000-\377' '\125' > "$tmp/garbage.elf"
case $case in
waves_unwritable)   expect 126 "cannot create waveform file $tmp/file/w.fst" -- "${run[@]}" -q --waves "$tmp/file/w.fst" -o "$tmp/r" "$fw/hello.elf"
                    nothing "$tmp/r" ;;
retire_unwritable)  expect 126 "cannot create $tmp/file/r.log" -- "${run[@]}" -q --retire-log "$tmp/file/r.log" -o "$tmp/r" "$fw/hello.elf"
                    nothing "$tmp/r" ;;
retire_default)     (cd "$tmp" && expect 126 "cannot create file/r.log" -- "${run[@]}" -q --retire-log file/r.log "$fw/hello.elf") || exit 1
                    nothing "$tmp/runs" ;;
around_no_mark)     expect 120 "never wrote MARK 77" -- "${run[@]}" -q --waves "$tmp/w.fst" --waves-around-mark 77,10 -o "$tmp/r" "$fw/hello.elf"
                    nothing "$tmp/r" ;;
decode_elf_garbage) "$ts" run -q -o "$tmp/g" "$fw/examples/manual.elf" > /dev/null 2>&1 || fail "the good run failed"
                    expect 121 "garbage.elf is not an ELF file" -- "$ts" decode -f csv --elf "$tmp/garbage.elf" -o "$tmp/d" "$tmp/g"
                    nothing "$tmp/d" ;;
report_no_header)   "$ts" run -q -o "$tmp/g" "$fw/examples/manual.elf" > /dev/null 2>&1 || fail "the good run failed"
                    : > "$tmp/g/trace.rtd"
                    expect 121 "no perf header \\(marker 0x70657266\\) on ITC channel 6" -- "$ts" report -o "$tmp/p" "$tmp/g"
                    nothing "$tmp/p" ;;
overhead_garbage)   expect 1 "overhead: garbage failed: exit status 122: .*garbage.elf is not an ELF file" -- \
                      "$ts" overhead --baseline "$tmp/garbage.elf" -o "$tmp/o" "$tmp/garbage.elf"
                    nothing "$tmp/o" ;;
waves_bad_view)     "$ts" run -q --waves "$tmp/w.fst" -o "$tmp/g" "$fw/hello.elf" > /dev/null 2>&1 || fail "the good run failed"
                    ls "$tmp/g" > "$tmp/before"
                    expect 120 "^tracesim: waves: no view 'nosuchview' \\(pipeline, bus, trace, hpm, harts\\)$" -- "$ts" waves --no-gui "$tmp/g" nosuchview
                    ls "$tmp/g" | cmp -s - "$tmp/before" || fail "waves wrote into the run folder: $(ls "$tmp/g" | tr '\n' ' ')" ;;
waves_bad_hart)     "$ts" run -q --waves "$tmp/w.fst" -o "$tmp/g" "$fw/hello.elf" > /dev/null 2>&1 || fail "the good run failed"
                    ls "$tmp/g" > "$tmp/before"
                    expect 120 "^tracesim: waves: no hart 5: the run has 1 hart\\(s\\)$" -- "$ts" waves --no-gui "$tmp/g" pipeline 5
                    expect 120 "^tracesim: waves: HART must be a hart number, not 'x'$" -- "$ts" waves --no-gui "$tmp/g" pipeline x
                    ls "$tmp/g" | cmp -s - "$tmp/before" || fail "waves wrote into the run folder: $(ls "$tmp/g" | tr '\n' ' ')" ;;
waves_garbage_fst)  "$ts" run -q --waves "$tmp/w.fst" -o "$tmp/g" "$fw/hello.elf" > /dev/null 2>&1 || fail "the good run failed"
                    ls "$tmp/g" > "$tmp/before"
                    head -c 4096 /dev/urandom > "$tmp/w.fst"
                    expect 121 "^tracesim: the run's waves .*/w\\.fst are not an FST or VCD file \\(damaged or something else\\)$" -- "$ts" waves --no-gui "$tmp/g"
                    : > "$tmp/w.fst"
                    expect 121 "^tracesim: the run's waves .*/w\\.fst are not an FST or VCD file \\(empty\\)$" -- "$ts" waves --no-gui "$tmp/g"
                    ls "$tmp/g" | cmp -s - "$tmp/before" || fail "waves wrote into the run folder: $(ls "$tmp/g" | tr '\n' ' ')" ;;
*) fail "unknown case" ;;
esac
echo "ok: $case"
