#!/usr/bin/env bash
# check_docs.sh GEN_DOCS TRACESIM README [--update] - the README's generated tables must equal
# what gen_docs prints from rtl_model/regs/*.def, and its command option tables (names
# options_CMD) what `tracesim help --markdown CMD` prints from the command's option table.
# Each table sits between
#   <!-- BEGIN GENERATED: name -->  and  <!-- END GENERATED: name -->
# With --update the README is rewritten in place instead.
set -eu
gen=$1; ts=$2; readme=$3; update=${4:-}
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
cp "$readme" "$tmp"
for name in $(grep -o 'BEGIN GENERATED: [a-z_]*' "$readme" | awk '{print $3}'); do
  case $name in
    options_*) table=$("$ts" help --markdown "${name#options_}") ;;
    *) table=$("$gen" "$name") ;;
  esac
  TABLE=$table awk -v name="$name" '
    $0 ~ "BEGIN GENERATED: " name " " { print; print ENVIRON["TABLE"]; skip = 1; next }
    $0 ~ "END GENERATED: " name " "   { skip = 0 }
    !skip { print }' "$tmp" > "$tmp.new" && mv "$tmp.new" "$tmp"
done
if [ "$update" = "--update" ]; then cp "$tmp" "$readme"; echo "updated $readme"; exit 0; fi
if ! diff -u "$readme" "$tmp"; then
  echo "README tables are out of date: run tests/check_docs.sh $gen $ts $readme --update"
  exit 1
fi
echo "README tables match rtl_model/regs and the option tables"
