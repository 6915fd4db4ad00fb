# software trace port tests: decode (docs/firmware/software-trace.md)
#  * unit tests of the element decoding and the --format stm text from hand-encoded bytes;
#  * dec_test.sh: --format stm, timeline and `tracesim check` on firmware runs, and check
#    failing on tampered ground truth;
#  * fuzz.stm: libFuzzer over bytes -> elements -> --format stm text and timeline.
ts_add_test_file(unit_stm_dec stm/test_stm_dec.c LIBS ts_decoder_san SANITIZE)
foreach(c port port_check threads threads_drops stop wrap mh nostm)
  add_test(NAME stm.dec.${c} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/stm/dec_test.sh ${CMAKE_BINARY_DIR} ${c})
endforeach()
if(CLANG)
  set(FUZZ_STM_SRC ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_stm.c ${CMAKE_SOURCE_DIR}/decoder/src/tl_time.c ${CMAKE_SOURCE_DIR}/decoder/src/nexus_decode.c
                   ${CMAKE_SOURCE_DIR}/decoder/src/elements.c ${CMAKE_SOURCE_DIR}/decoder/src/stm_decode.c)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/fuzz_stm
    COMMAND ${CLANG} -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
            -I${CMAKE_SOURCE_DIR}/decoder/include -I${CMAKE_SOURCE_DIR}/rtl_model/regs ${FUZZ_STM_SRC} -o ${CMAKE_BINARY_DIR}/fuzz_stm
    DEPENDS ${FUZZ_STM_SRC} ${CMAKE_SOURCE_DIR}/decoder/include/nexus_decode.h ${CMAKE_SOURCE_DIR}/decoder/include/elements.h
            ${CMAKE_SOURCE_DIR}/decoder/include/stm_decode.h ${CMAKE_SOURCE_DIR}/rtl_model/regs/stm.def
    COMMENT "Building the libFuzzer software trace decoder target")
  add_custom_target(fuzz_stm_target ALL DEPENDS ${CMAKE_BINARY_DIR}/fuzz_stm)
  add_test(NAME fuzz.stm COMMAND sh -c
    "rm -rf ${RUNS}/fuzz_stm && mkdir -p ${RUNS}/fuzz_stm && cd ${RUNS} && ${CMAKE_BINARY_DIR}/fuzz_stm -max_total_time=10 -timeout=5 -rss_limit_mb=1024 -print_final_stats=1 ${RUNS}/fuzz_stm > ${RUNS}/fuzz_stm.log 2>&1; rc=$?; grep -E 'ERROR|SUMMARY|runtime error|deadly' ${RUNS}/fuzz_stm.log; tail -5 ${RUNS}/fuzz_stm.log; exit $rc")
  set_tests_properties(fuzz.stm PROPERTIES TIMEOUT 120 FAIL_REGULAR_EXPRESSION "ERROR: libFuzzer|ERROR: AddressSanitizer|runtime error|SUMMARY")
endif()
