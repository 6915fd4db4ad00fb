#!/usr/bin/env bash
# pgo_into_build.sh [BUILD_DIR] - the profile-guided simulator (tests/bench/pgo_build.sh:
# tracesim, tracesim-sc and the firmware, built, trained and rebuilt) in BUILD_DIR (default:
# build), for a first command that builds and runs the demo:
#   bash .ci/install-deps.sh && tests/bench/pgo_into_build.sh && ./build/tracesim run ...
# It then sets BUILD_DIR's TRACESIM_PGO back to OFF, without building: BUILD_DIR/tracesim stays
# the profile-guided one until the next `cmake --build BUILD_DIR`, which (the README's test
# command) rebuilds everything as the default build, so the tests never run a profile-guided
# simulator. Costs on the project's 2-core VM: docs/performance.md#profile-guided-build.
# PGO_BUILD: the build step to run instead of pgo_build.sh (tests/pgo_into_build_test.sh).
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}
"${PGO_BUILD:-$src/tests/bench/pgo_build.sh}" "$build" ||
  { echo "pgo_into_build: the profile-guided build in $build failed" >&2; exit 1; }
cmake -S "$src" -B "$build" -DTRACESIM_PGO=OFF > /dev/null ||
  { echo "pgo_into_build: configuring $build back to the default build failed" >&2; exit 1; }
echo "pgo_into_build: $build/tracesim is the profile-guided simulator (the next cmake --build $build rebuilds the default one)" >&2
