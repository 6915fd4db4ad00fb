#!/bin/sh
# threads_test.sh TRACESIM CAPTURES DIR - `decode -f messages` on several threads writes the
# one-thread bytes: a trace of the real captures one after another, over and over (past
# MJP_MIN_BYTES, so the parts are real), decoded with TRACESIM_THREADS=1 (the reference:
# one thread), 2 and 3 (at most the CPUs) to a file, to stdout redirected to a file, the
# default (one thread) and through a pipe (one
# thread); a bad TRACESIM_THREADS gives a note and one thread; -o gives back the blocks it
# allocated ahead.
set -eu
ts=$1 caps=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
for f in itc-timestamp itc_printf timestamp e31_hello_debug; do cat "$caps/$f.rtd"; done > "$dir/one.rtd"
i=0
while [ $i -lt 180 ]; do cat "$dir/one.rtd"; i=$((i + 1)); done > "$dir/t.rtd"
[ "$(stat -c %s "$dir/t.rtd")" -gt 1100000 ] || { echo "trace too small"; exit 1; }
TRACESIM_THREADS=1 "$ts" decode -o "$dir/1" "$dir/t.rtd" 2> "$dir/1.err"
grep -q '"tics": ' "$dir/1/messages.jsonl"
for t in 2 3; do
  TRACESIM_THREADS=$t "$ts" decode -o "$dir/$t" "$dir/t.rtd" 2> "$dir/$t.err"
  cmp "$dir/1/messages.jsonl" "$dir/$t/messages.jsonl"
  cmp "$dir/1.err" "$dir/$t.err"                   # the same notes and counts
  TRACESIM_THREADS=$t "$ts" decode "$dir/t.rtd" > "$dir/$t.stdout" 2>/dev/null
  cmp "$dir/1/messages.jsonl" "$dir/$t.stdout"
done
"$ts" decode "$dir/t.rtd" 2>/dev/null | cmp - "$dir/1/messages.jsonl"
# -o allocates the file's blocks ahead of the writes (msg_json.h prealloc) and gives back
# what is past the end: no more than a file system block or so beyond the size
for t in 1 2; do
  size=$(stat -c %s "$dir/$t/messages.jsonl") alloc=$(($(stat -c '%b * %B' "$dir/$t/messages.jsonl")))
  [ "$alloc" -le $((size + 65536)) ] || { echo "TRACESIM_THREADS=$t: $alloc bytes allocated for $size"; exit 1; }
done
"$ts" decode -o "$dir/d" "$dir/t.rtd" 2>/dev/null
cmp "$dir/1/messages.jsonl" "$dir/d/messages.jsonl"
for bad in 0 abc 65 -2; do
  TRACESIM_THREADS=$bad "$ts" decode -o "$dir/b" "$dir/t.rtd" 2> "$dir/b.err"
  grep -q "TRACESIM_THREADS='$bad' is not a number from 1 to 64: one thread" "$dir/b.err"
  cmp "$dir/1/messages.jsonl" "$dir/b/messages.jsonl"
done
echo ok
