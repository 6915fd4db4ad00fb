#!/usr/bin/env bash
# check_docs.sh GEN_DOCS TRACESIM PATH [--update] - the docs' generated tables must equal what
# their single source prints: register and event tables what gen_docs prints from
# rtl_model/regs/*.def, command tables (names options_CMD) what `tracesim help --markdown CMD`
# prints from the command's description (its option and exit status tables). Each table sits
# between
#   <!-- BEGIN GENERATED: name ... -->  and  <!-- END GENERATED: name -->
# PATH is one Markdown file, or a folder: then its README.md and every *.md under its docs/.
# With --update the files are rewritten in place instead.
set -eu
gen=$1; ts=$2; path=$3; update=${4:-}
if [ -d "$path" ]; then
  files=$( { [ -f "$path/README.md" ] && echo "$path/README.md"; [ -d "$path/docs" ] && find "$path/docs" -name '*.md' | LC_ALL=C sort; } || true)
else
  files=$path
fi
[ -n "$files" ] || { echo "check_docs.sh: no Markdown files in $path"; exit 1; }
tmp=$(mktemp); trap 'rm -f "$tmp" "$tmp.new"' EXIT
stale=0
for file in $files; do
  cp "$file" "$tmp"
  for name in $(grep -o 'BEGIN GENERATED: [a-z_-]*' "$file" | awk '{print $3}'); do
    case $name in
      options_*) table=$("$ts" help --markdown "${name#options_}") || { echo "$file: no command for $name"; exit 1; } ;;
      *) table=$("$gen" "$name") || { echo "$file: gen_docs knows no table $name"; exit 1; } ;;
    esac
    grep -q "END GENERATED: $name " "$file" || { echo "$file: BEGIN GENERATED: $name has no END"; exit 1; }
    TABLE=$table awk -v name="$name" '
      $0 ~ "BEGIN GENERATED: " name " " { print; print ENVIRON["TABLE"]; skip = 1; next }
      $0 ~ "END GENERATED: " name " "   { skip = 0 }
      !skip { print }' "$tmp" > "$tmp.new" && mv "$tmp.new" "$tmp"
  done
  if [ "$update" = "--update" ]; then
    cmp -s "$file" "$tmp" || { cp "$tmp" "$file"; echo "updated $file"; }
  elif ! diff -u "$file" "$tmp"; then
    echo "$file: generated tables are out of date"
    stale=1
  fi
done
[ "$update" = "--update" ] && exit 0
if [ $stale = 1 ]; then
  echo "run: tests/check_docs.sh $gen $ts $path --update"
  exit 1
fi
echo "generated tables match rtl_model/regs and the command descriptions:" $files
