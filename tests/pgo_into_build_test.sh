#!/usr/bin/env bash
# pgo_into_build_test.sh SOURCE_DIR GENERATOR - tests/bench/pgo_into_build.sh without the
# long build: a stand-in build step (PGO_BUILD) configures the folder with TRACESIM_PGO=USE
# and writes a marker tracesim; afterwards the folder's cache must say OFF (the next build is
# the default one) and the marker must be untouched; a failing build step fails the script
# with one line.
set -eu
src=${1:?usage: pgo_into_build_test.sh SOURCE_DIR GENERATOR}
gen=${2:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cat > "$tmp/stub.sh" <<STUB
#!/usr/bin/env bash
set -eu
cmake -S "$src" -B "\$1" -G "$gen" -DTRACESIM_SANITIZERS=OFF -DTRACESIM_PGO=USE > /dev/null
echo pgo-binary > "\$1/tracesim"
STUB
chmod +x "$tmp/stub.sh"
PGO_BUILD=$tmp/stub.sh "$src/tests/bench/pgo_into_build.sh" "$tmp/b" 2> "$tmp/err" || { cat "$tmp/err"; fail "the script failed"; }
grep -q '^TRACESIM_PGO:STRING=OFF$' "$tmp/b/CMakeCache.txt" || fail "the cache does not say TRACESIM_PGO=OFF: $(grep TRACESIM_PGO "$tmp/b/CMakeCache.txt")"
[ "$(cat "$tmp/b/tracesim")" = pgo-binary ] || fail "the profile-guided tracesim was replaced"
grep -q 'profile-guided simulator' "$tmp/err" || fail "no closing line: $(cat "$tmp/err")"
printf '#!/bin/sh\nexit 3\n' > "$tmp/bad.sh"; chmod +x "$tmp/bad.sh"
if PGO_BUILD=$tmp/bad.sh "$src/tests/bench/pgo_into_build.sh" "$tmp/c" 2> "$tmp/err2"; then fail "a failed build step passed"; fi
if [ "$(wc -l < "$tmp/err2")" != 1 ] || ! grep -q 'profile-guided build in .* failed' "$tmp/err2"; then
  fail "not one clear line: $(cat "$tmp/err2")"
fi
echo "ok: TRACESIM_PGO back to OFF, the profile-guided tracesim kept, a failure said in one line"
