# libFuzzer targets over what tracesim parses from users' files (included by tests/CMakeLists.txt
# when clang is found). ts_fuzz_target(NAME SOURCES files... [INCLUDES dirs...] [LIBS flags...]
# [SEEDS files...] [SECONDS n]) builds NAME with clang -fsanitize=fuzzer,address,undefined and
# adds the ctest test fuzz.NAME: a short run (SECONDS, default 10) from a fresh corpus made of
# the SEEDS (every seed must exist: a missing one fails the test, never an empty corpus; seeds
# are files of the build itself or of runs the tests make: see fuzz.seeds.setup below, so the
# tests need nothing beside the source tree); the fuzzer's own exit status (non-zero on a crash, leak, timeout or sanitizer
# report) and any such report in its log fail it. `cmake --build build --target
# fuzz-nightly` runs every target for longer (tests/fuzz/nightly.sh, FUZZ_SECONDS each).
set(TS_FUZZ_TARGETS "" CACHE INTERNAL "")
function(ts_fuzz_target name)
  cmake_parse_arguments(F "" "SECONDS" "SOURCES;INCLUDES;LIBS;SEEDS" ${ARGN})
  if(NOT F_SECONDS)
    set(F_SECONDS 10)
  endif()
  set(inc "")
  foreach(d ${F_INCLUDES})
    list(APPEND inc -I${d})
  endforeach()
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/fuzz_${name}
    COMMAND ${CLANG} -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all ${inc} ${F_SOURCES}
            ${F_LIBS} -o ${CMAKE_BINARY_DIR}/fuzz_${name}
    DEPENDS ${F_SOURCES}
    COMMENT "Building the libFuzzer target fuzz_${name}")
  add_custom_target(fuzz_${name}_target ALL DEPENDS ${CMAKE_BINARY_DIR}/fuzz_${name})
  set(corpus ${CMAKE_BINARY_DIR}/test-runs/fuzz_${name})
  string(REPLACE ";" " " seeds "${F_SEEDS}")
  add_test(NAME fuzz.${name} COMMAND sh -c
    "rm -rf ${corpus} && mkdir -p ${corpus} && for s in ${seeds}; do [ -s \"$s\" ] || { echo \"fuzz.${name}: seed $s is missing or empty\"; exit 1; }; cp \"$s\" ${corpus}/ || exit 1; done; [ -n \"$(ls ${corpus})\" ] || { echo 'fuzz.${name}: empty corpus'; exit 1; }; cd ${corpus}/.. && ${CMAKE_BINARY_DIR}/fuzz_${name} -max_total_time=${F_SECONDS} -timeout=5 -rss_limit_mb=1024 -print_final_stats=1 ${corpus} > ${corpus}.log 2>&1; rc=$?; grep -E 'ERROR|SUMMARY|runtime error|deadly' ${corpus}.log; tail -5 ${corpus}.log; exit $rc")
  set_tests_properties(fuzz.${name} PROPERTIES LABELS fuzz TIMEOUT 120
    FAIL_REGULAR_EXPRESSION "ERROR: libFuzzer|ERROR: AddressSanitizer|runtime error|SUMMARY|deadly signal")
  set(TS_FUZZ_TARGETS ${TS_FUZZ_TARGETS} ${name} CACHE INTERNAL "")
endfunction()

set(S ${CMAKE_SOURCE_DIR})
set(D ${CMAKE_SOURCE_DIR}/decoder)   # the decoder library: D/src, D/include
set(RF ${CMAKE_SOURCE_DIR}/runfolder)   # the run-folder I/O module
ts_fuzz_target(elf
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_elf.c ${CMAKE_SOURCE_DIR}/sim/elf_read.c ${D}/src/elf_syms.c ${RF}/ts_file.c ${S}/elf/ts_elf.c
  INCLUDES ${RF} ${CMAKE_SOURCE_DIR}/sim ${D}/include ${S}/elf ${CMAKE_SOURCE_DIR}/rtl_model/regs
  LIBS -lelf
  SEEDS ${TS_FW_DIR}/hello.elf ${TS_FW_DIR}/tests/rv64.elf ${TS_FW_DIR}/examples/fib.elf)
