# software trace port tests: fw (docs/firmware/software-trace.md): the firmware API and the port's
# properties, firmware in firmware/tests/stm_*.c (each script's header says what it checks)
foreach(t atomic tp drop off mh)
  add_test(NAME fw.stm.${t} COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/stm/${t}_test.sh ${TRACESIM}
           ${FW}/tests/stm_${t}.elf ${RUNS}/stm_${t})
endforeach()
add_test(NAME fw.stm.example COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/stm/example_test.sh ${TRACESIM}
         ${FW}/examples/stm_threads.elf ${RUNS}/stm_example)
