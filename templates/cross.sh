# shellcheck shell=sh disable=SC2016,SC2034,SC2154 # (sourced: scratch, py, CELL and the WG_* come from the step)
# cross.sh: a cell of another platform than this host's (an aarch64 cell on x86_64), built with
# the cross compilers and tested under qemu-user; sourced by build-host.sh and test-host.sh when
# the spec names a root file system (WG_SYSROOT: templates/sysroot.sh made it).
#
# The build runs in a venv of this machine's CPython of the cell's version, which sees the
# target's _sysconfigdata (its EXT_SUFFIX, compilers and flags) through _PYTHON_HOST_PLATFORM and
# _PYTHON_SYSCONFIGDATA_NAME, with the cross compilers (CC=aarch64-linux-gnu-gcc, headers and
# Python.h from the root file system through --sysroot), nvcc with -ccbin the cross compiler and
# -target-dir x86_64-linux (the toolkit's headers serve every target), and the target's CUDA
# runtime and torch (headers and libraries, installed from PyPI for the target with uv) ahead of
# this machine's. Build isolation would drop the target's sysconfig, so the build runs with
# --no-build-isolation, and the package's own [build-system].requires (pyproject.toml), their
# markers evaluated for the target, are installed into the build venv as an isolated build would
# (wg_cross_buildreqs; extra_deps add what a package forgets to declare). The test installs the wheel (and torch, test_deps) for the target with uv
# --target, and runs the root file system's Python under qemu-user, without binfmt_misc.

# wg_cross_begin: check the tools and the root file system; sets wg_xprefix (the compilers'
# prefix), wg_xpy (the target's Python), wg_xtag (uv's platform for the target), wg_xmachine
wg_cross_begin() {
    wg_xmachine=$WG_PLATFORM
    wg_xprefix=$wg_xmachine-linux-gnu-
    [ -d "$WG_SYSROOT" ] || wg_die "the $wg_xmachine root file system $WG_SYSROOT is missing (ninja makes it: templates/sysroot.sh)"
    wg_xpy=$WG_SYSROOT/usr/bin/python$WG_PYTHON
    [ -f "$wg_xpy" ] || wg_die "the root file system $WG_SYSROOT has no Python $WG_PYTHON"
    command -v "${wg_xprefix}gcc" >/dev/null 2>&1 ||
        wg_die "${wg_xprefix}gcc not found: apt-get install gcc-$wg_xmachine-linux-gnu g++-$wg_xmachine-linux-gnu (./configure --install-deps does)"
    command -v "$WG_QEMU" >/dev/null 2>&1 || [ -x "$WG_QEMU" ] ||
        wg_die "$WG_QEMU not found: apt-get install qemu-user-static (./configure --install-deps does)"
    # uv's name of the target platform; the root file system's glibc is the floor its tests accept
    # (its newest GLIBC_2.N symbol version is its glibc's version)
    wg_xglibc=''
    for wg_f in "$WG_SYSROOT/lib/$wg_xmachine-linux-gnu/libc.so.6" "$WG_SYSROOT/usr/lib/$wg_xmachine-linux-gnu/libc.so.6"; do
        [ -f "$wg_f" ] || continue
        wg_xglibc=$(grep -ao 'GLIBC_2\.[0-9][0-9]*' "$wg_f" | sed 's/GLIBC_2\./2_/' | sort -t_ -k2,2n | tail -n 1)
        break
    done
    [ -n "$wg_xglibc" ] || wg_xglibc=2_28
    # (uv names manylinux tags up to 2_40: trixie's glibc 2.41 installs what 2_40 does)
    [ "${wg_xglibc#2_}" -le 40 ] || wg_xglibc=2_40
    wg_xtag=$wg_xmachine-manylinux_$wg_xglibc
}

# wg_cross_say STEP: the toolchain in the log
wg_cross_say() {
    printf 'wheelgen: %s for %s on %s: %s (%s), the root file system %s (Python %s), %s\n' \
        "$1" "$wg_xmachine" "$(uname -m)" "${wg_xprefix}gcc" "$("${wg_xprefix}gcc" -dumpfullversion 2>/dev/null || echo '?')" \
        "$WG_SYSROOT" "$WG_PYTHON" "$("$WG_QEMU" --version 2>/dev/null | head -n 1)"
}

