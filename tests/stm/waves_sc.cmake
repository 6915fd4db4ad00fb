# software trace port tests: waves_sc (docs/firmware/software-trace.md)
# the port in the waves: the stm id filter, the port's signals against stm.csv, loss markers
foreach(c stmfilter port markers)
  add_test(NAME waves.stm.${c} COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/stm/waves_sc_test.sh ${CMAKE_BINARY_DIR} ${c})
endforeach()
# tracesim-sc against tracesim run, and the recorded trace bus replayed into the loosely-timed
# modules (sim/systemc/tests: what they check); only where SystemC was found
if(TARGET tracesim-sc)
  set(stm_sct ${CMAKE_SOURCE_DIR}/sim/systemc/tests)
  set(stm_fw ${CMAKE_BINARY_DIR}/firmware/tests)
  set(stm_cases "stm_port stm_port" "stm_port_thread_switch stm_port --stm-thread-switch"
                "stm_lost stm_lost" "stm_lost_depth2 stm_lost --itc-depth 2")
  foreach(c ${stm_cases})
    separate_arguments(args UNIX_COMMAND "${c}")
    list(POP_FRONT args name fw)
    add_test(NAME sc.equiv.${name} COMMAND ${stm_sct}/sc_equiv_test.sh ${CMAKE_BINARY_DIR} ${name} ${stm_fw}/${fw}.elf ${args})
    add_test(NAME sc.replay.${name} COMMAND ${stm_sct}/sc_replay_test.sh ${CMAKE_BINARY_DIR} ${name} ${stm_fw}/${fw}.elf ${args})
  endforeach()
  # tp written while tracing (thread switches traced, with drops), and two harts through the funnel
  add_test(NAME sc.equiv.stm_dec_threads COMMAND ${stm_sct}/sc_equiv_test.sh ${CMAKE_BINARY_DIR} stm_dec_threads
           ${stm_fw}/stm_dec_threads.elf --stm-thread-switch --itc-depth 1)
  add_test(NAME sc.equiv.stm_threads COMMAND ${stm_sct}/sc_equiv_test.sh ${CMAKE_BINARY_DIR} stm_threads
           ${CMAKE_BINARY_DIR}/firmware/examples/stm_threads.elf --stm-thread-switch)
  add_test(NAME sc.equiv.stm_dec_mh COMMAND ${stm_sct}/sc_equiv_test.sh ${CMAKE_BINARY_DIR} stm_dec_mh
           ${stm_fw}/stm_dec_mh.elf --harts 2 --stm-thread-switch)
endif()
