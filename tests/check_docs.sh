#!/usr/bin/env bash
# check_docs.sh GEN_DOCS README [--update] - the README's generated tables must equal what
# gen_docs prints from rtl_model/regs/*.def. Each table sits between
#   <!-- BEGIN GENERATED: name -->  and  <!-- END GENERATED: name -->
# With --update the README is rewritten in place instead.
set -eu
gen=$1; readme=$2; update=${3:-}
tmp=$(mktemp); trap 'rm -f "$tmp"' EXIT
cp "$readme" "$tmp"
for name in $(grep -o 'BEGIN GENERATED: [a-z_]*' "$readme" | awk '{print $3}'); do
  table=$("$gen" "$name")
  awk -v name="$name" -v table="$table" '
    $0 ~ "BEGIN GENERATED: " name " " { print; print table; skip = 1; next }
    $0 ~ "END GENERATED: " name " "   { skip = 0 }
    !skip { print }' "$tmp" > "$tmp.new" && mv "$tmp.new" "$tmp"
done
if [ "$update" = "--update" ]; then cp "$tmp" "$readme"; echo "updated $readme"; exit 0; fi
if ! diff -u "$readme" "$tmp"; then
  echo "README tables are out of date: run tests/check_docs.sh $gen $readme --update"
  exit 1
fi
echo "README tables match rtl_model/regs"
