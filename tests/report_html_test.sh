#!/usr/bin/env bash
# report_html_test.sh BUILD_DIR CASE - `report -f html` (analysis/report/out_html.c). Cases:
#   structure  fib.c, rr_threads.c (3 threads), longjmp.c with --compensate and fib_mh_sram
#              on 2 harts (a table, flame graph and timeline per hart): the flat
#              profile's tables in the page equal `report -f csv` of the same run, value by
#              value (tests/report_html_flat.py); -o DIR writes DIR/report.html, without -o
#              the page goes to stdout and is the same; every section is there; nothing
#              points outside the file (no src=, href= other than #..., url(, @import);
#              --baseline with a run of ovh_fib_out.elf shows the overhead chart, the extra
#              cycles are this run's stats.txt cycles minus the baseline's; without it the
#              section says there is none; --baseline that is no run folder: 121, one line,
#              no report.html; --baseline without -f html: 120
#   hostile    fib.elf with fib renamed (objcopy) to `<script>alert(1)</script>&"'x`: the
#              page holds the name only as entities (no "<script>alert" in the file) and the
#              flat profile still equals the CSV, whose function is the raw name
#   chromium   headless Chromium (Debian package chromium; exit 77 "SKIP" without it) on the
#              pages of fib.c, rr_threads.c and the hostile name: no console message at all
#              (--enable-logging=stderr), the functions in the rendered DOM (--dump-dom), the
#              page's self test (#selftest: clicks every heading of every sortable table twice
#              and checks the order) says "sort ok; errors: 0", the hostile name is text in a
#              cell and the page has only its own two scripts; a screenshot is a PNG. And
#              that these checks can fail: a planted `noSuchFunction()` gives a console
#              error, a page whose sorting is broken (the rows not moved) gives "sort FAILED"
#   flowonly   a run with program trace and no perf library (firmware/tests/flow_sort.c): -f
#              html exits 121 (no perf header) with one line that names what gives this
#              trace's profile (--from flow; folded, callgrind), writes no report.html, and
#              -f folded of the same run, which the line points to, gives a profile
set -u
b=$(cd "$1" && pwd); case_=$2
src=$(cd "$(dirname "$0")/.." && pwd)
ts=$b/tracesim
fw=$b/firmware/examples
run=$b/test-runs/report_html_$case_
fail() { echo "FAIL (report html $case_): $*"; exit 1; }
rm -rf "$run"; mkdir -p "$run"
flat() { python3 "$src/tests/report_html_flat.py" "$@" || fail "flat profile differs: $*"; }
mkrun() { "$ts" run -q "${@:3}" -o "$run/$1" "$fw/$2.elf" 2> "$run/$1.err" || fail "run $2: $(head -c 300 "$run/$1.err")"; }

