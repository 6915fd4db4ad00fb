#!/usr/bin/env bash
# doc_examples.sh SOURCE_DIR BUILD_DIR FILE.md... - the doc tests: runs every command block of
# the Markdown files that is marked runnable and compares its output where the docs show it.
#
# Markers (the info string of a fenced block; GitHub shows the first word as the language):
#   ```sh runnable            commands; the block must exit with status 0
#   ```sh runnable status=N   the same, but the block must exit with status N
#   ```text output            right after a runnable block: what it prints (stdout and stderr
#                             together). In it, a line "..." stands for any number of lines
#                             (none included) and "[...]" inside a line for any text, so
#                             variable parts (times, speeds, temporary paths) can be elided.
#   <!-- text output, ...     right after an output block (an HTML comment: GitHub does not
#   ...                       show it): another output the block may print instead, up to a
#   -->                       line "-->"; for figures of firmware the local cross compiler
#                             builds, e.g. "<!-- text output, GCC 14 (Debian 13)". Any number.
# The blocks of one file run in order, each with `bash -e`, like one terminal
# session: the working folder and exported variables carry over from block to block. Each file
# starts in a fresh temporary folder that holds a link to the build (build -> BUILD_DIR) and to
# every top-level entry of the checkout (firmware, tests, waves, ...), so the docs' commands,
# written for the checkout's root, run unchanged and write their runs/ and sweeps/ there. HOME
# is a folder inside it (for the install commands). Exit status 0 when every block behaves as
# documented; else 1, with one line per failing block (FILE:LINE) and a diff. With
# DOC_EXAMPLES_SAVE=DIR each differing block's whole output is kept as DIR/FILE_LINE.out.
set -u
src=$1; build=$2; shift 2
[ -d "$src" ] && [ -x "$build/tracesim" ] || {
  echo "doc_examples: usage: doc_examples.sh SOURCE_DIR BUILD_DIR FILE.md..." >&2; exit 2; }
src=$(cd "$src" && pwd); build=$(cd "$build" && pwd)
top=$(mktemp -d "${TMPDIR:-/tmp}/doc_examples.XXXXXX")
trap 'rm -rf "$top"' EXIT
fail=0; nblocks=0

# match EXPECTED ACTUAL: exit 0 if ACTUAL fits EXPECTED ("..." lines, "[...]" in a line)
match() {
  awk -v expf="$1" '
    function fits(pat, s,   i, parts, n, pos, k) {
      n = split(pat, parts, /\[\.\.\.\]/)
      if (n == 1) return pat == s
      if (substr(s, 1, length(parts[1])) != parts[1]) return 0
      pos = length(parts[1]) + 1
      for (i = 2; i < n; i++) {
        k = index(substr(s, pos), parts[i]); if (!k) return 0
        pos += k - 1 + length(parts[i])
      }
      return length(s) - pos + 1 >= length(parts[n]) && \
             substr(s, length(s) - length(parts[n]) + 1) == parts[n]
    }
    function m(i, j,   k) {          # expected from i, actual from j
      while (i <= ne) {
        if (e[i] == "...") {
          for (k = j; k <= na + 1; k++) if (m(i + 1, k)) return 1
          return 0
        }
        if (j > na || !fits(e[i], a[j])) return 0
        i++; j++
      }
      return j > na
    }
    BEGIN { while ((getline l < expf) > 0) e[++ne] = l }
    { a[++na] = $0 }
    END { exit m(1, 1) ? 0 : 1 }' "$2"
}

