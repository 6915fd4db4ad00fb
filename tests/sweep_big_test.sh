#!/usr/bin/env bash
# sweep_big_test.sh TRACESIM FW.elf CASE - a sweep spec with one very large axis (or object)
# plans in linear time. The spec is generated here with awk; ctest's TIMEOUT (60 s) is the
# bound: a quadratic scan of 300 000 values takes over ten minutes, the linear one about a
# second. Cases:
#   points      300 000 values plan to 300 000 points, in order, with the right options
#   dup_value   a duplicate value at the end of the axis is named with both lines
#   dup_member  a duplicate member at the end of a 300 000-member object is named with both lines
#   only        --only with 10 000 values keeps exactly those points
. "$(dirname "$0")/lib/exit_status.sh" # TS_EXIT_*: rtl_model/regs/exit_status.def
set -u
ts=$1 fw=$2 case=$3
n=300000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL ($case): $*"; exit 1; }
# spec: line 1 "{", 2 name, 3 firmware, 4 axes header, 5.. one value per line
spec() {   # $1 = extra value line appended after the n values ("" for none)
  awk -v n="$n" -v fw="$fw" -v extra="$1" 'BEGIN {
    print "{"; print "  \"name\": \"big\","; printf "  \"firmware\": \"%s\",\n", fw
    print "  \"axes\": [{\"name\": \"w\", \"run\": [\"--ram-wait\", \"{w}\"], \"values\": ["
    for (i = 0; i < n; i++) printf "    %d%s\n", i, (i < n - 1 || extra != "") ? "," : ""
    if (extra != "") print "    " extra
    print "  ]}]"; print "}" }'
}
case $case in
points)
  spec "" > "$tmp/s.json"
  "$ts" sweep --list "$tmp/s.json" > "$tmp/list" 2> "$tmp/err" || fail "sweep --list failed: $(head -3 "$tmp/err")"
  [ "$(wc -l < "$tmp/list")" = $n ] || fail "$(wc -l < "$tmp/list") points, expected $n"
  # the list is "index name firmware options": index i is value i, option --ram-wait i
  awk -v n="$n" '$1 != NR - 1 || $2 != NR - 1 || $(NF) != NR - 1 || $(NF-1) != "--ram-wait" { bad++ }
       END { exit bad ? 1 : 0 }' "$tmp/list" || fail "points out of order or with wrong options"
  ;;
dup_value)
  spec "17" > "$tmp/s.json"
  out=$("$ts" sweep --list "$tmp/s.json" 2>&1 >/dev/null); rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] || fail "exit $rc, expected 120"
  want="s.json:$((n + 5)): axis \"w\": duplicate value \"17\" (first on line 22)"
  case $out in *"$want"*) ;; *) fail "message '$out', expected '$want'" ;; esac
  ;;
dup_member)
  awk -v n="$n" 'BEGIN { print "{"; for (i = 0; i < n; i++) printf "  \"k%d\": %d,\n", i, i; print "  \"k5\": 0"; print "}" }' > "$tmp/s.json"
  out=$("$ts" sweep --list "$tmp/s.json" 2>&1 >/dev/null); rc=$?
  [ $rc = "$TS_EXIT_USAGE" ] || fail "exit $rc, expected 120"
  want="s.json:$((n + 2)): duplicate member \"k5\" (first on line 7)"
  case $out in *"$want"*) ;; *) fail "message '$out', expected '$want'" ;; esac
  ;;
only)
  spec "" > "$tmp/s.json"
  vals=$(awk 'BEGIN { for (i = 0; i < 10000; i++) printf "%s%d", i ? "," : "", 3 * i }')
  "$ts" sweep --list --only "w=$vals" "$tmp/s.json" > "$tmp/list" 2> "$tmp/err" || fail "sweep --list --only failed: $(head -3 "$tmp/err")"
  [ "$(wc -l < "$tmp/list")" = 10000 ] || fail "$(wc -l < "$tmp/list") points, expected 10000"
  awk '$(NF) % 3 != 0 { bad++ } END { exit bad ? 1 : 0 }' "$tmp/list" || fail "a point not named by --only"
  ;;
*) fail "unknown case" ;;
esac
echo "ok: $case"
