# Cross toolchain for tracesim firmware: Debian's riscv64-unknown-elf GCC + picolibc, RV32 (and
# RV64 with -DTS_XLEN=64).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJDUMP riscv64-unknown-elf-objdump)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# the same file for the RV64 build (TS_XLEN=64, firmware/CMakeLists.txt)
if(TS_XLEN STREQUAL "64")
  set(CMAKE_SYSTEM_PROCESSOR riscv64)
endif()