ts_fuzz_target(sweep
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_sweep.c ${RF}/ts_json.c ${RF}/ts_index.c ${S}/sweep/sweep_spec.c ${RF}/ts_file.c ${S}/cli/opts/ts_opts.c
  INCLUDES ${RF} ${S}/sweep ${S}/cli/opts ${CMAKE_SOURCE_DIR}/rtl_model/regs
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/sweep/plan.json ${CMAKE_CURRENT_SOURCE_DIR}/sweeps/overhead.json
        ${CMAKE_CURRENT_SOURCE_DIR}/sweeps/mixed.json)
# the ELF and traces of the build itself (fuzz.seeds.setup): fib.elf's run with program trace
set(TS_FUZZ_SEEDS ${CMAKE_BINARY_DIR}/test-runs/fuzz_seeds)
ts_fuzz_target(flow
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_flow.c ${D}/src/nexus_decode.c ${D}/src/prog_flow.c ${D}/src/rv_insn.c
          ${D}/src/flow_calls.c ${D}/src/callstack.c ${D}/src/rec_stack.c ${D}/src/elf_syms.c
          ${RF}/ts_file.c ${S}/elf/ts_elf.c
  INCLUDES ${RF} ${D}/include ${D}/src ${S}/elf ${CMAKE_SOURCE_DIR}/rtl_model/regs
  LIBS -lelf -DFUZZ_FLOW_ELF=${TS_FW_DIR}/examples/fib.elf
  SEEDS ${TS_FUZZ_SEEDS}/htm.rtd ${TS_FUZZ_SEEDS}/btm.rtd ${TS_FUZZ_SEEDS}/htm-ret.rtd
        # teInstruction 7 repeat counts (RESOURCE FULL RCODE 1, 9, 8; test_te_prog.c, timer_isr)
        ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/flow/htm_repeat_unit.rtd ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/flow/timer_isr_htmret_head.rtd)

