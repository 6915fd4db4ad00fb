#!/usr/bin/env bash
# output_paths_test.sh SRC - no command opens an output or a run-folder file other than through
# the run-folder I/O module (runfolder/ts_file.h, issue 34 item 1): outside the module, the C
# sources of the commands (decoder/, elf/, analysis/, cli/, sweep/, waves/, sim/) have no fopen(..., "w"/"a"/"r"), no
# open()/openat() of a file to read (O_RDONLY, O_RDWR; a folder opened O_DIRECTORY|O_NOFOLLOW
# is allowed), no open()/openat()/posix_spawn_file_actions_addopen() with O_CREAT, no creat(), freopen(),
# chmod() or mkstemp(); the shell script the commands run (waves/make_view.sh) redirects
# output (`>`) only to /dev/null, stderr or a file it made with mktemp. Each allowed exception
# is listed below with its reason. The test fails naming every offending line.
set -u
src=$1
cd "$src" || exit 1
# file: reason (allowed to open files itself)
allow=(
  "runfolder/ts_file.c"            # the module itself
  "tools/docs/"                    # build-time doc tools: read the source tree's Markdown, print to stdout
  "sim/simctrl.c"                  # the firmware's host file I/O: its own confinement to RUN/host/ (openat O_CREAT|O_EXCL|O_NOFOLLOW, simctrl.h)
  "sim/systemc/example_sc_main.cpp" # an example of embedding the TLM models (writes the file its user names), not a tracesim command
)
is_allowed() { local a; for a in "${allow[@]}"; do case $1 in "$a"*) return 0 ;; esac; done; return 1; }
bad=0
report() { echo "not through the run-folder module: $1"; bad=1; }
while IFS= read -r hit; do
  f=${hit%%:*}
  is_allowed "$f" || report "$hit"
done < <(grep -rnE --include='*.c' --include='*.cpp' --include='*.h' \
  -e 'fopen[[:space:]]*\([^;]*"[rwa][b+x]*"' \
  -e '(^|[^_a-z])(open|openat)[[:space:]]*\([^;]*O_CREAT' \
  -e 'addopen[[:space:]]*\([^;]*O_(CREAT|WRONLY|RDWR)' \
  -e '(^|[^_a-z])(creat|freopen|mkstemp|mkostemp)[[:space:]]*\(' \
  -e '(^|[^_a-z.f])chmod[[:space:]]*\(' \
  -e '(^|[^_a-z])(open|openat)[[:space:]]*\([^;]*O_(RDONLY|RDWR)' \
  decoder elf analysis cli sweep waves tools sim runfolder | grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/\*|\*|//)' |
  grep -vE '(open|openat)[[:space:]]*\([^;]*O_DIRECTORY \| O_NOFOLLOW' |
  grep -vE 'addopen[[:space:]]*\([^;]*"/dev/null", O_(WRONLY|RDONLY), 0\)')
# the shell the commands run: > only to /dev/null, &N, or "$t" (a mktemp file)
while IFS= read -r hit; do
  report "$hit"
done < <(grep -nE '>[[:space:]]*[^&[:space:]]' waves/make_view.sh | grep -vE '^[0-9]+:[[:space:]]*#' |
         grep -vE '>[[:space:]]*/dev/null|>[[:space:]]*"\$t"|[^2]>&2|2>&1|-> |=>' |
         grep -vE '"(\[\*\]|@|\^|-)' )
grep -nE '(^|[^a-z])chmod ' waves/make_view.sh | grep -v 'chmod 755 -- "\$t"' | grep -vE '^[0-9]+:[[:space:]]*#' |
  while IFS= read -r hit; do echo "not through a temporary file: waves/make_view.sh:$hit"; exit 1; done || bad=1
[ $bad = 0 ] && echo "ok: every output and run-folder file goes through runfolder/ts_file.h"
exit $bad
