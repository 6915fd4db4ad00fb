#!/usr/bin/env bash
# context_test.sh BUILD_DIR CASE - privilege changes in program trace (Ownership in BTM/HTM
# with --trace-context, ICT Context in event mode; docs/program-trace.md) on real firmware:
# sbi_perf_lib_1.elf traces its S-mode perf records while every other round runs in U-mode
# (sret to U, ecall back: mcause 8, delegated to S). `tracesim check` must pass, and the
# counts come from the retire log (--retire-log) inside the traced window (prog_flow.csv's
# start/stop rows) alone: E = the ecall traps (mcause 8 or 9); the window starts and ends in
# S-mode, so the core changed mode 2E times, alternating U, S:
#   btm, htm   the PRIVILEGE elements of `decode --format elements`: S (after the start
#              sync), then 2E changes alternating U, S; `--format instr` gives the same
#              listing as the run without --trace-context;
#   event      the exception events (CKSRC 10) are the E ecall traps with cause 8 at the
#              retire log's trap pcs, in order; 2E context events (CKSRC 13), alternating
#              U, S;
#   overflow, event_overflow  the same with a 1-entry FIFO (--itc-depth 1): messages are lost,
#              the check passes and states the gaps (every sync is followed by the mode then);
#   mutation   the BTM trace with the second Ownership message's PRV changed from U to M
#              (PROCESS byte 0x01 -> 0x31): check fails naming that message;
#   event_mutation  the event trace with the first context event to S-mode (at the address of
#              the exception before it, CKDATA0 0) changed to M (CKDATA1 4 -> 12): check
#              fails naming it.
set -u
b=$1; case_=$2
run=$b/test-runs/context_$case_
rm -rf "$run" "$run".*
fail() { echo "FAIL (context $case_): $*"; exit 1; }
ts=$b/tracesim
elf=$b/firmware/sbi/sbi_perf_lib_1.elf
mode=btm
extra=()
case $case_ in htm) mode=htm ;; event|event_mutation) mode=event ;; event_overflow) mode=event; extra=(--itc-depth 1) ;;
  overflow) extra=(--itc-depth 1) ;; esac
"$ts" run -q --trace-insn $mode --trace-context "${extra[@]}" --trace-sram 4M --retire-log "$run.retire" -o "$run" "$elf" > /dev/null ||
  fail "run exited $?"
read -r s e < <(awk -F, '$2==0 && $3=="start"{s=$1} $2==0 && $3=="stop"{e=$1} END{print s, e}' "$run/prog_flow.csv")
[ -n "$s" ] && [ -n "$e" ] || fail "prog_flow.csv has no start and stop row"
# the ecall traps in the window: "cycle pc trap mcause=0x0000000[89]"
awk -v s="$s" -v e="$e" '$1 + 0 > s && $1 + 0 < e && $3 == "trap" && ($4 == "mcause=0x00000008" || $4 == "mcause=0x00000009") {print $2}' \
  "$run.retire" > "$run.ecalls"
