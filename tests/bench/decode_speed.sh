#!/usr/bin/env bash
# decode_speed.sh BUILD_DIR - decoder throughput (not a test: it prints figures). Simulates
# firmware/bench/bench_perf.c into an 8 MiB SRAM sink (stop-on-wrap), then measures the
# decoder library on that trace (bytes to messages, bytes to perf records) and the
# `tracesim decode` command end to end per format (start-up, ELF, decoding and writing the
# output to a file in the temporary folder, the previous run's output removed and written back
# first): median of 5 of wall and CPU (user + system) seconds, MB/s of trace and output lines (messages, records, events) per second; messages
# with the default threads (msg_json_par.h) and with TRACESIM_THREADS=1.
# With DQR=/path/to/dqr (SiFive's decoder, built elsewhere) the same trace is decoded by it
# to messages (-trace) and to perf files (settings itc.perf on channel 6), and the ratios
# are printed (docs/performance.md says how dqr was built). With valgrind installed, the host
# instructions per trace byte and per message (callgrind) of the library and of the messages
# command are printed too: the figure that does not depend on the machine's load.
set -eu
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tracesim" run -q --trace-sram 8M --max-cycles 200000000 --out "$tmp/r" "$build/firmware/bench/bench_perf.elf" >/dev/null 2>&1 || true
[ -s "$tmp/r/trace.rtd" ] || { echo "decode_speed.sh: no trace produced" >&2; exit 1; }
"$build/tests/bench/decode_bench" "$tmp/r/trace.rtd" 5
bytes=$(stat -c %s "$tmp/r/trace.rtd")
echo "host: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"

# median5 CMD...: runs CMD 5 times; prints "WALL CPU" (medians, seconds)
# Before each run (not timed) the paths in $clean are removed and `sync` writes back what the
# runs before left dirty: a run that truncated the previous run's 200 MB output, or that
# competed with its write-back, paid for the run before it. Times in milliseconds (bash's
# `time`; /usr/bin/time has 10 ms steps, a sixth of the messages run).
clean=""
median5() {
  local i TIMEFORMAT='%3R %3U %3S'
  : > "$tmp/all"
  for i in 1 2 3 4 5; do
    # shellcheck disable=SC2086
    [ -z "$clean" ] || rm -rf $clean
    sync
    { time "$@" > /dev/null 2>&1 || true; } 2>> "$tmp/all"
  done
  echo "$(awk '{print $1}' "$tmp/all" | sort -n | sed -n 3p) $(awk '{print $2 + $3}' "$tmp/all" | sort -n | sed -n 3p)"
}
# line NAME WALL CPU LINES: one figure line
line() {
  awk -v n="$1" -v w="$2" -v c="$3" -v l="$4" -v b="$bytes" 'BEGIN {
    if (w < 0.001) w = 0.001; if (c < 0.001) c = 0.001;
    printf "%-28s %6.3f s wall %6.3f s cpu  %7.1f MB/s wall %7.1f MB/s cpu  %6.2f M lines/s (%d lines)\n",
           n, w, c, b / 1e6 / w, b / 1e6 / c, l / 1e6 / w, l }'
}
# the trace alone (the file dqr gets; the ELF named for the formats that name functions), and
# messages of the run folder (which adds the notes from its ground truth: itc.csv, trace.json)
mkdir -p "$tmp/f"
cp "$tmp/r/trace.rtd" "$tmp/f/bench_perf.rtd"
# host instructions (callgrind: the same on any load), per trace byte and per message
if command -v valgrind >/dev/null 2>&1; then
  nmsg=$("$build/tests/bench/decode_bench" "$tmp/r/trace.rtd" 1 messages | sed -n 's/.* \([0-9]*\) messages.*/\1/p')
  # ir CMD...: the instructions callgrind counts for CMD
  ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*Collected : //p'; }
  # json: the messages and their JSON lines (decode -f messages without start-up and file);
  # its count less the messages' is the formatter's
  for what in messages perf json; do
    n=$(ir "$build/tests/bench/decode_bench" "$tmp/r/trace.rtd" 1 "$what")
    [ "$what" = messages ] && nparse=$n
    awk -v w="$what" -v n="$n" -v b="$bytes" -v m="$nmsg" -v p="${nparse:-0}" 'BEGIN {
      printf "library to %-8s %6.1f host instructions per trace byte, %5.0f per message (callgrind)", w, n / b, n / m
      if (w == "json") printf " = %.0f parsing + %.0f formatting", p / m, (n - p) / m
      printf "\n" }'
  done
  for t in 1 2; do
    rm -rf "$tmp/ir"
    n=$(TRACESIM_THREADS=$t ir "$build/tracesim" decode -f messages -o "$tmp/ir" "$tmp/f/bench_perf.rtd")
    awk -v n="$n" -v b="$bytes" -v m="$nmsg" -v t="$t" 'BEGIN {
      printf "decode -f messages   %6.1f host instructions per trace byte, %5.0f per message (callgrind, the whole command on the trace file, %d thread%s)\n", n / b, n / m, t, (t > 1 ? "s: all threads together" : "") }'
  done
  rm -rf "$tmp/ir"
