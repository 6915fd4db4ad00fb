#!/usr/bin/env bash
# doc_links_test.sh DOC_LINKS - the link checker on a hand-made tree: each broken link is
# reported with its file and line, and the good ones (files, folders, anchors of headings
# with code, punctuation and repeats, explicit anchors, links in code that are not links)
# are not.
set -u
dl=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/repo/docs/commands" "$tmp/outside"
touch "$tmp/outside/x.md" "$tmp/repo/pic.png"
cat > "$tmp/repo/README.md" <<'MD'
# Title
## The `run` command: options
## Repeat
## Repeat
<a id="custom"></a>
[ok file](docs/commands/run.md) [ok dir](docs/) ![ok img](pic.png)
[ok anchor](#the-run-command-options) [ok repeat](#repeat-1) [ok custom](#custom)
[ok other](docs/commands/run.md#synopsis) [ok web](https://example.com/x.md)
`[not a link](nowhere.md)`
    [indented code](nowhere.md)
```
[fenced](nowhere.md)
```
[bad file](docs/nowhere.md)
[bad anchor](#repeat-2)
[bad other anchor](docs/commands/run.md#options)
[bad outside](../outside/x.md)
MD
cat > "$tmp/repo/docs/commands/run.md" <<'MD'
# tracesim run
## Synopsis
[back](../../README.md#title) [bad back](../../README.md#nope)
MD
out=$("$dl" "$tmp/repo" "$tmp/repo/README.md" "$tmp/repo/docs/commands/run.md"); rc=$?
want="$tmp/repo/README.md:14: link to docs/nowhere.md: no such file or folder
$tmp/repo/README.md:15: link to (this file)#repeat-2: no such heading or anchor
$tmp/repo/README.md:16: link to docs/commands/run.md#options: no such heading or anchor
$tmp/repo/README.md:17: link to ../outside/x.md: outside the repository
$tmp/repo/docs/commands/run.md:3: link to ../../README.md#nope: no such heading or anchor"
[ "$rc" = 1 ] || { echo "FAIL: exit $rc, expected 1"; exit 1; }
[ "$out" = "$want" ] || { echo "FAIL: got"; echo "$out"; echo "expected"; echo "$want"; exit 1; }
# all good: exit 0, no output
sed -i '14,17d' "$tmp/repo/README.md"; sed -i 's/ \[bad back\].*//' "$tmp/repo/docs/commands/run.md"
out=$("$dl" "$tmp/repo" "$tmp/repo/README.md" "$tmp/repo/docs/commands/run.md"); rc=$?
[ "$rc" = 0 ] && [ -z "$out" ] || { echo "FAIL: clean tree: exit $rc, output: $out"; exit 1; }
echo "ok"
