#!/usr/bin/env bash
# statics_planted_test.sh STATICS_TEST_PY DIR - statics_test.py fails on a tree with mutable
# statics: a file-level one and one inside a function are named (and nothing else: not the
# const table, the pointer-to-const table that is itself const, the function, the inline)
set -u
py=$1; d=$2
fail() { echo "FAIL (statics planted): $*"; exit 1; }
rm -rf "$d"; mkdir -p "$d/decoder/src"
cat > "$d/decoder/src/planted.c" <<'C'
/* static int in_comment; */
static const int table[3] = {1, 2, 3};
static const char *const names[] = {"static int in_string;"};
static int helper(int x) { return x + table[0]; }
static inline int twice(int x) { return 2 * x; }
static unsigned file_count;
int count(void) {
    static struct { int n; } calls;
    calls.n++;
    file_count++;
    return helper(twice(calls.n)) + (int)sizeof names;
}
C
out=$(python3 "$py" "$d"); st=$?
[ $st = 1 ] || fail "exit $st, not 1: $out"
echo "$out" | grep -q "planted.c:6: mutable static 'file_count'" || fail "file-level static not named: $out"
echo "$out" | grep -q "planted.c:8: mutable static 'calls'" || fail "function-level static not named: $out"
[ "$(echo "$out" | wc -l)" = 2 ] || fail "more than the two named: $out"
echo "ok: both planted statics named"
