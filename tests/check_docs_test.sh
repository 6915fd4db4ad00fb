#!/usr/bin/env bash
# check_docs_test.sh GEN_DOCS TRACESIM SRC - docs.tables_current can fail: on a copy of the
# repository's README.md and docs/commands/check.md in a temporary folder, check_docs.sh
# passes as they are, fails (naming the file) when one row of check's generated option table
# is edited or a row is added inside the block, fails for a block of an unknown command, and
# --update puts back exactly the table `tracesim help --markdown check` prints.
set -u
gen=$1; ts=$2; src=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$tmp/docs/commands"
cp "$src/README.md" "$tmp/README.md"
cp "$src/docs/commands/check.md" "$tmp/docs/commands/check.md"
page=$tmp/docs/commands/check.md
"$here/check_docs.sh" "$gen" "$ts" "$tmp" > "$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the unedited copy does not pass"; }

# an edited row: the meaning of --perf-channel
cp "$page" "$tmp/orig.md"
grep -q '^| `--perf-channel N` | perf library channel' "$page" || fail "check.md has no --perf-channel row to edit"
sed -i 's/^| `--perf-channel N` | perf library channel/| `--perf-channel N` | the perf channel/' "$page"
"$here/check_docs.sh" "$gen" "$ts" "$tmp" > "$tmp/out" 2>&1 && fail "an edited row passed"
grep -q "docs/commands/check.md: generated tables are out of date" "$tmp/out" || { cat "$tmp/out"; fail "the message does not name the page"; }

# --update writes back what the command's description prints, the rest of the page as it was
"$here/check_docs.sh" "$gen" "$ts" "$tmp" --update > /dev/null || fail "--update failed"
cmp -s "$page" "$tmp/orig.md" || { diff -u "$tmp/orig.md" "$page"; fail "--update did not restore the page"; }
"$ts" help --markdown check > "$tmp/table.md" || fail "tracesim help --markdown check failed"
awk '/END GENERATED: options_check /{s=0} s{print} /BEGIN GENERATED: options_check /{s=1}' "$page" | cmp -s - "$tmp/table.md" ||
  fail "the block is not what tracesim help --markdown check prints"

# a row added inside the block (an option the command does not have)
sed -i 's/^| `-h, --help` | this text |$/| `-h, --help` | this text |\n| `--frobnicate` | nothing |/' "$page"
grep -q frobnicate "$page" || fail "could not add a row"
"$here/check_docs.sh" "$gen" "$ts" "$tmp" > "$tmp/out" 2>&1 && fail "an added row passed"

# a block for a command that does not exist
cp "$tmp/orig.md" "$page"
printf '\n<!-- BEGIN GENERATED: options_nosuch -->\n<!-- END GENERATED: options_nosuch -->\n' >> "$page"
"$here/check_docs.sh" "$gen" "$ts" "$tmp" > "$tmp/out" 2>&1 && fail "a block of an unknown command passed"
grep -q "no command for options_nosuch" "$tmp/out" || { cat "$tmp/out"; fail "the message does not name the block"; }
echo "check_docs.sh fails on drift and restores with --update"
