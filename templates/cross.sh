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
# (wg_cross_buildreqs; extra_deps add what a package forgets to declare). CMake builds get a
# toolchain file for the target (wg_cross_cmake), CUDA included. The test installs the wheel (and torch, test_deps) for the target with uv
# --target, and runs the root file system's Python under qemu-user, without binfmt_misc.

# wg_cross_begin: check the tools and the root file system; sets wg_xprefix (the compilers'
# prefix: the spec's WG_CROSS_PREFIX, gen/platform.c's), wg_xpy (the target's Python), wg_xtag
# (uv's platform for the target), wg_xmachine
wg_cross_begin() {
    wg_xmachine=$WG_PLATFORM
    wg_xprefix=$WG_CROSS_PREFIX
    [ -d "$WG_SYSROOT" ] || wg_die "the $wg_xmachine root file system $WG_SYSROOT is missing (ninja makes it: templates/sysroot.sh)"
    wg_xpy=$WG_SYSROOT/usr/bin/python$WG_PYTHON
    [ -f "$wg_xpy" ] || wg_die "the root file system $WG_SYSROOT has no Python $WG_PYTHON"
    command -v "${wg_xprefix}gcc" >/dev/null 2>&1 ||
        wg_die "${wg_xprefix}gcc not found: apt-get install gcc-${wg_xprefix%-} g++-${wg_xprefix%-} (./configure --install-deps does)"
    command -v "$WG_QEMU" >/dev/null 2>&1 || [ -x "$WG_QEMU" ] ||
        wg_die "$WG_QEMU not found: apt-get install qemu-user-static (./configure --install-deps does)"
    # uv's name of the target platform; the root file system's glibc is the floor its tests accept
    # (its newest GLIBC_2.N symbol version is its glibc's version), else its manylinux tag's floor
    wg_xglibc=''
    for wg_f in "$WG_SYSROOT/lib/${wg_xprefix%-}/libc.so.6" "$WG_SYSROOT/usr/lib/${wg_xprefix%-}/libc.so.6"; do
        [ -f "$wg_f" ] || continue
        wg_xglibc=$(grep -ao 'GLIBC_2\.[0-9][0-9]*' "$wg_f" | sed 's/GLIBC_2\./2_/' | sort -t_ -k2,2n | tail -n 1)
        break
    done
    [ -n "$wg_xglibc" ] || wg_xglibc=$WG_MANYLINUX_FLOOR
    [ -n "$wg_xglibc" ] || wg_die "the root file system $WG_SYSROOT has no ${wg_xprefix%-}/libc.so.6"
    # the target's environment markers (PEP 508: platform_machine, platform_system, sys_platform,
    # os_name), for its build requirements
    wg_xmarkers="$wg_xmachine Linux linux posix"
    # (uv names manylinux tags up to 2_40: trixie's glibc 2.41 installs what 2_40 does)
    [ "${wg_xglibc#2_}" -le 40 ] || wg_xglibc=2_40
    wg_xtag=$wg_xmachine-manylinux_$wg_xglibc
}

