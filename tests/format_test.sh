#!/bin/sh
# format_test.sh SOURCE_DIR check|checker - the code style (tools/format.sh, .clang-format).
#   check    the project's C and C++ files are formatted as .clang-format says (test format.check)
#   checker  the check itself: in a temporary copy of .clang-format with one file written in
#            the style and one not, --check lists exactly the second and exits 1; after a
#            format run it exits 0 and the first file is unchanged (test format.checker)
# Both exit 77 (ctest: skipped) without clang-format 14 or 19 (tools/format.sh).
set -u
src=$1; what=$2
fmt=$src/tools/format.sh
case $what in
check) exec "$fmt" --check -C "$src" ;;
checker) ;;
*) echo "format_test.sh: unknown case '$what'" >&2; exit 2 ;;
esac
t=$(mktemp -d "${TMPDIR:-/tmp}/format_test.XXXXXX") || exit 2
trap 'rm -rf "$t"' EXIT
cp "$src/.clang-format" "$t/"
mkdir "$t/sub"
# the style by hand: 4 spaces, attached braces, short forms on one line, T *p
cat > "$t/sub/good.c" <<'C'
#include <stddef.h>

static int sum(const int *v, size_t n) {
    int s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    if (!n) return -1;
    return s;
}
int twice(int x) { return 2 * x; }
C
# the same code written otherwise (2-space indent, a brace on its own line, int* p)
cat > "$t/sub/bad.c" <<'C'
#include <stddef.h>

static int sum(const int* v, size_t n)
{
  int s = 0;
  for (size_t i = 0; i < n; i++) s += v[i];
  return s;
}
C
cp "$t/sub/good.c" "$t/good.orig"
out=$("$fmt" --check -C "$t" 2>/dev/null); rc=$?
[ $rc = 77 ] && { echo "format_test: skipped (no clang-format 14 or 19)"; exit 77; }
[ $rc = 1 ] || { echo "format_test: --check on a misformatted file exited $rc, not 1"; exit 1; }
[ "$out" = "sub/bad.c" ] || { echo "format_test: --check listed '$out', expected 'sub/bad.c'"; exit 1; }
"$fmt" -C "$t" || { echo "format_test: formatting failed"; exit 1; }
"$fmt" --check -C "$t" >/dev/null || { echo "format_test: --check still fails after formatting"; exit 1; }
cmp -s "$t/sub/good.c" "$t/good.orig" || { echo "format_test: formatting changed a file written in the style:"; diff "$t/good.orig" "$t/sub/good.c"; exit 1; }
grep -q '^static int sum(const int \*v, size_t n) {$' "$t/sub/bad.c" &&
    grep -q '^    int s = 0;$' "$t/sub/bad.c" ||
    { echo "format_test: bad.c was not put in the style:"; cat "$t/sub/bad.c"; exit 1; }
echo "format_test: checker ok"
