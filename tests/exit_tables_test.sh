#!/usr/bin/env bash
# exit_tables_test.sh GEN_DOCS TRACESIM - every exit status a command's description lists
# (its table in `tracesim help --markdown CMD`, which its docs page shows) is one of the
# statuses defined once in rtl_model/regs/exit_status.def (gen_docs exit_status), so no
# command documents a number the table does not have. A range "0-118" needs both ends, a
# list "130,143" each.
set -eu
gen=$1; ts=$2
known=$("$gen" exit_status | awk -F'|' 'NR > 2 { gsub(/ /, "", $2); print $2 }')
[ -n "$known" ] || { echo "exit_tables_test.sh: gen_docs exit_status printed no statuses"; exit 1; }
bad=0 n=0
for cmd in run decode check report overhead waves symfilter stmfilter sweep tracesim-sc; do
  md=$("$ts" help --markdown "$cmd") || { echo "$cmd: tracesim help --markdown failed"; exit 1; }
  statuses=$(printf '%s\n' "$md" | awk -F'|' '/^\| exit status \| meaning \|/ { on = 1; next }
                                            on && /^\|---/ { next }
                                            on && /^\| / { gsub(/ /, "", $2); print $2; next }
                                            { on = 0 }')
  [ -n "$statuses" ] || { echo "$cmd: no exit status table in its description"; bad=1; continue; }
  for s in $statuses; do
    v_list=${s//-/ }
    for v in ${v_list//,/ }; do
      n=$((n + 1))
      if ! printf '%s\n' "$known" | grep -qx "$v"; then
        echo "$cmd: exit status $v ($s) is not in rtl_model/regs/exit_status.def"
        bad=1
      fi
    done
  done
done
[ $bad = 0 ] || exit 1
echo "all $n exit statuses of the commands' tables are in exit_status.def"
