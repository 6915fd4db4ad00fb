# Cross toolchain for firmware built with an installed tracesim SDK:
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=PREFIX/share/tracesim/toolchain.cmake -DCMAKE_PREFIX_PATH=PREFIX
# Debian's riscv64-unknown-elf GCC + picolibc. TRACESIM_XLEN chooses the core:
#   32 (default)  the RV32IMAC core: -march=rv32imac_zicsr -mabi=ilp32
#   64            the RV64IMAC core: -march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany
#                 (-DTRACESIM_XLEN=64 on a fresh build folder)
# The link flags and libraries come with the imported targets of find_package(tracesim-firmware),
# which takes the libraries of the -mabi these flags give.
set(CMAKE_SYSTEM_NAME Generic)
if(NOT DEFINED TRACESIM_XLEN OR TRACESIM_XLEN STREQUAL "")
  set(TRACESIM_XLEN 32)
endif()
if(TRACESIM_XLEN STREQUAL "64")
  set(_ts_arch "-march=rv64imac_zicsr_zifencei -mabi=lp64 -mcmodel=medany")
elseif(TRACESIM_XLEN STREQUAL "32")
  set(_ts_arch "-march=rv32imac_zicsr -mabi=ilp32")
else()
  message(FATAL_ERROR "TRACESIM_XLEN is '${TRACESIM_XLEN}': 32 (the RV32IMAC core) or 64 (the RV64IMAC core)")
endif()
set(CMAKE_SYSTEM_PROCESSOR riscv${TRACESIM_XLEN})
# the compiler checks (try_compile) read this file again: they get the same choice
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES TRACESIM_XLEN)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJDUMP riscv64-unknown-elf-objdump)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_C_FLAGS_INIT "${_ts_arch} --specs=picolibc.specs")
set(CMAKE_ASM_FLAGS_INIT "${_ts_arch} --specs=picolibc.specs")
unset(_ts_arch)
# no linking while CMake probes the compiler (the start-up and libraries are the SDK's)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