# wg_cross_say STEP: the toolchain in the log
wg_cross_say() {
    wg_say '%s for %s on %s: %s (%s), the root file system %s (Python %s), %s' \
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
# Cython, ...); then what the build backend asks for besides (PEP 517's
# get_requires_for_build_wheel, which an isolated build calls: scikit-build-core asks there for
# setuptools_scm when its version provider is setuptools_scm, and for cmake or ninja when this
# machine has none new enough), run here in the build venv, installed the same way (not for
# setuptools, whose hook runs setup.py to collect setup_requires: extra_deps). torch stays out of
# a torch cell's: the venv has the cell's own.
wg_cross_buildreqs() {
    wg_xpp=$scratch/src/pyproject.toml
    [ -f "$wg_xpp" ] || return 0
    wg_cross_reqs static "the build requirements of pyproject.toml" || return 0
    wg_cross_reqs backend "what the build backend asks for besides (get_requires_for_build_wheel)" || return 0
}

# wg_cross_reqs static|backend WHAT: read one kind of build requirement (wg_cross_buildreqs) and
# install it; 1 when there is none (the static kind: no [build-system] table, whose backend is
# setuptools' legacy one, which asks for nothing the venv lacks). The backend's own output goes
# to the log; a requirement already read from [build-system].requires is not installed twice.
wg_cross_reqs() {
    wg_xwhat=$2
    wg_xrc=0
    # shellcheck disable=SC2086 # (wg_xmarkers: four words)
    wg_xreqs=$("$py" -c '
import os, subprocess, sys
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
kind, path, machine, system, sysplat, osname = sys.argv[1:7]
with open(path, "rb") as f:
    table = tomllib.load(f).get("build-system")
if table is None:
    sys.exit(3)
env = {"platform_machine": machine, "platform_system": system, "sys_platform": sysplat, "os_name": osname}
skip = {canonicalize_name(n) for n in sys.argv[7:]}
reqs = table.get("requires", [])
if kind == "backend":
    skip |= {canonicalize_name(Requirement(r).name) for r in reqs}
    try:
        import pyproject_hooks as hooks
    except ImportError:
        try:
            from pip._vendor import pyproject_hooks as hooks
        except ImportError:
            from pip._vendor import pep517 as hooks
    caller = getattr(hooks, "BuildBackendHookCaller", None) or hooks.Pep517HookCaller
    def runner(cmd, cwd=None, extra_environ=None):
        e = dict(os.environ)
        e.update(extra_environ or {})
        # (the backend prints to the log, not into the requirements read here)
        subprocess.check_call(cmd, cwd=cwd, env=e, stdout=sys.stderr)
    backend = table.get("build-backend", "setuptools.build_meta:__legacy__")
    if backend.split(":")[0] == "setuptools.build_meta":
        # (setuptools asks only for setup_requires, by running setup.py once more, natively;
        # such requirements go in extra_deps)
        sys.exit(0)
    reqs = caller(os.path.dirname(os.path.abspath(path)), backend, backend_path=table.get("backend-path"),
                  runner=runner).get_requires_for_build_wheel()
for r in reqs:
    q = Requirement(r)
    if (q.marker is None or q.marker.evaluate(env)) and canonicalize_name(q.name) not in skip:
        q.marker = None
        print(q)
'     "$1" "$wg_xpp" $wg_xmarkers ${WG_TORCH:+torch} 3>&-) || wg_xrc=$?
    case $wg_xrc in
        0) ;;
        3) return 1 ;;
        *) wg_die "cannot read $wg_xwhat of $WG_PACKAGE (see above)" ;;
    esac
    [ -n "$wg_xreqs" ] || return 0
    wg_say 'cross: %s for %s: %s' "$wg_xwhat" "$wg_xmachine" "$(printf '%s\n' "$wg_xreqs" | tr '\n' ' ')"
    wg_xold_ifs=$IFS
    IFS='
'
    set -f
    # shellcheck disable=SC2086 # (one requirement a line, no globbing: "pkg[extra]")
    set -- $wg_xreqs
    set +f
    IFS=$wg_xold_ifs
    wg_install "$@" || wg_die "cannot install $wg_xwhat of $WG_PACKAGE for $wg_xmachine: $*"
}

# wg_cross_prepare: after the build venv has its build dependencies: the target's sysconfig in
# the venv, the target's torch or CUDA runtime in $scratch/target; sets wg_xenv, the exports the
# build step evals before the build (and only there: the venv's own installs stay native)
wg_cross_prepare() {
    wg_sdist
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
        # the CUDA runtime for the target (libcudart_static.a, libcudart.so) and the CUDA
        # libraries the package's build names (wg_cross_cudaextras): PyPI's wheels for the
        # target, through NVIDIA's cuda-toolkit and its extras (those of the cell's CUDA release)
        wg_xextras=$(wg_cross_cudaextras)
        wg_say 'cross: the CUDA libraries for %s: cuda-toolkit[%s]==%s.* (what the build of %s names)' \
            "$wg_xmachine" "$wg_xextras" "$WG_CUDA" "$WG_PACKAGE"
        wg_cross_target "$wg_xt" "cuda-toolkit[$wg_xextras]==$WG_CUDA.*" ||
            wg_die "cannot install the CUDA $WG_CUDA libraries ($wg_xextras) for $wg_xmachine from PyPI"
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
    wg_cross_cmake
    wg_say 'cross: %s' "$wg_xenv"
}

# wg_cross_cudaextras: the cuda-toolkit extras (templates/cuda-libs.txt) of the CUDA libraries a
# package's build names, comma-separated, cudart always: CUDA::cublas (and CUDA::cublas_static)
# in its CMake files, -lcublas or "cublas" in its setup.py or meson.build; a build without torch
# needs them for the target as it finds them in the toolkit on the host
wg_cross_cudaextras() {
    {
        echo cudart
        [ ! -d "$scratch/src" ] ||
            find "$scratch/src" \( -name CMakeLists.txt -o -name '*.cmake' -o -name setup.py -o -name meson.build \) \
                -type f -exec grep -h -o -E "CUDA::[A-Za-z0-9_]+|-l(cu|nv|npp)[A-Za-z0-9_]+|[\"'](cu|nv|npp)[A-Za-z0-9_]+[\"']" {} + 2>/dev/null |
                sed -E "s/^CUDA:://; s/^-l//; s/[\"']//g; s/_static\$//"
    } | awk 'NR == FNR { if ($0 !~ /^#/ && NF >= 2 && $2 != "-") { n = $1; sub(/^lib/, "", n); x[n] = $2 } next }
        { for (n in x) if ($0 == n || (n ~ /[*]$/ && index($0, substr(n, 1, length(n) - 1)) == 1)) print x[n] }' \
        "$wg_templates/cuda-libs.txt" - | LC_ALL=C sort -u | paste -s -d, -
}

