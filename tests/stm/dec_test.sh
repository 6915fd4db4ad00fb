#!/bin/sh
# dec_test.sh BUILD_DIR CASE - the software trace port through the decoder and the checker
# (docs/firmware/software-trace.md):
#   port          firmware/tests/stm_port.c (tests/stm/port_test.sh lists its events: ids 1..20
#                 with id * 0x01010101, THREAD_SWITCH 0x80001000, id 5 with 0x80001000):
#                 --format stm against that hand list, times one constant from stm.csv's
#                 cycles, -o DIR writes stm.txt, --hart 0 the same, the Ownership message shows
#                 PROCESS (0x80001000 << 5 | 3 << 2 | 2 = 68719607822, 37 bits)
#   port_check    tracesim check passes on that run and fails on a tampered stm.csv (a value
#                 changed, a row removed, a lost row without an Error message, an off row
#                 made traced)
#   threads       firmware/tests/stm_dec_threads.c with --stm-thread-switch: names assembled,
#                 check passes with the ITC store on the same time base, the timeline is valid
#                 JSON with the thread slices "main", "worker-1", "tp 0x00001000" and the
#                 user events as instant events on the running thread's track
#   threads_drops the same with --itc-depth 1: events lost, Error lines, check matches them;
#                 a lost row made traced fails
#   stop          stop-on-wrap in a 256-byte sink: check says how many events were cut
#   wrap          a wrapped 256-byte sink: check on the newest events
#   nostm         a run without port events (itc_sram): check prints no software-event line,
#                 --format stm prints nothing; a file that is no trace is refused, garbage
#                 after a trace gives corrupt lines, no crash
#   mh            firmware/tests/stm_dec_mh.c on 2 harts through the funnel: --hart N keeps
#                 hart N's lines, check per hart (and fails naming the hart), a timeline
#                 process per hart
set -eu
build=$1
case=$2
ts=$build/tracesim
san=$build/tracesim_san
fw=$build/firmware/tests
out=$build/test-runs/stm_dec_$case
rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

# check must fail, with a reason naming what is given in $2, on run folder $1
must_fail() {
    if "$san" check "$1" > "$1.out" 2> "$1.err"; then fail "check passed on $1 ($3)"; fi
    [ "$(wc -l < "$1.err")" = 1 ] || fail "check on $1 gave no one-line reason: $(cat "$1.err")"
    grep -q "$2" "$1.err" || fail "check on $1: expected '$2' in: $(cat "$1.err")"
    echo "ok: check fails ($3): $(cat "$1.err")"
}

# a copy of run folder $1 as $2 with stm.csv through the sed script $3
tamper() {
    cp -r "$1" "$2"
    sed "$3" "$1/stm.csv" > "$2/stm.csv"
    cmp -s "$1/stm.csv" "$2/stm.csv" && fail "tampering '$3' changed nothing"
    return 0
}

case $case in
port|port_check)
    "$ts" run -q --out "$out/r" "$fw/stm_port.elf"
    ;;
threads|threads_drops)
    depth=8
    [ "$case" = threads_drops ] && depth=1
    "$ts" run -q --stm-thread-switch --itc-depth $depth --out "$out/r" "$fw/stm_dec_threads.elf"
    ;;
stop)
    "$ts" run -q --stm-thread-switch --trace-sram 256 --out "$out/r" "$fw/stm_dec_threads_stop.elf"
    ;;
wrap)
    "$ts" run -q --stm-thread-switch --trace-sram 256 --out "$out/r" "$fw/stm_dec_threads.elf"
    ;;
nostm)
    "$ts" run -q --out "$out/r" "$fw/itc_sram.elf"
    ;;
mh)
    "$ts" run -q --harts 2 --funnel --srcbits 1 --stm-thread-switch --out "$out/r" "$fw/stm_dec_mh.elf"
    ;;
*) fail "unknown case $case" ;;
esac
r=$out/r

