#!/bin/sh
# wheelgen test step: install one cell's wheel into a fresh venv and test it.
#
#   sh templates/test-host.sh BUILDDIR CELL
#
# Reads   BUILDDIR/cells/CELL/test      (POSIX sh, the test parameters, written by the generator)
#         BUILDDIR/wheels/CELL/manifest (written by build-host.sh)
# Writes  BUILDDIR/tests/CELL.ok        (stamp: the tested wheel's sha256; the same record as
#                                       BUILDDIR/wheels/CELL/tested, which the index reads)
#         BUILDDIR/logs/CELL.test.log   (everything the step printed)
# Scratch BUILDDIR/build/CELL-test/     (removed again on success)
#
# Environment, for a test on another machine than the build's (a GPU machine; copy
# BUILDDIR/cells/CELL/test, BUILDDIR/wheels/CELL/ and templates/ there):
#   WHEELGEN_TEST_PYTHON  the Python to test with instead of the spec's (same X.Y)
#   WHEELGEN_TEST_TORCH   'site': use the torch that Python has (same minor and CUDA major
#                         as the build's) instead of installing the manifest's
#   WHEELGEN_TEST_VIEW    'host': test on this host as it is (its CUDA toolkit and loader path
#                         seen), where no mount namespace can be made; recorded as view=host
#
# The wheel's code runs where a user stands (wg_view): a fresh venv holding the wheel, what its
# METADATA requires (but torch: the manifest's, installed first) and test_deps; the NVIDIA driver
# where there is a GPU; no CUDA toolkit, no build tree and nothing of the build host's loader
# path. On the host backend a mount namespace (unshare: as root, else a user namespace, else
# sudo -n) hides the toolkits' directories (/usr/local/cuda*, /opt/cuda*, CUDA_HOME,
# BUILDDIR/toolkits, the cell's build scratch) behind empty ones and the toolkit's libraries
# in the loader's other directories (those /etc/ld.so.cache lists, /usr/lib...) behind a
# stub the loader skips; LD_LIBRARY_PATH and LD_PRELOAD are unset. In a container the test
# image (a runtime image: container.cpu_image) is the view; under wine, Windows' DLL search.
#
# Prints nothing on success.  On failure prints a one-line summary and the
# tail of the log to stderr and exits non-zero.
set -eu

# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
# shellcheck source=templates/step-lib.sh
. "$(dirname "$0")/step-lib.sh"
wg_begin test test "$@"
wg_templates=$(cd "$(dirname "$0")" && pwd)
spec=$B/cells/$CELL/test
manifest=$B/wheels/$CELL/manifest
scratch=$B/build/$CELL-test
stamp=$B/tests/$CELL.ok

# A stale stamp must not outlive a failed run.
rm -f "$stamp" "$B/wheels/$CELL/tested"

# --- read the spec and the manifest ------------------------------------------

# test_skip_modules: compiled modules not to load, each with its reason
wg_skips=''
wg_skip_module() {
    wg_skips="$wg_skips $1"
    wg_say 'compiled module %s is not loaded (test_skip_modules): %s' "$1" "$2"
}

# test_deps: what the test needs besides torch and the wheel (which goes in with --no-deps:
# its own requirements can be heavy, or pull another torch), one requirement per line
wg_test_deps=''
wg_test_dep() {
    wg_test_deps="$wg_test_deps$1
"
}

wg_readspec "$spec"
[ -n "$WG_PYTHON_EXE" ] || wg_die "spec: WG_PYTHON_EXE is empty"

# A test on another machine than the build's (a GPU machine that builds nothing) names its
# own Python, which must be the cell's version, and may use the torch that Python has.
WHEELGEN_TEST_PYTHON=${WHEELGEN_TEST_PYTHON:-}
WHEELGEN_TEST_TORCH=${WHEELGEN_TEST_TORCH:-}
case $WHEELGEN_TEST_TORCH in
    '' | site) ;;
    *) wg_die "WHEELGEN_TEST_TORCH='$WHEELGEN_TEST_TORCH': the only value is 'site' (use the torch of the test's Python)" ;;
