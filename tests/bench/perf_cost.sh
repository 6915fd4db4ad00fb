#!/usr/bin/env bash
# perf_cost.sh BUILD_DIR - the cost of one perf library record on the simulated core, per
# count type and counter list (firmware/bench/perf_cost.c brackets 64 calls with simctrl
# MARKs and subtracts a loop calling an empty function). Prints a Markdown table.
set -eu
b=${1:?usage: perf_cost.sh BUILD_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| count type | counters | manual record: cycles (instructions) | entry/exit record: cycles (instructions) | hook while off: cycles | ITC store + poll: cycles |"
echo "|---|---|---|---|---|---|"
for ct in raw delta xor; do
  for ev in 1 4 8; do
    elf=$b/firmware/bench/perf_cost_${ct}_${ev}.elf
    [ -f "$elf" ] || { echo "perf_cost.sh: $elf missing (build the firmware first)" >&2; exit 1; }
    "$b/tracesim" run -q -o "$out/$ct$ev" "$elf" > /dev/null
    n=$(case $ev in 1) echo 1;; 4) echo 4;; 8) echo 10;; esac)
    awk -F, -v ct=$ct -v n=$n 'NR > 1 { c[$1] = $2; i[$1] = $3 }
      END { e = c[4] - c[3]; ei = i[4] - i[3];
            printf "| %s | %d | %.1f (%.1f) | %.1f (%.1f) | %.1f | %.1f |\n", ct, n,
                   (c[2] - c[1] - e) / 64, (i[2] - i[1] - ei) / 64,
                   (c[6] - c[5] - e) / 128, (i[6] - i[5] - ei) / 128,
                   (c[8] - c[7] - e) / 128, (c[10] - c[9] - (c[12] - c[11])) / 64 }' "$out/$ct$ev/marks.csv"
  done
done
