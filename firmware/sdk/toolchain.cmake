# Cross toolchain for firmware built with an installed tracesim SDK:
#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=PREFIX/share/tracesim/toolchain.cmake -DCMAKE_PREFIX_PATH=PREFIX
# Debian's riscv64-unknown-elf GCC + picolibc, code for the RV32IMC core (rv32imc_zicsr).
# The link flags and libraries come with the imported targets of find_package(tracesim-firmware).
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJDUMP riscv64-unknown-elf-objdump)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_C_FLAGS_INIT "-march=rv32imc_zicsr -mabi=ilp32 --specs=picolibc.specs")
set(CMAKE_ASM_FLAGS_INIT "-march=rv32imc_zicsr -mabi=ilp32 --specs=picolibc.specs")
# no linking while CMake probes the compiler (the start-up and libraries are the SDK's)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