esac
if [ -n "$WHEELGEN_TEST_PYTHON" ]; then
    wg_p=$(command -v "$WHEELGEN_TEST_PYTHON") ||
        wg_die "WHEELGEN_TEST_PYTHON='$WHEELGEN_TEST_PYTHON' was not found"
    case $wg_p in /*) ;; *) wg_p=$PWD/$wg_p ;; esac # the test runs in another directory
    # shellcheck disable=SC2016
    wg_v=$("$wg_p" -c 'import sys, sysconfig
print("%d.%d%s" % (sys.version_info[0], sys.version_info[1], "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""))') ||
        wg_die "WHEELGEN_TEST_PYTHON='$WHEELGEN_TEST_PYTHON' does not run"
    [ "$wg_v" = "$WG_PYTHON" ] ||
        wg_die "WHEELGEN_TEST_PYTHON='$WHEELGEN_TEST_PYTHON' is Python $wg_v; cell $CELL needs Python $WG_PYTHON"
    wg_say 'testing with %s (WHEELGEN_TEST_PYTHON), not %s' "$wg_p" "$WG_PYTHON_EXE"
    WG_PYTHON_EXE=$wg_p
fi
if [ -n "$WG_UV" ] && [ ! -x "$WG_UV" ]; then
    # the spec names the build host's uv: elsewhere the venv module and pip, which need
    # nothing from the network to install a wheel file (uv venv --seed fetches pip)
    wg_say 'note: %s not found here; using the venv module and pip' "$WG_UV"
    WG_UV=''
fi
[ -x "$WG_PYTHON_EXE" ] || wg_die "python not found or not executable: $WG_PYTHON_EXE"

[ -f "$manifest" ] || wg_die "manifest not found: $manifest (did the build step run?)"
wg_say 'manifest %s' "$manifest"
sed 's/^/  | /' "$manifest"
# the manifest's fields, through its reader (gen/manifest.c's static step tool: it runs in a
# test container too)
[ -x "$B/wheelgen-step" ] || wg_die "$B/wheelgen-step not found: re-run ./configure (it builds wheelgen-step beside wheelgen)"
m_field() { "$B/wheelgen-step" manifest-get "$manifest" "$1" || wg_die "cannot read $manifest (see above)"; }
m_filename=$(m_field filename)
m_sha256=$(m_field sha256)
m_torch_version=$(m_field torch_version)
m_test_torch=$(m_field test_torch) # torch_abi: stable: the torch this cell tests with ("2.15.*"), not the build's
m_torch_cuda=$(m_field torch_cuda)
case $m_filename in
    '' | */* | .*) wg_die "manifest: bad or missing filename: '$m_filename'" ;;
    *.whl) ;;
    *) wg_die "manifest: filename is not a .whl: '$m_filename'" ;;
esac
[ -n "$m_sha256" ] || wg_die "manifest: missing sha256"
wheel=$B/wheels/$CELL/$m_filename
[ -f "$wheel" ] || wg_die "wheel named in the manifest not found: $wheel"

# shellcheck disable=SC2016
wg_hash=$("$WG_PYTHON_EXE" -S -c '
import hashlib, sys
h = hashlib.sha256()
with open(sys.argv[1], "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        h.update(block)
print(h.hexdigest())
' "$wheel")
[ "$wg_hash" = "$m_sha256" ] ||
    wg_die "sha256 of $wheel is $wg_hash, the manifest says $m_sha256"

# wg_site_torch: check the torch that $WG_PYTHON_EXE already has: the cell's torch minor and
# CUDA major (a different patch release or CUDA minor is a note); sets wg_tsite, the directory
# it is installed in (with its CUDA libraries beside it), which a .pth then puts on the test
# venv's path, after the wheel is installed (so that no installer mistakes a copy of the
# package in that directory for the wheel's)
wg_site_torch() {
    # shellcheck disable=SC2016
    wg_t=$("$WG_PYTHON_EXE" -W ignore -c '
import importlib.metadata as m, os, torch
print(m.version("torch"), torch.version.cuda or "-", os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__))))
' 3>&-) || wg_die "WHEELGEN_TEST_TORCH=site: $WG_PYTHON_EXE has no torch that imports (see above)"
    wg_tv=${wg_t%% *}
    wg_t=${wg_t#* }
    wg_tc=${wg_t%% *}
    wg_tsite=${wg_t#* }
    wg_say 'torch %s (CUDA %s) from %s (WHEELGEN_TEST_TORCH=site); the wheel was built against torch %s (CUDA %s)' \
        "$wg_tv" "$wg_tc" "$wg_tsite" "$m_torch_version" "${m_torch_cuda:--}"
    wg_pub=${wg_tv%%+*}
    case $wg_pub in
        "$WG_TORCH" | "$WG_TORCH".*) ;;
        *) wg_die "WHEELGEN_TEST_TORCH=site: $WG_PYTHON_EXE has torch $wg_tv, cell $CELL was built against torch $m_torch_version: an extension only loads into the torch minor it was built for" ;;
    esac
    if [ -n "$m_torch_cuda" ] && [ "${wg_tc%%.*}" != "${m_torch_cuda%%.*}" ]; then
        wg_die "WHEELGEN_TEST_TORCH=site: $WG_PYTHON_EXE has torch $wg_tv built with CUDA $wg_tc, cell $CELL was built against torch with CUDA $m_torch_cuda"
    fi
    if [ "$wg_pub" != "${m_torch_version%%+*}" ] || [ "$wg_tc" != "$m_torch_cuda" ]; then
        wg_say 'note: not the exact torch of the build, but the same minor and CUDA major version'
    fi
}

