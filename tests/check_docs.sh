#!/usr/bin/env bash
# check_docs.sh GEN_DOCS TRACESIM FILE.md... [--update] - the docs' generated tables must equal
# what gen_docs prints from rtl_model/regs/*.def, and their command option tables (names
# options_CMD) what `tracesim help --markdown CMD` prints from the command's option table.
# Each table sits between
#   <!-- BEGIN GENERATED: name -->  and  <!-- END GENERATED: name -->
# in README.md or any page of docs/. A command without an option table yet (`tracesim help
# --markdown CMD` refuses it) keeps its hand-written text, with a note. With --update the
# files are rewritten in place instead.
set -eu
gen=$1; ts=$2; shift 2
update=""
files=()
for a in "$@"; do
  if [ "$a" = "--update" ]; then update=1; else files+=("$a"); fi
done
tmp=$(mktemp); trap 'rm -f "$tmp" "$tmp.new"' EXIT
stale=0
for doc in "${files[@]}"; do
  cp "$doc" "$tmp"
  for name in $(grep -o 'BEGIN GENERATED: [a-z_-]*' "$doc" | awk '{print $3}'); do
    case $name in
      options_*)
        if ! table=$("$ts" help --markdown "${name#options_}" 2>/dev/null); then
          echo "note: $doc: ${name#options_} has no option table yet; its text is left as written"
          continue
        fi ;;
      *) table=$("$gen" "$name") ;;
    esac
    TABLE=$table awk -v name="$name" '
      $0 ~ "BEGIN GENERATED: " name " " { print; print ENVIRON["TABLE"]; skip = 1; next }
      $0 ~ "END GENERATED: " name " "   { skip = 0 }
      !skip { print }' "$tmp" > "$tmp.new" && mv "$tmp.new" "$tmp"
  done
  if [ -n "$update" ]; then
    cmp -s "$doc" "$tmp" || { cp "$tmp" "$doc"; echo "updated $doc"; }
  elif ! diff -u "$doc" "$tmp"; then
    echo "$doc: generated tables are out of date"
    stale=1
  fi
done
if [ "$stale" = 1 ]; then
  echo "run: tests/check_docs.sh $gen $ts README.md \$(find docs -name '*.md') --update"
  exit 1
fi
[ -n "$update" ] || echo "generated tables match rtl_model/regs and the option tables (${#files[@]} files)"