case $case_ in
structure)
  mkrun fib fib
  mkrun rr rr_threads --stm-thread-switch
  mkrun lj longjmp
  for r in fib rr lj; do
    c=; [ $r = lj ] && c=--compensate
    "$ts" report $c -f csv "$run/$r" > "$run/$r.csv" 2> "$run/$r.csv.err" || fail "$r: report -f csv"
    "$ts" report $c -f html -o "$run/$r/h" "$run/$r" 2> "$run/$r.html.err" || fail "$r: report -f html: $(head -c 300 "$run/$r.html.err")"
    [ -s "$run/$r/h/report.html" ] || fail "$r: no DIR/report.html"
    flat "$run/$r/h/report.html" "$run/$r.csv"
    "$ts" report $c -f html "$run/$r" > "$run/$r.stdout.html" 2> /dev/null || fail "$r: to stdout"
    cmp -s "$run/$r.stdout.html" "$run/$r/h/report.html" || fail "$r: stdout and -o differ"
    for s in summary flame timeline flat cost overhead irq; do
      grep -q "<section id=\"$s\">" "$run/$r/h/report.html" || fail "$r: no section $s"
    done
    # (the SVG namespace of createElementNS is a name, not an address)
    sed 's#http://www.w3.org/2000/svg##g' "$run/$r/h/report.html" | grep -Eq 'src=|href="[^#]|url\(|@import|https?:' && fail "$r: the page points outside itself: $(grep -Eo 'src=[^ ]*|href="[^#][^"]*"|url\([^)]*|@import|https?:[^ "]*' "$run/$r/h/report.html" | head -3)"
    grep -q 'No baseline' "$run/$r/h/report.html" || fail "$r: the overhead section does not say there is no baseline"
  done
  # two harts (fib_mh_sram.elf: fib on each): a table, a flame graph and a timeline per hart
  mkrun mh fib_mh_sram --harts 2
  "$ts" report -f csv "$run/mh" > "$run/mh.csv" 2> /dev/null || fail "mh: report -f csv"
  "$ts" report -f html -o "$run/mh/h" "$run/mh" 2> "$run/mh.err" || fail "mh: report -f html: $(head -c 300 "$run/mh.err")"
  flat "$run/mh/h/report.html" "$run/mh.csv"
  for h in 0 1; do for c in flame timeline 'flat sortable'; do
    grep -q "class=\"$c\" data-hart=\"$h\"" "$run/mh/h/report.html" || fail "mh: no $c of hart $h"
  done; done
  grep -q '<svg class="flame" data-hart="0"' "$run/fib/h/report.html" || fail "fib: no flame graph"
  grep -q '<svg class="timeline" data-hart="0"' "$run/fib/h/report.html" || fail "fib: no timeline"
  [ "$(grep -c '<title>thread 0x' "$run/rr/h/report.html")" -ge 3 ] || fail "rr_threads: no thread frames"
  # interrupts and threads: the section's rows equal report -f irq-csv's ground-truth rows
  # (rr_threads: the timer interrupt, three threads and main's stretch)
  "$ts" report -f irq-csv "$run/rr" > "$run/rr.irq.csv" 2> /dev/null || fail "rr: report -f irq-csv"
  python3 "$src/tests/report_html_irq.py" "$run/rr/h/report.html" "$run/rr.irq.csv" > "$run/rr.irq.out" || fail "rr: interrupts and threads differ from -f irq-csv: $(head -c 300 "$run/rr.irq.out")"
  [ "$(grep -c '<tr class="irq">' "$run/rr/h/report.html")" -ge 4 ] || fail "rr: fewer than 4 interrupt/thread rows"
  grep -q 'compensated' "$run/lj/h/report.html" || fail "longjmp --compensate: not said"
  grep -q '\[not attributed\]' "$run/lj/h/report.html" || fail "longjmp: no [not attributed] frame"
  # the overhead against a baseline run (the workload without the perf library)
  "$ts" run -q -o "$run/base" "$fw/ovh_fib_out.elf" 2> /dev/null || fail "run ovh_fib_out"
  "$ts" run -q -o "$run/on" "$fw/ovh_fib_on_sram_1.elf" 2> /dev/null || fail "run ovh_fib_on_sram_1"
  "$ts" report -f html --baseline "$run/base" -o "$run/on/h" "$run/on" 2> "$run/on.err" || fail "--baseline: $(cat "$run/on.err")"
  bc=$(awk '$1 == "cycles" { print $2 }' "$run/base/stats.txt"); oc=$(awk '$1 == "cycles" { print $2 }' "$run/on/stats.txt")
  grep -q '<svg class="ovh"' "$run/on/h/report.html" || fail "--baseline: no overhead chart"
  grep -q "Extra cycles: <b>$((oc - bc))</b>" "$run/on/h/report.html" || fail "--baseline: extra cycles not $oc - $bc"
  "$ts" report -f html --baseline "$run/nothere" -o "$run/on/h2" "$run/on" > /dev/null 2> "$run/nb.err"; rc=$?
  [ $rc = 121 ] || fail "--baseline not a run folder: exit $rc, expected 121"
  [ "$(wc -l < "$run/nb.err")" = 1 ] || fail "--baseline not a run folder: $(wc -l < "$run/nb.err") lines on stderr"
  [ -e "$run/on/h2/report.html" ] && fail "--baseline not a run folder: a report.html was left"
  "$ts" report -f csv --baseline "$run/base" "$run/on" > /dev/null 2>&1; rc=$?
  [ $rc = 120 ] || fail "--baseline with -f csv: exit $rc, expected 120"
  echo "ok: structure"
  ;;
hostile)
  evil='<script>alert(1)</script>&"'"'"'x'
  mkrun fib fib
  riscv64-unknown-elf-objcopy --redefine-sym "fib=$evil" "$fw/fib.elf" "$run/evil.elf" || fail "objcopy"
  "$ts" report --elf "$run/evil.elf" -f csv "$run/fib" > "$run/evil.csv" 2> /dev/null || fail "report -f csv"
  grep -qF "<script>alert(1)</script>&" "$run/evil.csv" || fail "the CSV does not hold the hostile name (the test's premise)"
  "$ts" report --elf "$run/evil.elf" -f html -o "$run/h" "$run/fib" 2> /dev/null || fail "report -f html"
  grep -qi '<script>alert' "$run/h/report.html" && fail "the hostile name reached the page as markup"
  grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;&#39;x' "$run/h/report.html" || fail "the hostile name is not in the page as entities"
  [ "$(grep -c '<script>' "$run/h/report.html")" = 2 ] || fail "the page has $(grep -c '<script>' "$run/h/report.html") <script> tags, not its own 2"
  flat "$run/h/report.html" "$run/evil.csv"
  echo "ok: hostile"
  ;;