# --- environment -------------------------------------------------------------

unset PYTHONHOME PYTHONPATH
PIP_CACHE_DIR=${PIP_CACHE_DIR:-$B/cache/pip}
PIP_DISABLE_PIP_VERSION_CHECK=1
PIP_NO_INPUT=1
PYTHONDONTWRITEBYTECODE=1
export PIP_CACHE_DIR PIP_DISABLE_PIP_VERSION_CHECK PIP_NO_INPUT
export PYTHONDONTWRITEBYTECODE

rm -rf "$scratch"
# run/ stays empty: imports run from there, so only the installed package
# can be found, never a source tree that happens to be the current directory.
mkdir -p "$scratch/run" "$PIP_CACHE_DIR"
cd "$scratch/run"

# what the wheel's METADATA requires, as a user's installer reads it (but torch, installed first
# as the manifest says, and requirements of extras): installed with test_deps, the wheel itself
# then with --no-deps
# shellcheck disable=SC2016
"$WG_PYTHON_EXE" -S -c '
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
meta = [n for n in z.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
for line in z.read(meta[0]).decode("utf-8").splitlines() if meta else ():
    if not line.strip():
        break
    name, sep, req = line.partition(":")
    if not sep or name.strip().lower() != "requires-dist":
        continue
    req = req.strip()
    dist = re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]*", req).group(0)).lower()
    if dist == "torch" or re.search(r"\bextra\b", req.partition(";")[2]):
        continue
    print(req)
' "$wheel" >"$scratch/requires.txt" 3>&- || wg_die "cannot read the requirements of $m_filename"
if [ -s "$scratch/requires.txt" ]; then
    wg_say 'the wheel requires (METADATA): %s' "$(tr '\n' ' ' <"$scratch/requires.txt" | sed 's/ $//')"
fi

wg_tsite='' # the torch environment of WHEELGEN_TEST_TORCH=site
if [ -n "$WG_SYSROOT" ]; then
    # a cell of another platform than this host's: its wheel, torch and test_deps installed for
    # the target into $scratch/site, imported by the target's Python under qemu-user
    # (win_amd64: a venv of the Windows CPython under wine; wg_cross_load: its platform's helper)
    wg_cross_load
    wg_cross_begin
    wg_cross_test_env
    set --
    if [ -n "$WG_TORCH" ]; then
        [ -n "$m_torch_version" ] || wg_die "manifest: no torch_version for a torch cell (rebuild: ninja wheel/$CELL)"
        set -- "torch==${m_test_torch:-$m_torch_version}"
        wg_xindex=${WG_TORCH_INDEX:-}
    fi
    if [ -n "$wg_test_deps" ]; then
        printf '%s' "$wg_test_deps" >"$scratch/test-deps.txt"
        set -- "$@" -r "$scratch/test-deps.txt"
    fi
    [ ! -s "$scratch/requires.txt" ] || set -- "$@" -r "$scratch/requires.txt"
    [ "$#" -eq 0 ] || wg_cross_target "$wg_xsite" "$@" || wg_die "cannot install the test's requirements for $wg_xmachine: $*"
    wg_xindex=''
    wg_cross_target "$wg_xsite" --no-deps "$wheel" || wg_die "cannot install $m_filename for $wg_xmachine"
