#!/bin/sh
# wheelgen root file system of a cross build: a Debian root file system of the target
# architecture for the cells of another platform than this host's (aarch64 cells on x86_64).
#
#   sh templates/sysroot.sh DIR SUITE DEBARCH        (ninja's sysroot edge: DIR/.done)
#
# It gives the target's CPython (DIR/usr/bin/python3.X: the cells' tests run it under qemu-user
# with -L DIR), its headers and _sysconfigdata (the cross build compiles against them), and the
# C++ runtime. mmdebstrap's extract variant only downloads and unpacks the packages: no
# maintainer script runs, so nothing of the target architecture is executed and no binfmt_misc
# is needed. SUITE bookworm gives Python 3.11, trixie Python 3.13; the compilers are this host's
# cross compilers (gcc-aarch64-linux-gnu), which bring their own glibc (2.36 on Debian 12): they,
# not the root file system, set the wheels' manylinux floor.
#
# Fake proc/cpuinfo and sys/devices/system/cpu/* files: qemu-user -L reads DIR/<path> for an
# absolute path when that file exists, and torch's CPU detection crashes (a segfault in torch._C)
# when it reads the x86 host's /proc/cpuinfo.
#
# The tarball is kept in $WHEELGEN_SYSROOT_CACHE (default: BUILDDIR/cache/sysroots, DIR being
# BUILDDIR/sysroots/<name>), named by this script's hash, the suite and the architecture: made
# once (15 s and 140 MB on a fast mirror), and unpacked once beside it (<name>.tree, with its
# bytecode: remove it to have it made again); DIR is hard links to that tree. Needs mmdebstrap
# (root, or user namespaces for its unshare mode) and deb.debian.org, or WHEELGEN_DEBIAN_MIRROR.
set -eu
# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
wg_voice sysroot
[ "$#" -eq 3 ] || { echo "usage: sh templates/sysroot.sh DIR SUITE DEBARCH" >&2; exit 2; }
dir=${1%/} suite=$2 arch=$3
case $suite:$arch in
    *[!a-z0-9:-]* | :* | *:) wg_fail 2 'bad suite or architecture: %s %s' "$suite" "$arch" ;;