chromium)
  chrome=$(command -v chromium || command -v chromium-browser || true)
  [ -n "$chrome" ] || { echo "SKIP: chromium not installed (Debian package chromium)"; exit 77; }
  mkrun fib fib
  mkrun rr rr_threads --stm-thread-switch
  evil='<script>alert(1)</script>&"'"'"'x'
  riscv64-unknown-elf-objcopy --redefine-sym "fib=$evil" "$fw/fib.elf" "$run/evil.elf" || fail "objcopy"
  "$ts" report -f html -o "$run/fib/h" "$run/fib" 2> /dev/null || fail "report fib"
  "$ts" report -f html -o "$run/rr/h" "$run/rr" 2> /dev/null || fail "report rr_threads"
  "$ts" report --elf "$run/evil.elf" -f html -o "$run/evil" "$run/fib" 2> /dev/null || fail "report hostile"
  # browse PAGE NAME: the rendered DOM (#selftest) in NAME.dom, Chromium's log in NAME.log
  browse() {
    HOME=$run timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$run/profile-$2" \
      --enable-logging=stderr --v=0 --virtual-time-budget=5000 --dump-dom "file://$1#selftest" > "$run/$2.dom" 2> "$run/$2.log"
    [ $? = 124 ] && fail "$2: chromium timed out"
    grep -q '</html>' "$run/$2.dom" || fail "$2: no DOM dumped: $(grep -v dbus "$run/$2.log" | head -c 300)"
  }
  clean() {   # PAGE NAME: renders with no console message and a passing self test
    browse "$1" "$2"
    grep -q ':CONSOLE' "$run/$2.log" && fail "$2: console message: $(grep ':CONSOLE' "$run/$2.log" | head -3)"
    grep -q '<pre id="selftest">sort ok; errors: 0</pre>' "$run/$2.dom" || fail "$2: self test: $(grep -o '<pre id="selftest">[^<]*' "$run/$2.dom")"
  }
  clean "$run/fib/h/report.html" fib
  grep -q '<td class="fn">fib</td>' "$run/fib.dom" || fail "fib: fib not in the rendered flat profile"
  grep -q '<title>fib' "$run/fib.dom" || fail "fib: fib not in the rendered flame graph"
  clean "$run/rr/h/report.html" rr
  for f in rr_tree rr_leaf rr_hash rr_mix rr_gamma rr_beta rr_alpha; do
    grep -q "<td class=\"fn\">$f</td>" "$run/rr.dom" || fail "rr_threads: $f not in the rendered DOM"
  done
  clean "$run/evil/report.html" evil
  grep -qF '<td class="fn">&lt;script&gt;alert(1)&lt;/script&gt;&amp;"'"'"'x</td>' "$run/evil.dom" || fail "hostile: the name is not a cell's text in the DOM"
  [ "$(grep -o '<script' "$run/evil.dom" | wc -l)" = 2 ] || fail "hostile: the rendered page has $(grep -o '<script' "$run/evil.dom" | wc -l) scripts, not its own 2"
  # the checks can fail: a planted error, broken sorting
  sed 's#</body>#<script>noSuchFunction();</script></body>#' "$run/fib/h/report.html" > "$run/planted.html"
  browse "$run/planted.html" planted
  grep -q ':CONSOLE.*noSuchFunction is not defined' "$run/planted.log" || fail "a planted JS error is not seen: $(grep CONSOLE "$run/planted.log")"
  sed 's#for(var r of rows)b.appendChild(r)#void 0#' "$run/rr/h/report.html" > "$run/nosort.html"
  cmp -s "$run/nosort.html" "$run/rr/h/report.html" && fail "the sorting code was not found to break"
  browse "$run/nosort.html" nosort
  grep -q '<pre id="selftest">sort FAILED' "$run/nosort.dom" || fail "broken sorting is not seen: $(grep -o '<pre id="selftest">[^<]*' "$run/nosort.dom")"
  HOME=$run timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$run/profile-shot" \
    --hide-scrollbars --window-size=1300,1800 --screenshot="$run/rr.png" "file://$run/rr/h/report.html" > /dev/null 2>&1
  [ "$(head -c 8 "$run/rr.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "no PNG screenshot"
  echo "ok: chromium"
  ;;
flowonly)
  "$ts" run -q --trace-insn btm --trace-sram 1M -o "$run/fo" "$b/firmware/tests/flow_sort.elf" 2> "$run/fo.err" ||
    fail "run flow_sort: $(head -c 300 "$run/fo.err")"
  "$ts" report -f html -o "$run/fo/h" "$run/fo" > /dev/null 2> "$run/fo.html.err"
  st=$?
  [ $st = 121 ] || fail "-f html on a program-trace-only run exited $st, not 121"
  [ "$(wc -l < "$run/fo.html.err")" = 1 ] || fail "not one line: $(cat "$run/fo.html.err")"
  grep -q -- "--from flow" "$run/fo.html.err" && grep -q folded "$run/fo.html.err" ||
    fail "the line does not say what gives this trace's profile: $(cat "$run/fo.html.err")"
  [ -e "$run/fo/h/report.html" ] && fail "a report.html was written"
  "$ts" report --from flow -f folded "$run/fo" > "$run/fo.folded" 2> /dev/null || fail "report --from flow -f folded exited $?"
  grep -Eq '^[^ ].*;[^;]+ [0-9]+$' "$run/fo.folded" || fail "no folded stacks: $(head -c 300 "$run/fo.folded")"
  echo "ok: flowonly"
  ;;
*) echo "report_html_test.sh: unknown case $case_"; exit 2 ;;
esac