else
wg_venv "$scratch/venv"
if [ -n "$WG_TORCH" ]; then
    [ -n "$m_torch_version" ] || wg_die "manifest: no torch_version for a torch cell (rebuild: ninja wheel/$CELL)"
    if [ "$WHEELGEN_TEST_TORCH" = site ]; then
        wg_site_torch
    else
        # the very torch the wheel was built against, from the same index
        wg_install_torch "torch==${m_test_torch:-$m_torch_version}"
    fi
fi
if [ -n "$wg_test_deps" ] || [ -s "$scratch/requires.txt" ]; then
    printf '%s' "$wg_test_deps" >"$scratch/test-deps.txt"
    # with the torch installed above held where it is
    : >"$scratch/test-constraints.txt"
    [ -z "$WG_TORCH" ] || [ -z "$m_torch_version" ] || [ "$WHEELGEN_TEST_TORCH" = site ] ||
        printf 'torch==%s\n' "${m_test_torch:-$m_torch_version}" >"$scratch/test-constraints.txt"
    wg_install -r "$scratch/test-deps.txt" -r "$scratch/requires.txt" -c "$scratch/test-constraints.txt" ||
        wg_die "cannot install what the wheel requires and test_deps: $(cat "$scratch/requires.txt" "$scratch/test-deps.txt" | tr '\n' ' ')"
fi
wg_install --no-deps "$wheel"
[ -z "$wg_tsite" ] || wg_pth wheelgen-site-torch "$wg_tsite"
wg_list
fi

# --- the user's view -----------------------------------------------------------

