# shellcheck shell=sh disable=SC2016,SC2034,SC2154 # (sourced: scratch, py, CELL and the WG_* come from the step)
# windows.sh: a win_amd64 cell, cross-built on Linux with mingw-w64 against python.org's CPython
# for Windows and tested under wine; sourced by build-host.sh and test-host.sh in place of
# cross.sh (the same functions), when the spec's platform is win_amd64. WG_SYSROOT is the
# Windows CPython (python.exe, include/, libs/pythonXY.lib: templates/winpython.sh set it up),
# WG_QEMU is wine.
#
# The build runs in a venv of this machine's CPython of the cell's version, which sees a
# _sysconfigdata of its own (written here: the target's headers, extension suffix
# .cpXY-win_amd64.pyd, the mingw-w64 compilers) through _PYTHON_SYSCONFIGDATA_NAME, and
# _PYTHON_HOST_PLATFORM=win-amd64 (the wheel's tag). The compilers link the UCRT, the C runtime
# of python.org's CPython (mingw-w64 links the older msvcrt.dll unless its specs say otherwise),
# and libgcc statically; the link adds libs/pythonXY.lib. delvewheel then repairs the wheel:
# the DLLs its modules need, other than Windows' and Python's own, go into it.
#
# The test makes a venv of the Windows CPython under wine (--without-pip
# --system-site-packages: wine 8.0 cannot run ensurepip's copy), installs the wheel and
# test_deps into its site-packages for win_amd64 (uv or pip --target, on Linux: pip under wine
# takes 25 s), and runs the checks with that venv's python.exe. Wine gives Python no standard
# streams when they are files, so every run goes through a pipe.

# The build requirements of pyproject.toml and what the build backend asks for, and a PyPI
# source's sdist, come as for aarch64: cross.sh's wg_cross_buildreqs and build-host.sh's wg_sdist, its
# markers those of Windows (the functions below replace cross.sh's others)
# shellcheck source=templates/cross.sh
. "$wg_templates/cross.sh"

# wg_cross_begin: check the tools and the Windows CPython; sets wg_xprefix, wg_xmachine, wg_xnd
# (the Python's version without its dot), wg_xtag (uv's platform), and wine's environment
wg_cross_begin() {
    wg_xmachine=$WG_PLATFORM
    wg_xprefix=$WG_CROSS_PREFIX
    wg_xnd=$(printf '%s' "$WG_PYTHON" | tr -d .)
    wg_xtag=x86_64-pc-windows-msvc
    wg_xmarkers="AMD64 Windows win32 nt"
    [ -f "$WG_SYSROOT/python.exe" ] ||
        wg_die "the Windows CPython $WG_PYTHON ($WG_SYSROOT/python.exe) is missing (./configure fetches it: templates/winpython.sh)"
    [ -f "$WG_SYSROOT/libs/python$wg_xnd.lib" ] || wg_die "$WG_SYSROOT has no libs/python$wg_xnd.lib: not CPython $WG_PYTHON"
    command -v "${wg_xprefix}gcc" >/dev/null 2>&1 ||
        wg_die "${wg_xprefix}gcc not found: apt-get install gcc-mingw-w64-x86-64 (./configure --install-deps does)"
    command -v "$WG_QEMU" >/dev/null 2>&1 || [ -x "$WG_QEMU" ] ||
        wg_die "$WG_QEMU not found: apt-get install wine64 wine (./configure --install-deps does)"
    WINEPREFIX=$(cat "$WG_SYSROOT/.wineprefix" 2>/dev/null || true)
    [ -f "${WINEPREFIX:-/nonexistent}/system.reg" ] ||
        wg_die "no wine prefix for $WG_SYSROOT (./configure makes it: templates/winpython.sh)"
    # (no debug channels; no wine-mono or wine-gecko installer dialogs)
    WINEDEBUG=-all
    WINEDLLOVERRIDES='mscoree,mshtml='
    export WINEPREFIX WINEDEBUG WINEDLLOVERRIDES
}

# wg_cross_say STEP: the toolchain in the log
wg_cross_say() {
    wg_say '%s for win_amd64 on %s: %s (%s, UCRT), the Windows CPython %s (Python %s), %s' \
        "$1" "$(uname -m)" "${wg_xprefix}gcc" "$("${wg_xprefix}gcc" -dumpfullversion 2>/dev/null || echo '?')" \
        "$WG_SYSROOT" "$WG_PYTHON" "$("$WG_QEMU" --version 2>/dev/null | head -n 1)"
}