esac
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
hash=$(sha256sum "$0" | cut -c1-12)
cache=${WHEELGEN_SYSROOT_CACHE:-${dir%/*}/../cache/sysroots}
tar=$cache/$arch-$suite-$hash.tar
mirror=${WHEELGEN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
start=$(date +%s)

mkdir -p "$cache"
if [ ! -s "$tar" ]; then
    command -v mmdebstrap >/dev/null 2>&1 ||
        wg_fail 1 'mmdebstrap not found: apt-get install mmdebstrap (or ./configure --install-deps)'
    wg_say 'making a Debian %s %s root file system with mmdebstrap (from %s)' "$suite" "$arch" "$mirror"
    rm -f "$tar.tmp.$$"
    # python3-dev: the headers and _sysconfigdata (and through its dependencies libc6-dev, zlib's
    # headers); libstdc++6: the C++ runtime that C++ extensions and torch load under qemu
    mmdebstrap --variant=extract --arch="$arch" --format=tar \
        --include=python3,python3-dev,libstdc++6 "$suite" "$tar.tmp.$$" "$mirror"
    mv -f "$tar.tmp.$$" "$tar"
fi

# The tarball unpacked once, beside it in the cache, with the links and the bytecode below; each
# build directory's root file system is hard links to it (a third of a second, where unpacking
# 146 MB took 2.4 s of the kernel's time), or a copy where the cache is on another file system.
# Nothing writes into a root file system: the compilers and qemu-user only read it (and Python
# replaces a stale .pyc by renaming a new one over it).
tree=${tar%.tar}.tree
if [ ! -f "$tree/.done" ]; then
    ttmp=$tree.tmp.$$
    rm -rf "$ttmp"
    mkdir -p "$ttmp"
    # (no device nodes: nothing here runs, and a user who is not root could not make them)
    tar --exclude='./dev/*' -xf "$tar" -C "$ttmp"
    # merged-/usr suites ship only /usr: nothing ran that makes /lib -> usr/lib, and qemu would not
    # find the ELF interpreter /lib/ld-linux-aarch64.so.1
    for d in bin sbin lib; do
        [ -e "$ttmp/$d" ] || [ -L "$ttmp/$d" ] || ln -s "usr/$d" "$ttmp/$d"
    done
    set -- "$ttmp"/usr/bin/python3.[0-9]*
    py=
    for p in "$@"; do
        case $p in *[0-9]) py=$p ;; esac
    done
    [ -n "$py" ] || { rm -rf "$ttmp"; wg_fail 1 'no Python in the %s %s root file system' "$suite" "$arch"; }
    # The standard library's bytecode, which no maintainer script made: compiled by this host's
    # CPython of the same version (configure's out/host.txt; bytecode does not depend on the
    # machine), where each start of the target's Python under qemu-user compiled every module it
    # imported, and threw it away (0.6 s of a start that imports json and typing; 4 of torch's
    # 24 s). Without that Python here the tests are only slower.
    pyver=${py##*/python}
    hostpy=$(sed -n "s/^python $pyver //p" "${dir%/*}/../host.txt" 2>/dev/null | head -n 1)
    pyc=none
    if [ -n "$hostpy" ] && [ -x "$hostpy" ]; then
        # (-s/-p: the names the target sees; a file only another Python parses is skipped)
        "$hostpy" -m compileall -q -j 0 -s "$ttmp" -p / "$ttmp/usr/lib/python$pyver" "$ttmp/usr/lib/python3/dist-packages" \
            >"$ttmp.compileall.log" 2>&1 || :
        pyc="$(find "$ttmp/usr/lib" -name '*.pyc' | wc -l) modules compiled by $hostpy"
        rm -f "$ttmp.compileall.log"
    fi
    printf 'python%s\n%s\n' "$pyver" "$pyc" >"$ttmp/.done"
    if ! mv -T "$ttmp" "$tree" 2>/dev/null; then
        # (another build made it meanwhile)
        rm -rf "$ttmp"
    fi
fi

tmp=$dir.tmp.$$
rm -rf "$tmp"
if ! cp -al "$tree" "$tmp" 2>/dev/null; then
    rm -rf "$tmp"
    cp -a "$tree" "$tmp"
fi
rm -f "$tmp/.done"
# what torch's CPU detection reads: one CPU, whatever machine runs the tests
mkdir -p "$tmp/proc" "$tmp/sys/devices/system/cpu/cpu0/regs/identification"
cat >"$tmp/proc/cpuinfo" <<'CPUINFO'
processor	: 0
BogoMIPS	: 50.00
Features	: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs
CPU implementer	: 0x41
CPU architecture: 8
CPU variant	: 0x3
CPU part	: 0xd0c
CPU revision	: 1

CPUINFO
for f in possible present online; do
    echo 0 >"$tmp/sys/devices/system/cpu/$f"
done
# (oneDNN reads MIDR_EL1; without it torch prints a warning at import. A Neoverse-N1.)
echo 0x00000000413fd0c1 >"$tmp/sys/devices/system/cpu/cpu0/regs/identification/midr_el1"
{ read -r py && read -r pyc; } <"$tree/.done" || { rm -rf "$tmp"; wg_fail 1 '%s/.done is damaged: remove %s' "$tree" "$tree"; }
rm -rf "$dir.old.$$"
[ ! -e "$dir" ] || mv "$dir" "$dir.old.$$"
mv "$tmp" "$dir"
rm -rf "$dir.old.$$"
wg_say '%s: Debian %s %s, %s (bytecode: %s), %s, %s s' "$dir" "$suite" "$arch" "$py" "$pyc" "$(du -sh "$dir" | cut -f1)" "$(($(date +%s) - start))"
: >"$dir/.done"