# the CUDA toolkit's libraries by their file names (not the driver's libcuda and libnvidia-*):
# templates/cuda-libs.txt, the table that also says what provides each
wg_cudalib_re=$(awk '!/^#/ && NF { n = $1; sub(/[*]$/, "[A-Za-z_]*", n); r = r (r == "" ? "" : "|") n }
    END { print "^(" r ")[.]so([.].*)?$" }' "$wg_templates/cuda-libs.txt")

# wg_view_setup: decide how the wheel's code runs (wg_view: clean, image, wine or host) and,
# for a clean view on this host, write $scratch/view: the directories to hide (dirs), the
# libraries to mask (files) and the stub that masks them (an ELF of the other class, which the
# loader passes over as it does a 32-bit library), which templates/test-view.sh sets up in a
# new mount namespace; wg_view_how is the command that makes the namespace
wg_view_setup() {
    unset LD_LIBRARY_PATH LD_PRELOAD CUDA_HOME CUDA_PATH CUDA_ROOT CUDNN_HOME
    export PATH
    case ${WHEELGEN_TEST_VIEW:-} in
        '') ;;
        host)
            wg_view=host
            wg_warn 'WHEELGEN_TEST_VIEW=host: the test sees this host as it is (its CUDA toolkit, its loader path), not what a user has'
            return 0
            ;;
        *) wg_die "WHEELGEN_TEST_VIEW='$WHEELGEN_TEST_VIEW': the only value is 'host' (test on this host as it is)" ;;
    esac
    if [ -n "${WG_HOST_BUILDDIR:-}" ]; then
        # in a container: the test image has no toolkit (container-run.sh hides the build's)
        wg_view=image
        wg_say 'the view: the test image %s, as a user has it' "${WG_TEST_IMAGE:-${WG_IMAGE:-?}}"
        return 0
    fi
    if [ "${WG_PLATFORM:-}" = win_amd64 ]; then
        # (Windows' DLL search under wine reads neither ld.so.cache nor /usr/local/cuda)
        wg_view=wine
        return 0
    fi
    wg_view=clean
    wg_v=$scratch/view
    mkdir -p "$wg_v"
    printf '\177ELF\001\001\001\000\000\000\000\000\000\000\000\000' >"$wg_v/stub"
    # the directories of toolkits (and those configure found: host.txt's cuda lines) and of this
    # build; a directory inside another hidden one goes with it: listed once
    {
        for wg_d in /usr/local/cuda /usr/local/cuda-* /opt/cuda /opt/cuda-* /opt/nvidia/cuda* \
            "${wg_cuda_home:-}" "$B/toolkits" "$B/build/$CELL"; do
            [ -n "$wg_d" ] && [ -d "$wg_d" ] && printf '%s\n' "$wg_d"
        done
        sed -n 's/^cuda [^ ]* //p' "$B/host.txt" 2>/dev/null | while IFS= read -r wg_d; do
            [ -d "$wg_d" ] && printf '%s\n' "$wg_d"
        done
    } | LC_ALL=C sort -u | awk '{ for (i = 1; i <= n; i++) if (index($0, d[i] "/") == 1) next; d[++n] = $0; print }' >"$wg_v/dirs"
    # the toolkit's libraries where the loader looks besides: what its cache lists, and the
    # default directories
    wg_ldc=$(command -v ldconfig 2>/dev/null || echo /sbin/ldconfig)
    {
        "$wg_ldc" -p 2>/dev/null | sed -n 's/^[[:space:]]*\([^ ]*\) .* => \(\/.*\)$/\1 \2/p'
        for wg_d in /lib /usr/lib /lib64 /usr/lib64 /lib/*-linux-gnu /usr/lib/*-linux-gnu /usr/local/lib; do
            [ -d "$wg_d" ] || continue
            for wg_f in "$wg_d"/lib*.so*; do
                [ -e "$wg_f" ] && printf '%s %s\n' "${wg_f##*/}" "$wg_f"
            done
        done
    } | awk -v re="$wg_cudalib_re" '$1 ~ re { print $2 }' | LC_ALL=C sort -u >"$wg_v/files.all"
    # (those inside a hidden directory go with it; a mask on a link masks what it names, which
    # must still be there: the masks come first)
    awk 'NR == FNR { d[++n] = $0; next } { for (i = 1; i <= n; i++) if (index($0, d[i] "/") == 1) next; print }' \
        "$wg_v/dirs" "$wg_v/files.all" >"$wg_v/files"
    # how: as root a mount namespace; else (or where root may not: a container without
    # CAP_SYS_ADMIN) a user namespace of one's own; else sudo (without a password), dropping back
    # to this user inside. Each is tried with the view itself: the first that sets it up is taken.
    wg_view_how=''
    : >"$wg_v/tries"
    if [ "$(id -u)" = 0 ]; then
        wg_view_try 'unshare --mount --propagation private sh'
    fi
    [ -n "$wg_view_how" ] || wg_view_try 'unshare --user --map-root-user --mount --propagation private sh'
    if [ -z "$wg_view_how" ] && [ "$(id -u)" != 0 ] && command -v setpriv >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        export -p >"$wg_v/env"
        wg_view_try "sudo -n WG_VIEW_UID=$(id -u) WG_VIEW_GID=$(id -g) unshare --mount --propagation private sh"
    fi
    if [ -z "$wg_view_how" ]; then
        sed 's/^/  | /' "$wg_v/tries"
        wg_die "the test runs the wheel where a user stands, without this host's CUDA toolkit, in a mount namespace; $(id -un) may make none (see above: not root, no user namespace of its own: sysctl kernel.unprivileged_userns_clone=1 or kernel.apparmor_restrict_unprivileged_userns=0, no sudo without a password). Allow one of them, or test on this host as it is: WHEELGEN_TEST_VIEW=host (docs/manual.md, \"The test's view\")"
    fi
    wg_say 'the view: a mount namespace (%s) hides %s director%s and masks %s librar%s of the CUDA toolkit; LD_LIBRARY_PATH unset' \
        "${wg_view_how%% --*}" "$(wc -l <"$wg_v/dirs" | tr -d ' ')" "$([ "$(wc -l <"$wg_v/dirs")" -eq 1 ] && echo y || echo ies)" \
        "$(wc -l <"$wg_v/files" | tr -d ' ')" "$([ "$(wc -l <"$wg_v/files")" -eq 1 ] && echo y || echo ies)"
    sed 's/^/  | hidden: /' "$wg_v/dirs"
    sed 's/^/  | masked: /' "$wg_v/files"
}