for md in "$@"; do
  case $md in /*) ;; *) md=$src/$md ;; esac
  rel=${md#"$src"/}
  [ -r "$md" ] || { echo "doc_examples: $rel: cannot read"; fail=1; continue; }
  work=$top/$(echo "$rel" | tr '/' '_')
  mkdir -p "$work/run" "$work/run/home" "$work/blocks"
  for e in "$src"/* "$src"/.ci; do
    b=$(basename "$e")
    case $b in build|runs|sweeps) continue ;; esac
    ln -s "$e" "$work/run/$b"
  done
  ln -s "$build" "$work/run/build"
  # split the file into blocks: N.sh (+ N.status, N.line) and N.out for a following output block
  awk -v dir="$work/blocks" -v rel="$rel" '
    /^```/ && !infence {
      infence = 1; info = substr($0, 4); kind = ""
      if (info ~ /^sh runnable( |$)/) {
        kind = "sh"; n++; st = 0
        if (match(info, /status=[0-9]+/)) st = substr(info, RSTART + 7, RLENGTH - 7)
        print st > (dir "/" n ".status"); close(dir "/" n ".status")
        print FNR > (dir "/" n ".line"); close(dir "/" n ".line")
        printf "" > (dir "/" n ".sh")
      } else if (info ~ /^text output( |$)/) {
        if (!n || last != "sh") { print "doc_examples: " rel ":" FNR ": an output block without a runnable block before it"; bad = 1 }
        kind = "out"; printf "" > (dir "/" n ".out")
      }
      next
    }
    /^```/ && infence { infence = 0; if (kind != "") last = kind; else last = ""; kind = ""; next }
    inalt && /^-->$/ { inalt = 0; last = "out"; next }
    inalt { print > (dir "/" n ".alt" nalt); next }
    !infence && /^<!-- text output[ ,]/ {
      if (last != "out") { print "doc_examples: " rel ":" FNR ": an alternative output without an output block before it"; bad = 1 }
      inalt = 1; nalt++; printf "" > (dir "/" n ".alt" nalt); next
    }
    !infence && NF { last = "" }
    infence && kind == "sh"  { print > (dir "/" n ".sh") }
    infence && kind == "out" { print > (dir "/" n ".out") }
    END { exit bad }' "$md" || { fail=1; continue; }
  env -i HOME="$work/run/home" PATH="$PATH" TMPDIR="${TMPDIR:-/tmp}" LANG=C.UTF-8 \
    bash -c 'export -p' > "$work/env"
  echo "$work/run" > "$work/cwd"
  for n in $(cd "$work/blocks" && ls | sed -n 's/\.sh$//p' | sort -n); do
    sh=$work/blocks/$n.sh; line=$(cat "$work/blocks/$n.line"); want=$(cat "$work/blocks/$n.status")
    nblocks=$((nblocks + 1))
    {
      echo 'S=$1; cd "$(cat "$S/cwd")" && source "$S/env"'
      echo "trap 'rc=\$?; export -p > \"\$S/env\"; pwd > \"\$S/cwd\"; exit \$rc' EXIT"
      echo 'set -e'
      cat "$sh"
    } > "$work/block.sh"
    env -i HOME="$work/run/home" PATH="$PATH" LANG=C.UTF-8 \
      timeout 300 bash "$work/block.sh" "$work" > "$work/actual" 2>&1 < /dev/null
    rc=$?
    if [ "$rc" != "$want" ]; then
      echo "doc_examples: $rel:$line: the block exited with status $rc, the docs say $want; its output:"
      sed 's/^/  | /' "$work/actual" | tail -20
      fail=1; continue
    fi
    alt_ok=0
    for alt in "$work/blocks/$n".alt*; do
      [ -f "$alt" ] && match "$alt" "$work/actual" && alt_ok=1
    done
    if [ -f "$work/blocks/$n.out" ] && [ $alt_ok = 0 ] && ! match "$work/blocks/$n.out" "$work/actual"; then
      echo "doc_examples: $rel:$line: the output differs from the docs' (- docs, + actual):"
      diff -u "$work/blocks/$n.out" "$work/actual" | tail -n +3 | head -40
      # DOC_EXAMPLES_SAVE=DIR: each differing output kept whole, for tools/doc_alt_update.py
      [ -n "${DOC_EXAMPLES_SAVE:-}" ] && cp "$work/actual" "$DOC_EXAMPLES_SAVE/$(echo "$rel" | tr / _)_$line.out"
      fail=1
    fi
  done
done
if [ "$fail" = 0 ]; then echo "doc_examples: $nblocks runnable blocks behave as documented"; fi
exit $fail
