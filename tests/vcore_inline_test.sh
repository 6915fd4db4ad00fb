#!/usr/bin/env bash
# vcore_inline_test.sh SIMULATOR - the cycle loop calls no vcore_eval: link-time optimisation
# inlined the model's evaluation glue (sim/vcore.cpp) into it. GCC 14 kept it a call unless
# it is declared inline (22 host instructions per simulated cycle on Debian 13;
# docs/performance.md, "Both platforms"). Looks in the disassembly (objdump -d) of the
# functions that hold the loop, run_to (and its LTO clones) and soc_run, into which GCC 14
# inlines run_to; exit 77 without objdump.
set -u
sim=${1:?usage: vcore_inline_test.sh SIMULATOR}
command -v objdump > /dev/null || { echo "SKIP: no objdump (binutils)"; exit 77; }
[ -x "$sim" ] || { echo "FAIL: no simulator $sim"; exit 1; }
dis=$(objdump -d --no-show-raw-insn "$sim") || { echo "FAIL: objdump $sim exited $?"; exit 1; }
# the loop's functions and, per function, its calls of vcore_eval
out=$(awk '/^[0-9a-f]+ <[^>]*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); loop = fn == "soc_run" || fn ~ /^run_to($|\.)/; if (loop) seen++ }
           loop && /call.*<vcore_eval>/ { print fn }
           END { if (!seen) print "NOLOOP" }' <<< "$dis")
[ "$out" = NOLOOP ] && { echo "FAIL: neither soc_run nor run_to in $sim (renamed?)"; exit 1; }
if [ -n "$out" ]; then
  echo "FAIL: the cycle loop calls vcore_eval (not inlined) in:"
  sort <<< "$out" | uniq -c
  exit 1
fi
echo "ok: vcore_eval inlined into the cycle loop"