# wg_view_try HOW: set wg_view_how to HOW (a command that makes a mount namespace and runs its
# arguments there) if the view sets up with it; what it said goes to $wg_v/tries
wg_view_try() {
    # shellcheck disable=SC2086 # (HOW: words)
    if $1 "$wg_templates/test-view.sh" "$wg_v" true >>"$wg_v/tries" 2>&1 3>&-; then
        wg_view_how=$1
    else
        printf '(%s: the view could not be set up)\n' "${1%% --*}" >>"$wg_v/tries"
    fi
}

# wg_view_run CMD...: run CMD where the wheel's code runs (wg_view_setup)
wg_view_run() {
    if [ "$wg_view" = clean ]; then
        # shellcheck disable=SC2086 # (wg_view_how: words)
        $wg_view_how "$wg_templates/test-view.sh" "$scratch/view" "$@" 3>&-
    else
        "$@" 3>&-
    fi
}
wg_cuda_home=${CUDA_HOME:-${CUDA_PATH:-}}
wg_view_setup

# --- tests -------------------------------------------------------------------

# Import each module from the empty run/ dir, and make sure it did not come
# from the source tree (a path source on sys.path would hide a broken wheel).
wg_import_check='
import importlib, os, sys
name, src, site = sys.argv[1], sys.argv[2], sys.argv[3]
mod = importlib.import_module(name)
where = getattr(mod, "__file__", None)
print("imported %s from %s" % (name, where))
for d, what in ((src, "the source tree"), (site, "the torch environment (WHEELGEN_TEST_TORCH=site)")):
    if where and d:
        w, d = os.path.realpath(where), os.path.realpath(d)
        if w == d or w.startswith(d.rstrip(os.sep) + os.sep):
            sys.exit("%s was imported from %s %s, not from the wheel" % (name, what, d))
# the compiled modules this interpreter loaded: the check below need not start another
# interpreter for them (under qemu-user each start that imports torch costs half a minute)
with open(sys.argv[4], "a") as f:
    for n, m in sorted(sys.modules.items()):
        if (getattr(m, "__file__", None) or "").endswith((".so", ".pyd")):
            f.write(n + "\n")
'
wg_srcdir=''
[ "$WG_SOURCE_KIND" != path ] || wg_srcdir=$WG_SOURCE
set -f # split WG_TEST_IMPORT on blanks, no globbing
for wg_mod in $WG_TEST_IMPORT; do
    printf '+ (cd %s && python -c "import %s")\n' "$PWD" "$wg_mod"
    wg_view_run "$py" -c "$wg_import_check" "$wg_mod" "$wg_srcdir" "$wg_tsite" "$scratch/imported"
done
set +f

# Then every compiled module the wheel holds, each in its own interpreter: packages often
# import their extensions inside try/except, and an "undefined symbol" would pass unseen (a
# module the import test's interpreter already holds in sys.modules did load: not again). A
# module that needs the NVIDIA driver (libcuda.so.1) on a host without one is "needs-gpu":
# printed and recorded, never passed, never a failure here.
wg_modules_check='
import importlib, os, subprocess, sys, zipfile
wheel = sys.argv[1]
mods = []
for n in zipfile.ZipFile(wheel).namelist():
    if not (n.endswith(".so") or n.endswith(".pyd")) or ".dist-info/" in n or ".data/" in n:
        continue
    parts = n.split("/")
    if any(p.endswith(".libs") for p in parts[:-1]):
        continue  # libraries auditwheel vendored, not modules
    parts[-1] = parts[-1].split(".")[0]
    if all(p.isidentifier() for p in parts):
        mods.append(".".join(parts))
failed, gpu = [], []
skips = set(sys.argv[4].split())
try:
    with open(sys.argv[5]) as f:
        imported = set(f.read().split())
except OSError:
    imported = set()
