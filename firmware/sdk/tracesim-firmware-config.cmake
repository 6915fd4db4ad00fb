# find_package(tracesim-firmware): the tracesim firmware SDK as imported targets (use the
# toolchain file PREFIX/share/tracesim/toolchain.cmake):
#   tracesim::bsp       start-up (main's return value is the exit status), UART stdio, traps,
#                       timer, counters; carries the target's compile and link flags
#   tracesim::perf      SiFive's perf library (M-mode; never instrumented itself)
#   tracesim::stm       the software trace port
#   tracesim::sbi       an S-mode payload on the M-mode SBI firmware (the program defines
#                       int s_main(void)); link it to an executable only
#   tracesim::sbi_perf  the perf library in an S-mode payload (counters through the SBI PMU)
#   tracesim_sbi_payload(name sources...)  add_executable(name ...) linked with tracesim::sbi
#   TRACESIM_DQR_ELF  the installed tracesim-dqr-elf (an ELF made readable by SiFive's decoder)
# The target flags come from the toolchain file (TRACESIM_XLEN 32: -march=rv32imac_zicsr
# -mabi=ilp32; 64: -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany); the package
# follows their -mabi: ilp32 takes the RV32 libraries (lib/tracesim/rv32imac/ilp32), lp64
# the RV64 ones (lib/tracesim/rv64imac/lp64). The link takes the SDK's libc and libgcc of
# that multilib, never GCC's multilib choice.
# printf: TRACESIM_PRINTF=int (default: picolibc's integer-only vfprintf, %f prints *float*)
# or full (with floating point: 7.4 KiB more code, a printf("%d") 2451 cycles instead of 743),
# set before find_package (-DTRACESIM_PRINTF=full); docs/firmware/bsp.md.
# Everything is found relative to this file: the installed tree can be moved.
get_filename_component(_ts_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(CMAKE_C_FLAGS MATCHES "-mabi=lp64( |$)")
  set(_ts_lib "${_ts_prefix}/lib/tracesim/rv64imac/lp64")
else()
  set(_ts_lib "${_ts_prefix}/lib/tracesim/rv32imac/ilp32")
endif()

# the firmware is cross-compiled: without the toolchain file the host compiler would be used
if(NOT CMAKE_C_COMPILER MATCHES "riscv" OR NOT CMAKE_C_FLAGS MATCHES "-mabi=(ilp32|lp64)( |$)")
  set(tracesim-firmware_FOUND FALSE)
  set(tracesim-firmware_NOT_FOUND_MESSAGE
      "tracesim firmware needs the RISC-V cross compiler: configure a fresh build folder with -DCMAKE_TOOLCHAIN_FILE=${_ts_prefix}/share/tracesim/toolchain.cmake")
  unset(_ts_lib)
  unset(_ts_prefix)
  return()
endif()

if(NOT EXISTS "${_ts_lib}/libbsp.a")
  set(tracesim-firmware_FOUND FALSE)
  set(tracesim-firmware_NOT_FOUND_MESSAGE "this tracesim SDK has no libraries for the flags' -mabi (${_ts_lib} is missing)")
  unset(_ts_lib)
  unset(_ts_prefix)
  return()
endif()

if(NOT DEFINED TRACESIM_PRINTF OR TRACESIM_PRINTF STREQUAL "")
  set(TRACESIM_PRINTF int)
endif()
if(TRACESIM_PRINTF STREQUAL "int")
  set(_ts_vfprintf __i_vfprintf)
elseif(TRACESIM_PRINTF STREQUAL "full")
  set(_ts_vfprintf __d_vfprintf)
else()
  set(tracesim-firmware_FOUND FALSE)
  set(tracesim-firmware_NOT_FOUND_MESSAGE "TRACESIM_PRINTF is '${TRACESIM_PRINTF}': int (integer-only printf) or full (with floating point)")
  unset(_ts_lib)
  unset(_ts_prefix)
  return()
endif()

set(TRACESIM_DQR_ELF "${_ts_prefix}/bin/tracesim-dqr-elf")

if(NOT TARGET tracesim::bsp)
  add_library(tracesim::bsp INTERFACE IMPORTED)
  set_target_properties(tracesim::bsp PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_ts_prefix}/include/tracesim"
    INTERFACE_COMPILE_OPTIONS "-ffunction-sections;-fdata-sections"
    INTERFACE_LINK_OPTIONS "-nostartfiles;-nodefaultlibs;-T${_ts_lib}/tracesim.ld;-Wl,--gc-sections;-Wl,--defsym=vfprintf=${_ts_vfprintf}"
    INTERFACE_LINK_LIBRARIES "-Wl,--start-group;${_ts_lib}/libbsp.a;${_ts_lib}/libc.a;${_ts_lib}/libgcc.a;-Wl,--end-group")

  # Each library is an imported target that names what it needs, so CMake puts every user of
  # a library before it on the link line and the BSP's libc/libgcc group after all of them,
  # whatever order a project links them in (a raw path in an INTERFACE target has no such
  # order: libtsperf_sbi.a after the group left GCC 14's __ashldi3 unresolved).
  add_library(tracesim::perf STATIC IMPORTED)
  set_target_properties(tracesim::perf PROPERTIES
    IMPORTED_LOCATION "${_ts_lib}/libtsperf.a"
    INTERFACE_LINK_LIBRARIES tracesim::bsp)

  add_library(tracesim::stm STATIC IMPORTED)
  set_target_properties(tracesim::stm PROPERTIES
    IMPORTED_LOCATION "${_ts_lib}/libtsstm.a"
    INTERFACE_LINK_LIBRARIES tracesim::bsp)

  # the S-mode side of the SBI (the payload's calls), then the M-mode firmware
  add_library(tracesim::_sbi_s STATIC IMPORTED)
  set_target_properties(tracesim::_sbi_s PROPERTIES
    IMPORTED_LOCATION "${_ts_lib}/libtssbi_s.a"
    INTERFACE_LINK_LIBRARIES tracesim::bsp)
  add_library(tracesim::sbi STATIC IMPORTED)
  set_target_properties(tracesim::sbi PROPERTIES
    IMPORTED_LOCATION "${_ts_lib}/libtssbi.a"
    INTERFACE_SOURCES "${_ts_lib}/sbi_entry.o"
    INTERFACE_LINK_LIBRARIES "tracesim::_sbi_s;tracesim::bsp")

  add_library(tracesim::sbi_perf STATIC IMPORTED)
  set_target_properties(tracesim::sbi_perf PROPERTIES
    IMPORTED_LOCATION "${_ts_lib}/libtsperf_sbi.a"
    INTERFACE_COMPILE_DEFINITIONS PERF_PORT_SBI
    INTERFACE_LINK_LIBRARIES tracesim::sbi)
endif()

# tracesim_sbi_payload(name sources...): an ELF of the M-mode SBI firmware and an S-mode
# payload (the sources define int s_main(void))
function(tracesim_sbi_payload name)
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE tracesim::sbi)
endfunction()

unset(_ts_lib)
unset(_ts_prefix)
unset(_ts_vfprintf)
