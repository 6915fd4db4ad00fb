# Profile-guided optimisation (GCC) of the host code, opt-in (docs/performance.md#profile-guided-build).
#   TRACESIM_PGO=GENERATE  instrumented objects; running them writes .gcda files next to the objects
#   TRACESIM_PGO=USE       the same objects rebuilt with those profiles (-fprofile-use); code the
#                          training did not run is optimised as without a profile
# tests/bench/pgo_build.sh BUILD_DIR does both steps with a training set in between. Applies to
# every host target of this project (the Verilated model, the Verilator run-time library with its
# FST writer, vcore.cpp, the C models, sim/, the decoder); not to the cross-compiled firmware.
# Verilator's own --prof-pgo is not used: it only balances macro-tasks between threads of a
# multithreaded (--threads) model, and the model is single-threaded.
set(TRACESIM_PGO OFF CACHE STRING "Profile-guided optimisation: OFF, GENERATE or USE (tests/bench/pgo_build.sh)")
set_property(CACHE TRACESIM_PGO PROPERTY STRINGS OFF GENERATE USE)
string(TOUPPER "${TRACESIM_PGO}" ts_pgo)
if(ts_pgo STREQUAL "GENERATE" OR ts_pgo STREQUAL "USE")
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU" OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "TRACESIM_PGO=${TRACESIM_PGO} needs GCC for C and C++ "
                        "(found ${CMAKE_C_COMPILER_ID} / ${CMAKE_CXX_COMPILER_ID})")
  endif()
  # no ccache: with a base_dir it compiles the instrumented and the optimised objects under
  # different source names, and GCC then rejects every function's profile (-Wcoverage-mismatch,
  # "source locations ... have changed"); the profiles make each object unique anyway
  if(CMAKE_C_COMPILER_LAUNCHER OR CMAKE_CXX_COMPILER_LAUNCHER)
    message(STATUS "Profile-guided optimisation: the compiler launcher (ccache) is not used")
    set(CMAKE_C_COMPILER_LAUNCHER "")
    set(CMAKE_CXX_COMPILER_LAUNCHER "")
  endif()
  if(ts_pgo STREQUAL "GENERATE")
    add_compile_options(-fprofile-generate)
    add_link_options(-fprofile-generate)
  else()
    # partial training: functions the training never ran keep their normal optimisation instead
    # of being optimised for size as "never executed"; a source edited after the training gives
    # a warning (stale profile), not a failed build
    set(ts_pgo_use -fprofile-use -fprofile-partial-training -Wno-missing-profile -Wno-error=coverage-mismatch)
    add_compile_options(${ts_pgo_use})
    add_link_options(${ts_pgo_use})
  endif()
  message(STATUS "Profile-guided optimisation: ${ts_pgo}")
elseif(NOT ts_pgo STREQUAL "OFF")
  message(FATAL_ERROR "TRACESIM_PGO must be OFF, GENERATE or USE, not '${TRACESIM_PGO}'")
endif()
