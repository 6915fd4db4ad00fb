#!/usr/bin/env bash
# install-deps.sh - installs the Debian packages tracesim needs (Debian 12 or 13), if any are
# missing. Runs apt-get only when something is missing (root, or sudo when available).
# Names without a version (clang, libclang-rt-dev) take each suite's default LLVM.
set -eu
pkgs="cmake make gcc g++ pkg-config verilator gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf
picolibc-riscv64-unknown-elf libelf-dev libdw-dev libsystemc-dev gtkwave xvfb clang liblz4-dev zlib1g-dev
libclang-rt-dev valgrind slurm-wlm munge python3 tcl time xauth gdb-multiarch protobuf-compiler chromium"
# the code-style test (format.check): each suite's default clang-format, 14 on Debian 12 and
# 19 on Debian 13, which format the code the same (tools/format.sh)
pkgs="$pkgs clang-format"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing$missing"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends $missing
