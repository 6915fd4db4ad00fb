#!/usr/bin/env bash
# sc_equiv_test.sh BUILD NAME FW.elf [options] - the SystemC platform is the same machine:
# runs FW.elf with `tracesim run` and with `tracesim-sc` (same options) and requires the same
# exit status and, byte for byte, the same run folder: stats.txt (cycles, instret, exit;
# without the wall-clock lines sim_seconds/sim_hz and the elf path), uart.txt, trace.rtd,
# trace.json, itc.csv, hpm.csv, events.csv, counters.csv, flow.csv, marks.csv,
# guest_errors.log, and any file the firmware wrote (RUN/host/); with @OUT@ in an option (the
# run folder of each) also a retire log or VCD waves written there (VCD without its date).
set -u
build=$1; name=$2; elf=$3; shift 3
runs=$build/test-runs/sc_equiv/$name
rm -rf "$runs"; mkdir -p "$runs"
# @OUT@ in an option is the run folder of each (--retire-log @OUT@/retire.log, --waves @OUT@/w.vcd)
"$build/tracesim" run -q -o "$runs/run" "${@//@OUT@/$runs/run}" "$elf" > "$runs/run.out" 2> "$runs/run.err"; ra=$?
"$build/tracesim-sc" -q -o "$runs/sc" "${@//@OUT@/$runs/sc}" "$elf" > "$runs/sc.out" 2> "$runs/sc.err"; rb=$?
fail() { echo "sc_equiv $name: FAIL: $*"; exit 1; }
[ "$ra" = "$rb" ] || fail "exit status $ra with tracesim run, $rb with tracesim-sc ($(head -3 "$runs/sc.err"))"
cmp -s "$runs/run.err" "$runs/sc.err" || fail "stderr differs: $(diff "$runs/run.err" "$runs/sc.err" | head -5)"
[ -s "$runs/run/stats.txt" ] || fail "no stats.txt"
# every file, those the firmware wrote in host/ too
files=$( (cd "$runs/run" && find . -type f | sed 's|^\./||'; cd "$runs/sc" && find . -type f | sed 's|^\./||') | sort -u)
for f in $files; do
  [ -e "$runs/run/$f" ] || fail "$f only in tracesim-sc's run folder"
  [ -e "$runs/sc/$f" ] || fail "$f only in tracesim run's run folder"
  if [ "$f" = stats.txt ]; then
    cmp -s <(grep -Ev '^(sim_seconds|sim_hz|elf) ' "$runs/run/$f" | sed "s|$runs/run|DIR|") \
           <(grep -Ev '^(sim_seconds|sim_hz|elf) ' "$runs/sc/$f" | sed "s|$runs/sc|DIR|") ||
      fail "stats.txt differs: $(diff <(grep -Ev '^(sim_|elf)' "$runs/run/$f") <(grep -Ev '^(sim_|elf)' "$runs/sc/$f") | head -6)"
  elif [ "${f##*.}" = vcd ]; then   # waves: the same text but the date
    cmp -s <(sed '/[$]date/,/[$]end/d' "$runs/run/$f") <(sed '/[$]date/,/[$]end/d' "$runs/sc/$f") || fail "$f differs"
    [ "$(grep -c '^#' "$runs/run/$f")" -gt 0 ] || fail "$f has no sample"
  elif [ "$f" = trace.rtd ]; then
    cmp "$runs/run/$f" "$runs/sc/$f" || fail "$f differs"
  else   # text files may name their own run folder (perf_config.txt)
    cmp -s <(sed "s|$runs/run|DIR|g" "$runs/run/$f") <(sed "s|$runs/sc|DIR|g" "$runs/sc/$f") ||
      fail "$f differs: $(diff <(sed "s|$runs/run|DIR|g" "$runs/run/$f") <(sed "s|$runs/sc|DIR|g" "$runs/sc/$f") | head -4)"
  fi
done
echo "sc_equiv $name: exit $ra, $(awk '$1 == "cycles" { print $2 }' "$runs/run/stats.txt") cycles, $(echo $files | wc -w) files equal"