case $case in
port)
    # the hand list: columns hart group id name value
    i=1
    : > "$out/expected"
    while [ $i -le 20 ]; do
        printf '0 USER 0x%04x - 0x%08x\n' $i $((i * 16843009)) >> "$out/expected"
        i=$((i + 1))
    done
    printf '0 SYS 0x8000 THREAD_SWITCH 0x80001000\n0 USER 0x0005 - 0x80001000\n' >> "$out/expected"
    "$san" decode -f stm "$r/trace.rtd" > "$out/stm.txt"
    cut -d' ' -f2- "$out/stm.txt" | diff "$out/expected" - || fail "--format stm differs from the hand list"
    # each time is the event's commit cycle in stm.csv minus one constant
    tail -n +2 "$r/stm.csv" | cut -d, -f1 | paste -d' ' - "$out/stm.txt" |
        awk 'NR == 1 { k = $1 - $2 } $1 - $2 != k { print "time " $2 " of cycle " $1 " is off"; bad = 1 } END { exit bad }' ||
        fail "times are not the stm.csv cycles minus one constant"
    "$san" decode -f stm -o "$out/dir" "$r/trace.rtd"
    cmp "$out/stm.txt" "$out/dir/stm.txt" || fail "-o DIR did not write the same stm.txt"
    "$san" decode -f stm --hart 0 "$r/trace.rtd" | cmp - "$out/stm.txt" || fail "--hart 0 changed the output"
    # PROCESS = 0x80001000 << 5 | PRV 3 << 2 | format 2 = 2^36 + 2^17 + 14 = 68719607822
    "$san" decode "$r/trace.rtd" | grep -q '"fields": {"process": 68719607822}, .*"name": "OWNERSHIP TRACE"' ||
        fail "the Ownership message does not show PROCESS 0x100002000e"
    "$san" decode -f bogus "$r/trace.rtd" 2>&1 | grep -q "timeline, perfetto, stm)" || fail "the unknown-format message does not list stm"
    "$san" decode --help | grep -q "stm (software trace" || fail "--help does not list stm"
    echo "ok: --format stm: 22 events as listed, times = stm.csv cycles - constant, stm.txt, --hart 0, PROCESS"
    ;;
port_check)
    "$san" check "$r" > "$out/check.txt"
    grep -qx 'check: 22 of 22 software events equal, 0 lost (0 Error messages matched), 22 timestamps equal (event cycle [-+][0-9]*)' \
        "$out/check.txt" || fail "check summary: $(cat "$out/check.txt")"
    tamper "$r" "$out/value" 's/^\([0-9]*,0,0x0007\),0x07070707,/\1,0x07070708,/'
    must_fail "$out/value" "software event 7 (cycle [0-9]*, id 0x0007, value 0x07070708) decoded as id 0x0007 value 0x07070707" "value changed"
    tamper "$r" "$out/removed" '/,0x0003,0x03030303,/d'
    must_fail "$out/removed" "software event 3 (cycle [0-9]*, id 0x0004, value 0x04040404) decoded as id 0x0003" "row removed"
    tamper "$r" "$out/lost" 's/^\([0-9]*,0,0x000a,0x0a0a0a0a\),traced/\1,lost/'
    must_fail "$out/lost" "id 0x000a value 0x0a0a0a0a (cycle [0-9]*) was lost, but no Error message" "lost without an Error message"
    tamper "$r" "$out/extra" '$a 999999,0,0x0fff,0x00000001,traced'
    must_fail "$out/extra" "1 software events are missing from the trace (first: cycle 999999, id 0x0fff" "a traced row not in the trace"
    tamper "$r" "$out/off" 's/^\([0-9]*,0,0x0009,0x09090909\),traced/\1,off/'
    must_fail "$out/off" "software event 9 (cycle [0-9]*, id 0x000a, value 0x0a0a0a0a) decoded as id 0x0009" "an off row in the trace"
    ;;