# wg_cross_target DIR REQUIREMENT...: install win_amd64 wheels into DIR (uv, else pip --target)
wg_cross_target() {
    wg_xdir=$1
    shift
    if [ -n "${WG_UV:-}" ]; then
        wg_uv_cached pip install --python "$WG_PYTHON_EXE" --target "$wg_xdir" --python-platform "$wg_xtag" \
            --python-version "$WG_PYTHON" "$@"
    else
        wg_run "$WG_PYTHON_EXE" -m pip install --target "$wg_xdir" --platform win_amd64 --python-version "$WG_PYTHON" \
            --implementation cp --only-binary :all: "$@"
    fi
}

# wg_cross_prepare: after the build venv has its build dependencies: a _sysconfigdata of the
# target in the venv, the link command; sets wg_xenv, the exports the build step evals
wg_cross_prepare() {
    [ -z "$WG_CUDA$WG_TORCH" ] || wg_die "$CELL: CUDA and torch extensions for Windows need MSVC (a Windows runner)"
    wg_sdist
    wg_cross_buildreqs
    # the UCRT instead of msvcrt.dll: the C runtime python.org's CPython uses
    "${wg_xprefix}gcc" -dumpspecs | sed 's/-lmsvcrt/-lucrt/g' >"$scratch/ucrt.specs"
    mkdir -p "$scratch/wbin"
    for wg_w in ldshared:"$wg_xcc" ldcxxshared:"$wg_xcxx"; do
        printf '#!/bin/sh\n# the link of a Python extension for win_amd64 (templates/windows.sh)\nexec %s -specs=%s -shared -static-libgcc%s "$@" -L%s -lpython%s\n' \
            "$(wg_quote "${wg_w#*:}")" "$(wg_quote "$scratch/ucrt.specs")" \
            "$([ "${wg_w%%:*}" = ldcxxshared ] && echo ' -static-libstdc++')" "$(wg_quote "$WG_SYSROOT/libs")" "$wg_xnd" \
            >"$scratch/wbin/${wg_w%%:*}"
        chmod +x "$scratch/wbin/${wg_w%%:*}"
    done
    wg_xsp=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    "$py" - "$wg_xsp/_sysconfigdata_wg_win_amd64.py" "$WG_SYSROOT" "$wg_xnd" "$wg_xcc -specs=$scratch/ucrt.specs" \
        "$wg_xcxx -specs=$scratch/ucrt.specs" "$scratch/wbin" "${wg_xprefix}ar" "${wg_xprefix%-}" <<'PY' || wg_die "cannot write the win_amd64 sysconfig"
import importlib, pprint, sys, sysconfig
out, root, nd, cc, cxx, wbin, ar, host = sys.argv[1:]
try:
    v = dict(importlib.import_module(sysconfig._get_sysconfigdata_name()).build_time_vars)
except Exception:
    v = dict(sysconfig.get_config_vars())
v.update(CC=cc, CXX=cxx, LDSHARED=wbin + "/ldshared", LDCXXSHARED=wbin + "/ldcxxshared", AR=ar,
         CFLAGS="-O2 -Wall", CCSHARED="", LDFLAGS="", CPPFLAGS="", BLDSHARED=wbin + "/ldshared",
         SHLIB_SUFFIX=".pyd", EXT_SUFFIX=".cp%s-win_amd64.pyd" % nd, SOABI="cp%s-win_amd64" % nd,
         INCLUDEPY=root + "/include", CONFINCLUDEPY=root + "/include", LIBDIR=root + "/libs",
         Py_ENABLE_SHARED=0, MULTIARCH="", HOST_GNU_TYPE=host, MACHDEP="win32")
with open(out + ".tmp", "w") as f:
    f.write("# wheelgen: the sysconfig of a win_amd64 cross build (templates/windows.sh)\n")
    f.write("build_time_vars = " + pprint.pformat(v) + "\n")
import os
os.replace(out + ".tmp", out)
PY
    wg_xenv="_PYTHON_HOST_PLATFORM=win-amd64 _PYTHON_SYSCONFIGDATA_NAME=_sysconfigdata_wg_win_amd64"
    wg_xenv="$wg_xenv CC=$(wg_quote "$wg_xcc -specs=$scratch/ucrt.specs") CXX=$(wg_quote "$wg_xcxx -specs=$scratch/ucrt.specs")"
    wg_xenv="$wg_xenv LDSHARED=$(wg_quote "$scratch/wbin/ldshared") LDCXXSHARED=$(wg_quote "$scratch/wbin/ldcxxshared")"
    wg_xenv="$wg_xenv AR=$(wg_quote "${wg_xprefix}ar") CFLAGS= CXXFLAGS= CPPFLAGS= LDFLAGS="
    wg_say 'cross: %s' "$wg_xenv"
}

# wg_win_repair: delvewheel repairs $wheel (out/tools' from configure, else the build venv's);
# wg_rx: repair_exclude, DLLs left out on purpose (--no-dll)
wg_win_repair() {
    wg_say 'repairing %s with delvewheel' "$wheel_name"
    wg_dw=$B/tools/bin/delvewheel
    if [ ! -x "$wg_dw" ]; then
        wg_install delvewheel
        wg_dw=$VIRTUAL_ENV/bin/delvewheel
    fi
    eval "set -- $wg_rx"
    wg_n=$#
    while [ "$wg_n" -gt 0 ]; do
        set -- "$@" --no-dll "$1"
        shift
        wg_n=$((wg_n - 1))
    done
    # where the DLLs it needs are: the Windows CPython's directory, and every directory of the
    # build tree that holds a DLL the package built (libfoo.dll beside its import library)
    wg_xdlls=$(find "$scratch/src" "$scratch/tmp" -name '*.dll' -type f 2>/dev/null | sed 's|/[^/]*$||' | LC_ALL=C sort -u | tr '\n' ':')
    [ -z "$wg_xdlls" ] || wg_say 'delvewheel: the DLLs the build made are in %s' "$(printf '%s' "$wg_xdlls" | tr ':' ' ')"
    wg_run "$wg_dw" repair "$@" --add-path "$wg_xdlls$WG_SYSROOT" -w "$scratch/repaired" "$wheel"
    wg_one "$scratch/repaired" "delvewheel repair"
    wg_say 'repaired: %s' "$wheel_name"
    # every module and DLL of the wheel is a PE32+ x86-64 file (machine 0x8664)
    "$py" - "$wheel" <<'PY' 3>&- || wg_die "$wheel_name holds files that are not x86-64 Windows DLLs (see above): refused"
import struct, sys, zipfile
bad = []
with zipfile.ZipFile(sys.argv[1]) as z:
    for n in z.namelist():
        if not n.lower().endswith((".pyd", ".dll")):
            continue
        b = z.read(n)
        ok = b[:2] == b"MZ" and len(b) > 0x40
        if ok:
            pe = struct.unpack_from("<I", b, 0x3C)[0]
            ok = b[pe:pe + 4] == b"PE\0\0" and struct.unpack_from("<H", b, pe + 4)[0] == 0x8664
        print("%s: %s" % (n, "PE32+ x86-64" if ok else "not an x86-64 Windows DLL"))
        if not ok:
            bad.append(n)
sys.exit("not x86-64 Windows DLLs: " + ", ".join(bad) if bad else 0)
PY
}

# wg_win_python: $scratch/bin/python, the venv's python.exe under wine, with its output through
# a pipe and its exit status kept (wine 8.0 gives Python no standard streams when they are files),
# its CRLF line ends made LF
wg_win_python() {
    mkdir -p "$scratch/bin"
    {
        printf '#!/bin/sh\n# python.exe under wine (templates/windows.sh)\nexec 3>&-\n'
        printf 'r=$(mktemp)\n{ %s %s "$@" </dev/null 2>&1; echo $? >"$r"; } | tr -d "\\r"\n' \
            "$(wg_quote "$WG_QEMU")" "$(wg_quote "$1")"
        printf 's=$(cat "$r")\nrm -f "$r"\nexit "${s:-1}"\n'
    } >"$scratch/bin/python"
    chmod +x "$scratch/bin/python"
    ln -sf python "$scratch/bin/python3"
}

# wg_cross_test_env: a venv of the Windows CPython under wine; $wg_xsite is its site-packages,
# $py a "python" that runs its python.exe
wg_cross_test_env() {
    wg_cross_say 'testing under wine'
    # wine's server and services, started with no pipe of the step's: they outlive this run
    # by a few seconds, and what holds a pipe open keeps its reader waiting
    "$WG_QEMU" "$WG_SYSROOT/python.exe" -c pass </dev/null >/dev/null 2>&1 3>&- || true
    wg_win_python "$WG_SYSROOT/python.exe"
    wg_t0=$(date +%s)
    wg_run "$scratch/bin/python" -m venv --without-pip --system-site-packages "$scratch/venv" ||
        wg_die "cannot make a venv of the Windows CPython $WG_PYTHON under wine"
    [ -f "$scratch/venv/Scripts/python.exe" ] || wg_die "the venv under wine has no Scripts/python.exe"
    wg_say 'venv under wine in %s s' "$(($(date +%s) - wg_t0))"
    wg_xsite=$scratch/venv/Lib/site-packages
    wg_win_python "$scratch/venv/Scripts/python.exe"
    py=$scratch/bin/python
    PATH=$scratch/bin:$PATH
    export PATH
}
