#!/bin/sh
# tools/format.sh [--check] [-C DIR] - formats the project's own C and C++ files with its
# .clang-format, in place; with --check, changes nothing and lists the files that differ from
# the formatted text (exit 1 if any, 0 if none).
#
# Files: every *.c, *.h, *.cpp, *.hpp that git tracks (outside a git checkout: found under DIR, build
# folders left out), but those matching TS_FORMAT_EXCLUDE below: generated or third-party code
# (none is tracked today: generated sources are made under the build folder), and the perf
# library's examples (firmware/examples/: programs users read and copy next to SiFive's
# manual, fib.c in the manual's own style; the docs quote their line numbers), and five files
# whose X-macro tables (lists of CSR cases and counters expanded inside a switch or at file
# level) clang-format 14 neither understands nor formats the same way twice, and the one header
# of assembler macros (firmware/tests/isa_macros.h, included by the .S tests: clang-format
# reads it as C and breaks its directives), and the firmware tests (firmware/tests/, the SBI
# tests sbi_cost.c and sbi_pmu_test.c): their CHECK macro (firmware/tests/check.h) puts
# __LINE__ into the program, so moving a line changes the ELF's bytes and the run's cycles.
#
# clang-format's output differs between major versions. The code is written so that 14
# (Debian 12) and 19 (Debian 13) format it the same (docs/internals.md, "Code style": the
# constructs the two format differently, and how the code avoids them); another version (or
# none) exits 77 with one line on stderr, which ctest reports as a skip (test format.check);
# set CLANG_FORMAT to pick the binary.
set -u
want="14 19"
check=0
dir=$(cd "$(dirname "$0")/.." && pwd)
while [ $# -gt 0 ]; do
    case $1 in
    --check) check=1 ;;
    -C) [ $# -ge 2 ] || { echo "format.sh: -C needs a folder" >&2; exit 2; }
        dir=$2; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "format.sh: unknown argument '$1' (usage: tools/format.sh [--check] [-C DIR])" >&2; exit 2 ;;
    esac
    shift
done
[ -d "$dir" ] && [ -f "$dir/.clang-format" ] || { echo "format.sh: no .clang-format in '$dir'" >&2; exit 2; }
cd "$dir" || exit 2

# the binary: $CLANG_FORMAT, else clang-format-14, clang-format-19, clang-format
cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
    for c in clang-format-14 clang-format-19 clang-format; do
        if command -v "$c" >/dev/null 2>&1; then cf=$c; break; fi
    done
fi
[ -n "$cf" ] && command -v "$cf" >/dev/null 2>&1 || {
    echo "format.sh: clang-format 14 or 19 not found (apt-get install clang-format; or set CLANG_FORMAT)" >&2; exit 77; }
ver=$("$cf" --version 2>/dev/null | sed -n 's/.*clang-format version \([0-9][0-9]*\)\..*/\1/p' | head -n 1)
case " $want " in
*" ${ver:-none} "*) ;;
*) echo "format.sh: $cf is version ${ver:-unknown}; the code is checked with clang-format 14 and 19, which format it the same, other versions may not (set CLANG_FORMAT to a clang-format 14 or 19)" >&2
    exit 77 ;;
esac

# generated or third-party files, the examples (shell patterns on the path from the top folder)
TS_FORMAT_EXCLUDE='build*/* */generated/* */third_party/* firmware/examples/*
    firmware/perf/perf_port.h firmware/perf/sifive_bare_perf.c firmware/sbi/sbi.c
    firmware/sbi/sbi_client.c firmware/tests/* firmware/sbi/sbi_cost.c firmware/sbi/sbi_pmu_test.c'
excluded() {
    for p in $TS_FORMAT_EXCLUDE; do
        case $1 in $p) return 0 ;; esac
    done
    return 1
}
list() {
    if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
        git ls-files -- '*.c' '*.h' '*.cpp' '*.hpp'
    else
        find . \( -name '.git' -o -name 'build*' \) -prune -o -type f \
            \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' \) -print | sed 's|^\./||' | sort
    fi
}

tmp=$(mktemp "${TMPDIR:-/tmp}/format.XXXXXX") || exit 2
trap 'rm -f "$tmp" "$tmp.list"' EXIT
n=0; bad=0
list > "$tmp.list" || { echo "format.sh: cannot list the files of '$dir'" >&2; exit 2; }
while IFS= read -r f; do
    excluded "$f" && continue
    [ -f "$f" ] || continue
    n=$((n + 1))
    if [ $check = 1 ]; then
        "$cf" --style=file "$f" > "$tmp" || { echo "format.sh: $cf failed on $f" >&2; exit 2; }
        cmp -s "$f" "$tmp" || { echo "$f"; bad=$((bad + 1)); }
    else
        "$cf" --style=file -i "$f" || { echo "format.sh: $cf failed on $f" >&2; exit 2; }
    fi
done < "$tmp.list"
if [ $check = 1 ]; then
    [ $bad = 0 ] || { echo "format.sh: $bad of $n files differ from $cf's formatting (tools/format.sh formats them)" >&2; exit 1; }
    echo "format.sh: $n files formatted as .clang-format says"
fi
exit 0