threads|threads_drops)
    "$san" decode -f stm "$r/trace.rtd" > "$out/stm.txt"
    "$san" check "$r" > "$out/check.txt"
    cat "$out/check.txt"
    grep -q '^check: 1 of 1 ITC stores found in the trace, in order, with their values; 1 timestamps equal' "$out/check.txt" ||
        fail "the ITC store"
    traced=$(grep -c ',traced$' "$r/stm.csv")
    lost=$(grep -c ',lost$' "$r/stm.csv" || true)
    [ "$(grep -c ',off$' "$r/stm.csv")" -ge 1 ] || fail "no off row (tp written before tracing)"
    [ "$(grep -c ' \(USER\|COM\|SYS\|RSVD\|NONE\) ' "$out/stm.txt")" = "$traced" ] || fail "not $traced event lines"
    grep -q ' 0 name "main"$' "$out/stm.txt" || fail "no name main"
    grep -q ' 0 name "worker-1"$' "$out/stm.txt" || fail "no name worker-1"
    if [ "$case" = threads ]; then
        [ "$lost" = 0 ] || fail "events lost with the default FIFO"
        grep -q "^check: $traced of $traced software events equal, 0 lost (0 Error messages matched), $traced timestamps equal" \
            "$out/check.txt" || fail "check summary"
        "$san" decode -f timeline "$r/trace.rtd" > "$out/t.json" 2> "$out/t.err"
        [ ! -s "$out/t.err" ] || fail "timeline notes: $(cat "$out/t.err")"
        python3 - "$out/t.json" <<'EOF' || fail "timeline"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
x = [(e["name"], e["tid"]) for e in ev if e["ph"] == "X"]
assert x == [("main", 1), ("worker-1", 2), ("tp 0x00001000", 1)], x
inst = [e for e in ev if e["ph"] == "i"]
assert len(inst) == 3 + 24 + 16 + 1, len(inst)       # USER 1, 2, 3, the 24, the 16, 0x3fff
tid = [(e["args"]["id"], e["tid"]) for e in inst[:4]]
assert tid == [("0x0001", 1), ("0x0002", 2), ("0x0003", 1), ("0x0100", 1)], tid
assert inst[0]["args"]["value"] == "0x00000011" and inst[0]["pid"] == 1
names = {(e["tid"], e["args"]["name"]) for e in ev if e["name"] == "thread_name"}
assert {(0, "hart 0"), (1, "main"), (2, "worker-1")} <= names, names
for e in ev:
    if e["ph"] == "X": assert e["dur"] > 0, e
print("ok: timeline: 3 thread slices, %d instant events" % len(inst))
EOF
    else
        [ "$lost" -gt 0 ] || fail "--itc-depth 1 lost no event"
        errs=$(grep -c ' ERROR messages lost' "$out/stm.txt")
        [ "$errs" -gt 0 ] || fail "no ERROR line"
        grep -q "^check: $traced of $traced software events equal, $lost lost ($errs Error messages matched)" "$out/check.txt" ||
            fail "check summary (expected $lost lost, $errs Error messages)"
        # a lost row made traced: the event is not in the trace
        first_lost=$(grep -m1 ',lost$' "$r/stm.csv" | cut -d, -f1)
        tamper "$r" "$out/unlost" "s/^\($first_lost,.*\),lost\$/\1,traced/"
        must_fail "$out/unlost" "decoded as id" "a lost event said traced"
    fi
    echo "ok: $case: $traced events, $lost lost"
    ;;
stop)
    grep -q '"stopped_on_wrap": true' "$r/trace.json" || fail "the sink did not stop on wrap"
    "$san" check "$r" > "$out/check.txt"
    cat "$out/check.txt"
    grep -q '^check: [0-9]* of [0-9]* software events equal, .*; [1-9][0-9]* later events were cut by stop-on-wrap$' "$out/check.txt" ||
        fail "check does not say how many events were cut"
    tamper "$r" "$out/value" '0,/^\([0-9]*,0,0x0001\),0x00000011,/s//\1,0x00000012,/'
    must_fail "$out/value" "id 0x0001, value 0x00000012) decoded as id 0x0001 value 0x00000011" "value changed"
    ;;
