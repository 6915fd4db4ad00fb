# software trace port tests: waves_sc (README "Software trace port")
# the port in the waves: the stm id filter, the port's signals against stm.csv, loss markers
foreach(c stmfilter port markers)
  add_test(NAME waves.stm.${c} COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/stm/waves_sc_test.sh ${CMAKE_BINARY_DIR} ${c})
endforeach()