# A .so without PyInit_<name> is no Python module but a library the package loads by path
# (torch.ops.load_library: xformers 0.0.35, torch stable-ABI operator libraries; or ctypes):
# it is loaded that way, with every symbol resolved at once (ctypes dlopens with RTLD_NOW)
load = """
import importlib, importlib.util, sys
if sys.argv[2]:
    import torch
try:
    importlib.import_module(sys.argv[1])
except ImportError as e:
    if "module export function" not in str(e):
        raise
    origin = importlib.util.find_spec(sys.argv[1]).origin
    if sys.argv[2]:
        torch.ops.load_library(origin)
    else:
        import ctypes
        ctypes.CDLL(origin)
    print("loaded as a library")
"""
for m in sorted(mods):
    if m in skips:
        continue  # test_skip_modules (its reason is printed above)
    if m in imported:
        print("imported compiled module %s" % m)
        continue
    # a torch extension is loaded after torch, as its package does (it links libc10 and libtorch)
    # (WG_PYCMD: what starts the Python of the test: qemu-user for another platform)
    r = subprocess.run([os.environ.get("WG_PYCMD") or sys.executable, "-c", load, m, sys.argv[3]],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    last = (r.stdout.strip().splitlines() or ["?"])[-1]
    if r.returncode == 0 and last == "loaded as a library":
        print("loaded compiled library %s (no PyInit function: a library its package loads by path; every symbol resolved)" % m)
    elif r.returncode == 0:
        print("imported compiled module %s" % m)
    elif "libcuda.so" in r.stdout:
        gpu.append(m)
        print("compiled module %s needs the NVIDIA driver (needs-gpu): %s" % (m, last))
    else:
        failed.append(m)
        print(r.stdout.rstrip())
        print("compiled module %s does not load: %s" % (m, last))
with open(sys.argv[2], "w") as f:
    f.write("modules=%d\nneeds_gpu=%s\n" % (len(mods), ",".join(gpu)))
sys.exit("compiled modules that do not load: " + ", ".join(failed) if failed else 0)
'
printf '+ python -c <import every compiled module of %s>\n' "$m_filename"
: >>"$scratch/imported"
wg_view_run "$py" -c "$wg_modules_check" "$wheel" "$scratch/modules" "$WG_TORCH" "$wg_skips" "$scratch/imported"
# (a Windows Python writes its lines with CRLF)
tr -d '\r' <"$scratch/modules" >"$scratch/modules.lf" && mv -f "$scratch/modules.lf" "$scratch/modules"
wg_needs_gpu=$(sed -n 's/^needs_gpu=//p' "$scratch/modules")
[ -z "$wg_needs_gpu" ] || wg_say 'test %s: needs-gpu (not loaded here: no NVIDIA driver): %s' "$CELL" "$wg_needs_gpu" >&3

# test_command: for a CUDA cell it is the GPU test, run only where a GPU is seen and
# otherwise reported as skipped (never as passed); for other cells it always runs.
gpu=none
if [ -n "$WG_TEST_COMMAND" ]; then
    if [ -n "$WG_CUDA" ] && ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
        gpu=skipped
        wg_say 'GPU test skipped: no GPU on this host (nvidia-smi -L lists none)'
        wg_say 'test %s: GPU test skipped (no GPU here)' "$CELL" >&3
    else
        WG_WHEEL=$wheel
        export WG_WHEEL WG_CELL WG_PACKAGE WG_VERSION WG_PYTHON WG_CUDA WG_TORCH
        printf '+ sh -c %s\n' "$WG_TEST_COMMAND"
        wg_view_run sh -c "$WG_TEST_COMMAND"
        if [ -n "$WG_CUDA" ]; then gpu=passed; else gpu=cpu; fi
    fi
fi

# --- stamp -------------------------------------------------------------------

mkdir -p "$B/tests"
# the tested wheel's sha256, and what became of the GPU test (passed, skipped, cpu, none)
{
    printf '%s\ngpu=%s\n' "$m_sha256" "$gpu"
    cat "$scratch/modules"
    [ -z "$WG_SYSROOT" ] || printf 'emulated=%s\n' "${WG_QEMU##*/}"
    printf 'view=%s\n' "$wg_view"
} >"$stamp.tmp"
# the same record beside the wheel: a CI artifact of the wheel's directory carries it, and the
# index takes only tested wheels
cp "$stamp.tmp" "$B/wheels/$CELL/tested.tmp"
mv -f "$B/wheels/$CELL/tested.tmp" "$B/wheels/$CELL/tested"
mv -f "$stamp.tmp" "$stamp"
cd "$B"
rm -rf "$scratch"
wg_say 'tested %s (%s)' "$m_filename" "$(date '+%Y-%m-%d %H:%M:%S')"
