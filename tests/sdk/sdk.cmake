# ---- the installed tree (docs/getting-started.md "Your own firmware"): tests/sdk/sdk_test.sh, one ctest per
# case, each on its own fresh install moved to another folder (label sdk)
foreach(c files paths version version_tarball template_make template_cmake template_make64 template_cmake64 rv64_link two_file sbi_payload waves readme no_pkgconfig no_toolchain)
  add_test(NAME sdk.${c} COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/sdk/sdk_test.sh ${CMAKE_BINARY_DIR} ${c})
  set_tests_properties(sdk.${c} PROPERTIES LABELS sdk TIMEOUT 300)
endforeach()