fi
elf=$build/firmware/bench/bench_perf.elf
echo "tracesim decode, $(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1e6}') MB trace, output to a file, median of 5:"
for f in messages messages-1thread csv perf timeline elements itcprint stm run-folder; do
  rm -rf "$tmp/o"
  unset TRACESIM_THREADS
  case $f in
    messages-1thread) export TRACESIM_THREADS=1; set -- -f messages "$tmp/f/bench_perf.rtd" ;;
    csv|perf|timeline) set -- -f "$f" --elf "$elf" "$tmp/f/bench_perf.rtd" ;;
    run-folder) set -- -f messages "$tmp/r" ;;
    *) set -- -f "$f" "$tmp/f/bench_perf.rtd" ;;
  esac
  clean=$tmp/o
  read -r w c < <(median5 "$build/tracesim" decode -o "$tmp/o" "$@")
  case $f in
    perf) n=$(wc -l < "$tmp/o/bench_perf.perf") ;;
    *) n=$(cat "$tmp/o"/* | wc -l) ;;
  esac
  line "$f" "$w" "$c" "$n"
  eval "w_${f//-/_}=$w c_${f//-/_}=$c"        # for the ratios to dqr
done
unset TRACESIM_THREADS
if [ -n "${DQR:-}" ]; then
  mkdir -p "$tmp/d"
  cp "$tmp/r/trace.rtd" "$tmp/d/bench_perf.rtd"
  cp "$build/firmware/bench/bench_perf.elf" "$tmp/d/"
  printf 'rtd=bench_perf.rtd\nelf=bench_perf.elf\ntrace.config.int.itc.perf=true\ntrace.config.int.itc.perf.channel=6\n' > "$tmp/d/perf.sf"
  echo "SiFive's dqr ($DQR), the same trace, median of 5:"
  clean="$tmp/d/msgs.txt"
  read -r w c < <(cd "$tmp/d" && median5 sh -c '"$0" -t bench_perf.rtd -e bench_perf.elf -trace -nosrc -nodasm -nofile -nofunc -noitcprint > msgs.txt' "$DQR")
  n=$(grep -c '^Trace: Msg' "$tmp/d/msgs.txt" || true)
  line "dqr messages (-trace)" "$w" "$c" "$n"
  dw_m=$w dc_m=$c
  clean="$tmp/d/out.txt $tmp/d/bench_perf.perf $tmp/d/perf"
  read -r w c < <(cd "$tmp/d" && median5 sh -c '"$0" -sf perf.sf -notrace -nosrc -nodasm > out.txt' "$DQR")
  n=$(wc -l < "$tmp/d/bench_perf.perf")
  line "dqr perf (-sf itc.perf)" "$w" "$c" "$n"
  # ratio NAME OURS_WALL OURS_CPU DQR_WALL DQR_CPU: how many times faster than dqr
  ratio() {
    awk -v n="$1" -v w="$2" -v c="$3" -v dw="$4" -v dc="$5" 'BEGIN {
      if (w < 0.001) w = 0.001; if (c < 0.001) c = 0.001
      printf "%-28s %5.1fx dqr on wall time, %5.1fx on CPU time\n", n, dw / w, dc / c }'
  }
  echo "against dqr (the medians above):"
  ratio "messages" "$w_messages" "$c_messages" "$dw_m" "$dc_m"
  ratio "messages-1thread" "$w_messages_1thread" "$c_messages_1thread" "$dw_m" "$dc_m"
  ratio "perf" "$w_perf" "$c_perf" "$w" "$c"
  ratio "csv (against dqr's perf)" "$w_csv" "$c_csv" "$w" "$c"
fi