E=$(wc -l < "$run.ecalls")
[ "$E" -ge 10 ] || fail "only $E ecall traps while tracing"
# the expected modes: S, then U S U S ... (2E)
want=$(awk -v n="$E" 'BEGIN{printf "S"; for (i = 0; i < n; i++) printf " U S"; print ""}')
case $case_ in
  btm|htm)
    "$ts" check "$run" > "$run.check" 2>&1 || fail "check: $(tail -1 "$run.check")"
    grep -q "$((2 * E)) privilege changes (Ownership) equal the core's in order" "$run.check" || fail "check: $(tail -1 "$run.check")"
    got=$("$ts" decode --format elements "$run" 2> /dev/null | awk '$4 == "PRIVILEGE" || $5 == "PRIVILEGE"' |
          sed -n 's/.*PRIVILEGE prv=\(.\).*/\1/p' | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$want" ] || fail "PRIVILEGE elements: '$got', expected '$want'"
    "$ts" run -q --trace-insn $mode --trace-sram 4M -o "$run.plain" "$elf" > /dev/null || fail "plain run exited $?"
    cmp -s <("$ts" decode --format instr "$run" 2> /dev/null) <("$ts" decode --format instr "$run.plain" 2> /dev/null) ||
      fail "--format instr differs from the run without --trace-context"
    echo "ok (context $case_): $E ecalls, $((2 * E)) Ownership changes alternating U/S after the sync's S; check: $(grep -o '[0-9]* privilege changes[^;]*' "$run.check")" ;;
  event)
    "$ts" check "$run" > "$run.check" 2>&1 || fail "check: $(tail -1 "$run.check")"
    grep -q "$((2 * E)) context events equal the core's privilege changes" "$run.check" || fail "check: $(tail -1 "$run.check")"
    "$ts" decode --format elements "$run" 2> /dev/null > "$run.elems"
    exc=$(grep -E 'cksrc=10 ' "$run.elems" | sed -n 's/.* addr=0x\([0-9a-f]*\) exception cause=8$/\1/p')
    [ "$exc" = "$(cat "$run.ecalls")" ] || fail "exception events (cause 8) differ from the retire log's ecall traps"
    got=$(grep -E 'cksrc=13 ' "$run.elems" | sed -n 's/.* data1=0x\([0-9a-f]*\) .*/\1/p' | awk '{m = "?"; if ($1 == "0") m = "U"; else if ($1 == "4") m = "S"; else if ($1 == "c") m = "M"; printf "%s%s", (NR > 1 ? " " : ""), m}')
    [ "S $got" = "$want" ] || fail "context events: '$got', expected the changes of '$want'"
    echo "ok (context event): $E exception events (cause 8) at the ecall pcs, $((2 * E)) context events alternating U/S" ;;
  overflow)
    "$ts" check "$run" > "$run.check" 2>&1 || fail "check: $(tail -1 "$run.check")"
    grep -Eq "[1-9][0-9]* report\(s\) after a sync = the mode then; [1-9][0-9]* gap\(s\)" "$run.check" || fail "check: $(tail -1 "$run.check")"
    echo "ok (context overflow): $(grep -o '[0-9]* privilege changes.*' "$run.check")" ;;
  event_overflow)
    "$ts" check "$run" > "$run.check" 2>&1 || fail "check: $(tail -1 "$run.check")"
    grep -Eq "context events equal .* [1-9][0-9]* gap\(s\)" "$run.check" || fail "check: $(grep events "$run.check")"
    echo "ok (context event_overflow): $(grep -o '[0-9]* context events.*' "$run.check")" ;;
  mutation|event_mutation)
    if [ $case_ = mutation ]; then
      off=$("$ts" decode --format elements "$run" 2> /dev/null | awk '$4 == "PRIVILEGE" || $5 == "PRIVILEGE" {n++; if (n == 2) {print $1; exit}}')
      old=01 new=31 what="Ownership message at offset $off"
    else
      off=$("$ts" decode --format elements "$run" 2> /dev/null | awk '/cksrc=13 ckdf=1 data0=0x0 data1=0x4 / {print $1; exit}')
      old=11 new=31 what="context event at offset $off"
    fi
    [ -n "$off" ] || fail "no message to alter"
    python3 - "$run/trace.rtd" "$off" "$old" "$new" "$case_" <<'PY' || fail "the message at $off is not what the test expects"
import sys
p, off, old, new, case = sys.argv[1], int(sys.argv[2]), int(sys.argv[3], 16), int(sys.argv[4], 16), sys.argv[5]
d = bytearray(open(p, "rb").read())
# Ownership: TCODE 2 (0x08), PROCESS; ICT: TCODE 34 (0x88), CKSRC 13 + CKDF 1 (0x74), CKDATA0 (one byte: 0x01), CKDATA1
i = off + 1 if case == "mutation" else off + 3
if (case == "mutation" and d[off] != 0x08) or (case != "mutation" and (d[off] != 0x88 or d[off + 1] != 0x74 or d[off + 2] != 0x01)) or d[i] != old:
    sys.exit(1)
d[i] = new
open(p, "wb").write(bytes(d))
PY
    "$ts" check "$run" > "$run.check" 2> "$run.err"; rc=$?
    [ $rc = 1 ] && grep -q "$what" "$run.err" || fail "check exited $rc: $(cat "$run.err")"
    echo "ok (context $case_): $(cat "$run.err")" ;;
  *) fail "unknown case" ;;
esac