# wg_cross_target DIR REQUIREMENT...: install packages built for the target into DIR (uv --target),
# with their dependencies; from WG_TORCH_INDEX when torch comes from there
wg_cross_target() {
    wg_xdir=$1
    shift
    [ -n "${WG_UV:-}" ] || wg_die "a cross build of $CELL needs uv (configure --install-deps installs it) to install packages for $wg_xmachine"
    # (--python: this machine's CPython of the version, which uv asks natively, not the target's
    # under qemu)
    set -- pip install --python "$WG_PYTHON_EXE" --target "$wg_xdir" --python-platform "$wg_xtag" \
        --python-version "${WG_PYTHON%t}" "$@"
    if [ -n "${wg_xindex:-}" ]; then
        wg_uv_index=$wg_xindex
        wg_uv_cached "$@" --index-url "$wg_xindex"
        wg_xrc=$?
        wg_uv_index=''
        return "$wg_xrc"
    fi
    wg_uv_cached "$@"
}

# wg_cross_buildreqs: the package's [build-system].requires (PEP 518; without pyproject.toml or
# the table, setuptools and wheel, which the venv has) for the target: markers evaluated with the
# target's machine, installed into the build venv (they run here, in the build: setuptools_scm,
# Cython, ...). torch stays out of a torch cell's: the venv has the cell's own.
wg_cross_buildreqs() {
    wg_xpp=$scratch/src/pyproject.toml
    [ -f "$wg_xpp" ] || return 0
    wg_xreqs=$("$py" -c '
import sys
try:
    import tomllib
except ImportError:
    from pip._vendor import tomli as tomllib
try:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
except ImportError:
    from pip._vendor.packaging.requirements import Requirement
    from pip._vendor.packaging.utils import canonicalize_name
with open(sys.argv[1], "rb") as f:
    table = tomllib.load(f).get("build-system", {})
env = {"platform_machine": sys.argv[2], "platform_system": "Linux", "sys_platform": "linux", "os_name": "posix"}
skip = {canonicalize_name(n) for n in sys.argv[3:]}
for r in table.get("requires", []):
    q = Requirement(r)
    if (q.marker is None or q.marker.evaluate(env)) and canonicalize_name(q.name) not in skip:
        q.marker = None
        print(q)
' "$wg_xpp" "$wg_xmachine" ${WG_TORCH:+torch} 3>&-) || wg_die "cannot read the build requirements of $WG_PACKAGE's pyproject.toml (see above)"
    [ -n "$wg_xreqs" ] || return 0
    printf 'wheelgen: cross: the build requirements of pyproject.toml for %s: %s\n' "$wg_xmachine" "$(printf '%s\n' "$wg_xreqs" | tr '\n' ' ')"
    wg_xold_ifs=$IFS
    IFS='
'
    set -f
    # shellcheck disable=SC2086 # (one requirement a line, no globbing: "pkg[extra]")
    set -- $wg_xreqs
    set +f
    IFS=$wg_xold_ifs
    wg_install "$@" || wg_die "cannot install the build requirements of $WG_PACKAGE for $wg_xmachine: $*"
}

# wg_cross_prepare: after the build venv has its build dependencies: the target's sysconfig in
# the venv, the target's torch or CUDA runtime in $scratch/target; sets wg_xenv, the exports the
# build step evals before the build (and only there: the venv's own installs stay native)
wg_cross_prepare() {
    wg_cross_buildreqs
    wg_xsysconfig=''
    for wg_f in "$WG_SYSROOT/usr/lib/python$WG_PYTHON"/_sysconfigdata_*"$wg_xmachine"*.py; do
        [ -f "$wg_f" ] && wg_xsysconfig=${wg_f##*/}
    done
    [ -n "$wg_xsysconfig" ] || wg_die "no _sysconfigdata of $wg_xmachine in $WG_SYSROOT/usr/lib/python$WG_PYTHON"
    wg_xsp=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    cp "$WG_SYSROOT/usr/lib/python$WG_PYTHON/$wg_xsysconfig" "$wg_xsp/"
    wg_xinc=$WG_SYSROOT/usr/include/python$WG_PYTHON
    wg_xflags="--sysroot=$WG_SYSROOT -I$wg_xinc"
    wg_xldflags="--sysroot=$WG_SYSROOT"
    wg_xti=''
    wg_xt=$scratch/target
    if [ -n "$WG_TORCH" ]; then
        # the same torch as the build venv's, built for the target: its headers (ATen/Config.h and
        # others differ between the builds) and libraries go ahead of this machine's
        wg_xindex=${WG_TORCH_INDEX:-}
        wg_cross_target "$wg_xt" "torch==$torch_version" || wg_die "cannot install torch $torch_version for $wg_xmachine"
        wg_xindex=''
        wg_xti="-I$wg_xt/torch/include -I$wg_xt/torch/include/torch/csrc/api/include"
        wg_xldflags="$wg_xldflags -L$wg_xt/torch/lib"
    elif [ -n "$WG_CUDA" ]; then
        # the CUDA runtime for the target (libcudart_static.a, libcudart.so): PyPI's wheel
        case $WG_CUDA in
            12.*) wg_cross_target "$wg_xt" --no-deps "nvidia-cuda-runtime-cu12==$WG_CUDA.*" ;;
            *) wg_cross_target "$wg_xt" --no-deps "nvidia-cuda-runtime==$WG_CUDA.*" ;;
        esac || wg_die "cannot install the CUDA $WG_CUDA runtime for $wg_xmachine from PyPI"
    fi
    if [ -n "$WG_CUDA" ]; then
        # -lcudart: the wheels carry libcudart.so.N only
        wg_xlib=$(find "$wg_xt/nvidia" -name 'libcudart.so.*' 2>/dev/null | head -n 1)
        [ -n "$wg_xlib" ] || wg_die "no libcudart for $wg_xmachine in $wg_xt"
        mkdir -p "$scratch/target-link"
        ln -sf "$wg_xlib" "$scratch/target-link/libcudart.so"
        wg_xldflags="$wg_xldflags -L${wg_xlib%/*} -L$scratch/target-link"
    fi
    wg_xenv="_PYTHON_HOST_PLATFORM=linux-$wg_xmachine _PYTHON_SYSCONFIGDATA_NAME=${wg_xsysconfig%.py}"
    wg_xenv="$wg_xenv CC=$(wg_quote "$wg_xcc") CXX=$(wg_quote "$wg_xcxx") LDSHARED=$(wg_quote "$wg_xcc -shared")"
    wg_xenv="$wg_xenv CFLAGS=$(wg_quote "$wg_xflags $wg_xti") CXXFLAGS=$(wg_quote "$wg_xflags $wg_xti")"
    wg_xenv="$wg_xenv LDFLAGS=$(wg_quote "$wg_xldflags")"
    if [ -n "$WG_CUDA" ]; then
        # on nvcc's command line, where the compile cache hashes them (NVCC_PREPEND_FLAGS it does
        # not: it would hand back another machine's object)
        wg_xenv="$wg_xenv NVCC=$(wg_quote "$wg_xnvcc -ccbin $wg_xcc -target-dir x86_64-linux")"
        wg_xenv="$wg_xenv PYTORCH_NVCC=$(wg_quote "$wg_xnvcc -target-dir x86_64-linux -Xcompiler --sysroot=$WG_SYSROOT -I$wg_xinc $wg_xti")"
    fi
    printf 'wheelgen: cross: %s\n' "$wg_xenv"
}

# wg_cross_test_env: for the test of a cell of the target: $scratch/site holds what the test
# imports; $py becomes a "python" that runs the root file system's Python under qemu-user with it
wg_cross_test_env() {
    wg_xsite=$scratch/site
    mkdir -p "$wg_xsite" "$scratch/bin"
    {
        printf '#!/bin/sh\n'
        printf 'PYTHONPATH=%s${PYTHONPATH:+:$PYTHONPATH} exec %s -L %s %s "$@"\n' "$(wg_quote "$wg_xsite")" \
            "$(wg_quote "$WG_QEMU")" "$(wg_quote "$WG_SYSROOT")" "$(wg_quote "$wg_xpy")"
    } >"$scratch/bin/python"
    chmod +x "$scratch/bin/python"
    ln -sf python "$scratch/bin/python3"
    py=$scratch/bin/python
    PATH=$scratch/bin:$PATH
    # the checks' subprocesses start this python, not sys.executable (a target binary the
    # kernel cannot run without binfmt_misc)
    WG_PYCMD=$py
    export PATH WG_PYCMD
    wg_cross_say 'testing emulated (qemu-user, no binfmt_misc)'
}
