# `cmake --install build --prefix P` (docs/getting-started.md "Your own firmware"):
#   P/bin/tracesim, P/bin/tracesim-sc (when SystemC is found)
#   P/share/tracesim/waves/   views, filters and scripts of `tracesim waves` (found relative
#                             to the running binary: bin/../share/tracesim/waves)
#   the firmware SDK: the firmware project's own install (firmware/sdk/CMakeLists.txt) of
#   both configurations (RV32, RV64) with the same prefix: P/include/tracesim,
#   P/lib/tracesim/{rv32imac/ilp32,rv64imac/lp64}, P/lib/pkgconfig,
#   P/lib/cmake/tracesim-firmware, P/share/tracesim/{toolchain.cmake,template}
install(TARGETS tracesim RUNTIME DESTINATION bin)
if(TARGET tracesim-sc)
  install(TARGETS tracesim-sc RUNTIME DESTINATION bin)
endif()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/waves/views ${CMAKE_SOURCE_DIR}/waves/filters
        DESTINATION share/tracesim/waves)
install(PROGRAMS ${CMAKE_SOURCE_DIR}/waves/make_view.sh ${CMAKE_SOURCE_DIR}/waves/open.sh
                 ${CMAKE_SOURCE_DIR}/waves/screenshot.sh
        DESTINATION share/tracesim/waves)
# both firmware configurations: RV32 (firmware) and RV64 (firmware64), into the same prefix
foreach(ts_dir ${TS_FW_DIR} ${TS_FW64_DIR})
  install(CODE "
    execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${ts_dir}\" --prefix \"\${CMAKE_INSTALL_PREFIX}\"
                    RESULT_VARIABLE ts_fw_rc)
    if(NOT ts_fw_rc EQUAL 0)
      message(FATAL_ERROR \"installing the firmware SDK from ${ts_dir} failed (build it first: cmake --build)\")
    endif()")
endforeach()
