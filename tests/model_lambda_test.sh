#!/usr/bin/env bash
# model_lambda_test.sh SIMULATOR - no lambda of the Verilated model's per-cycle region functions
# is kept out of line in the simulator. Verilator 5.032 (not 5.006) inlines a SystemVerilog
# function called inside an expression as a C++ lambda that captures the caller's locals by
# reference; when the C++ compiler keeps such a lambda out of line (a large function, as the
# core's CSR address check was), every local it names lives in memory and is zeroed at each
# evaluation: 166 host instructions per simulated cycle on Debian 13 for that one
# (docs/testing.md, "Debian 12 and Debian 13"). Such a function belongs in a whole right-hand
# side (`x = f(...)`), which Verilator inlines as statements. Lists the symbols
# (nm -C) of the generated ___ico_sequent/___nba_sequent functions' lambdas; exit 77 without nm.
set -u
sim=${1:?usage: model_lambda_test.sh SIMULATOR}
command -v nm > /dev/null || { echo "SKIP: no nm (binutils)"; exit 77; }
[ -x "$sim" ] || { echo "FAIL: no simulator $sim"; exit 1; }
syms=$(nm -C "$sim") || { echo "FAIL: nm $sim exited $?"; exit 1; }
grep -q '___nba_sequent__' <<< "$syms" || { echo "FAIL: no ___nba_sequent__ function in $sim (renamed by Verilator?)"; exit 1; }
bad=$(grep -E '___(ico|nba)_sequent__[A-Za-z0-9_]*\(.*::\{lambda' <<< "$syms")
if [ -n "$bad" ]; then
  echo "FAIL: out-of-line lambdas of the model's region functions (a function called inside an"
  echo "expression in the RTL; call it as a whole right-hand side):"
  echo "$bad"
  exit 1
fi
echo "ok: no out-of-line lambda in the model's region functions"