# wg_cross_cmake: a CMake toolchain file for the target ($scratch/toolchain-<machine>.cmake),
# handed over as CMAKE_TOOLCHAIN_FILE (CMake 3.21 and later read it from the environment) and in
# CMAKE_ARGS (scikit-build-core and setuptools-based CMake builds pass those to cmake): the
# system and processor, the cross compilers (the compile cache as their launcher), the root file
# system as the sysroot, the target's Python headers, and for a CUDA cell nvcc with the cross
# compiler as its host compiler and a CUDA toolkit for the target ($scratch/cuda-<machine>):
# this machine's toolkit (nvcc, its headers, nvvm) by symbolic links, with
# targets/<machine>-linux/lib holding the target's CUDA libraries from PyPI's wheels (cudart
# and, in a torch cell, cuBLAS, cuSPARSE and the rest torch brings). nvcc reads its nvcc.profile
# beside the nvcc it was started as (TOP is that directory's parent) and takes
# targets/<machine>-linux for a host compiler of that machine; find_package(CUDAToolkit) takes
# the same directory when cross-compiling.
wg_cross_cmake() {
    wg_xtc=$scratch/toolchain-$wg_xmachine.cmake
    # the compilers themselves, not the compile cache's masks on PATH (the cache is their launcher)
    wg_xgcc='' wg_xgxx=''
    wg_xold_ifs=$IFS
    IFS=:
    for wg_d in $PATH; do
        case $wg_d in "$scratch"/*) continue ;; esac
        [ -n "$wg_xgcc" ] || [ ! -x "$wg_d/${wg_xprefix}gcc" ] || wg_xgcc=$wg_d/${wg_xprefix}gcc
        [ -n "$wg_xgxx" ] || [ ! -x "$wg_d/${wg_xprefix}g++" ] || wg_xgxx=$wg_d/${wg_xprefix}g++
    done
    IFS=$wg_xold_ifs
    if [ -z "$wg_xgcc" ] || [ -z "$wg_xgxx" ]; then
        wg_die "${wg_xprefix}g++ not found: apt-get install g++-${wg_xprefix%-}"
    fi
    wg_xlaunch=''
    [ -z "${WG_CCACHE:-}" ] || [ ! -x "$WG_CCACHE" ] || wg_xlaunch=$WG_CCACHE
    {
        printf '# written by wheelgen (templates/cross.sh) for %s\n' "$CELL"
        printf 'set(CMAKE_SYSTEM_NAME Linux)\nset(CMAKE_SYSTEM_PROCESSOR %s)\n' "$wg_xmachine"
        printf 'set(CMAKE_SYSROOT "%s")\n' "$WG_SYSROOT"
        # the binaries of the build tree get the RUNPATH of the install (the package's own,
        # relative to $ORIGIN), never one naming this machine's directories (the target CUDA
        # directory below, the build tree): CMake blanks such a path at install time, but its
        # length stays in .dynstr, and the wheels of two build directories would differ (no
        # target binary runs here, in the build tree or elsewhere)
        printf 'set(CMAKE_BUILD_WITH_INSTALL_RPATH ON)\n'
        printf 'set(CMAKE_C_COMPILER "%s")\nset(CMAKE_CXX_COMPILER "%s")\n' "$wg_xgcc" "$wg_xgxx"
        if [ -n "$wg_xlaunch" ]; then
            printf 'set(CMAKE_C_COMPILER_LAUNCHER "%s")\nset(CMAKE_CXX_COMPILER_LAUNCHER "%s")\n' "$wg_xlaunch" "$wg_xlaunch"
        fi
        # the target's Python headers, ahead of the build Python's that a build backend names;
        # FindPython asks a cross build's python-config, not its interpreter, for the extension
        # suffix (Python_add_library WITH_SOABI): the root file system's, which runs here (a
        # shell script), found where FindPython keeps it
        printf 'set(Python_INCLUDE_DIR "%s")\nset(Python3_INCLUDE_DIR "%s")\n' "$wg_xinc" "$wg_xinc"
        wg_xpc=$WG_SYSROOT/usr/bin/${wg_xprefix}python$WG_PYTHON-config
        if [ -f "$wg_xpc" ]; then
            printf 'set(_Python_CONFIG "%s" CACHE FILEPATH "the target'"'"'s python-config (wheelgen)")\n' "$wg_xpc"
            printf 'set(_Python3_CONFIG "%s" CACHE FILEPATH "the target'"'"'s python-config (wheelgen)")\n' "$wg_xpc"
        fi
    } >"$wg_xtc.tmp"
    # a torch cell: find_package(Torch) finds the target's torch (its libraries are the
    # target's), not the build venv's
    if [ -n "$WG_TORCH" ] && [ -d "$wg_xt/torch/share/cmake/Torch" ]; then
        printf 'set(Torch_DIR "%s")\n' "$wg_xt/torch/share/cmake/Torch" >>"$wg_xtc.tmp"
    fi
    wg_xroots=$WG_SYSROOT
    if [ -n "$WG_CUDA" ]; then
        wg_xcuda=$scratch/cuda-$wg_xmachine
        wg_xcl=$wg_xcuda/targets/$wg_xmachine-linux/lib
        rm -rf "$wg_xcuda"
        mkdir -p "$wg_xcuda/bin" "$wg_xcl"
        for wg_f in "$WG_CUDA_HOME"/bin/*; do
            ln -s "$wg_f" "$wg_xcuda/bin/"
        done
        [ ! -e "$WG_CUDA_HOME/nvvm" ] || ln -s "$WG_CUDA_HOME/nvvm" "$wg_xcuda/nvvm"
        # (the toolkit's headers serve every target, as for the builds that read NVCC)
        ln -s "$WG_CUDA_HOME/include" "$wg_xcuda/targets/$wg_xmachine-linux/include"
        ln -s "targets/$wg_xmachine-linux/include" "$wg_xcuda/include"
        ln -s "targets/$wg_xmachine-linux/lib" "$wg_xcuda/lib64"
        ln -s lib64 "$wg_xcuda/lib"
        # the target's CUDA libraries; the wheels carry libX.so.N only: libX.so beside it
        find "$wg_xt/nvidia" -path '*/lib/*' \( -name 'lib*.so*' -o -name 'lib*.a' \) 2>/dev/null | LC_ALL=C sort >"$scratch/cuda-libs"
        while IFS= read -r wg_f; do
            wg_n=${wg_f##*/}
            [ -e "$wg_xcl/$wg_n" ] || ln -s "$wg_f" "$wg_xcl/$wg_n"
            case $wg_n in
                *.so.*) [ -e "$wg_xcl/${wg_n%%.so.*}.so" ] || ln -s "$wg_n" "$wg_xcl/${wg_n%%.so.*}.so" ;;
            esac
        done <"$scratch/cuda-libs"
        [ -e "$wg_xcl/libcudart_static.a" ] || [ -e "$wg_xcl/libcudart.so" ] ||
            wg_die "no CUDA runtime for $wg_xmachine among the target's CUDA libraries in $wg_xt/nvidia"
        wg_say 'cross: the CUDA toolkit for %s: %s (%s libraries from PyPI'"'"'s %s wheels)' \
            "$wg_xmachine" "$wg_xcuda" "$(wc -l <"$scratch/cuda-libs" | tr -d ' ')" "$wg_xmachine"
        {
            printf 'set(CMAKE_CUDA_COMPILER "%s")\nset(CMAKE_CUDA_HOST_COMPILER "%s")\n' "$wg_xcuda/bin/nvcc" "$wg_xgxx"
            [ -z "$wg_xlaunch" ] || printf 'set(CMAKE_CUDA_COMPILER_LAUNCHER "%s")\n' "$wg_xlaunch"
            printf 'set(CUDAToolkit_ROOT "%s")\n' "$wg_xcuda"
        } >>"$wg_xtc.tmp"
        wg_xroots="$wg_xroots;$wg_xcuda/targets/$wg_xmachine-linux"
    fi
    {
        printf 'set(CMAKE_FIND_ROOT_PATH "%s")\n' "$wg_xroots"
        # programs from this machine; libraries from the target; headers and CMake packages
        # (pybind11's, nanobind's: in the build venv) from either
        printf 'set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)\nset(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)\n'
        printf 'set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)\nset(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)\n'
    } >>"$wg_xtc.tmp"
    mv -f "$wg_xtc.tmp" "$wg_xtc"
    wg_say 'cross: the CMake toolchain file %s:' "$wg_xtc"
    sed 's/^/  | /' "$wg_xtc"
    # (CMAKE_ARGS: the config's own env entry, set before, is kept after the toolchain file)
    wg_xenv="$wg_xenv CMAKE_TOOLCHAIN_FILE=\"\$wg_xtc\" CMAKE_ARGS=\"-DCMAKE_TOOLCHAIN_FILE=\$wg_xtc\${CMAKE_ARGS:+ \$CMAKE_ARGS}\""
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