wrap)
    grep -q '"wrapped": true' "$r/trace.json" || fail "the sink did not wrap"
    "$san" check "$r" > "$out/check.txt"
    cat "$out/check.txt"
    grep -q '^check: [1-9][0-9]* of [0-9]* software events equal' "$out/check.txt" || fail "check summary"
    "$san" decode -f stm "$r/trace.rtd" | tail -1 | grep -q ' 0 USER 0x3fff - 0xdeadbeef$' || fail "the newest event"
    tamper "$r" "$out/value" 's/,0x3fff,0xdeadbeef,/,0x3fff,0xdeadbeee,/'
    must_fail "$out/value" "value 0xdeadbeee) decoded as id 0x3fff value 0xdeadbeef" "value changed"
    ;;
mh)
    "$san" decode -f stm "$r/trace.rtd" > "$out/stm.txt"
    for h in 0 1; do
        "$san" decode -f stm --hart $h "$r/trace.rtd" > "$out/stm$h.txt"
        grep "^[0-9-]* $h " "$out/stm.txt" | cmp - "$out/stm$h.txt" || fail "--hart $h is not hart $h's lines"
        [ "$(grep -c " 0x002[0-7] - 0x000${h}000[0-7]\$" "$out/stm$h.txt")" = 8 ] || fail "hart $h: not its 8 events"
    done
    "$san" check "$r" > "$out/check.txt"
    cat "$out/check.txt"
    for h in 0 1; do
        n=$(grep -c "^[0-9]*,$h,.*,traced\$" "$r/stm.csv")
        grep -q "^check: hart $h: $n of $n software events equal, 0 lost (0 Error messages matched), $n timestamps equal" "$out/check.txt" ||
            fail "check summary of hart $h"
    done
    tamper "$r" "$out/value" 's/^\([0-9]*,1,0x0023\),0x00010003,/\1,0x00010013,/'
    must_fail "$out/value" "^tracesim: check FAILED: hart 1: software event [0-9]* (cycle [0-9]*, id 0x0023, value 0x00010013)" "hart 1's value changed"
    "$san" decode -f timeline "$r/trace.rtd" > "$out/t.json"
    python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
procs = sorted(e["pid"] for e in ev if e["name"] == "process_name")
assert procs == [1, 2], procs
for pid, tp in ((1, "tp 0x00001000"), (2, "tp 0x00002000")):
    assert any(e["ph"] == "X" and e["pid"] == pid and e["name"] == tp for e in ev), (pid, tp)
    assert sum(e["ph"] == "i" and e["pid"] == pid for e in ev) == 8, pid
' "$out/t.json" || fail "timeline"
    echo "ok: mh: --hart 0/1, check per hart, a timeline process per hart"
    ;;
nostm)
    "$san" check "$r" > "$out/check.txt"
    [ "$(cat "$out/check.txt")" = "$("$ts" check "$r" | grep -v 'software events')" ] || fail "check output differs"
    grep -q 'software event' "$out/check.txt" && fail "a software-event line without port events"
    [ -z "$("$san" decode -f stm "$r/trace.rtd")" ] || fail "--format stm printed ITC stores"
    # a file that is not a trace is refused; a trace with some garbage after it is decoded
    "$san" decode -f stm "$0" > /dev/null 2> "$out/garbage.err" && fail "garbage: a file that is not a trace was decoded"
    grep -q 'is not a trace' "$out/garbage.err" || fail "garbage: no 'is not a trace'"
    { cat "$r/trace.rtd"; head -c 100 "$0"; } > "$out/garbage.rtd"
    "$san" decode -f stm "$out/garbage.rtd" > "$out/garbage.txt" 2> "$out/garbage.err" || fail "garbage: exit $?"
    grep -q 'corrupt messages' "$out/garbage.err" || fail "garbage: no warning"
    "$san" decode -f timeline "$out/garbage.rtd" | python3 -c 'import json, sys; json.load(sys.stdin)' || fail "garbage: timeline not JSON"
    echo "ok: nostm: no software-event line, garbage decoded without a crash"
    ;;
esac
