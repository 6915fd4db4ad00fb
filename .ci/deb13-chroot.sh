#!/usr/bin/env bash
# deb13-chroot.sh [ROOT] - builds and tests this checkout on Debian 13 (trixie: Verilator
# 5.032, GCC 14, picolibc 1.8.10, binutils 2.44) from a Debian 12 (or any Debian) host, in a
# chroot made with debootstrap:
#   1. creates ROOT (default /var/tmp/tracesim-deb13, or $TRACESIM_DEB13_ROOT) with
#      `debootstrap --variant=minbase trixie` when ROOT/etc/debian_version is absent;
#   2. bind-mounts /proc, /dev, /dev/pts, /sys and the checkout at the same path inside (so
#      paths in logs and run folders read the same as on the host), resolv.conf for apt;
#   3. runs .ci/install-deps.sh inside, then the README's test command with the build folder
#      build-deb13 ($TRACESIM_DEB13_BUILD; the host's build/ stays the Debian 12 one);
#   4. unmounts what it mounted, whatever happened; exits with ctest's status.
# Needs root (re-runs itself with sudo), debootstrap and the network for the first run (about
# 1.5 GB with the dependencies). Extra arguments after ROOT go to ctest (e.g. -R 'fw\.').
# ccache is used when the host has it: CCACHE_DIR is passed through when it lies inside the
# checkout's parent folder (bind-mounted with it), else ccache uses ROOT's own cache.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-${TRACESIM_DEB13_ROOT:-/var/tmp/tracesim-deb13}}
[ $# -gt 0 ] && shift
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
build=${TRACESIM_DEB13_BUILD:-build-deb13}
case $build in ''|/*|*..*|*[!A-Za-z0-9._-]*) echo "deb13-chroot: TRACESIM_DEB13_BUILD must be a folder name in the checkout" >&2; exit 1 ;; esac
if [ "$(id -u)" != 0 ]; then
  command -v sudo > /dev/null || { echo "deb13-chroot: needs root (no sudo found)" >&2; exit 1; }
  exec sudo --preserve-env=CCACHE_DIR,DEBIAN_MIRROR,TRACESIM_DEB13_BUILD "$0" "$root" "$@"
fi
if [ ! -f "$root/etc/debian_version" ]; then
  command -v debootstrap > /dev/null || { echo "deb13-chroot: install debootstrap first" >&2; exit 1; }
  echo "deb13-chroot: creating a Debian 13 chroot in $root (debootstrap, a few minutes)"
  debootstrap --variant=minbase --include=ca-certificates,dpkg-dev trixie "$root" "$mirror"
fi

mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[$i]}" 2> /dev/null || umount -l "${mounted[$i]}" || true; done
}
trap cleanup EXIT
bind() {   # bind HOST_PATH (at the same path inside ROOT), unless already mounted there
  mkdir -p "$root$1"
  mountpoint -q "$root$1" && return 0
  mount --bind "$1" "$root$1"
  mounted+=("$root$1")
}
mkdir -p "$root/proc"
mountpoint -q "$root/proc" || { mount -t proc proc "$root/proc"; mounted+=("$root/proc"); }
bind /dev; bind /dev/pts; bind /sys
# the checkout's parent folder, so that worktrees' links (../shared) and a ccache beside it work
parent=$(dirname "$src")
[ "$parent" = / ] && parent=$src
bind "$parent"
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2> /dev/null || true

env_ccache=""
if command -v ccache > /dev/null && [ -n "${CCACHE_DIR:-}" ]; then
  case $CCACHE_DIR in "$parent"/*) env_ccache="CCACHE_DIR=$CCACHE_DIR CCACHE_BASEDIR=$parent" ;; esac
fi
launcher=""
[ -n "$env_ccache" ] && launcher="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
ctest_args=""
[ $# -gt 0 ] && ctest_args=$(printf ' %q' "$@")
start=$(date +%s)
rc=0
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 $env_ccache bash -c "
    set -e
    cd $(printf %q "$src")
    bash .ci/install-deps.sh
    if [ -n '$launcher' ] && ! command -v ccache > /dev/null; then
      apt-get install -y -qq --no-install-recommends ccache > /dev/null; fi
    cmake -S . -B $build $launcher && cmake --build $build -j2 &&
      ctest --test-dir $build -j2 --output-on-failure$ctest_args" || rc=$?
echo "deb13-chroot: exit $rc after $(( $(date +%s) - start )) s (Debian $(cat "$root/etc/debian_version"))"
exit $rc