# the perf decoder's store path (what itc.csv feeds): 40-bit timestamps, every channel, cuts
ts_fuzz_target(perfstore
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_perfstore.c ${D}/src/perf_decode.c ${S}/analysis/report/profile.c ${D}/src/callstack.c ${D}/src/rec_stack.c
  INCLUDES ${RF} ${D}/include ${S}/analysis/report ${CMAKE_SOURCE_DIR}/rtl_model/regs
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/perfstore/fib_stores.bin)
# every run-folder reader (trace.json, stats.txt, itc.csv, perf_config.txt, marks.csv,
# trace_events.csv, stm.csv): the whole host library, built with clang
file(GLOB TS_FUZZ_LIB_SRC ${RF}/*.c ${S}/elf/*.c ${S}/cli/opts/*.c ${D}/src/*.c ${S}/analysis/*/*.c ${S}/waves/gtkwave/*.c ${S}/sweep/*.c)
ts_fuzz_target(runfolder
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_runfolder.c ${TS_FUZZ_LIB_SRC}
  INCLUDES ${RF} ${S}/cli/opts ${S}/elf ${D}/include ${D}/src ${S}/analysis/run ${S}/analysis/check ${S}/analysis/report ${S}/analysis/overhead ${S}/waves/gtkwave ${S}/sweep ${CMAKE_SOURCE_DIR}/rtl_model/regs
  LIBS -ldw -lelf
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/runfolder/trace_json ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/runfolder/itc_csv
        ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/runfolder/stats_txt)

# the GTKWave filter protocol: one answer line per line, symfilter and stmfilter
ts_fuzz_target(filter
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_filter.c ${S}/waves/gtkwave/symfilter.c ${S}/waves/gtkwave/stmfilter.c ${D}/src/elf_syms.c ${RF}/ts_file.c ${S}/cli/opts/ts_opts.c ${S}/elf/ts_elf.c
  INCLUDES ${RF} ${S}/waves/gtkwave ${D}/include ${S}/cli/opts ${S}/elf ${CMAKE_SOURCE_DIR}/rtl_model/regs
  LIBS -lelf -DFUZZ_FILTER_ELF=${TS_FW_DIR}/examples/fib.elf
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/filter/sym ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/filter/stm)

# the whole of `tracesim check` over a real run folder with one forged ground-truth file
# (counters.csv, flow.csv, hooks.csv, hpm_writes.csv, stm.csv, itc.csv, trace.json, stats.txt)
set(TS_FUZZ_CHECK_RUN ${CMAKE_BINARY_DIR}/test-runs/fuzz_check_run)
ts_fuzz_target(check
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_check.c ${TS_FUZZ_LIB_SRC}
  INCLUDES ${RF} ${S}/cli/opts ${S}/elf ${D}/include ${D}/src ${S}/analysis/run ${S}/analysis/check ${S}/analysis/report ${S}/analysis/overhead ${S}/waves/gtkwave ${S}/sweep ${CMAKE_SOURCE_DIR}/rtl_model/regs
  LIBS -ldw -lelf -DFUZZ_CHECK_RUN=${TS_FUZZ_CHECK_RUN}
  SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/check/flow ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/seeds/check/counters)
add_test(NAME fuzz.check.setup COMMAND ${CMAKE_BINARY_DIR}/tracesim run -q -o ${TS_FUZZ_CHECK_RUN} ${TS_FW_DIR}/examples/fib_raw_sram_1.elf)
set_tests_properties(fuzz.check.setup PROPERTIES FIXTURES_SETUP fuzz_check_run LABELS fuzz)
set_tests_properties(fuzz.check PROPERTIES FIXTURES_REQUIRED fuzz_check_run)

# ---- inputs: fuzz seeds made by the build (no ../shared needed) -----------------------------
# fib.elf run with program trace in each mode and with perf records only, and itc_sram.elf's
# ITC stores: each trace's first 16 KiB (small seeds keep the short runs fast)
add_test(NAME fuzz.seeds.setup COMMAND sh -c
  "set -e; rm -rf ${TS_FUZZ_SEEDS}; mkdir -p ${TS_FUZZ_SEEDS}; for m in btm htm htm-ret; do ${CMAKE_BINARY_DIR}/tracesim run -q --trace-insn $m -o ${TS_FUZZ_SEEDS}/run_$m ${TS_FW_DIR}/examples/fib.elf > /dev/null; head -c 16384 ${TS_FUZZ_SEEDS}/run_$m/trace.rtd > ${TS_FUZZ_SEEDS}/$m.rtd; done; ${CMAKE_BINARY_DIR}/tracesim run -q -o ${TS_FUZZ_SEEDS}/run_perf ${TS_FW_DIR}/examples/fib.elf > /dev/null; head -c 16384 ${TS_FUZZ_SEEDS}/run_perf/trace.rtd > ${TS_FUZZ_SEEDS}/perf.rtd; ${CMAKE_BINARY_DIR}/tracesim run -q -o ${TS_FUZZ_SEEDS}/run_itc ${TS_FW_DIR}/tests/itc_sram.elf > /dev/null; head -c 16384 ${TS_FUZZ_SEEDS}/run_itc/trace.rtd > ${TS_FUZZ_SEEDS}/itc.rtd; for f in btm htm htm-ret perf itc; do test -s ${TS_FUZZ_SEEDS}/$f.rtd; done")
set_tests_properties(fuzz.seeds.setup PROPERTIES FIXTURES_SETUP fuzz_seeds LABELS fuzz)
set_tests_properties(fuzz.flow fuzz.decode PROPERTIES FIXTURES_REQUIRED fuzz_seeds)

add_custom_target(fuzz-nightly
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/nightly.sh ${CMAKE_BINARY_DIR} ${TS_FUZZ_TARGETS}
  USES_TERMINAL)
