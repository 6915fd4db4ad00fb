#!/usr/bin/env bash
# doc_examples_test.sh SOURCE_DIR BUILD_DIR - a test of the doc test (tests/doc_examples.sh):
# hand-written Markdown files whose blocks do or do not behave as they say must pass or fail.
set -u
src=$1; build=$2
run=$src/tests/doc_examples.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bad=0
fence='```'
expect() {   # expect pass|fail NAME: run the doc test on $tmp/NAME.md
  out=$("$run" "$src" "$build" "$tmp/$2.md" 2>&1); rc=$?
  if [ "$1" = pass ] && [ $rc != 0 ]; then echo "FAIL: $2 should pass:"; echo "$out"; bad=1; return; fi
  if [ "$1" = fail ] && [ $rc != 1 ]; then echo "FAIL: $2 should fail (status 1, got $rc):"; echo "$out"; bad=1; return; fi
  if [ "$1" = fail ] && ! grep -q "$2.md:[0-9]" <<<"$out"; then echo "FAIL: $2: no FILE:LINE in:"; echo "$out"; bad=1; return; fi
  echo "$2: $1 as expected: ${out%%$'\n'*}"
}

# output equal, with elisions; state carries over between blocks (cd, export)
cat > "$tmp/good.md" <<EOF
# good
${fence}sh runnable
echo one; echo two; echo three
echo "took 0.42 s"
${fence}

${fence}text output
one
...
took [...] s
${fence}

${fence}sh runnable
mkdir -p sub && cd sub && export DOCVAR=42 && ./../build/tracesim --version > /dev/null
${fence}

${fence}sh runnable
echo "\$DOCVAR \$(basename "\$PWD")"
${fence}

${fence}text output
42 sub
${fence}

${fence}sh runnable status=3
exit 3
${fence}
EOF
expect pass good

# a wrong expected output
cat > "$tmp/wrong_output.md" <<EOF
${fence}sh runnable
echo "fib(12) = 144"
${fence}

${fence}text output
fib(12) = 145
${fence}
EOF
expect fail wrong_output

# the real simulator, a wrong number in its output
cat > "$tmp/wrong_sim.md" <<EOF
${fence}sh runnable
./build/tracesim run -q -o runs/fib build/firmware/examples/fib.elf
cat runs/fib/uart.txt | head -1
${fence}

${fence}text output
fib(12) = 143
${fence}
EOF
expect fail wrong_sim

# a failing command in the middle of a block
cat > "$tmp/mid_fail.md" <<EOF
${fence}sh runnable
false
echo after
${fence}
EOF
expect fail mid_fail

# the wrong exit status
cat > "$tmp/wrong_status.md" <<EOF
${fence}sh runnable status=1
true
${fence}
EOF
expect fail wrong_status

# an elision "..." must not swallow a differing last line
cat > "$tmp/elision.md" <<EOF
${fence}sh runnable
printf 'a\nb\nc\n'
${fence}

${fence}text output
a
...
d
${fence}
EOF
expect fail elision

# an output block with no runnable block before it
cat > "$tmp/orphan.md" <<EOF
${fence}text output
x
${fence}
EOF
expect fail orphan

# an alternative output (another toolchain's figures, an HTML comment): either output passes
# (the second block prints the alternative's), one that fits neither fails, and an
# alternative with no output block before it is an error
cat > "$tmp/alternative.md" <<EOF
${fence}sh runnable
echo "cycles 100"
${fence}

${fence}text output
cycles 100
${fence}

<!-- text output, another compiler
cycles [...]7
-->

${fence}sh runnable
echo "cycles 107"
${fence}

${fence}text output
cycles 100
${fence}

<!-- text output, another compiler
cycles [...]7
-->
EOF
expect pass alternative
sed 's/echo "cycles 107"/echo "cycles 108"/' "$tmp/alternative.md" > "$tmp/alternative_neither.md"
expect fail alternative_neither
printf '# x\n\n<!-- text output, lone\nx\n-->\n' > "$tmp/alternative_orphan.md"
expect fail alternative_orphan
exit $bad
